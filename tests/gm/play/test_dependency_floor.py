"""The declared minimum of kombu is one that has what gm/play/sweep.py uses."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[3]
BATCH_SINCE = Version("5.7.0")  # kombu 5.6.2's Producer has no batch; 5.7.0's has


def _floor(name: str) -> Version | None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in map(Requirement, deps):
        if dep.name == name:
            floors = [Version(s.version) for s in dep.specifier if s.operator in (">=", "==")]
            return max(floors, default=None)
    return None


def test_the_kombu_floor_has_producer_batch():
    """sweep.publish_resolves sends due turns in kombu's Producer.batch (falling back to
    one message per round trip without it): an install at the declared floor batches."""
    from kombu import Producer

    assert hasattr(Producer, "batch"), "the installed kombu has no Producer.batch"
    floor = _floor("kombu")
    assert floor is not None and floor >= BATCH_SINCE, floor
