"""Games stored before the turn engines were merged still replay to identical hashes.

`records.jsonl.gz` holds fourteen finished games (two per level, 2 to 4 seats) in the
public export format, recorded with the engine of commit e99356a, when levels 1-4 and
levels 5-7 still ran through two separate turn engines. Replaying them recomputes every
draw from the revealed secret and checks every state hash, so a change to the rules code
that would alter a stored game (or its state format) fails here.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from games.core.engine import REVISION
from games.core.replay import Mismatch, replay
from games.dice_age.engine import ENGINE
from games.dice_age.rules import flow

RECORDS = Path(__file__).parent / "records.jsonl.gz"


def _records() -> list[dict]:
    with gzip.open(RECORDS, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("record", _records(),
                         ids=lambda r: f"L{r['options']['level']}-{len(r['seats'])}p")
def test_stored_game_replays_to_identical_hashes(record):
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked
    assert verdict.checked_turns == len(record["turns"])
    assert verdict.final_hash == record["final_hash"]
    assert ENGINE.decision(final) is None  # each stored game was played to its end


def test_every_level_is_stored():
    assert sorted({r["options"]["level"] for r in _records()}) == list(range(1, 8))


# -- rules revision 1 -----------------------------------------------------------------
# Two games recorded with the engine of commit 1aa7f85^ (conformance random games: seed
# 13, level 5, four seats; seed 11, level 6, three seats), chosen because each hits the
# case rules revision 2 changed: at levels 5-7 a knock-out handed the new round to the
# next seat although it owed a skipped turn. Their options carry no revision, so they
# replay by revision 1; under revision 2's rule they part ways at that turn.
REVISION_1 = Path(__file__).parent / "records_revision1.jsonl.gz"


def _revision_1_records() -> list[dict]:
    with gzip.open(REVISION_1, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("record", _revision_1_records(),
                         ids=lambda r: f"L{r['options']['level']}-{len(r['seats'])}p")
def test_a_game_of_revision_1_replays_by_its_own_rules(record, monkeypatch):
    assert REVISION not in record["options"]
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked and REVISION not in final
    assert verdict.final_hash == record["final_hash"] and ENGINE.decision(final) is None
    # The gate is what keeps it: read as revision 2, the game goes another way.
    monkeypatch.setattr(flow, "revision_of", lambda state: 2)
    with pytest.raises(Mismatch):
        replay(ENGINE, record)
