"""Nobody who sees everything plays: GMs, co-GMs and site admins take no seat where cards
are hidden, by API or web; a seated GM (old data) still reads only the seat's view."""

from __future__ import annotations

from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.core import registry
from gm.play import actions
from gm.play.errors import Conflict
from gm.play.models import Seat
from gm.referee import actions as referee
from tests.gm.engines import TallyEngine

pytestmark = pytest.mark.django_db
REASON = "seating a GM is refused because the GM sees every hidden card and die"
# Each is told the true reason: a site admin is no GM of the game.
WHY = {"gm": "you are this game's GM and see every hidden card and die",
       "co_gm": "you are a co-GM of this game and see every hidden card and die",
       "site_admin": "you are a site admin, and site admins see every hidden card and die "
                     "of every game, so you cannot take a seat in a game that hides any"}


@pytest.fixture
def open_game(gm_user, make_user):
    game = actions.create_game(gm_user, ruleset="tally", title="Open table")
    co = make_user("cogm")
    game.co_gms.add(co)
    admin = get_user_model().objects.create_superuser("siteadmin", "a@example.org", "pw-x-1")
    return game, {"anonymous": None, "outsider": make_user("outsider"), "gm": gm_user,
                  "co_gm": co, "site_admin": admin}


def _api(user) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_join_matrix_over_the_api(open_game):
    game, users = open_game
    expected = {"anonymous": 401, "outsider": 201, "gm": 409, "co_gm": 409, "site_admin": 409}
    for role, user in users.items():
        response = _api(user).post(f"/api/games/{game.pk}/seats/")
        assert response.status_code == expected[role], (role, response.content)
        if response.status_code == 409:
            assert response.json()["detail"].startswith(WHY[role]), (role, REASON)
    assert list(game.seats.values_list("user__username", flat=True)) == ["outsider"]


@pytest.mark.parametrize("role", ["gm", "co_gm", "site_admin"])
def test_the_web_join_and_the_invite_show_the_reason(open_game, role):
    game, users = open_game
    web = Client()
    web.force_login(users[role])
    page = unescape(web.post(f"/games/{game.pk}/join/", follow=True).content.decode())
    assert f"You could not join: {WHY[role]}" in page
    assert "a GM of this game" not in page or role == "co_gm"
    invite = unescape(web.get(f"/games/{game.pk}/invite/").content.decode())
    assert 'id="join"' not in invite and "Y" + WHY[role][1:] in invite
    assert not game.seats.exists()


def test_a_site_admin_who_co_gms_the_game_is_told_so(open_game):
    game, users = open_game
    game.co_gms.add(users["site_admin"])
    assert actions.seat_barred(game, users["site_admin"]).startswith(WHY["co_gm"])
    assert actions.seat_barred(game, users["outsider"]) == ""


def test_a_gm_may_play_where_nothing_is_hidden(gm_user, tally_engine):
    class OpenTally(TallyEngine):
        name = "open_tally"
        hidden_information = False

    registry.engines()["open_tally"] = OpenTally()
    try:
        game = actions.create_game(gm_user, ruleset="open_tally", title="Nothing hidden")
        assert actions.join_game(game, gm_user).name == "P1"
    finally:
        registry.engines().pop("open_tally")


def test_a_seated_gm_reads_the_seat_view_never_the_full_state(make_game, players, gm_user):
    game = make_game("tally", 2)
    # A seat held from before the rule (or given through the admin): the seat wins.
    seat = game.seats.get(user=players[0])
    game.co_gms.add(players[0])
    assert actions.viewer_for(game, players[0]) == seat.name
    view = actions.view_for(game, players[0])
    assert "secret" not in view and view["my_secret"] == game.state["secret"]["P1"]
    detail = _api(players[0]).get(f"/api/games/{game.pk}/").json()
    assert "secret" not in detail["view"]
    # The seatless GM still gets the full state.
    assert actions.viewer_for(game, gm_user) == actions.GM_VIEWER
    assert Seat.objects.filter(game=game).count() == 2


def test_a_seated_player_cannot_be_made_co_gm(make_game, players, gm_user):
    game = make_game("tally", 2)
    with pytest.raises(Conflict, match="plays in this game and cannot be its co-GM"):
        referee.set_co_gm(game, gm_user, "extra eyes", "alice", True)
    assert not game.co_gms.exists()
