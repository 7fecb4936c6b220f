"""The game page in a real browser, as a player meets it, at 1280 and 375 px."""

from __future__ import annotations

import json

import pytest

from games.core.verify import verify_record
from gm.play import actions
from gm.play.models import Game, Submission

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _tally(gm_user, players, n: int = 2, **options):
    game = actions.create_game(gm_user, ruleset="tally", title="Browser game",
                               options={"max_turns": 2, **options})
    for user in players[:n]:
        actions.join_game(game, user)
    game = actions.start_game(game, gm_user)
    return game


def _in_viewport(page, selector: str) -> bool:
    return page.evaluate("""sel => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top > -1 && r.top < window.innerHeight; }""", selector)  # sub-pixel scroll


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_orders_error_then_sent_then_edited(live_server, open_page, gm_user, players,
                                            tally_engine, width):
    game = _tally(gm_user, players)
    base = live_server.url
    page = open_page(width)
    login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    assert "P1" in page.inner_text("#owing")

    # While typing, the orders as the server would understand them (nothing stored).
    page.fill("#id_text", "add 2")
    page.wait_for_selector("#live-preview pre")
    assert page.inner_text("#live-preview pre") == "ADD 2"
    page.fill("#id_text", "ADD 2\nJUMP\nADD 1")
    page.wait_for_selector("#live-preview .errors-live")
    assert "Line 2: unknown order 'JUMP'" in page.inner_text("#live-preview")
    # A greeting is skipped and said so, as on mail (a trailing 'JUMP' would be too).
    page.fill("#id_text", "Hi GM,\nADD 2")
    page.wait_for_selector("#live-preview p:has-text('Not read')")
    assert "\u201cHi GM,\u201d" in page.inner_text("#live-preview")
    # With no order at all, the lines are not called greetings: none is an order.
    page.fill("#id_text", "Hi GM,\nJUMP HIGH")
    page.wait_for_selector("#live-preview p:has-text('no line is an order')")
    assert "greetings" not in page.inner_text("#live-preview")
    assert Submission.objects.filter(turn__game=game).count() == 0

    # A refused order: the errors are on screen and focused, the text stays in the box.
    page.fill("#id_text", "ADD 2\nJUMP\nADD 1")
    page.click("#send-orders")
    page.wait_for_selector("#order-errors")
    errors = page.inner_text("#order-errors")
    assert "Line 2: unknown order 'JUMP'" in errors
    assert "nothing you had already sent was changed" in errors
    page.wait_for_function("document.activeElement && document.activeElement.id == 'order-errors'")
    assert _in_viewport(page, "#order-errors")
    assert page.input_value("#id_text") == "ADD 2\nJUMP\nADD 1"
    assert axe_violations(page) == []  # the error state is accessible too
    # Reloading the refused form shows the game page again; nothing is posted twice.
    assert page.url.endswith(f"/games/{game.pk}/#orders")
    page.reload()
    assert page.locator("#order-errors").count() == 0 and "P1" in page.inner_text("#owing")

    # A quick pick adds its line; orders that do not close the turn (bob owes too).
    page.fill("#id_text", "")
    page.click("#quick-picks button:has-text('ADD 3')")
    assert page.input_value("#id_text") == "ADD 3"
    page.click("#send-orders")
    page.wait_for_selector("#my-orders")
    assert page.inner_text("#my-orders").strip() == "ADD 3"
    assert "{{" not in page.content()
    assert page.input_value("#id_text") == "ADD 3"  # back in the box for editing
    assert "Receipt" in page.inner_text("#receipt")
    # Post/redirect/get: reloading shows the page again and sends nothing twice.
    page.reload()
    assert Submission.objects.filter(turn__game=game).count() == 1
    w, inner = overflow(page)
    assert w <= inner, f"horizontal scrolling at {width}px: {w} > {inner}"


def test_dungeonquest_example_keeps_its_lines_and_is_accepted(live_server, page, make_game,
                                                              players):
    game = make_game("dungeonquest", 1)
    base = live_server.url
    login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    example = page.inner_text("#example-text")
    page.click("#use-example")
    assert page.input_value("#id_text") == example
    page.click("#send-orders")
    page.wait_for_selector("#messages")
    assert "Orders accepted for turn 1" in page.inner_text("#messages")


def test_live_refresh_countdown_and_browser_time_zone(live_server, open_page, gm_user, players,
                                                      tally_engine):
    game = actions.create_game(gm_user, ruleset="tally", title="Live game", turn_hours=0,
                               turn_minutes=30, options={"max_turns": 3})
    for user in players[:2]:
        actions.join_game(game, user)
    game = actions.start_game(game, gm_user)
    base = live_server.url
    page = open_page(PHONE, timezone_id="Asia/Tokyo")
    page.add_init_script("window.GM_POLL_MS = 400;")
    login(page, base, "alice")
    page.goto(f"{base}/games/{game.pk}/")
    # The deadline follows the browser's zone until one is saved, and counts down.
    assert "your browser's zone" in page.inner_text("time.deadline")
    first = page.inner_text("#time-left")
    page.wait_for_timeout(1200)
    assert page.inner_text("#time-left") != first and "min" in first
    page.click("form.save-zone button")
    page.wait_for_selector("#messages")
    assert "Time zone saved: Asia/Tokyo" in page.inner_text("#messages")
    assert "JST" in page.inner_text("time.deadline")

    # Another player's orders close the turn: the report and the thread refresh in place.
    actions.submit_orders(game, game.seats.get(name="P1"), "ADD 1")
    actions.submit_orders(game, game.seats.get(name="P2"), "ADD 2")
    page.wait_for_selector("#report-1", timeout=10000)
    assert "Turn 2" in page.inner_text("#turn")
    actions.post_message(game, players[1], "Nice roll")
    page.wait_for_selector("#thread-list :text('Nice roll')", timeout=10000)


def test_history_export_press_and_result(live_server, open_page, gm_user, players, tally_engine,
                                         tmp_path):
    game = _tally(gm_user, players)
    base = live_server.url
    alice = open_page(LAPTOP)
    login(alice, base, "alice")
    alice.goto(f"{base}/games/{game.pk}/")
    alice.select_option("#id_recipient", "P2")
    alice.fill("#id_text_press", "Shall we both add 3?")
    alice.click("#send-press")
    bob = open_page(PHONE)
    login(bob, base, "bob")
    bob.goto(f"{base}/games/{game.pk}/")
    assert "Shall we both add 3?" in bob.inner_text("#press-list")
    assert axe_violations(bob) == []
    for _turn in (1, 2):
        for seat in ("P1", "P2"):
            actions.submit_orders(game, game.seats.get(name=seat), "ADD 3")
    alice.goto(f"{base}/games/{game.pk}/")
    result = alice.inner_text("#final-result")
    assert "(alice)" in result or "(bob)" in result, result  # players named, not only seats
    # History: every turn with previous/next.
    alice.click("text=Every turn, with the board after each")
    assert "turn 2" in alice.inner_text("h1")
    alice.click("#previous")
    assert "turn 1" in alice.inner_text("h1")
    alice.click("#previous")
    assert "setup" in alice.inner_text("h1")
    alice.click("#next")
    assert "turn 1" in alice.inner_text("h1")
    # The export downloads as a file the verifier accepts as is.
    alice.goto(f"{base}/games/{game.pk}/")
    with alice.expect_download() as info:
        alice.click("#export")
    path = tmp_path / "export.json"
    info.value.save_as(path)
    assert info.value.suggested_filename == f"game-{game.pk}-tally.json"
    assert verify_record(json.loads(path.read_text())).ok


def test_create_with_option_selects_invite_join_and_start(live_server, open_page, gm_user,
                                                          players):
    base = live_server.url
    gm = open_page(PHONE)
    login(gm, base, "gamemaster")
    gm.goto(f"{base}/games/new/")
    gm.click("text=Warpspawn Combat Dice")
    gm.fill("#id_title", "Arena")
    gm.select_option("#id_option_combatants", "advanced")  # a select, not `name = value`
    gm.select_option("#id_option_max_turns", "50")
    assert gm.is_checked("input[name=role][value=referee]")
    gm.click("#new-game button[type=submit]")
    gm.wait_for_selector("#invite-url")
    invite = gm.inner_text("#invite-url").strip()
    game = Game.objects.get(title="Arena")
    assert game.options["combatants"] == "advanced" and game.options["max_turns"] == 50
    assert invite.endswith(f"/games/{game.pk}/invite/")
    assert "Share the invite link" in gm.inner_text("#next-step")

    for name in ("alice", "bob"):
        tab = open_page(PHONE)
        login(tab, base, name)
        tab.goto(invite)
        tab.click("#join")
        assert "You have seat" in tab.inner_text("#messages")
        assert "Waiting for the GM (gamemaster) to start the game" in tab.inner_text("#next-step")
    gm.reload()
    gm.click("#start")
    assert "turn 1 is open" in gm.inner_text("#messages")
    tab.goto(f"{base}/games/{game.pk}/")
    assert "Your orders for turn 1 are due." in tab.inner_text("#next-step")
    assert tab.inner_text("#example-text").count("\n") >= 1  # EQUIP and SPECIALTY lines


def test_page_height_does_not_grow_with_every_report(live_server, page, gm_user, players,
                                                     tally_engine):
    """Each report shows once (the latest); older ones are a line in the thread."""
    game = _tally(gm_user, players, max_turns=6, target=100)
    base = live_server.url
    login(page, base, "alice")

    def play_turn():
        for seat in ("P1", "P2"):
            actions.submit_orders(game, game.seats.get(name=seat), "ADD 1")

    play_turn()
    page.goto(f"{base}/games/{game.pk}/")
    after_one = page.evaluate("document.documentElement.scrollHeight")
    for _ in range(4):
        play_turn()
    page.goto(f"{base}/games/{game.pk}/")
    after_five = page.evaluate("document.documentElement.scrollHeight")
    assert page.locator(".report").count() == 1
    assert after_five - after_one < 4 * 60, (after_one, after_five)  # a thread line per turn


@pytest.mark.parametrize("width", [LAPTOP, PHONE])
def test_new_game_checkboxes_sit_beside_their_labels(live_server, open_page, gm_user, width):
    """A checkbox alone on a line above its label reads as an unlabelled box."""
    base = live_server.url
    page = open_page(width)
    login(page, base, gm_user.username)
    page.goto(f"{base}/games/new/combat_dice/")
    for name in ("process_early", "hold_for_review"):
        box = page.locator(f"input[type=checkbox][name={name}]")
        label = page.locator(f"label[for={box.get_attribute('id')}]")
        b, lab = box.bounding_box(), label.bounding_box()
        assert abs((b["y"] + b["height"] / 2) - (lab["y"] + lab["height"] / 2)) < lab["height"], name
        first_line = label.evaluate("el => el.getClientRects()[0].left")
        assert first_line > b["x"] + b["width"] - 1, name
