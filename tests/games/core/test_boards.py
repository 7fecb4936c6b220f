"""Every engine's board picture: a well-formed SVG picture or HTML fragment, built from
any reader's view, with nothing that runs (the page inserts it as is)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from games.core import registry
from games.core.replay import run_setup, run_turn, secret_rng

ENGINES = sorted(registry.engines())


@pytest.mark.parametrize("name", ENGINES)
def test_board_is_valid_svg_for_every_reader(name):
    engine = registry.get(name)
    seats = engine.seat_names(max(engine.min_seats, min(2, engine.max_seats)))
    state = run_setup(engine, seats, engine.validate_options({}),
                      secret_rng("5e" * 16, None)).state
    rnd = random.Random(4)

    def pick(seq):
        items = list(seq)
        return items[rnd.randrange(len(items))]

    for number in range(1, 6):
        for viewer in [None, "*", *seats]:
            picture = engine.board(engine.view(state, viewer))
            if picture is None:
                continue
            root = ET.fromstring(picture)  # one well-formed element
            assert root.tag.endswith("svg") or root.tag in {"div", "section", "figure"}
            for element in root.iter():
                tag = element.tag.rsplit("}", 1)[-1].lower()
                assert tag not in {"script", "style", "iframe", "object", "embed",
                                   "foreignobject"}, tag
                for attribute, value in element.attrib.items():
                    assert not attribute.lower().startswith("on"), attribute
                    assert "javascript:" not in value.lower(), value
        decision = engine.decision(state)
        if decision is None:
            break
        orders = {s: engine.parse_orders(state, s, engine.random_orders(state, s, pick))
                  for s in decision.seats}
        state = run_turn(engine, state, orders, secret_rng("5e" * 16, number)).state
