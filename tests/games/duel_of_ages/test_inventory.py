"""The rulebook inventory (README.md in this folder) names only tests that exist, so a
renamed or deleted scenario cannot leave an example silently untested."""

import re
from pathlib import Path

from ..inventory import missing

HERE = Path(__file__).parent


def test_every_test_the_inventory_names_exists():
    named: list[tuple[str, str]] = []
    for line in (HERE / "README.md").read_text().splitlines():
        module = None
        for token in re.findall(r"`([^`]+)`", line):
            head, _, name = token.partition("::")
            if head.startswith("test_"):
                module = head
            if module and (head.startswith("test_") or (not head and name)):
                named.append((module, name))
    assert len(named) > 100
    assert missing(HERE, named, modules_alone=True) == []
