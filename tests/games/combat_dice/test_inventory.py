"""The rulebook inventory (README.md in this folder) names only tests that exist, so a
renamed or deleted scenario cannot leave a rule or the sample turn silently untested."""

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent


def _defined(module: str) -> set[str]:
    tree = ast.parse((HERE / f"{module}.py").read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def named_tests(readme: Path) -> list[tuple[str, str]]:
    named: list[tuple[str, str]] = []
    for line in readme.read_text().splitlines():
        for token in re.findall(r"`([^`]+)`", line):
            module, sep, name = token.partition("::")
            if sep and module.startswith("test_"):
                named.append((module, name))
    return named


def test_every_test_the_inventory_names_exists():
    named = named_tests(HERE / "README.md")
    assert len(named) > 60
    missing = [f"{m}::{n}" for m, n in named
               if not (HERE / f"{m}.py").exists() or n not in _defined(m)]
    assert missing == []


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
