"""Server-rendered pages with Django's test client (the browser tests drive the same)."""

from __future__ import annotations

import pytest
from django.test import Client

from gm.play import actions
from gm.play.models import Game, Post

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def test_signup_then_lobby():
    c = Client()
    resp = c.post("/signup/", {"username": "newbie", "email": "n@example.org",
                               "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"})
    assert resp.status_code == 302
    assert "newbie" in c.get("/").content.decode()


def test_new_game_form_names_allowed_values(gm_user):
    c = _client(gm_user)
    page = c.get("/games/new/").content.decode()
    assert "Tally (test game)" in page and "target" in page
    resp = c.post("/games/new/", {"ruleset": "tally", "title": "Web", "options": "target = 3",
                                  "turn_hours": 1, "turn_minutes": 0, "process_early": "on"})
    assert resp.status_code == 200
    assert "option &#x27;target&#x27;: 3 is outside 5..100" in resp.content.decode()
    resp = c.post("/games/new/", {"ruleset": "tally", "title": "Web", "options": "target = 20",
                                  "turn_hours": 1, "turn_minutes": 0})
    game = Game.objects.get(title="Web")
    assert resp.status_code == 302 and game.options["target"] == 20
    assert game.process_early is False


def test_game_page_join_start_order_and_report(gm_user, players, on_commit):
    gm = _client(gm_user)
    game = actions.create_game(gm_user, ruleset="tally", title="Page game",
                               options={"max_turns": 2})
    alice = _client(players[0])
    assert alice.post(f"/games/{game.pk}/join/").status_code == 302
    assert "Start the game" in gm.get(f"/games/{game.pk}/").content.decode()
    gm.post(f"/games/{game.pk}/start/")
    page = alice.get(f"/games/{game.pk}/").content.decode()
    assert "Waiting for:" in page and "ADD 1" in page and "play+" in page
    bad = alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 7"})
    assert bad.status_code == 400
    assert "Line 1: ADD amount 7 is out of range — use 1..3" in bad.content.decode()
    with on_commit():
        alice.post(f"/games/{game.pk}/orders/", {"text": "ADD 2"})
    ok = alice.get(f"/games/{game.pk}/")
    text = ok.content.decode()
    assert "Orders accepted (version 1" in text
    assert "Turn 2" in text
    assert "P1 adds 2" in text  # process_early: the turn resolved and the report shows
    assert "your secret die" in text


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


def test_lobby_shows_what_i_owe(make_game, players):
    make_game("tally", 2, title="Owing game")
    page = _client(players[0]).get("/").content.decode()
    assert "Owing game" in page and "orders due" in page
