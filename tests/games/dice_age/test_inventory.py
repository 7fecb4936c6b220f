"""The rulebook inventory (README.md in this folder) names only tests that exist, and
every level has its rows, so a renamed or deleted scenario cannot leave a rule silently
untested."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
README = HERE / "README.md"


def _defined(module: str) -> set[str]:
    tree = ast.parse((HERE / f"{module}.py").read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _named(text: str) -> list[tuple[str, str]]:
    named = []
    for token in re.findall(r"`([^`]+)`", text):
        module, sep, name = token.partition("::")
        if sep and module.startswith("test_"):
            named.append((module, name))
    return named


def test_every_test_the_inventory_names_exists():
    named = _named(README.read_text(encoding="utf-8"))
    assert len(named) > 100
    missing = [f"{m}::{n}" for m, n in named
               if not (HERE / f"{m}.py").exists() or n not in _defined(m)]
    assert missing == []


def test_every_level_has_rows_and_every_row_a_test():
    text = README.read_text(encoding="utf-8")
    for level in range(1, 8):
        section = text.split(f"## Level {level}:")[1].split("\n## ")[0]
        rows = [line for line in section.splitlines()
                if line.startswith("| ") and not line.startswith("| rule ")]
        assert rows, f"level {level} has no rules listed"
        assert all(_named(row) for row in rows), f"a level {level} rule names no test"
