"""Properties over many orders: what random_orders writes parses, and canonical text
reads back to the same items (the receipt a player gets is stable)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.combat_dice.engine import ENGINE
from games.core.rng import ScriptedRng

from .helpers import armed


def _states():
    advanced = ENGINE.validate_options({"combatants": "advanced"})
    arming_adv, _ = ENGINE.setup(["P1", "P2"], advanced, ScriptedRng([3, 4, 1, 6]))
    arming, _ = ENGINE.setup(["P1", "P2"], ENGINE.validate_options({}), ScriptedRng([]))
    later = armed("EQUIP BOW, NET, SMALL SHIELD")
    later["turn"] = 3
    return [arming, arming_adv, armed("EQUIP BOW, NET, SMALL SHIELD"), later]


STATES = _states()


@settings(max_examples=300, deadline=None, database=None)
@given(which=st.integers(0, len(STATES) - 1), seat=st.sampled_from(["P1", "P2"]),
       data=st.data())
def test_random_orders_parse_and_round_trip(which, seat, data):
    state = STATES[which]

    def pick(seq):
        items = list(seq)
        return items[data.draw(st.integers(0, len(items) - 1))]

    text = ENGINE.random_orders(state, seat, pick)
    orders = ENGINE.parse_orders(state, seat, text)
    again = ENGINE.parse_orders(state, seat, orders.text)
    assert again.items == orders.items and again.receipt == orders.receipt
