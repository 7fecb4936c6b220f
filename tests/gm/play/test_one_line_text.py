"""One-line text other people see (game titles, token labels): bidirectional controls and
line breaks are refused where the text enters, by web and API alike, with the reason."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from rest_framework.test import APIClient

from gm.accounts.models import ApiToken
from gm.play import actions
from gm.play.errors import ActionError
from gm.play.models import Game
from gm.play.text import BIDI_CONTROLS, one_line

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tally_engine")]

RLO = "\u202e"


@pytest.mark.parametrize("ch", sorted(BIDI_CONTROLS))
def test_every_bidi_control_is_refused_by_name(ch):
    with pytest.raises(ActionError) as caught:
        one_line(f"Duel {ch}txt.exe", "a game title")
    assert f"U+{ord(ch):04X}" in caught.value.message
    assert caught.value.message.startswith("a game title cannot hold the invisible character")


def test_line_breaks_and_controls_are_refused_and_plain_text_kept():
    for bad, said in (("Two\nlines", "a line break"), ("A\rB", "a line break"),
                      ("Nul\x00", "the control character U+0000")):
        with pytest.raises(ActionError, match=re.escape(said)):
            one_line(bad, "a game title")
    # Right-to-left scripts and marks that are not controls are fine.
    for good in ("  Duel of the Mages  ", "دوئل", "שחקנים", "Café – naïve ✓"):
        assert one_line(good, "a game title") == good.strip()


def test_a_game_title_with_an_rtl_override_is_refused_by_api_and_web(gm_user):
    api = APIClient()
    api.force_authenticate(gm_user)
    r = api.post("/api/games/", {"ruleset": "tally", "title": f"Evil {RLO}lanif"},
                 format="json")
    assert r.status_code == 400
    assert "U+202E (RIGHT-TO-LEFT OVERRIDE)" in r.json()["detail"]
    web = Client()
    web.force_login(gm_user)
    page = unescape(web.post("/games/new/tally/", {
        "title": f"Evil {RLO}lanif", "role": "referee", "turn_hours": "48",
        "turn_minutes": "0", "process_early": "on", "option_max_turns": "3",
        "option_target": "10"}).content.decode())
    assert "a game title cannot hold the invisible character U+202E" in page
    assert not Game.objects.exists()
    with pytest.raises(ActionError, match=re.escape("U+2067")):
        actions.create_game(gm_user, ruleset="tally", title="Plain \u2067isolate\u2069")


def test_a_token_label_with_a_bidi_control_makes_no_token(make_user):
    alice = make_user("alice")
    web = Client()
    web.force_login(alice)
    r = web.post("/account/tokens/", {"label": f"bot {RLO}gnp.exe"})
    assert r.status_code == 400
    assert "cannot hold the invisible character U+202E" in unescape(r.content.decode())
    assert not ApiToken.objects.filter(user=alice).exists()
    assert web.post("/account/tokens/", {"label": "my bot"}).status_code == 200
    assert ApiToken.objects.get(user=alice).label == "my bot"
