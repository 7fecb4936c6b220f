"""A replaced player reads the game as any outsider does: the seat's private reports,
its press, its orders, its prompt and its reply address go with the seat to the new
player, not with the person who left (the seat's history is the seat's)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from gm.play.models import Game
from gm.referee import actions as referee
from gm.talk import actions as talk

pytestmark = pytest.mark.django_db


def _read(user, urls: list[str]) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    out = {}
    for url in urls:
        body = client.get(url).content.decode()
        body = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"|'
                      r'nonce-[A-Za-z0-9+/=_-]+|"csrfToken":\s*"[^"]*"', "", body)
        out[url] = re.sub(rf"\b{user.username}\b", "READER", body)
    return out


def test_a_replaced_player_reads_what_an_outsider_reads(make_game, make_user, gm_user,
                                                        players, play_defaults, on_commit):
    game = make_game("tally", 2, options={"target": 100})
    play_defaults(game)
    with on_commit():
        talk.send(game, players[1], "P1", "press for whoever plays P1")
    old = players[0]
    with on_commit():
        referee.replace_player(Game.objects.get(pk=game.pk), gm_user, "left",
                               "P1", make_user("newcomer"))
    # the outsider holds no seat, like the old player now; their own name is masked
    outsider = make_user("outsider")
    gid = game.pk
    urls = [f"/games/{gid}/", f"/games/{gid}/live.json", f"/games/{gid}/turns/1/",
            f"/api/games/{gid}/", f"/api/games/{gid}/reports/", f"/api/games/{gid}/orders/",
            f"/api/games/{gid}/reports/1/", "/mail/preferences/", "/"]
    theirs, outside = _read(old, urls), _read(outsider, urls)
    for url in urls:
        assert theirs[url] == outside[url], url
    assert "your secret die" not in "".join(theirs.values())
