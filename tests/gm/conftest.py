"""Service tests get the "tally" test engine registered beside the real ones."""

from __future__ import annotations

import pytest

from games.core import registry

from .engines import ENGINE


@pytest.fixture(autouse=True)
def tally_engine():
    engines = registry.engines()
    engines[ENGINE.name] = ENGINE
    yield ENGINE
    engines.pop(ENGINE.name, None)
