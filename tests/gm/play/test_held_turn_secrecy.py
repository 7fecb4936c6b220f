"""While a turn is held for the GM's review its outcome is the GM's alone: a player's
order preview (the live preview and the form's Preview button) reads the published
state, never the held one (found by the no-leak test: a Duelists preview said "PLAN is
not yours to give while you are the defender" of the turn not yet reported)."""

from __future__ import annotations

import random
from html import unescape

import pytest
from django.test import Client

from games.core import registry
from games.core.types import OrdersInvalid
from gm.play import actions
from gm.play.models import Game, Turn, TurnRecord

pytestmark = pytest.mark.django_db


def _verdict(engine, state, seat: str, text: str) -> tuple[bool, list[str]]:
    try:
        return True, engine.parse_orders(engine.from_json(state), seat, text).text.splitlines()
    except OrdersInvalid as exc:
        return False, [e.message for e in exc.errors]


def _held_game(make_game, on_commit) -> tuple[Game, TurnRecord]:
    """A Duelists game played until a turn is held whose outcome changes what parses."""
    game = make_game("duelists", 2, hold_for_review=True)
    engine = registry.get("duelists")
    rnd = random.Random("held")
    while True:
        game.refresh_from_db()
        turn = game.current_turn()
        assert game.status == Game.Status.RUNNING, "no held turn changed what parses"
        if turn.status == Turn.Status.HELD:
            record = TurnRecord.objects.get(turn=turn)
            if _probes(engine, game, record):
                return game, record
            from gm.referee import actions as referee

            with on_commit():
                referee.release(game, game.gm, "ok")
            continue
        state = engine.from_json(game.state)
        for name in turn.owing:
            text = engine.random_orders(state, name, lambda s: list(s)[rnd.randrange(len(s))])
            with on_commit():
                actions.submit_orders(game, game.seats.get(name=name), text)


def _probes(engine, game: Game, record: TurnRecord) -> list[tuple[str, str]]:
    """(seat, text) whose verdict on the held outcome differs from the published one."""
    rnd = random.Random("probe")
    found = []
    for seat in ("P1", "P2"):
        for _ in range(10):
            try:
                text = engine.random_orders(engine.from_json(game.state), seat,
                                            lambda s: list(s)[rnd.randrange(len(s))])
            except Exception:  # noqa: BLE001 - a seat that owes nothing next
                break
            if _verdict(engine, game.state, seat, text) != \
                    _verdict(engine, record.state_before, seat, text):
                found.append((seat, text))
                break
    return found


def test_a_preview_reads_the_published_state_while_a_turn_is_held(make_game, on_commit):
    game, record = _held_game(make_game, on_commit)
    engine = registry.get("duelists")
    for seat, text in _probes(engine, game, record):
        client = Client()
        client.force_login(game.seats.get(name=seat).user)
        ok, said = _verdict(engine, record.state_before, seat, text)
        live = client.post(f"/games/{game.pk}/orders/preview.json", {"text": text}).json()
        assert live["ok"] is ok, (seat, text, live)
        assert (live["orders"] if ok else [e["message"] for e in live["errors"]]) == said
        page = unescape(client.post(f"/games/{game.pk}/orders/",
                                    {"text": text, "preview": "1"}).content.decode())
        wrong = _verdict(engine, game.state, seat, text)[1]
        assert all(line in page for line in said), (seat, text)
        assert not any(line in page for line in wrong if line not in said), (seat, text)
