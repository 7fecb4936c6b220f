"""Service tests get the "tally" test engine registered beside the real ones."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _tally(tally_engine):
    yield tally_engine
