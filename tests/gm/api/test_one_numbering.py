"""One turn number on page, mail, report and API (issues 28 and 30): engines name their
own round in words ("Orders for combat round 1"), so the API serves the prompt as the
engine wrote it, and page and mail show the same title, with no rewriting by regex."""

from __future__ import annotations

import re

from django.test import Client
from rest_framework.test import APIClient

from games.core.rng import Rng
from gm.mail.models import Outbox
from gm.play.models import Game


def test_api_prompt_title_agrees_with_page_and_mail(make_game, players, play_defaults):
    game = make_game("combat_dice", 2)
    play_defaults(game)
    turn = Game.objects.get(pk=game.pk).current_turn()
    assert turn.number == 2
    own = turn.decision["prompts"]["P1"]["title"]
    assert own == "Orders for combat round 1"  # the game's own round, in words

    api = APIClient()
    api.force_authenticate(players[0])
    data = api.get(f"/api/games/{game.pk}/").json()
    assert data["turn"]["my_prompt"]["title"] == own and "own_count" not in data["turn"]

    web = Client()
    web.force_login(players[0])
    page = web.get(f"/games/{game.pk}/").content.decode()
    assert f'<strong id="prompt-title">{own}</strong>' in page
    mail = Outbox.objects.filter(kind="turn_opened", turn=turn, to=players[0].email).get()
    assert own in mail.body_text
    assert set(re.findall(r"\bturn (\d+)", mail.subject + mail.body_text, re.I)) == {"2"}


def test_no_engine_writes_a_turn_number_into_its_prompts(make_game):
    """Every ruleset's first prompts name no "turn <n>": the service's count is the only
    one (the regex that rewrote them, gm.mail.notices.one_numbering, is gone)."""
    from gm.play import actions

    for ruleset, n in (("combat_dice", 2), ("duelists", 2), ("dungeonquest", 2),
                       ("dice_age", 2), ("duel_of_ages", 2)):
        game = make_game(ruleset, n, title=f"numbering {ruleset}")
        engine = actions.engine_for(game)
        state = engine.from_json(game.state)
        for _ in range(6):  # a few decisions in, default orders all round
            decision = engine.decision(state)
            if decision is None:
                break
            for prompt in decision.prompts.values():
                text = f"{prompt.get('title', '')}\n{prompt.get('help', '')}"
                assert not re.search(r"\bturn \d", text, re.I), (ruleset, text)
            assert not re.search(r"\bturn \d", decision.phase or "", re.I), ruleset
            orders = {s: engine.default_orders(state, s) for s in decision.prompts}
            state, _events = engine.resolve(state, orders, Rng(b"k" * 32, f"t{_}"))
