"""Every guardian card at every success level: its results carried out in the card's
order (defeated, draw N, lose, heal N, dismissed, banished)."""

import pytest

from games.duel_of_ages import catalog, hexmap
from games.duel_of_ages.challenge import challenge_number

from .helpers import kinds, make, play

LEVELS = ("AMAZE", "PASS", "SQUEAK", "FAIL", "FOPP")


def _challenger(guardian: dict) -> tuple[str, int]:
    """A character whose number against this guardian is 4..10, so every level can be
    rolled (the age bonus and his guardian bonus included)."""
    for key, c in sorted(catalog.characters().items()):
        bonus = (c["age"] == guardian["age"]) + c["abilities"].get("guardian_bonus", 0)
        number = challenge_number(c[guardian["rating"]], guardian["against"], bonus)
        if 4 <= number <= 10 and not c["abilities"].get("regenerate") \
                and not c["abilities"].get("medic"):
            return key, number
    raise AssertionError(f"no character fits {guardian['title']}")


def _dice(level: str, number: int) -> list[int]:
    total = {"AMAZE": 2, "PASS": number - 1, "SQUEAK": number, "FAIL": number + 1,
             "FOPP": 12}[level]
    return [1, total - 1] if total <= 7 else [total - 6, 6]


@pytest.mark.parametrize("key, level", [(k, lv) for k in sorted(catalog.guardians())
                                        for lv in LEVELS])
def test_guardian_results(key, level):
    guardian = catalog.guardians()[key]
    age = guardian["age"]
    who, number = _challenger(guardian)
    eye = hexmap.labyrinths()[age][-1]
    state = make({who: ("White", eye, ["SLING", "TONIC"], 2)})
    deck = state["labyrinths"][age]["deck"]
    deck.insert(0, deck.pop(deck.index(key)))
    effects = guardian[level]
    script = [("guardian", d) for d in _dice(level, number)] + [
        (e, 1) for e in effects if e in ("dismissed", "banished")]
    after, events = play(state, {"White": f"CHALLENGE {who}"}, script)
    seen = kinds(events, "guardian")[0]
    assert (seen["level"], seen["results"]) == (level, effects)
    lab = after["labyrinths"][age]
    defeated = "defeated" in effects
    assert lab["positions"]["White"] == len(hexmap.labyrinths()[age]) - 1 - defeated
    assert (lab["deck"][-1] == key) is defeated and lab["face_up"] is (not defeated)
    cards = [e["card"] for e in after["chars"][who]["cards"]]
    drawn = sum(int(e.split()[1]) for e in effects if e.startswith("draw"))
    if "lose" in effects:
        lost_at = effects.index("lose")
        kept = sum(int(e.split()[1]) for e in effects[lost_at:] if e.startswith("draw"))
        assert len(cards) == kept
    else:
        assert len(cards) == min(4, 2 + drawn) and cards[:2] == ["SLING", "TONIC"]
    healed = sum(int(e.split()[1]) for e in effects if e.startswith("heal"))
    assert after["chars"][who]["health"] == min(catalog.character(who)["health"], 2 + healed)
    placed = [p["how"] for p in kinds(events, "placed")]
    assert placed == [e for e in effects if e in ("dismissed", "banished")]
