"""One scenario (or table) per special card and token."""

from __future__ import annotations

import pytest

from games.duelists.engine import ENGINE

from .helpers import duel, kinds, names, play, queue_names, seat

ISDRA_HAND = ["Lunge", "Lunge", "Lunge", "Flurry", "Flurry", "Armor", "Armor"]
NATHRAX_HAND = ["Armor", "Armor", "Harpoon Lunge", "Patient Stance", "Spear Thrust",
                "Haft Strike", "Haft Strike"]
HARYS_HAND = ["Armor", "Armor", "Palm Strike", "Palm Strike", "Spirit Kick", "Spirit Kick",
              "Crescent Kick"]
NATHRAX_DECK = ["Spear Thrust", "Spear Thrust", "Armor", "Fur Guard", "Fur Guard", "Armor"]
ISDRA_DECK = ["Quick Stab", "Slashing Arc", "Armor", "Armor", "Slashing Arc", "Armor"]
HARYS_DECK = ["Palm Strike", "Crescent Kick", "Armor", "Armor", "Armor", "Calm Mind"]


def isdra(queue, **kw):
    return seat("isdra", hand=kw.pop("hand", ISDRA_HAND), deck=kw.pop("deck", ISDRA_DECK),
                queue=queue, **kw)


def nathrax(queue, **kw):
    return seat("nathrax", hand=kw.pop("hand", NATHRAX_HAND), deck=kw.pop("deck", NATHRAX_DECK),
                queue=queue, **kw)


def harys(queue, **kw):
    return seat("harys", hand=kw.pop("hand", HARYS_HAND), deck=kw.pop("deck", HARYS_DECK),
                queue=queue, **kw)


def up(name, **kw):
    return {"name": name, "up": True, **kw}


FUR_LEFT = [up("Fur Guard"), "Spear Thrust", "Haft Strike"]  # Slash 3, Stab 2, Blunt 4


@pytest.mark.parametrize("special, discarded, guesses", [
    ("Follow Up Attack", "Quick Stab", 1),    # Stab 2 on Fur Guard, -1 after a Stab card
    ("Follow Up Attack", "Crossed Blades", 2),
    ("Feint", "Crossed Blades", 2),           # Slash 3, -1 after a card without Stab
    ("Feint", "Quick Stab", 3),
])
def test_follow_up_attack_and_feint_look_at_the_card_discarded_this_turn(special, discarded,
                                                                        guesses):
    state = duel(isdra([up(discarded), special, "Power Up Daggers"]), nathrax(FUR_LEFT))
    assert state["players"]["P1"]["last_discard"] is not None
    after, events = play(state, {"P1": f"PLAN Lunge\nSET {2 if special == 'Feint' else 1}",
                                 "P2": "DEFEND LEFT GUESS 4 3 2 1\nABSORB FROM DECK"})
    defence = kinds(events, "defence")[0]
    assert defence["allowed"] == guesses
    assert len(kinds(events, "strike")[0]["guesses"]) == guesses


@pytest.mark.parametrize("special", ["Feint", "Follow Up Attack"])
def test_feint_and_follow_up_do_nothing_when_no_card_was_discarded(special):
    """The starting player's first turn skips preparation, so nothing was discarded:
    neither card's condition is about a card that exists (README, "Rulings")."""
    state = duel(isdra([up(special), "Quick Stab", "Power Up Daggers"]), nathrax(FUR_LEFT),
                 first=True)
    assert state["players"]["P1"]["last_discard"] is None
    after, events = play(state, {"P1": "SET 2",
                                 "P2": "DEFEND LEFT GUESS 4 3 2 1\nABSORB FROM DECK"})
    defence = kinds(events, "defence")[0]
    assert defence["cuts"] == [] and defence["allowed"] == defence["base"]


def test_power_up_daggers_gives_a_token_even_when_blocked_and_it_lasts_until_a_hit():
    state = duel(isdra([up("Crossed Blades"), "Power Up Daggers", "Quick Stab"]),
                 nathrax(FUR_LEFT))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 1 2\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["blocked"]
    assert after["players"]["P1"]["tokens"]["power"] == 1
    assert {"seat": "P1", "token": "power", "change": "gained"} in kinds(events, "token")


@pytest.mark.parametrize("die, guesses, blocked, damage, power_after", [
    (1, "1 2", True, None, 1),     # blocked: the +3 waits
    (3, "1 2", False, 3 + 3 + 3, 0),  # Quick Stab 3+3, +3 token: spent
])
def test_a_plus_three_token_adds_to_the_next_hit_only(die, guesses, blocked, damage,
                                                       power_after):
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"], tokens={"power": 1}),
                 nathrax(FUR_LEFT, deck=NATHRAX_DECK + ["Armor"] * 4))
    after, events = play(state, {"P1": f"PLAN Lunge\nSET {die}",
                                 "P2": f"DEFEND LEFT GUESS {guesses}\nABSORB FROM DECK"})
    strike = kinds(events, "strike")[0]
    assert strike["blocked"] is blocked and strike.get("damage") == damage
    assert after["players"]["P1"]["tokens"]["power"] == power_after


def test_spear_charge_damage_comes_off_the_deck_not_the_hand():
    state = duel(nathrax([up("Fur Guard"), "Spear Charge", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"]))
    # Spear Charge (1-3)+5 set to 1: 6 damage, the whole deck
    after, events = play(state, {"P1": "PLAN Spear Thrust\nSET 1",
                                 "P2": "DEFEND SECOND GUESS 3\nABSORB HAND Armor, Armor"})
    assert kinds(events, "strike")[0]["damage"] == 6
    absorbed = kinds(events, "absorbed")[0]
    assert absorbed["hand"] == [] and absorbed["deck"] == ISDRA_DECK[:6]
    assert "asked" not in [e.kind for e in events]  # no ABSORB needed either


def test_spear_charge_beyond_deck_and_discard_wins():
    state = duel(nathrax([up("Fur Guard"), "Spear Charge", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"], deck=["Armor", "Armor"],
                       discard=["Slashing Arc"]))
    after, events = play(state, {"P1": "PLAN Spear Thrust\nSET 1",
                                 "P2": "DEFEND SECOND GUESS 2\nABSORB HAND Armor"},
                         [("deck/P2/reshuffle", [0])])
    assert after["winner"] == "P1" and kinds(events, "surrender")[0]["loser"] == "P2"


def test_disarming_strike_block_disarms_the_attacker():
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"]),
                 nathrax([up("Fur Guard"), "Disarming Strike", "Haft Strike"]))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2",
                                 "P2": "DEFEND SECOND GUESS 2 1 3\nABSORB FROM DECK"})
    assert kinds(events, "defence")[0]["card"] == "Disarming Strike"
    assert kinds(events, "strike")[0]["blocked"]
    assert after["players"]["P1"]["tokens"]["disarmed"] == 1


def test_disarming_strike_needs_a_correct_guess():
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"]),
                 nathrax([up("Fur Guard"), "Disarming Strike", "Haft Strike"]))
    after, _ = play(state, {"P1": "PLAN Lunge\nSET 3",
                            "P2": "DEFEND SECOND GUESS 1 2 4\nABSORB FROM DECK"})
    assert after["players"]["P1"]["tokens"]["disarmed"] == 0


def test_disarmed_takes_three_off_the_next_hit_then_goes():
    state = duel(isdra([up("Crossed Blades"), "Lunge", "Feint"], hand=ISDRA_HAND[1:] + [
        "Quick Stab"], tokens={"disarmed": 1}), nathrax(FUR_LEFT))
    after, events = play(state, {"P1": "PLAN Quick Stab\nSET 4",
                                 "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    strike = kinds(events, "strike")[0]
    assert strike["damage"] == 4 + 4 - 3 and ["Disarmed!", -3] in strike["parts"]  # Lunge
    assert after["players"]["P1"]["tokens"]["disarmed"] == 0


def test_tripping_attack_swaps_the_defenders_right_most_card_for_the_deck_top():
    state = duel(nathrax([up("Fur Guard"), "Tripping Attack", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"]))
    after, events = play(state, {"P1": "PLAN Spear Thrust\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 2\nABSORB HAND Armor, Armor"})
    # (1-4)+3 set to 1, hit for 4: two Armor from hand, two off the deck (Quick Stab, Slashing Arc);
    # Feint (right-most) is discarded and the next deck card (Armor) is planned face down
    assert kinds(events, "absorbed")[0]["deck"] == ["Quick Stab", "Slashing Arc"]
    public = [e for e in events if e.kind == "tripped"][0]
    private = [e for e in events if e.kind == "tripped_cards"][0]
    assert public.audience is None and public.data["card"] is None
    assert private.audience == ("P2",) and private.data == {"seat": "P2", "old": "Feint",
                                                            "new": "Armor"}
    assert "Feint" in names(after["players"]["P2"]["discard"])


def test_tripping_attack_does_nothing_when_blocked():
    state = duel(nathrax([up("Fur Guard"), "Tripping Attack", "Haft Strike"]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"]))
    after, events = play(state, {"P1": "PLAN Spear Thrust\nSET 1",
                                 "P2": "DEFEND LEFT GUESS 1\nABSORB FROM DECK"})
    assert not kinds(events, "tripped")


def test_second_sight_block_turns_the_attackers_queue_face_up():
    # P1 (Isdra) attacks with Quick Stab; her queue holds Armor (face down) and plans Lunge
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Armor"]),
                 harys([up("Calm Mind"), "Second Sight", "Palm Strike"]))
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2",
                                 "P2": "DEFEND SECOND GUESS 2 1\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["blocked"]
    assert kinds(events, "flipped") == [{"seat": "P1", "count": 2}]
    # the Armor was exhausted and replaced face up by the deck top (Quick Stab)
    assert queue_names(after, "P1") == ["Quick Stab", "Quick Stab", "Lunge"]
    assert names(after["players"]["P1"]["exhausted"])[-1] == "Armor"
    assert all(slot["up"] for slot in after["players"]["P1"]["queue"])
    view = ENGINE.view(after, "P2")["players"]["P1"]["queue"]
    assert [slot["card"]["name"] for slot in view] == queue_names(after, "P1")


def test_blinding_light_block_blinds_the_attacker():
    state = duel(isdra([up("Crossed Blades"), "Quick Stab", "Feint"]),
                 harys([up("Calm Mind"), "Blinding Light", "Palm Strike"]))
    after, _ = play(state, {"P1": "PLAN Lunge\nSET 2",
                            "P2": "DEFEND SECOND GUESS 2 1\nABSORB FROM DECK"})
    assert after["players"]["P1"]["tokens"]["blinded"] == 1


def test_blinded_costs_two_guesses_against_the_first_attack_only():
    # P2 (Harys) attacks a Blinded P1 (Nathrax) with Magical Barrage
    state = duel(nathrax(FUR_LEFT, tokens={"blinded": 1}),
                 harys([up("Calm Mind"), "Magical Barrage", "Palm Strike"]), attacker="P2")
    assert len(state["turn"]["attacks"]) == 2
    after, events = play(state, {
        "P2": "PLAN Spirit Kick\nSET 1\nSET 1",
        "P1": "DEFEND LEFT GUESS 1 2 3\nDEFEND LEFT GUESS 1 2 3\nSTANDING ABSORB FROM DECK"})
    first, second = kinds(events, "defence")
    assert (first["base"], first["allowed"]) == (3, 1)   # Blunt 3 - 2
    assert (second["base"], second["allowed"]) == (3, 3)  # Slash 3, no cut
    assert after["players"]["P1"]["tokens"]["blinded"] == 0


@pytest.mark.parametrize("guardians, damage", [
    ([], 4),
    (["Spiritual Guardian"], 2),
    (["Spiritual Guardian", "Spiritual Guardian"], 1),   # 4 - 4, but at least 1
    (["face-down"], 4),
])
def test_spiritual_guardian_face_up_reduces_damage(guardians, damage):
    queue = {0: [up("Calm Mind"), "Palm Strike", "Spirit Kick"],
             1: [up("Spiritual Guardian"), "Palm Strike", "Spirit Kick"],
             2: [up("Spiritual Guardian"), up("Spiritual Guardian"), "Spirit Kick"]}
    if guardians == ["face-down"]:
        p2 = harys([up("Calm Mind"), "Spiritual Guardian", "Spirit Kick"])
    else:
        p2 = harys(queue[len(guardians)])
    state = duel(isdra([up("Crossed Blades"), "Power Up Daggers", "Feint"]), p2)
    # Power Up Daggers (1-4)+2 set to 2: 4
    after, events = play(state, {"P1": "PLAN Lunge\nSET 2",
                                 "P2": "DEFEND LEFT GUESS 6\nABSORB FROM DECK"})
    assert kinds(events, "strike")[0]["damage"] == damage


@pytest.mark.parametrize("twin_of, attacks", [
    ("Palm Strike", ["(1-4)+4 Blunt"]),
    ("Magical Barrage", ["(1-4)+3 Blunt", "(1-4)+3 Slash"]),
    ("Calm Mind", []),
    ("Spirit Twin", []),
])
def test_spirit_twin_attacks_with_the_next_card(twin_of, attacks):
    state = duel(harys([up("Second Sight"), "Spirit Twin", twin_of]),
                 isdra([up("Quick Stab"), "Power Up Daggers", "Feint"],
                       deck=ISDRA_DECK + ["Armor"] * 4))
    queue = state["players"]["P1"]["queue"]
    assert queue[0]["up"] and queue[1]["up"]  # the borrowed card is turned up
    assert ENGINE.view(state, "P2")["turn"]["attacks"] == attacks
    if attacks:
        sets = "\n".join("SET 1" for _ in attacks)
        defends = "\n".join("DEFEND LEFT GUESS 2" for _ in attacks)
        after, events = play(state, {"P1": "PLAN Palm Strike\n" + sets,
                                     "P2": defends + "\nSTANDING ABSORB FROM DECK"})
        assert len(kinds(events, "strike")) == len(attacks)


def test_magical_barrage_attacks_twice_in_order_with_a_defence_each():
    state = duel(harys([up("Calm Mind"), "Magical Barrage", "Palm Strike"]),
                 isdra([up("Quick Stab"), "Crossed Blades", "Feint"]))
    after, events = play(state, {
        "P1": "PLAN Spirit Kick\nSET 3\nIF DEFEND SECOND THEN SET 2 ELSE SET 1",
        "P2": "DEFEND LEFT GUESS 1\nDEFEND SECOND GUESS 1 2 3\nABSORB FROM DECK\n"
              "ABSORB FROM DECK"})
    one, two = kinds(events, "strike")
    assert one["attack"] == "(1-4)+3 Blunt" and two["attack"] == "(1-4)+3 Slash"
    assert (one["die"], two["die"]) == (3, 2)
    assert not one["blocked"] and two["blocked"]
    assert [d["pos"] for d in kinds(events, "defence")] == ["LEFT", "SECOND"]


def test_blinded_waits_for_a_turn_with_an_attack():
    state = duel(nathrax(FUR_LEFT, tokens={"blinded": 1}),
                 harys([up("Second Sight"), "Calm Mind", "Spirit Kick"]), attacker="P2")
    assert state["turn"]["attacks"] == []
    after, _ = play(state, {"P2": "PLAN Spirit Kick"})
    assert after["players"]["P1"]["tokens"]["blinded"] == 1
