"""Shared by the games' rulebook inventories (tests/games/<game>/README.md maps each rule
and worked example to its test; each test_inventory.py holds the map to tests that exist)."""

from __future__ import annotations

import ast
import re
from pathlib import Path


def defined(folder: Path, module: str) -> set[str]:
    """The test functions a module of `folder` defines at its top level."""
    tree = ast.parse((folder / f"{module}.py").read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def named_tests(text: str) -> list[tuple[str, str]]:
    """Every `test_module::test_name` written in backticks in `text`."""
    named: list[tuple[str, str]] = []
    for token in re.findall(r"`([^`]+)`", text):
        module, sep, name = token.partition("::")
        if sep and module.startswith("test_"):
            named.append((module, name))
    return named


def missing(folder: Path, named: list[tuple[str, str]], *, modules_alone: bool = False
            ) -> list[str]:
    """The named tests that do not exist (a module or function renamed or deleted). With
    `modules_alone`, an empty name stands for the module itself."""
    return [f"{m}::{n}" for m, n in named
            if not (folder / f"{m}.py").exists()
            or ((n or not modules_alone) and n not in defined(folder, m))]
