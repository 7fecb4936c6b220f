"""Issue 28, the page items a newcomer tripped on: the setup report as HTML, one rule for
every time shown (the reader's zone, named), and no typed line dropped quietly (the
confirmation itself is in test_greetings_on_the_web)."""

from __future__ import annotations

import html
from datetime import UTC, datetime

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from gm.accounts.timezones import set_zone
from gm.web.templatetags.when import when_text

pytestmark = pytest.mark.django_db

WINTER = datetime(2026, 12, 5, 8, 44, tzinfo=UTC)


@pytest.mark.parametrize("zone, style, text", [
    ("", "minutes", "2026-12-05 08:44 UTC"),
    ("Europe/Berlin", "minutes", "2026-12-05 09:44 CET"),
    ("Asia/Tokyo", "seconds", "2026-12-05 17:44:00 JST"),
    ("America/Sao_Paulo", "minutes", "2026-12-05 05:44 -03 America/Sao_Paulo"),
    ("Europe/Berlin", "deadline", "Sat 5 Dec 2026, 09:44 CET (08:44 UTC)"),
])
def test_a_time_names_its_zone(zone, style, text):
    assert when_text(WINTER, zone, style) == text


def _render(user, source: str, **values) -> str:
    request = RequestFactory().get("/")
    request.user = user
    return Template("{% load when %}" + source).render(Context({"request": request, **values}))


def test_the_when_tag_reads_the_readers_zone_once_and_marks_unsaved_zones(players,
                                                                          django_assert_num_queries):
    alice, bob = players[:2]
    set_zone(alice, "Europe/Berlin")
    with django_assert_num_queries(1):  # one profile read for any number of times
        out = _render(alice, "{% when t %} {% when t %} {% when none %}", t=WINTER, none=None)
    assert out.count('data-zone-chosen="1"') == 2 and "09:44 CET" in out
    assert 'datetime="2026-12-05T08:44:00+00:00"' in out
    out = _render(bob, "{% when t %}", t=WINTER)
    # no zone saved: UTC, named, and marked for the browser to put in its own zone
    assert 'data-zone-chosen="0"' in out and "08:44 UTC" in out


def test_thread_and_press_times_name_the_zone(make_game, players, client):
    game = make_game("tally", 2)
    from gm.play import actions

    actions.post_message(game, players[0], "Hello table")
    set_zone(players[0], "Asia/Tokyo")
    client.force_login(players[0])
    page = client.get(f"/games/{game.pk}/").content.decode()
    thread = page.split('id="thread-list"', 1)[1]
    assert " UTC</p>" not in thread and "JST</time>" in thread


@pytest.mark.parametrize("ruleset, n", [("dungeonquest", 1), ("duelists", 2),
                                        ("combat_dice", 2), ("dice_age", 2),
                                        ("duel_of_ages", 2)])
def test_the_setup_report_is_html_not_markdown(make_game, players, client, ruleset, n):
    game = make_game(ruleset, n)
    client.force_login(players[0])
    for url in (f"/games/{game.pk}/turns/0/", f"/games/{game.pk}/"):
        page = client.get(url).content.decode()
        if 'id="setup-report"' not in page:  # the game page shows it before any report
            assert url.endswith(f"/{game.pk}/") and 'id="latest-report"' in page
            continue
        shown = html.unescape(page.split('id="setup-report"', 1)[1].split("</section>", 1)[0])
        assert any(tag in shown for tag in ("<h3>", "<p>", "<li>")), shown[:300]
        for raw in ("# Report", "**", "```"):
            assert raw not in shown, (ruleset, url, raw)


def test_the_last_owed_orders_land_on_the_receipt_and_the_resolved_note(make_game, players,
                                                                       client):
    """Issue 28: when these orders closed the turn, the page opens at the messages (the
    receipt and "the turn has been resolved"), not at the next turn's empty order card."""
    game = make_game("tally", 2)
    client.force_login(players[0])
    first = client.post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1})
    assert first["Location"].endswith("#orders")  # bob still owes: the order card
    client.force_login(players[1])
    last = client.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
    assert last["Location"].endswith("#messages")
    page = html.unescape(client.get(last["Location"]).content.decode())
    messages = page.split('id="messages"', 1)[1].split("</div></div>", 1)[0]
    assert "Orders accepted for turn 1" in messages and "Every owed order was in" in messages


def test_the_new_game_form_offers_a_seat_only_where_the_gm_may_play(gm_user, client,
                                                                    tally_engine, monkeypatch):
    client.force_login(gm_user)
    page = client.get("/games/new/tally/").content.decode()  # tally hides the secret
    assert 'value="referee"' in page and 'value="play"' not in page
    assert "cannot hold a seat" in html.unescape(page)
    monkeypatch.setattr(tally_engine, "hidden_information", False, raising=False)
    page = client.get("/games/new/tally/").content.decode()
    assert 'value="play"' in page and "also take a seat" in page


def test_the_desk_export_link_is_a_download(make_game, gm_user, client):
    game = make_game("tally", 2)
    client.force_login(gm_user)
    desk = client.get(f"/games/{game.pk}/gm/").content.decode()
    link = desk.split('id="desk-export"', 1)[1].split(">", 1)[0]
    assert f'href="/games/{game.pk}/export.json"' in link and "download" in link
    response = client.get(f"/games/{game.pk}/export.json")
    assert response["Content-Disposition"].startswith("attachment;")


def test_lobby_orders_games_by_what_needs_you_and_the_tab_title_counts_it(
        gm_user, players, client, tally_engine):
    from datetime import timedelta

    from django.utils import timezone

    from gm.play import actions
    from gm.play.models import Turn

    def game(title, hours):
        g = actions.create_game(gm_user, ruleset="tally", title=title, options={"max_turns": 3})
        for user in players[:2]:
            actions.join_game(g, user)
        g = actions.start_game(g, gm_user)
        Turn.objects.filter(game=g, number=1).update(
            deadline=timezone.now() + timedelta(hours=hours))
        return g

    later, sooner, done = game("Later", 30), game("Sooner", 3), game("Done already", 1)
    actions.submit_orders(done, done.seats.get(name="P1"), "ADD 1")  # alice owes nothing
    actions.create_game(gm_user, ruleset="tally", title="Still open")
    client.force_login(players[0])
    page = html.unescape(client.get("/").content.decode())
    assert "<title>(2) Lobby · Tabletop GM</title>" in page
    table = page.split('id="my-games"', 1)[1]
    assert table.index("Sooner") < table.index("Later") < table.index("Done already")
    assert table.count('class="countdown"') == 3 and " left</span>" in table
    game_page = client.get(f"/games/{later.pk}/").content.decode()
    assert f"<title>(1) {later.title}</title>" in game_page
    client.force_login(players[1])  # bob owes everywhere; the title still names one game
    assert "(3) Lobby" in client.get("/").content.decode()
    assert sooner.pk


def test_a_first_visit_marks_new_what_the_lobby_counted(make_game, players, client):
    from gm.play import actions

    game = make_game("tally", 2)
    actions.post_message(game, players[1], "Welcome, alice")
    actions.post_message(game, players[0], "My own note")
    client.force_login(players[0])
    assert "1 new" in client.get("/").content.decode()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert page.count('<span class="badge">new</span>') == 1
    assert '<span class="badge">new</span>' not in client.get(f"/games/{game.pk}/").content.decode()


def test_wording_a_newcomer_tripped_on():
    """Issue 28's wording list, where it lives in the engines and the verifier."""
    from games.core import registry
    from games.core.rng import Rng
    from games.core.types import OrdersInvalid
    from games.duel_of_ages import report as doa_report

    dq = registry.get("dungeonquest")
    state = dq.setup(["P1", "P2"], {}, Rng(b"s" * 32, "setup"))[0]

    assert dq.decision(state).phase == "heroes"
    with pytest.raises(OrdersInvalid) as exc:
        dq.parse_orders(state, "P1", "IF MONSTER TROLL THEN ESCAPE")
    message = exc.value.errors[0].message
    assert "has no conditional orders" not in message and "first round" in message
    assert doa_report._cards(1) == "1 card" and doa_report._cards(2) == "2 cards"
    assert doa_report._tower_effect({"damage": 0, "heal": 0}) == ""
    assert doa_report._tower_effect({"damage": 2, "heal": 0}) == "; 2 damage"


def test_verify_of_a_file_that_is_no_export_is_not_a_mismatch(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = client.post("/verify/", {"export": SimpleUploadedFile("notes.txt", b"hello")})
    text = page.content.decode()
    assert "Not a game export" in text and "Mismatch" not in text


def test_press_names_the_player_beside_the_seat(make_game, players, client):
    game = make_game("tally", 2)
    client.force_login(players[1])
    client.post(f"/games/{game.pk}/press/", {"recipient": "P1", "text": "Truce?"})
    client.force_login(players[0])
    page = html.unescape(client.get(f"/games/{game.pk}/").content.decode())
    assert "P2 (bob) → P1 (alice)" in page.split('id="press-list"', 1)[1]
