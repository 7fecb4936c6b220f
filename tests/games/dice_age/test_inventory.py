"""The rulebook inventory (README.md in this folder) names only tests that exist, and
every level has its rows, so a renamed or deleted scenario cannot leave a rule silently
untested."""

from __future__ import annotations

from pathlib import Path

from ..inventory import missing, named_tests

HERE = Path(__file__).parent
README = HERE / "README.md"


def test_every_test_the_inventory_names_exists():
    named = named_tests(README.read_text(encoding="utf-8"))
    assert len(named) > 100
    assert missing(HERE, named) == []


def test_every_level_has_rows_and_every_row_a_test():
    text = README.read_text(encoding="utf-8")
    for level in range(1, 8):
        section = text.split(f"## Level {level}:")[1].split("\n## ")[0]
        rows = [line for line in section.splitlines()
                if line.startswith("| ") and not line.startswith("| rule ")]
        assert rows, f"level {level} has no rules listed"
        assert all(named_tests(row) for row in rows), f"a level {level} rule names no test"
