"""No accepted amendment breaks a view: the GM's amendment is refused, with the engine's
error, when any seat's view, the public or GM view, a board, the decision or the next
resolution on default orders would fail on the amended state."""

from __future__ import annotations

import random

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from games.core import registry
from gm.play import actions as play
from gm.referee import actions, patching
from gm.referee.patching import PatchError
from tests.gm.engines import TallyEngine

pytestmark = pytest.mark.django_db


class FragileTally(TallyEngine):
    """Tally with two planted bugs: invariants accept what view and resolve choke on."""

    name = "fragile_tally"

    def view(self, state, seat):
        if any(v >= 500 for v in state["totals"].values()):
            raise KeyError("board square for a total of 500")
        return super().view(state, seat)

    def resolve(self, state, orders, rng):
        if state["turn"] == 13:
            raise ZeroDivisionError("turn 13 divides by zero")
        return super().resolve(state, orders, rng)


@pytest.fixture
def fragile(tally_engine, make_game):
    registry.engines()["fragile_tally"] = FragileTally()
    try:
        yield make_game("fragile_tally", 2, process_early=False)
    finally:
        registry.engines().pop("fragile_tally")


def test_an_amendment_that_breaks_a_view_is_refused_with_the_engines_error(fragile,
                                                                          gm_user):
    before = fragile.state
    api = APIClient()
    api.force_authenticate(gm_user)
    response = api.post(f"/api/games/{fragile.pk}/gm/amend/", {
        "reason": "fix a miscount", "changes": [{"path": "/totals/P1", "value": 600}]},
        format="json")
    assert response.status_code == 400
    assert response.json()["detail"] == (
        "the amended state cannot be shown or played (KeyError: 'board square for a total "
        "of 500'); nothing was changed")
    fragile.refresh_from_db()
    assert fragile.state == before and not fragile.turns.get(number=1).amendments
    # A harmless amendment still goes through.
    ok = api.post(f"/api/games/{fragile.pk}/gm/amend/", {
        "reason": "fix a miscount", "changes": [{"path": "/totals/P1", "value": 6}]},
        format="json")
    assert ok.status_code == 200


def test_an_amendment_the_next_resolution_would_fail_on_is_refused(fragile, gm_user):
    with pytest.raises(PatchError, match="ZeroDivisionError: turn 13 divides by zero"):
        actions.amend_state(fragile, gm_user, "jump ahead",
                            [{"path": "/turn", "value": 13}])


def _leaves(state) -> list[dict]:
    return [f for f in patching.fields(state) if f["kind"] != "null"]


def _candidates(field: dict, strings: list[str]) -> list:
    kind, value = field["kind"], field["value"]
    if kind == "bool":
        return [not value]
    if kind == "int":
        return [value + 1, value - 1, 0, -1, 99, 10**6, -(10**6)]
    if kind == "float":
        return [0.0, -1.5, 1e9]
    return ["", "zzz", *rnd_strings(strings)]


def rnd_strings(strings: list[str]) -> list[str]:
    """Other strings of the same state (seat names, card and room ids): the likeliest
    values to be legal in one field and wrong in another."""
    return strings[:12]


@pytest.mark.parametrize("ruleset", ["combat_dice", "dungeonquest", "duelists", "dice_age",
                                     "duel_of_ages"])
def test_every_accepted_amendment_leaves_pages_and_api_working(ruleset, make_game, gm_user,
                                                               players, make_user):
    game = make_game(ruleset, 2, process_early=False)
    readers = {"gm": gm_user, "P-a": players[0], "P-b": players[1],
               "outsider": make_user("outsider"), "anonymous": None}
    fields = _leaves(game.state)
    strings = sorted({f["value"] for f in fields if f["kind"] == "str"})
    rnd = random.Random(f"amend/{ruleset}")
    accepted = refused = 0
    for _ in range(14):
        field = rnd.choice(fields)
        value = rnd.choice([v for v in _candidates(field, strings) if v != field["value"]])
        with transaction.atomic():
            try:
                actions.amend_state(game, gm_user, "probe",
                                    [{"path": field["path"], "value": value}])
            except PatchError:
                refused += 1
            else:
                accepted += 1
                fresh = type(game).objects.get(pk=game.pk)
                for who, user in readers.items():
                    api, web = APIClient(), Client()
                    if user is not None:
                        api.force_authenticate(user)
                        web.force_login(user)
                    assert api.get(f"/api/games/{game.pk}/").status_code == 200, (
                        who, field, value)
                    assert web.get(f"/games/{game.pk}/").status_code == 200, (
                        who, field, value)
                    play.game_summary(fresh, user)
            transaction.set_rollback(True)
        game.refresh_from_db()
    assert accepted + refused == 14
