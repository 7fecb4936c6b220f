"""Who may do what on the pages: anonymous, an outsider, another seat, the seat, the GM."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

from gm.play.models import Post, Submission

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "outsider", "other_seat", "seat", "gm"]


@pytest.fixture
def world(make_game, make_user, players, gm_user):
    game = make_game("tally", 2, process_early=False)
    users = {"anonymous": None, "outsider": make_user("outsider"), "other_seat": players[1],
             "seat": players[0], "gm": gm_user}
    clients = {}
    for role, user in users.items():
        clients[role] = Client()
        if user is not None:
            clients[role].force_login(user)
    return game, clients


def _view_on_page(html: str) -> dict:
    match = re.search(r'<pre id="view">(.*?)</pre>', html, re.S)
    return json.loads(unescape(match.group(1)))


def test_game_page_shows_each_reader_only_their_view(world):
    game, clients = world
    secrets = game.state["secret"]
    expected = {"anonymous": {}, "outsider": {}, "other_seat": {"my_secret": secrets["P2"]},
                "seat": {"my_secret": secrets["P1"]}, "gm": {"secret": secrets}}
    for role in ROLES:
        page = clients[role].get(f"/games/{game.pk}/")
        assert page.status_code == 200
        html = page.content.decode()
        view = _view_on_page(html)
        hidden = {k: view[k] for k in ("my_secret", "secret") if k in view}
        assert hidden == expected[role], role
        assert ("GM desk" in html) == (role == "gm")
        # issue 28: the send button reads "Send and ready" now; its id is unchanged
        assert ('id="send-orders"' in html) == (role in ("seat", "other_seat"))


@pytest.mark.parametrize("role,kept", [("anonymous", False), ("outsider", False),
                                       ("other_seat", True), ("seat", True), ("gm", False)])
def test_posting_orders(world, role, kept):
    game, clients = world
    resp = clients[role].post(f"/games/{game.pk}/orders/", {"text": "ADD 2"})
    assert resp.status_code == 302
    if role == "anonymous":
        assert resp["Location"].startswith("/login/")
    assert Submission.objects.filter(turn__game=game).exists() == kept


@pytest.mark.parametrize("role,posted", [("anonymous", False), ("outsider", False),
                                         ("other_seat", True), ("seat", True), ("gm", True)])
def test_thread_posts(world, role, posted):
    game, clients = world
    clients[role].post(f"/games/{game.pk}/thread/", {"markdown": f"hello from {role}"})
    assert Post.objects.filter(game=game, markdown=f"hello from {role}").exists() == posted


def test_only_the_gm_starts_and_nobody_joins_a_running_game(make_game, make_user, gm_user,
                                                            players):
    game = make_game("tally", 1, start=False)
    outsider = Client()
    outsider.force_login(make_user("outsider"))
    seat = Client()
    seat.force_login(players[0])
    gm = Client()
    gm.force_login(gm_user)
    for client in (Client(), outsider, seat):
        client.post(f"/games/{game.pk}/start/")
        game.refresh_from_db()
        assert game.status == "open"
    gm.post(f"/games/{game.pk}/start/")
    game.refresh_from_db()
    assert game.status == "running"
    outsider.post(f"/games/{game.pk}/join/")
    assert game.seats.count() == 1


def test_feed_and_lobby_are_public(world):
    game, clients = world
    assert clients["anonymous"].get(f"/games/{game.pk}/feed/").status_code == 200
    assert clients["anonymous"].get("/").status_code == 200
    assert clients["anonymous"].get("/games/new/").status_code == 302  # log in first
