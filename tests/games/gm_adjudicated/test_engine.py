"""The GM-adjudicated engine without the service: dice expressions, the adjudication
language, the players' checks, reveal modes, seat changes and what each reader sees."""

from __future__ import annotations

import pytest

from games.core import registry
from games.core.replay import run_setup, run_turn, secret_rng
from games.core.rng import ScriptedRng
from games.core.types import OptionError, OrdersInvalid
from games.gm_adjudicated import dice

ENGINE = registry.get("gm_adjudicated")
SECRET = "ab" * 32


@pytest.mark.parametrize("expr,script,total", [
    ("2d6+1", [3, 5], 9),
    ("d100", [42], 42),
    ("4d6 keep 3", [1, 6, 4, 2], 12),
    ("4d6 kl 1", [5, 3, 6, 4], 3),
    ("3d8 - 2", [1, 1, 1], 1),
    ("1d4 + 2d6 - 1", [4, 6, 6], 15),
])
def test_dice_expressions(expr, script, total):
    rng = ScriptedRng(script)
    got = dice.roll(rng, "test", expr)
    assert got["total"] == total and rng.remaining == 0
    assert [d.label for d in rng.draws] == [f"test#{i + 1}" for i in range(len(script))]
    assert str(total) in dice.describe(got)


@pytest.mark.parametrize("expr,message", [
    ("", "empty"), ("2d", "cannot read"), ("0d6", "1 to 100 dice"), ("d1", "2 to 1000"),
    ("4d6 keep 5", "keep 5 of 4"), ("2d6 3", r"joined with \+ or -"), ("+".join(["d6"] * 11), "at most 10 terms"),
])
def test_bad_dice_say_why(expr, message):
    with pytest.raises(dice.DiceError, match=message):
        dice.parse(expr)


def _game(**options):
    opts = ENGINE.new_game_options({"seats": "France, England, Germany", **options})
    seats = ENGINE.seat_names_for(3, opts)
    setup = run_setup(ENGINE, seats, opts, secret_rng(SECRET, None))
    return setup.state, seats


def _close(state, texts, number=1):
    orders = {s: ENGINE.parse_orders(state, s, t) if t else ENGINE.default_orders(state, s)
              for s, t in texts.items()}
    return run_turn(ENGINE, state, orders, secret_rng(SECRET, number))


def test_seats_are_named_and_the_gm_is_a_pseudo_seat():
    state, seats = _game()
    assert seats == ["France", "England", "Germany"]
    assert ENGINE.decision(state).seats == ["England", "France", "Germany"]
    step = _close(state, {"France": "attack", "England": "hold", "Germany": ""})
    assert ENGINE.decision(step.state).seats == ["GM"] and "GM" in ENGINE.pseudo_seats
    assert step.state["missing"] == ["Germany"]
    with pytest.raises(OptionError, match="not a seat name"):
        ENGINE.validate_options({"seats": "France, GM"})
    with pytest.raises(OptionError, match="same name"):
        ENGINE.validate_options({"seats": "A, A"})


def test_player_checks_have_clear_errors():
    state, _ = _game(max_lines=2, first_words="ARMY, FLEET")
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "France", "Army Paris holds\nRetreat\nFleet Brest holds")
    messages = [str(e) for e in exc.value.errors]
    assert any("at most 2 lines" in m for m in messages)
    assert any(m.startswith("line 2: a line must start with one of: ARMY, FLEET")
               for m in messages)
    assert ENGINE.parse_orders(state, "France", "no orders").items == []


def test_adjudication_errors_name_their_lines():
    state, _ = _game()
    step = _close(state, {"France": "a", "England": "b", "Germany": "c"})
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(step.state, "GM", "ok\n@private Narnia\n@roll x: 2q\n@draw y: none"
                                              "\n@frobnicate")
    assert [e.line for e in exc.value.errors] == [2, 3, 4, 5]


@pytest.mark.parametrize("reveal,public_sees", [("after_turn", True), ("gm_only", False),
                                                ("never", False)])
def test_reveal_modes(reveal, public_sees):
    state, _ = _game(reveal=reveal)
    step = _close(state, {"France": "SECRET-PLAN", "England": "b", "Germany": "c"})
    assert "SECRET-PLAN" not in ENGINE.report(step.events, "England")
    assert "SECRET-PLAN" in ENGINE.report(step.events, "France")
    gm = ENGINE.parse_orders(step.state, "GM", "Done.")
    done = run_turn(ENGINE, step.state, {"GM": gm}, secret_rng(SECRET, 2))
    assert ("SECRET-PLAN" in ENGINE.report(done.events, None)) is public_sees
    assert ("SECRET-PLAN" in ENGINE.report(done.events, "*")) is (reveal != "never")


def test_rolls_sheets_notes_seat_changes_and_the_end():
    state, _ = _game(decks="omens: raven, comet")
    step = _close(state, {"France": "a", "England": "b", "Germany": "c"})
    text = ("@roll storm: 2d6\n@roll storm: 2d6\n@secret-roll spy: d20\n@draw omen: omens\n"
            "The storm is {storm}; the omen {omen}.\n@private France\nspy: {spy}\n"
            "@sheet England\nHP 3\n@notes\nbribe\n@remove Germany\n@add Villager")
    gm = ENGINE.parse_orders(step.state, "GM", text)
    done = run_turn(ENGINE, step.state, {"GM": gm}, secret_rng(SECRET, 2))
    labels = [d.label for d in done.draws]
    assert labels == ["roll 1: storm#1", "roll 1: storm#2", "roll 2: storm#1",
                      "roll 2: storm#2", "roll 3: spy#1", "draw 4: omen#1"]
    public = ENGINE.report(done.events, None)
    assert "roll 1, storm" in public and "roll 2, storm" in public  # the reroll is listed
    assert "spy" not in public and "bribe" not in public and "HP 3" not in public
    assert "spy: " in ENGINE.report(done.events, "France")
    assert ENGINE.view(done.state, "England")["sheet"] == {"text": "HP 3", "version": 1}
    assert "notes" not in ENGINE.view(done.state, "England")
    assert ENGINE.view(done.state, "*")["notes"]["text"] == "bribe"
    assert done.state["seats"] == ["France", "England", "Villager"]
    assert ENGINE.decision(done.state).seats == ["England", "France", "Villager"]
    assert len(done.state["decks"]["omens"]["left"]) == 1
    final = _close(done.state, {"France": "x", "England": "y", "Villager": "z"}, 3)
    end = run_turn(ENGINE, final.state, {"GM": ENGINE.parse_orders(final.state, "GM", "@end")},
                   secret_rng(SECRET, 4))
    assert ENGINE.decision(end.state) is None


def test_a_late_gm_is_asked_again():
    state, _ = _game()
    step = _close(state, {"France": "a", "England": "b", "Germany": "c"})
    late = run_turn(ENGINE, step.state, {"GM": ENGINE.default_orders(step.state, "GM")},
                    secret_rng(SECRET, 2))
    assert late.state["late"] == 1 and ENGINE.decision(late.state).seats == ["GM"]
    assert "late" in ENGINE.report(late.events, None)
