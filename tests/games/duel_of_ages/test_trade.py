"""Trading cards between team-mates: same space, 2 move points each, no enemy there,
not a mount in use, the four-card limit, secrecy of face-down cards."""

import pytest

from games.duel_of_ages.engine import ENGINE

from .helpers import kinds, make, play


@pytest.mark.parametrize("orders, others, why", [
    ("TRADE DEX WITH INES GIVE SLING TAKE SPEAR", {}, None),
    ("MOVE DEX TO F5\nTRADE DEX WITH INES GIVE SLING", {}, None),          # 1 + 2 of 7
    ("MOVE DEX TO F4\nTRADE DEX WITH INES GIVE SLING", {},
     "they are not in the same space"),
    ("MOVE INES TO F3 F6 F5\nTRADE DEX WITH INES GIVE SLING", {},   # 6 of 6 spent
     "each needs 2 move points left"),
    ("TRADE DEX WITH INES GIVE SLING", {"KORVATH": ("Black", "F5", [])},
     "an enemy is in the space"),
    ("FIRE DEX\nTRADE DEX WITH INES GIVE SLING", {"KORVATH": ("Black", "F8", [])},
     "each needs 2 move points left"),                                      # he fired
    ("RIDE INES\nTRADE DEX WITH INES TAKE JUMPPACK", {}, "a mount in use cannot be traded"),
])
def test_trade(orders, others, why):
    state = make({"DEX": ("White", "F5", ["SLING"]),
                  "INES": ("White", "F5", ["SPEAR", "JUMPPACK"]), **others})
    black = {"Black": "\n".join(f"HOLD {k}" for k in others)} if others else {}
    dice = [("fire/hit", 6), ("fire/hit", 5)] if "FIRE" in orders else []
    after, events = play(state, {"White": orders + "\nHOLD DEX\nHOLD INES", **black}, dice)
    refused = kinds(events, "no_trade")
    assert [r["why"] for r in refused] == ([why] if why else [])
    dex = [e["card"] for e in after["chars"]["DEX"]["cards"]]
    assert ("SLING" in dex) is (why is not None)


def test_trade_is_secret_about_face_down_cards():
    state = make({"DEX": ("White", "F5", ["SLING"]), "INES": ("White", "F5", ["SPEAR!"])})
    _, events = play(state, {"White": "TRADE DEX WITH INES GIVE SLING TAKE SPEAR"}, [])
    public = ENGINE.report(events, "Black")
    assert "Ash Spear" in public and "Sling" not in public
    assert "Shepherd's Sling" in ENGINE.report(events, "White")


def test_trading_in_the_start_space_draws_opportunity_fire():
    state = make({"DEX": ("White", "F6", ["SLING"]), "INES": ("White", "F6", []),
                  "TAMSIN": ("Black", "F3", ["LONGBOW"])})
    _, events = play(state, {"White": "TRADE DEX WITH INES GIVE SLING",
                             "Black": "FIRE TAMSIN"}, [("opfire/hit", 6), ("opfire/hit", 5)])
    assert kinds(events, "attack")[0]["space"] == "F6"


@pytest.mark.parametrize("text, message", [
    ("TRADE DEX WITH DEX GIVE SLING", "with himself"),
    ("TRADE DEX INES GIVE SLING", "a trade reads"),
    ("TRADE DEX WITH INES GIVE SPEAR", "DEX does not carry"),
    ("TRADE DEX WITH INES", "moves no card"),
    ("TRADE DEX WITH INES SLING", "unexpected"),
])
def test_trade_order_errors(text, message):
    from games.core.types import OrdersInvalid
    state = make({"DEX": ("White", "F5", ["SLING"]), "INES": ("White", "F5", ["SPEAR"])})
    with pytest.raises(OrdersInvalid) as exc:
        ENGINE.parse_orders(state, "White", text)
    assert message in exc.value.errors[0].message
