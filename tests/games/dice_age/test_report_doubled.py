"""The report line of a doubled effect says what the doubling does.

A doubled icon effect is applied twice, but a doubled Square is not played twice: it
stays on the Ledges for a second use (revision 4). Its line said "applies twice", which
told the players something the engine does not do."""

from __future__ import annotations

import pytest

from games.core.types import Event
from games.dice_age import report


@pytest.mark.parametrize(("icon", "says"), [
    ("square", "it keeps a second use"),
    ("double-arrow", "it applies twice"),
    ("pit", "it applies twice"),
])
def test_a_doubled_effect_s_line(icon: str, says: str) -> None:
    line = report.render([Event("doubled", {"seat": "P1", "icon": icon})], None)
    assert says in line
    if icon == "square":
        assert "applies twice" not in line
