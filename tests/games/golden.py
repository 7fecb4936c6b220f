"""Golden report files: one comparison for every game's tests.

`UPDATE_GOLDEN=1 pytest …` rewrites the files after a deliberate wording change; review
the diff before committing it. Without it a missing or different file fails the test.
"""

from __future__ import annotations

import os
from pathlib import Path


def assert_golden(path: Path, text: str) -> None:
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"golden file {path.name} is missing: run with UPDATE_GOLDEN=1 and review it"
    assert text == path.read_text(encoding="utf-8"), f"report differs from {path.name}"
