"""Games stored by earlier rules revisions still replay to identical hashes.

`records_revision1.jsonl.gz` (options without a revision) and
`records_revision2.jsonl.gz` hold five finished random games each (two on the skirmish
field, one on the standard map, two built by orders; 3 to 5 characters a team; six
rounds), recorded in the public export format through run_setup/run_turn, as the service
plays, with the engine of commit 0607754 (before the engine walked its state in an order
of its own and before rules revision 3). Replaying them recomputes every draw from the
revealed secret and checks every state hash, so a change to the rules code that would
alter a stored game of either revision fails here.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from games.core.engine import REVISION
from games.core.replay import Mismatch, replay
from games.duel_of_ages.engine import ENGINE
from games.duel_of_ages.rules import build

HERE = Path(__file__).parent


def _records(revision: int) -> list[dict]:
    with gzip.open(HERE / f"records_revision{revision}.jsonl.gz", "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _id(record: dict) -> str:
    return f"{record['options']['map']}-{record['options']['team_size']}"


@pytest.mark.parametrize("revision", [1, 2])
def test_the_records_are_of_their_revision_and_every_map(revision):
    records = _records(revision)
    assert all(r["options"].get(REVISION, 1) == revision for r in records)
    assert sorted({r["options"]["map"] for r in records}) == ["build", "skirmish", "standard"]


@pytest.mark.parametrize("record", _records(1) + _records(2), ids=_id)
def test_a_stored_game_replays_to_identical_hashes(record):
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked
    assert verdict.checked_turns == len(record["turns"])
    assert verdict.final_hash == record["final_hash"]
    assert ENGINE.decision(final) is None  # each stored game was played to its end


@pytest.mark.parametrize("record", [r for r in _records(2) if r["options"]["map"] == "build"],
                         ids=_id)
def test_a_built_map_of_revision_2_is_laid_out_in_the_order_it_was_built(record,
                                                                          monkeypatch):
    """The gate is what keeps it: laid out by name (rules revision 3), the map of the
    same build lists its pieces, tunnels and walls in another order, and the replay
    parts ways at the build."""
    monkeypatch.setattr(build, "revision_of", lambda state: 3)
    with pytest.raises(Mismatch):
        replay(ENGINE, record)
