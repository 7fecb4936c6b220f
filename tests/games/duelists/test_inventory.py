"""The rulebook inventory (README.md in this folder) names only tests that exist, so a
renamed or deleted scenario cannot leave a rule or an example silently untested."""

import re
from pathlib import Path

from ..inventory import missing, named_tests

HERE = Path(__file__).parent


def test_every_test_the_inventory_names_exists():
    named = named_tests((HERE / "README.md").read_text())
    assert len(named) > 80
    assert missing(HERE, named) == []


def test_every_worked_example_row_names_a_test():
    text = (HERE / "README.md").read_text()
    section = text.split("## Worked examples")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 6
    assert all("::test_" in row for row in rows)
