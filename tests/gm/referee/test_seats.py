"""Replacing a seat's player from the GM desk: anyone may take it but, where the ruleset
hides information, nobody who sees everything (the GM, a co-GM, a site admin). The desk
says so before the GM tries, and the refusal names the reason, as joining does."""

from __future__ import annotations

from html import unescape

import pytest
from django.test import Client

from games.core import registry
from gm.play import actions as play

from .toy_engine import ToyRace


def _desk(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _replace(client: Client, game, seat: str, username: str) -> str:
    page = client.post(f"/games/{game.pk}/gm/do/seat-user/",
                       {"seat": seat, "username": username, "reason": "left the game"},
                       follow=True)
    return unescape(page.content.decode())


def test_another_player_takes_the_seat(race, gm_user, make_user):
    make_user("erin")
    page = _replace(_desk(gm_user), race, "P2", "erin")
    assert "Seat P2 is now played by erin." in page
    assert race.seats.get(name="P2").user.username == "erin"


@pytest.mark.parametrize("who, what", [("gamemaster", "this game's GM"),
                                       ("cogm", "a co-GM of this game")])
def test_where_cards_are_hidden_a_gm_is_refused_with_the_reason(race, gm_user, who, what):
    desk = _desk(gm_user)
    rule = unescape(desk.get(f"/games/{race.pk}/gm/").content.decode())
    assert ("hides information, and the GM, co-GMs and site admins see all of it: a seat "
            "can go to any other player, never to one of them.") in rule
    page = _replace(desk, race, "P2", who)
    assert (f"{who} is {what} and sees every hidden card and die, so {who} cannot take a "
            "seat in it: choose another player for seat P2") in page
    assert race.seats.get(name="P2").user.username == "bob"


class OpenRace(ToyRace):
    name = "open_race"
    title = "Open race"
    hidden_information = False


@pytest.fixture
def open_race(make_game):
    registry.engines()[OpenRace.name] = OpenRace()
    yield make_game(OpenRace.name, 2, options={"rounds": 5})
    registry.engines().pop(OpenRace.name)


def test_where_nothing_is_hidden_the_gm_may_take_over_a_seat(open_race, gm_user):
    """As at joining (a GM may play in such a game), so at a replacement."""
    desk = _desk(gm_user)
    assert 'id="seat-rule"' not in desk.get(f"/games/{open_race.pk}/gm/").content.decode()
    page = _replace(desk, open_race, "P2", "gamemaster")
    assert "Seat P2 is now played by gamemaster." in page
    assert play.viewer_for(open_race, gm_user) == "P2"
