"""Server-rendered pages with Django's test client (the browser tests drive the same).

Each test reads the page as a player would read it: what the HTML says, not only what
the database holds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from games.core.verify import verify_record
from gm.play import actions
from gm.play.models import Game, Post, Submission
from gm.web import views

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def _text(resp) -> str:
    return resp.content.decode()


def _signup_link() -> str:
    from django.core import mail

    return re.search(r"https?://[^/\s]+(/signup/c/\S+/)", mail.outbox[-1].body).group(1)


def test_signup_then_lobby():
    c = Client()
    resp = c.post("/signup/", {"username": "newbie", "email": "n@example.org"})
    assert resp.status_code == 302 and resp["Location"] == "/signup/sent/"
    resp = c.post(_signup_link(), {"username": "newbie", "password1": "a-long-pass-phrase",
                                   "password2": "a-long-pass-phrase"})
    assert resp.status_code == 302 and resp["Location"] == "/"
    assert "newbie" in c.get("/").content.decode()
    assert Client().post("/login/", {"username": "newbie", "password": "a-long-pass-phrase"}
                         ).status_code == 302


def test_new_game_options_are_fields_from_engine_metadata(gm_user):
    c = _client(gm_user)
    assert "Tally (test game)" in _text(c.get("/games/new/"))
    page = _text(c.get("/games/new/tally/"))
    # Int-range options are number fields with their bounds, not `name = value` text.
    assert re.search(r'<input type="number" name="option_target" value="12"[^>]*min="5"', page)
    assert 'max="100"' in page
    resp = c.post("/games/new/tally/", {"title": "Web", "option_target": 3, "option_max_turns": 6,
                                        "role": "referee", "turn_hours": 1, "turn_minutes": 0,
                                        "process_early": "on"})
    assert resp.status_code == 200
    assert "Ensure this value is greater than or equal to 5" in _text(resp)
    resp = c.post("/games/new/tally/", {"title": "Web", "option_target": 20,
                                        "option_max_turns": 6, "role": "referee",
                                        "turn_hours": 1, "turn_minutes": 0})
    game = Game.objects.get(title="Web")
    assert resp.status_code == 302 and game.options["target"] == 20
    assert game.process_early is False and not game.seats.exists()


def test_creator_chooses_to_play_only_where_nothing_is_hidden(gm_user, tally_engine,
                                                               monkeypatch):
    c = _client(gm_user)
    form = {"title": "Mine", "option_target": 12, "option_max_turns": 6, "role": "play",
            "turn_hours": 1, "turn_minutes": 0}
    refused = _text(c.post("/games/new/tally/", form))
    assert "its GM sees everything, so the GM cannot also play" in unescape(refused)
    assert not Game.objects.filter(title="Mine").exists()
    monkeypatch.setattr(tally_engine, "hidden_information", False, raising=False)
    resp = c.post("/games/new/tally/", form)
    game = Game.objects.get(title="Mine")
    assert game.seat_of(gm_user) is not None
    page = _text(c.get(resp["Location"]))
    assert "You are its GM and play seat P1" in page
    assert 'id="gm-plays"' in page and "gamemaster holds seat P1" in page
    assert "Invite link:" in page and f"/games/{game.pk}/invite/" in page


def test_gm_of_a_hidden_information_game_is_told_why_they_cannot_sit(gm_user):
    game = actions.create_game(gm_user, ruleset="tally", title="Hidden")
    gm = _client(gm_user)
    page = unescape(_text(gm.get(gm.post(f"/games/{game.pk}/join/")["Location"])))
    assert ("You could not join: you are this game's GM and see every hidden card and "
            "die, so you cannot take a seat in it.") in page
    assert not game.seats.exists()


def test_join_and_what_happens_next(gm_user, players):
    game = actions.create_game(gm_user, ruleset="tally", title="Joinable")
    alice = _client(players[0])
    invite = _text(alice.get(f"/games/{game.pk}/invite/"))
    assert "Join this game" in invite and "0 of 4 seats taken" in invite
    resp = alice.post(f"/games/{game.pk}/join/")
    page = _text(alice.get(resp["Location"]))
    assert "You have seat P1" in page
    assert "Waiting for the GM (gamemaster) to start the game" in page
    again = _text(alice.get(alice.post(f"/games/{game.pk}/join/")["Location"]))
    assert "You could not join: you already have a seat in this game." in again
    assert "rules revision 1" in page  # the tally test engine has no later revision


def _start(gm_user, players, **kw):
    game = actions.create_game(gm_user, ruleset="tally", title=kw.pop("title", "Page game"),
                               options=kw.pop("options", {"max_turns": 3}), **kw)
    actions.join_game(game, players[0])
    actions.join_game(game, players[1])
    game = actions.start_game(game, gm_user)
    return game


def test_sent_orders_show_as_understood_with_receipt_and_back_in_the_box(gm_user, players,
                                                                         on_commit):
    game = _start(gm_user, players)
    alice = _client(players[0])
    with on_commit():
        resp = alice.post(f"/games/{game.pk}/orders/", {"text": "add 2", "turn": 1})
    assert resp.status_code == 302 and resp["Location"].endswith("#orders")
    page = _text(alice.get(resp["Location"]))
    assert "{{" not in page and "{%" not in page
    assert re.search(r'<pre id="my-orders">ADD 2\s*</pre>', page)  # as understood
    assert "Receipt <code" in page and "Orders accepted for turn 1 (version 1" in page
    assert re.search(r'<textarea name="text"[^>]*>\s*ADD 2</textarea>', page)  # for editing
    assert '<input type="hidden" name="turn" value="1"' in page


def test_refused_orders_errors_first_and_no_line_zero(gm_user, players):
    game = _start(gm_user, players)
    alice = _client(players[0])
    bad = alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 7", "turn": 1})
    assert bad.status_code == 400
    page = _text(bad)
    assert "Line 1: ADD amount 7 is out of range — use 1..3" in page
    # The errors come before the prompt, the box and the quick picks, and get the focus.
    assert page.index('id="order-errors"') < page.index('id="id_text"')
    assert 'role="alert" tabindex="-1"' in page
    assert re.search(r"<textarea[^>]*>\s*ADD 7</textarea>", page)  # the text is kept
    whole = _text(alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1\nADD 2"}))
    assert "send exactly one ADD order" in whole and "Line 0" not in whole


def test_orders_for_a_closed_turn_are_refused_not_moved(gm_user, players, on_commit):
    game = _start(gm_user, players)
    alice, bob = _client(players[0]), _client(players[1])
    with on_commit():
        alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
        bob.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
    # A form written for turn 1 (say, in a tab left open) arrives once turn 2 is open.
    resp = alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 3", "turn": 1})
    page = unescape(_text(alice.get(resp["Location"])))
    assert game.turns.get(number=2).submissions.count() == 0
    assert ("Your orders were not stored: turn 1 closed early: every seat's orders were "
            "in") in page
    assert "Your version 1 (receipt" in page


def test_preview_shows_orders_as_understood_without_storing(gm_user, players):
    game = _start(gm_user, players)
    alice = _client(players[0])
    resp = alice.post(f"/games/{game.pk}/orders/", {"text": "add 3", "turn": 1, "preview": "1"})
    page = _text(resp)
    assert resp.status_code == 200 and 'id="order-preview"' in page
    assert re.search(r"Orders as understood</strong> \(not sent yet\):</p><pre>ADD 3", page)
    assert game.turns.get(number=1).submissions.count() == 0


def test_quick_picks_parse_and_multiline_example_keeps_its_lines(make_game, players):
    game = make_game("dungeonquest", 1)
    page = _text(_client(players[0]).get(f"/games/{game.pk}/"))
    example = re.search(r'<pre id="example-text">(.*?)</pre>', page, re.S)
    assert example, "the engine's example is shown in a block that keeps its lines"
    engine = actions.engine_for(game)
    state = engine.from_json(game.state)
    seat = game.seats.get(user=players[0]).name
    engine.parse_orders(state, seat, unescape(example.group(1)))  # parses as shown
    for pick in re.findall(r'class="pick" data-line="([^"]*)"', page):
        engine.parse_orders(state, seat, unescape(pick))


def test_export_download_is_accepted_by_both_verifiers(gm_user, players, on_commit, tmp_path):
    game = _start(gm_user, players, options={"max_turns": 1})
    outsider = _client(players[2])
    assert outsider.get(f"/games/{game.pk}/export.json").status_code == 409
    with on_commit():
        _client(players[0]).post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
        _client(players[1]).post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1})
    game.refresh_from_db()
    assert game.status == "finished"
    page = _text(outsider.get(f"/games/{game.pk}/"))
    assert f'href="/games/{game.pk}/export.json" download' in page
    resp = outsider.get(f"/games/{game.pk}/export.json")
    assert resp.status_code == 200 and resp["Content-Type"].startswith("application/json")
    assert resp["Content-Disposition"] == f'attachment; filename="game-{game.pk}-tally.json"'
    record = json.loads(resp.content)
    assert verify_record(record).ok
    path = tmp_path / "export.json"
    path.write_bytes(resp.content)
    cli = subprocess.run([sys.executable, "-c", (
        "import sys; from tests.gm.engines import ENGINE; from games.core import registry;"
        "registry.engines()[ENGINE.name] = ENGINE; from games.core.verify import main;"
        f"sys.exit(main([{str(path)!r}]))")], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert cli.stdout.startswith("OK: 1 turns replayed")
    upload = SimpleUploadedFile("export.json", resp.content, content_type="application/json")
    verdict = _text(Client().post("/verify/", {"export": upload}))
    assert "Verified: 1 turn replayed" in verdict and "Mismatch" not in verdict


def test_end_of_game_names_players_and_the_order_card_shows_the_result(gm_user, players,
                                                                      on_commit):
    game = _start(gm_user, players, options={"max_turns": 1})
    with on_commit():
        _client(players[0]).post(f"/games/{game.pk}/orders/", {"text": "ADD 3", "turn": 1})
        _client(players[1]).post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
    game.refresh_from_db()
    page = _text(_client(players[0]).get(f"/games/{game.pk}/"))
    assert "You owe no orders right now" not in page
    final = re.search(r'<p id="final-result"><strong>(.*?)</strong>', page).group(1)
    assert "(alice)" in final or "(bob)" in final, final
    assert "Waiting for:" not in page  # nobody owes anything in a finished game


def test_each_report_appears_once_and_history_pages_have_previous_next(gm_user, players,
                                                                       on_commit):
    game = _start(gm_user, players, options={"max_turns": 3})
    alice, bob = _client(players[0]), _client(players[1])
    for number in (1, 2):
        with on_commit():
            alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": number})
            bob.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": number})
    page = _text(alice.get(f"/games/{game.pk}/"))
    assert page.count("P1 adds 2") == 1  # the latest report once, not again in the thread
    assert f'href="/games/{game.pk}/turns/1/"' in page  # the thread links to older reports
    first = _text(alice.get(f"/games/{game.pk}/turns/1/"))
    assert "turn 1" in first and f'id="next" rel="next" href="/games/{game.pk}/turns/2/"' in first
    assert f'id="previous" rel="prev" href="/games/{game.pk}/turns/0/"' in first
    assert "your secret die" in first  # alice's own report of that turn
    setup = _text(alice.get(f"/games/{game.pk}/turns/0/"))
    assert "my_secret" in setup and "setup" in setup
    # Bob's history shows bob's view, never alice's secret.
    secrets = game.records.get(number=2).state_after["secret"]
    bob_view = _text(bob.get(f"/games/{game.pk}/turns/2/"))
    # The view reads as on the game page: JSON, not Python's repr ('...', True, None).
    assert f"&quot;my_secret&quot;: {secrets['P2']}" in bob_view
    assert "&quot;secret&quot;" not in bob_view and "&#x27;" not in bob_view
    assert alice.get(f"/games/{game.pk}/turns/9/").status_code == 404


def test_gm_turn_page_shows_events_in_words(gm_user, players, on_commit):
    game = _start(gm_user, players, options={"max_turns": 2})
    with on_commit():
        _client(players[0]).post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1})
        _client(players[1]).post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
    page = _text(_client(gm_user).get(f"/games/{game.pk}/gm/turns/1/"))
    events = page[page.index("<h3>Events</h3>"):]
    events = events[:events.index("</ol>")]
    assert "{&#x27;" not in events and "{'" not in events
    assert re.search(r"seat: P1; n: 2", events), events


def test_press_is_private_between_seats_and_visible_to_the_gm(gm_user, players):
    game = _start(gm_user, players)
    carol = players[2]
    alice, bob = _client(players[0]), _client(players[1])
    resp = alice.post(f"/games/{game.pk}/press/", {"recipient": "P2", "text": "Ally with me?"})
    assert resp.status_code == 302 and resp["Location"].endswith("#press")
    assert "Ally with me?" in _text(bob.get(f"/games/{game.pk}/"))
    assert "Ally with me?" in _text(_client(gm_user).get(f"/games/{game.pk}/"))
    assert "Ally with me?" not in _text(_client(carol).get(f"/games/{game.pk}/"))
    assert "Ally with me?" not in _text(Client().get(f"/games/{game.pk}/"))
    assert "Ally with me?" not in _text(Client().get(f"/games/{game.pk}/feed/"))
    outsider = _client(carol)
    refused = outsider.post(f"/games/{game.pk}/press/", {"recipient": "P1", "text": "hi"})
    assert "Choose whom to write to" in _text(outsider.get(refused["Location"]))
    assert game.press.count() == 1
    from gm.mail.models import Outbox
    mail = Outbox.objects.get(kind="press")
    assert mail.to == "bob@example.org" and "press from P1" in mail.subject
    assert "Ally with me?" in mail.body_text and f"/games/{game.pk}/#press" in mail.body_text
    from gm.accounts.models import Profile
    Profile.objects.update_or_create(user=players[0], defaults={"email_confirmed": False})
    bob.post(f"/games/{game.pk}/press/", {"recipient": "P1", "text": "Maybe."})
    assert not Outbox.objects.filter(kind="press", to="alice@example.org").exists()


def test_lobby_marks_unread_reports_posts_and_press(gm_user, players, on_commit):
    game = _start(gm_user, players, title="Owing game")
    alice, bob = _client(players[0]), _client(players[1])
    lobby = _text(alice.get("/"))
    assert "Owing game" in lobby and "orders due" in lobby
    alice.get(f"/games/{game.pk}/")  # seen
    assert 'class="badge unread"' not in _text(alice.get("/"))
    bob.post(f"/games/{game.pk}/thread/", {"markdown": "hello"})
    bob.post(f"/games/{game.pk}/press/", {"recipient": "P1", "text": "psst"})
    lobby = _text(alice.get("/"))
    assert "2 new" in lobby and "1 post" in lobby and "1 private" in lobby
    page = _text(alice.get(f"/games/{game.pk}/"))  # marked on the page once, then seen
    assert page.count('<span class="badge">new</span>') == 2
    assert 'class="badge unread"' not in _text(alice.get("/"))
    assert '<span class="badge">new</span>' not in _text(alice.get(f"/games/{game.pk}/"))
    bob_lobby = _text(bob.get("/"))  # bob's own post and press are not news to him
    assert "1 post" not in bob_lobby and "private)" not in bob_lobby


def test_live_json_says_what_changed_and_no_state(gm_user, players):
    game = _start(gm_user, players)
    alice = _client(players[0])
    first = alice.get(f"/games/{game.pk}/live.json").json()
    assert first["turn"] == 1 and first["owing"] == ["P1", "P2"] and "view" not in first
    alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
    _client(players[1]).post(f"/games/{game.pk}/thread/", {"markdown": "hi"})
    second = Client().get(f"/games/{game.pk}/live.json").json()
    assert second["owing"] == ["P2"] and second["in"] == ["P1"]
    assert second["post"] > first["post"]
    assert "secret" not in json.dumps(second)


def test_deadline_in_the_readers_zone(gm_user, players):
    game = _start(gm_user, players)
    alice = _client(players[0])
    page = _text(alice.get(f"/games/{game.pk}/"))
    assert 'data-zone-chosen="0"' in page and "UTC" in page
    resp = alice.post("/settings/time-zone/", {"time_zone": "Asia/Tokyo"})
    assert resp.status_code == 302
    page = _text(alice.get(f"/games/{game.pk}/"))
    deadline = game.current_turn().deadline
    from zoneinfo import ZoneInfo
    local = deadline.astimezone(ZoneInfo("Asia/Tokyo")).strftime("%H:%M JST")
    assert local in page and 'data-zone-chosen="1"' in page
    assert "unknown" not in _text(alice.get("/settings/time-zone/")).split("<main")[0]


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x",
                                    "/\\evil.example/", "lobbyx", "javascript:alert(1)"])
def test_saving_a_time_zone_returns_only_to_a_page_of_this_site(players, target):
    """The page's "save my zone" form names the page to return to; anything else in
    `next` (another site, a bare word, a script URL) is ignored, never followed nor a 500."""
    alice = _client(players[0])
    resp = alice.post("/settings/time-zone/", {"time_zone": "Asia/Tokyo", "next": target})
    assert resp.status_code == 302 and resp["Location"] == "/settings/time-zone/"
    resp = alice.post("/settings/time-zone/", {"time_zone": "Asia/Tokyo", "next": "/games/7/"})
    assert resp.status_code == 302 and resp["Location"] == "/games/7/"


def test_rules_page_from_metadata_and_readme(players):
    page = _text(_client(players[0]).get("/rules/combat_dice/readme/"))
    assert "<h1>Warpspawn Combat Dice: rules and orders</h1>" in page
    assert "The first order form" in page and "Arm your combatant" in page
    assert "The order language" in page  # from games/combat_dice/README.md
    assert Client().get("/rules/nope/").status_code == 404


def test_anonymous_sees_public_only_and_cannot_order(make_game, players):
    game = make_game("tally", 2)
    page = _client().get(f"/games/{game.pk}/").content.decode()
    assert "Public view" in page and "my_secret" not in page
    resp = _client().post(f"/games/{game.pk}/orders/", {"text": "ADD 1"})
    assert resp.status_code == 302 and "/login/" in resp["Location"]
    seat_page = _client(players[0]).get(f"/games/{game.pk}/").content.decode()
    assert "my_secret" in seat_page and '"secret"' not in seat_page


def test_thread_post_and_feed(make_game, players, on_commit):
    game = make_game("tally", 1, options={"max_turns": 1})
    c = _client(players[0])
    c.post(f"/games/{game.pk}/thread/", {"markdown": "Good *luck* <img src=x onerror=alert(1)>"})
    post = Post.objects.get(game=game, kind="message")
    assert "<em>luck</em>" in post.html and "onerror" not in post.html
    with on_commit():
        c.post(f"/games/{game.pk}/orders/", {"text": "ADD 1"})
    feed = _client().get(f"/games/{game.pk}/feed/")
    assert feed.status_code == 200 and feed["Content-Type"].startswith("application/atom+xml")
    assert "Turn 1" in feed.content.decode()


def test_favicon():
    resp = Client().get("/favicon.ico")
    assert resp.status_code == 301 and resp["Location"].endswith("favicon.svg")


def test_live_preview_json_parses_without_storing(gm_user, players):
    game = _start(gm_user, players)
    alice = _client(players[0])
    url = f"/games/{game.pk}/orders/preview.json"
    assert alice.post(url, {"text": "add 2"}).json() == {
        "ok": True, "orders": ["ADD 2"], "errors": [], "conditional": False, "not_read": []}
    bad = alice.post(url, {"text": "ADD 1\nADD 9"}).json()
    assert bad["ok"] is False and bad["errors"][0]["line"] == 2
    assert "out of range" in bad["errors"][0]["message"]
    assert _client(players[2]).post(url, {"text": "ADD 1"}).status_code == 403
    assert game.turns.get(number=1).submissions.count() == 0


def test_one_turn_number_on_the_page_and_the_games_own_round_in_words(make_game, players,
                                                                     play_defaults):
    """Issue 28/30: the engine names its own round in words ("combat round 1"), never as a
    second turn number; the page shows its prompt as written (no rewriting)."""
    game = make_game("combat_dice", 2)
    play_defaults(game)
    page = _text(_client(players[0]).get(f"/games/{game.pk}/"))
    numbers = {int(n) for n in re.findall(r"\b[Tt]urn (\d+)\b", page)}
    assert numbers == {1, 2}, numbers  # turn 2 is open; the thread links turn 1's report
    assert '<strong id="prompt-title">Orders for combat round 1</strong>' in page
    assert 'id="own-count"' not in page
    assert "After combat turn" not in page and "Before the first combat round" in page  # board


def test_seat_counts_read_as_one_number_when_the_range_is_fixed():
    """A two-seat game says '2 players', never '2–2 players'; a range stays a range."""
    c = _client()
    for path in ("/rules/", "/", "/rules/duelists/"):
        page = _text(c.get(path))
        assert "2–2 players" not in page, path
    index = _text(c.get("/rules/"))
    assert re.search(r">Duelists</a> \(2 players\)", index)
    assert re.search(r">Dungeonquest \(PBEM edition\)</a> \(1–4 players\)", index)
    assert "2 players; ruleset name" in _text(c.get("/rules/duelists/readme/"))


def test_new_game_page_gives_the_seat_count_once(gm_user):
    page = _text(_client(gm_user).get("/games/new/duelists/"))
    assert "· 2 players</p>" in page and "2–2" not in page
    assert "2–2" not in _text(_client(gm_user).get("/games/new/"))


def test_gm_of_a_hidden_information_game_is_not_offered_a_seat(gm_user, players):
    """The join button would only lead to the refusal: the GM sees every hidden card."""
    game = actions.create_game(gm_user, ruleset="dice_age", title="Hidden, room left")
    actions.join_game(game, players[0])
    gm = _client(gm_user)
    assert 'id="join"' not in _text(gm.get(f"/games/{game.pk}/"))
    invite = unescape(_text(gm.get(f"/games/{game.pk}/invite/")))
    assert 'id="join"' not in invite
    assert ("You are this game's GM and see every hidden card and die, so you cannot take"
            " a seat in it: share this link with the players.") in invite
    bob = _client(players[1])
    assert 'id="join"' in _text(bob.get(f"/games/{game.pk}/"))
    assert 'id="join"' in _text(bob.get(f"/games/{game.pk}/invite/"))


def test_invite_of_a_full_game_offers_no_join_button(gm_user, players):
    game = actions.create_game(gm_user, ruleset="duelists", title="Full")
    actions.join_game(game, players[0])
    actions.join_game(game, players[1])
    page = _text(_client(players[2]).get(f"/games/{game.pk}/invite/"))
    assert 'id="join"' not in page and "This game is not taking players." in page


def test_verify_page_names_the_export_link_a_player_sees():
    """A player downloads the export from the game page, not the API: say where it is."""
    page = unescape(_text(_client().get("/verify/")))
    assert "<em>Download the export (JSON)</em> link on its game page" in page


def test_lobby_names_rulesets_by_title_and_shows_status_under_the_seat(gm_user, players):
    open_game = actions.create_game(gm_user, ruleset="dungeonquest", title="Crypt")
    page = _text(_client(gm_user).get("/"))
    assert f'{open_game.title}</a> · Dungeonquest (PBEM edition) · GM' in page
    row = re.search(r'<table id="my-games"[^>]*>.*?</table>', page, re.S).group(0)
    assert "Dungeonquest (PBEM edition)</span>" in row and ">dungeonquest<" not in row
    assert "Seat · status" in row and 'GM<br><span class="small muted">waiting for players</span>' in row


def test_not_found_and_not_allowed_are_site_pages_that_say_why(gm_user, players):
    """A 404/403 keeps the site's header and says what is missing, with a way back."""
    game = _start(gm_user, players)
    alice = _client(players[0])
    resp = alice.get(f"/games/{game.pk}/turns/9/")
    page = unescape(_text(resp))
    assert resp.status_code == 404
    assert '<p id="error-detail">Turn 9 has no published report.</p>' in page
    assert "Back to the lobby" in page and "<nav" in page
    resp = alice.get(f"/games/{game.pk}/gm/")
    page = unescape(_text(resp))
    assert resp.status_code == 403
    assert "only this game's GM, a co-GM or a site admin can use the GM desk" in page
    assert "You are signed in as alice." in page
    resp = _client().get("/no/such/page/")
    assert resp.status_code == 404 and "There is nothing at <code>/no/such/page/</code>." in _text(resp)


def test_orders_refusals_name_the_real_reason_with_one_full_stop(gm_user, players):
    """Over-long orders end in one full stop; a malformed turn field is not 'not seated'."""
    game = _start(gm_user, players)
    alice = _client(players[0])
    resp = alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1\n" * 5000, "turn": 1},
                      follow=True)
    msgs = [str(m) for m in resp.context["messages"]]
    assert len(msgs) == 1 and msgs[0].startswith("Your orders were not stored: ")
    assert msgs[0].endswith(".") and not msgs[0].endswith(".."), msgs
    resp = alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": "abc"},
                      follow=True)
    msgs = [str(m) for m in resp.context["messages"]]
    assert msgs == ["Your orders were not stored: the form's turn number was unreadable. "
                    "Reload the page and send them again."]
    resp = _client(players[2]).post(f"/games/{game.pk}/orders/", {"text": "ADD 1"},
                                    follow=True)
    assert [str(m) for m in resp.context["messages"]] == [
        "Only a seated player of this game can send orders."]


def test_new_game_checkbox_labels_take_no_colon_and_counts_are_plural(gm_user):
    page = unescape(_text(_client(gm_user).get("/games/new/duelists/")))
    assert ">Resolve as soon as all orders are in</label>" in page
    assert ">Hold each resolution for my review</label>" in page
    assert "once at least 2 players joined" in page and "player(s)" not in page


def test_disputes_page_with_none_says_so_and_labels_the_text_box(gm_user, players, on_commit):
    """No empty six-column table on a phone; the box has a real label, not a placeholder."""
    game = _start(gm_user, players)
    with on_commit():
        _client(players[0]).post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 1})
        _client(players[1]).post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": 1})
    page = _text(_client(players[0]).get(f"/games/{game.pk}/disputes/"))
    assert '<p class="muted" id="no-disputes">No disputes in this game.</p>' in page
    assert 'id="disputes"' not in page
    assert '<label for="dispute-text">What went wrong?</label>' in page
    assert 'id="dispute-text"' in page and "placeholder" not in page


def test_signup_from_an_invite_link_comes_back_to_the_invite(gm_user):
    """A newcomer following 'sign up to join' lands on the game, not on the account page."""
    game = actions.create_game(gm_user, ruleset="dice_age", title="Come play")
    c = Client()
    invite = _text(c.get(f"/games/{game.pk}/invite/"))
    link = unescape(re.search(r'href="(/signup/\?next=[^"]+)"', invite).group(1))
    resp = c.post(link, {"username": "newbie", "email": "n@example.org"})
    assert resp.status_code == 302 and resp["Location"] == "/signup/sent/"
    # The mailed link makes the account and comes back to the invite, logged in.
    back = c.post(_signup_link(), {"username": "newbie", "password1": "a-long-pass-phrase",
                                   "password2": "a-long-pass-phrase"})
    assert back.status_code == 302 and back["Location"] == f"/games/{game.pk}/invite/"
    assert 'id="join"' in _text(c.get(back["Location"]))
    other = Client()
    other.post("/signup/?next=https://evil.example/", {
        "username": "newbie2", "email": "n2@example.org"})
    assert "evil.example" not in _text(other.get("/signup/sent/"))


def test_after_a_rollback_the_thread_and_feed_link_only_live_reports(gm_user, players,
                                                                     on_commit):
    """Reports of turns the GM set aside stay in the thread as a record, but without a
    link to a turn page that no longer exists (a 404) and out of the Atom feed; a turn
    reported twice links once, from its live report."""
    from gm.referee import actions as referee

    game = _start(gm_user, players, options={"max_turns": 10, "target": 100})
    alice, bob = _client(players[0]), _client(players[1])
    for number in (1, 2, 3):
        with on_commit():
            alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 2", "turn": number})
            bob.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": number})
    with on_commit():
        referee.rollback_to(game, gm_user, "a ruling", 2)
    page = _text(alice.get(f"/games/{game.pk}/"))
    links = re.findall(rf'href="(/games/{game.pk}/turns/\d+/)">Report of turn', page)
    assert links == [f"/games/{game.pk}/turns/1/"], links
    assert all(alice.get(link).status_code == 200 for link in links)
    assert page.count("set aside by the GM") == 2  # turns 2 and 3 as first reported
    with on_commit():
        alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 2})
        bob.post(f"/games/{game.pk}/orders/", {"text": "ADD 1", "turn": 2})
    page = _text(alice.get(f"/games/{game.pk}/"))
    links = re.findall(rf'href="(/games/{game.pk}/turns/\d+/)">Report of turn', page)
    assert links == [f"/games/{game.pk}/turns/{n}/" for n in (1, 2)], links
    feed = _text(alice.get(f"/games/{game.pk}/feed/"))
    ids = re.findall(r"<id>([^<]*/turns/\d+/)</id>", feed)
    assert sorted(ids) == sorted(set(ids)) and len(ids) == 2, ids


def test_the_last_owed_orders_are_told_as_read_when_the_turn_closes_at_once(gm_user,
                                                                           players,
                                                                           on_commit):
    """The last owing player's send resolves the turn at once (process early): the page
    they land on is the next turn's, whose card no longer shows their orders, so the
    receipt line says what was read and where the outcome is."""
    game = _start(gm_user, players)
    alice, bob = _client(players[0]), _client(players[1])
    with on_commit():
        first = alice.post(f"/games/{game.pk}/orders/", {"text": "add 2", "turn": 1})
    page = unescape(_text(alice.get(first["Location"])))
    assert "Orders accepted for turn 1 (version 1" in page and "Read as:" not in page
    with on_commit():
        last = bob.post(f"/games/{game.pk}/orders/", {"text": "add 1", "turn": 1})
    page = unescape(_text(bob.get(last["Location"])))
    # here the resolution runs when the captured commit callbacks do, after the view
    assert ("Orders accepted for turn 1 (version 1" in page
            and "Read as: ADD 1. Every owed order was in, so the turn is being resolved now: "
                "its report appears here when it is done." in page)
    assert game.turns.get(number=1).status == "resolved"
    # in-process (the embedded default) it has run by the time the line is written
    sub = Submission.objects.get(turn__game=game, turn__number=1, seat__name="P2")
    assert views._accepted(sub).endswith(
        "Read as: ADD 1. Every owed order was in, so the turn has been resolved: its report "
        "is below.")
