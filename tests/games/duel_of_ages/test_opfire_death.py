"""A mover killed by opportunity fire dies in the space where he was shot: he drops his
cards there, cards he picked up further along lie where they lay, and a trade he had not
reached never happens (the Chief Weewak's clarification).

Black's TAMSIN at A7 with the Longbow (OpFire 1, Damage 2): Throw yellow vs DEX's
Stealth white = 6, less one woods on the line to D8 = 5; Penetration blue vs Armor red =
8. White's DEX (1 health left) runs D9 -> D8 D7 D6."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play

KILL = [("opfire/hit", 1), ("opfire/hit", 1), ("opfire/damage", 1), ("opfire/damage", 1)]


def _state(**extra):
    return make({"DEX": ("White", "D9", ["SLING"], 1),
                 "TAMSIN": ("Black", "A7", ["LONGBOW"]), **extra.pop("chars", {})}, **extra)


def test_the_dead_drop_their_cards_where_they_were_shot():
    after, events = play(_state(), {"White": "MOVE DEX TO D6", "Black": "FIRE TAMSIN"}, KILL)
    assert kinds(events, "attack")[0]["space"] == "D8"
    assert kinds(events, "eliminated") == [{"char": "DEX", "space": "D8", "dropped": 1}]
    assert list(after["ground"]) == ["D8"]
    assert after["chars"]["DEX"]["status"] == "dead"


def test_a_pickup_further_on_is_undone():
    state = _state(ground={"D6": ["TONIC"]})
    after, events = play(state, {"White": "MOVE DEX TO D6 PICKUP", "Black": "FIRE TAMSIN"},
                         KILL)
    assert kinds(events, "pickup_undone") == [{"char": "DEX", "space": "D6"}]
    assert [e["card"] for e in after["ground"]["D6"]] == ["TONIC"]
    assert [e["card"] for e in after["ground"]["D8"]] == ["SLING"]


def test_a_trade_not_reached_is_undone():
    # Chief Weewak: killed on the way to a trade, the trade does not happen and the cards
    # go back the way they were. INES waits at D6 with the Spear.
    state = _state(chars={"INES": ("White", "D6", ["SPEAR"])})
    after, events = play(state, {
        "White": "MOVE DEX TO D6\nTRADE DEX WITH INES GIVE SLING TAKE SPEAR\nHOLD INES",
        "Black": "FIRE TAMSIN AT DEX"}, KILL)
    assert kinds(events, "trade_undone") == [{"char": "DEX", "with": "INES"}]
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SPEAR"]
    assert [e["card"] for e in after["ground"]["D8"]] == ["SLING"]
    assert ENGINE.invariants(after) == []
    assert "never happened" in ENGINE.report(events, None)


def test_a_later_trade_of_his_partner_is_undone_too():
    # INES trades on with OBED after DEX's trade: her cards go back to what they were
    # before DEX's trade, so her later trade is undone as well (designed: see README).
    state = _state(chars={"INES": ("White", "D6", ["SPEAR", "CUTLASS"]),
                          "OBED": ("White", "D6", ["TONIC"])})
    after, events = play(state, {
        "White": "MOVE DEX TO D6\nTRADE DEX WITH INES GIVE SLING TAKE SPEAR\n"
                 "TRADE INES WITH OBED GIVE CUTLASS TAKE TONIC\nHOLD INES\nHOLD OBED",
        "Black": "FIRE TAMSIN AT DEX"}, KILL)
    assert len(kinds(events, "trade_undone")) == 2
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SPEAR", "CUTLASS"]
    assert [e["card"] for e in after["chars"]["OBED"]["cards"]] == ["TONIC"]
    assert [e["card"] for e in after["ground"]["D8"]] == ["SLING"]
    assert ENGINE.invariants(after) == []


def test_a_trade_reached_stands():
    # Shot in D6 itself, where he traded: he got there, so the trade stands and he drops
    # the Spear he took.
    state = _state(chars={"INES": ("White", "D6", ["SPEAR"])})
    after, events = play(state, {
        "White": "MOVE DEX TO D6\nTRADE DEX WITH INES GIVE SLING TAKE SPEAR\nHOLD INES",
        "Black": "FIRE TAMSIN AT DEX IN D6"}, KILL)
    assert kinds(events, "trade_undone") == []
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SLING"]
    assert [e["card"] for e in after["ground"]["D6"]] == ["SPEAR"]


def test_an_area_shot_kills_a_mover_where_it_hit_him():
    # HOLLIS (Black, G7) with the Flamer (area) hits DEX as he passes E8 on his way to C8.
    state = make({"DEX": ("White", "F9", ["SLING"], 1),
                  "HOLLIS": ("Black", "G7", ["FLAMER"])})
    after, events = play(state, {"White": "MOVE DEX TO E8 C8",
                                 "Black": "FIRE HOLLIS IN E8"}, KILL)
    assert kinds(events, "eliminated")[0]["space"] == "E8"
    assert [e["card"] for e in after["ground"]["E8"]] == ["SLING"]


@pytest.mark.parametrize("revision", [1, 3, 4])
def test_a_pickup_and_a_later_trade_are_both_undone_without_doubling_a_card(revision):
    # DEX picks up the Tonic at D7, then trades his Sling to INES at D6, and is shot in
    # D8 before either: the Tonic lies at D7 again, the Sling falls with him at D8, INES
    # keeps only her Spear. Before this fix the trade was undone after the pickup and
    # gave him back the Tonic it had seen in his hands: the Tonic was in two places.
    state = _state(chars={"INES": ("White", "D6", ["SPEAR"])}, ground={"D7": ["TONIC"]},
                   revision=revision)
    after, events = play(state, {
        "White": "MOVE DEX TO D7 PICKUP D6\nTRADE DEX WITH INES GIVE SLING\nHOLD INES",
        "Black": "FIRE TAMSIN AT DEX IN D8"}, KILL)
    assert [k for k in ("trade_undone", "pickup_undone") if kinds(events, k)] == \
        ["trade_undone", "pickup_undone"]
    assert [e["card"] for e in after["ground"]["D7"]] == ["TONIC"]
    assert [e["card"] for e in after["ground"]["D8"]] == ["SLING"]
    assert [e["card"] for e in after["chars"]["INES"]["cards"]] == ["SPEAR"]
