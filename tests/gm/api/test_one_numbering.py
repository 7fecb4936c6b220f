"""The API's prompt names the service's turn, as the game page and the mails do: an
engine's own count ("Orders for combat turn 1" while the game is at turn 2) is rewritten
and named once in `turn.own_count`."""

from __future__ import annotations

import re

from django.test import Client
from rest_framework.test import APIClient

from gm.mail.models import Outbox
from gm.play.models import Game


def test_api_prompt_title_agrees_with_page_and_mail(make_game, players, play_defaults):
    game = make_game("combat_dice", 2)
    play_defaults(game)
    turn = Game.objects.get(pk=game.pk).current_turn()
    assert turn.number == 2
    own = turn.decision["prompts"]["P1"]["title"]
    assert "combat turn 1" in own.lower()  # the engine counts its own turns

    api = APIClient()
    api.force_authenticate(players[0])
    data = api.get(f"/api/games/{game.pk}/").json()
    title = data["turn"]["my_prompt"]["title"]
    assert title != own and re.sub(r"(?i)combat turn 1", "turn 2", own) == title
    assert data["turn"]["own_count"] == "combat turn 1"

    web = Client()
    web.force_login(players[0])
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert f'<strong id="prompt-title">{title}</strong>' in page
    mail = Outbox.objects.filter(kind="turn_opened", turn=turn, to=players[0].email).get()
    assert title in mail.body_text
    assert set(re.findall(r"\bturn (\d+)", mail.subject + title, re.I)) == {"2"}


def test_a_prompt_already_in_the_services_count_is_left_alone(make_game, players):
    game = make_game("tally", 2)
    api = APIClient()
    api.force_authenticate(players[0])
    data = api.get(f"/api/games/{game.pk}/").json()
    raw = Game.objects.get(pk=game.pk).current_turn().decision["prompts"]["P1"]
    assert data["turn"]["my_prompt"] == raw and data["turn"]["own_count"] is None
