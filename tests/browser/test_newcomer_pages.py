"""Issue 28's page items in a real browser at 1280 and 375 px: the setup report as HTML,
a skipped line that needs the player's confirmation, every time in the reader's zone and
named, and landing on the receipt when the last owed orders close the turn. A screenshot
of each page is kept (var/screenshots/newcomer-*)."""

from __future__ import annotations

import pytest

from gm.play import actions
from gm.play.models import Submission

from .conftest import LAPTOP, PHONE, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [LAPTOP, PHONE]


def _tally(gm_user, players, n: int = 2):
    game = actions.create_game(gm_user, ruleset="tally", title="Newcomer table",
                               options={"max_turns": 3})
    for user in players[:n]:
        actions.join_game(game, user)
    return actions.start_game(game, gm_user)


def _fits(page, width: int) -> None:
    w, inner = overflow(page)
    assert w <= inner, f"horizontal scrolling at {width}px: {w} > {inner}"


@pytest.mark.parametrize("width", WIDTHS)
def test_setup_report_reads_as_html(live_server, open_page, make_game, players, width):
    game = make_game("dungeonquest", 1, title="Setup quest")
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/turns/0/")
    shown = page.inner_text("#setup-report")
    assert shown.strip() and "**" not in shown and "# Report" not in shown
    assert page.locator("#setup-report h3, #setup-report li, #setup-report p").count() > 0
    _fits(page, width)
    screenshot(page, "newcomer-setup-turn0", width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    if page.locator("#setup-report").count():  # before the first report
        page.click("#setup-report summary")
        assert "**" not in page.inner_text("#setup-report")
    screenshot(page, "newcomer-setup-game-page", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_skipped_line_waits_for_confirmation(live_server, open_page, gm_user, players,
                                               tally_engine, width):
    game = _tally(gm_user, players)
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#id_text", "ADD 2\nJUMP")
    page.click("#send-orders")
    page.wait_for_selector("#confirm-send")
    assert "would not be read" in page.inner_text("#order-preview")
    assert "JUMP" in page.inner_text("#not-read")
    assert Submission.objects.filter(turn__game=game).count() == 0
    _fits(page, width)
    screenshot(page, "newcomer-confirm-not-read", width)
    page.click("#confirm-send")
    page.wait_for_selector("#my-orders")
    assert page.inner_text("#my-orders").strip() == "ADD 2"
    assert Submission.objects.filter(turn__game=game).count() == 1


@pytest.mark.parametrize("width", WIDTHS)
def test_times_are_in_the_browsers_zone_and_named(live_server, open_page, gm_user, players,
                                                  tally_engine, width):
    game = _tally(gm_user, players)
    actions.post_message(game, players[1], "Good luck all")
    page = open_page(width, timezone_id="Asia/Tokyo")
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    stamp = page.inner_text("#thread-list time.when")
    assert stamp.endswith("GMT+9 Asia/Tokyo") or stamp.endswith("JST"), stamp
    assert "UTC" not in stamp
    screenshot(page, "newcomer-thread-times", width)
    gm = open_page(width, timezone_id="Europe/Berlin")
    login(gm, live_server.url, "gamemaster")
    gm.goto(f"{live_server.url}/games/{game.pk}/gm/")
    deadline = gm.inner_text("#desk-deadline")
    assert "UTC)" in deadline and ("CET" in deadline or "GMT+1" in deadline), deadline
    screenshot(gm, "newcomer-desk-times", width)
    gm.goto(f"{live_server.url}/games/{game.pk}/gm/turns/1/")
    opened = gm.inner_text("main p.muted >> nth=0")
    assert "UTC" not in opened.split("·")[0] and "opened" in opened, opened
    screenshot(gm, "newcomer-gm-turn-times", width)
    gm.goto(f"{live_server.url}/games/{game.pk}/log/")
    assert "UTC" not in gm.inner_text("#log")
    _fits(gm, width)
    screenshot(gm, "newcomer-log-times", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_last_orders_land_on_the_receipt(live_server, open_page, gm_user, players,
                                             tally_engine, width):
    game = _tally(gm_user, players)
    actions.submit_orders(game, game.seats.get(name="P2"), "ADD 1")
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill("#id_text", "ADD 3")
    page.click("#send-orders")
    page.wait_for_selector("#messages")
    assert page.url.endswith("#messages")
    assert "Every owed order was in" in page.inner_text("#messages")
    visible = page.evaluate("""() => { const r = document.getElementById('messages')
        .getBoundingClientRect(); return r.top > -1 && r.top < window.innerHeight; }""")
    assert visible
    screenshot(page, "newcomer-last-orders-receipt", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_new_game_form_and_desk_export(live_server, open_page, make_game, gm_user, width):
    game = make_game("dungeonquest", 1, title="Export quest")
    page = open_page(width)
    login(page, live_server.url, "gamemaster")
    page.goto(f"{live_server.url}/games/new/dungeonquest/")
    assert page.locator("input[name=role][value=play]").count() == 0
    assert page.locator("input[name=role][value=referee]").count() == 1
    _fits(page, width)
    screenshot(page, "newcomer-new-game-hidden", width)
    page.goto(f"{live_server.url}/games/{game.pk}/gm/")
    with page.expect_download() as info:
        page.click("#desk-export")
    assert info.value.suggested_filename == f"game-{game.pk}-dungeonquest.json"
    screenshot(page, "newcomer-desk-export", width)


NOTIFICATION_STUB = """
window.__notes = [];
window.Notification = function (title, options) { window.__notes.push([title, options.body]); };
window.Notification.permission = "default";
window.Notification.requestPermission = function () {
  window.Notification.permission = "granted"; return Promise.resolve("granted"); };
window.GM_POLL_MS = 400;
"""


@pytest.mark.parametrize("width", WIDTHS)
def test_lobby_deadlines_tab_title_and_notification(live_server, open_page, gm_user, players,
                                                    tally_engine, width):
    first, second = _tally(gm_user, players), _tally(gm_user, players)
    page = open_page(width)
    page.add_init_script(NOTIFICATION_STUB)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/")
    assert page.title() == "(2) Lobby · Tabletop GM"
    assert page.locator("#my-games .countdown").count() == 2
    assert " left" in page.inner_text("#my-games .lobby-deadline >> nth=0")
    _fits(page, width)
    screenshot(page, "newcomer-lobby-deadlines", width)
    page.goto(f"{live_server.url}/games/{first.pk}/")
    assert page.title().startswith("(1) ")
    page.click("#notify-me")  # permission asked on the reader's tap, never on load
    page.wait_for_function("() => Notification.permission === 'granted'")
    for seat, text in (("P1", "ADD 1"), ("P2", "ADD 2")):
        actions.submit_orders(first, first.seats.get(name=seat), text)
    page.wait_for_function("() => window.__notes.length > 0")
    title, body = page.evaluate("window.__notes[0]")
    assert "Turn 2 is open" in body and not title.startswith("(")
    page.wait_for_function("() => document.title.startsWith('(1) ')")  # alice owes turn 2
    screenshot(page, "newcomer-game-notified", width)
    assert second.pk


@pytest.mark.parametrize("width", WIDTHS)
def test_set_aside_turn_page_from_the_thread(live_server, open_page, gm_user, players,
                                             tally_engine, width):
    from gm.referee import actions as referee

    game = _tally(gm_user, players)
    for seat, text in (("P1", "ADD 1"), ("P2", "ADD 2")):
        actions.submit_orders(game, game.seats.get(name=seat), text)
    referee.rerun_from(game, gm_user, "a die was misread", 1)
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.click("#thread-list a.set-aside-link")
    page.wait_for_selector("#set-aside-note")
    assert page.url.endswith(f"/games/{game.pk}/turns/1/set-aside/1/")
    assert "set aside" in page.inner_text("h1")
    assert page.inner_text("#turn-report .report").strip()
    _fits(page, width)
    screenshot(page, "newcomer-set-aside-turn", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_one_turn_number_on_the_page(live_server, open_page, make_game, players, width):
    import re

    game = make_game("combat_dice", 2, title="Numbered combat")
    engine = actions.engine_for(game)
    for seat in ("P1", "P2"):
        state = engine.from_json(game.__class__.objects.get(pk=game.pk).state)
        actions.submit_orders(game, game.seats.get(name=seat),
                              engine.default_orders(state, seat).text)
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    assert page.inner_text("#prompt-title") == "Orders for combat round 1"
    status = page.inner_text("#status")
    assert set(re.findall(r"\b[Tt]urn (\d+)", status)) == {"2"}, status
    report = page.inner_text("#latest-report")
    assert set(re.findall(r"\b[Tt]urn (\d+)", report)) == {"1"}, report  # the service's count
    _fits(page, width)
    screenshot(page, "newcomer-one-turn-number", width)


@pytest.mark.parametrize("width", WIDTHS)
def test_wording_on_verify_and_press(live_server, open_page, gm_user, players, tally_engine,
                                     tmp_path, width):
    game = _tally(gm_user, players)
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/verify/")
    notes = tmp_path / "notes.txt"
    notes.write_text("not an export", encoding="utf-8")
    page.set_input_files("#verify-form input[type=file]", str(notes))
    page.click("#verify-form button")
    page.wait_for_selector("#verdict")
    assert "Not a game export" in page.inner_text("#verdict")
    assert "Mismatch" not in page.inner_text("#verdict")
    _fits(page, width)
    screenshot(page, "newcomer-verify-not-an-export", width)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.select_option("#id_recipient", "P2")
    page.fill("#id_text_press", "Hello bob")
    page.click("#send-press")
    page.wait_for_selector("#press-list .press-msg")
    assert "P1 (alice) → P2 (bob)" in page.inner_text("#press-list")
    assert "(turn)" not in page.inner_text("#status")
    screenshot(page, "newcomer-press-names", width)


def test_duel_of_ages_map_fits_a_phone_on_request(live_server, open_page, make_game,
                                                  players):
    game = make_game("duel_of_ages", 2, title="Map on a phone")
    page = open_page(PHONE)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    toggle = page.locator("#board .board-fit-toggle")
    if toggle.count() == 0:  # this map already fits a phone
        pytest.skip("the board fits 375 px without scrolling")
    page.click("#board .board-fit-toggle")
    width, box = page.evaluate("""() => { const s = document.querySelector('#board svg');
        return [s.getBoundingClientRect().width, s.parentElement.clientWidth]; }""")
    assert width <= box + 1
    assert page.get_attribute("#board .board-fit-toggle", "aria-pressed") == "true"
    _fits(page, PHONE)
    screenshot(page, "newcomer-doa-map-fitted", PHONE)
