"""The rulebook inventory (README.md in this folder) names only tests that exist, so a
renamed or deleted scenario cannot leave a rule or the sample turn silently untested."""

import re
from pathlib import Path

from ..inventory import missing, named_tests

HERE = Path(__file__).parent


def test_every_test_the_inventory_names_exists():
    named = named_tests((HERE / "README.md").read_text())
    assert len(named) > 60
    assert missing(HERE, named) == []


def test_every_worked_example_row_names_a_test():
    text = (HERE / "README.md").read_text()
    section = text.split("## The worked example")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 4
    assert all("::test_" in row for row in rows)


def test_every_table_row_id_the_inventory_names_exists():
    """Rows of test_turn's table are named in brackets; each must be a row id."""
    from .test_turn import ROWS

    ids = {row[0] for row in ROWS}
    text = (HERE / "README.md").read_text()
    named = {name.strip() for group in re.findall(r"`test_turn::test_turn` \[([^\]]+)\]", text)
             for name in group.split(",")}
    assert named and named - ids == set()
