"""Games of rules revision 3 still replay to identical hashes under revision 4's engine.

`records_revision3.jsonl.gz` holds three finished games recorded with the engine of
6ddb703 (revision 3; conformance random games with check=False: seed 35013 level 5 two
seats, 36038 level 6 two seats, 37011 level 7 two seats). The level-6 and level-7 games
each throw a triangle whose dice a Pair could match (turns 28 and 6), which revision 4
offers; every game at level 5 up bars dice in revision 4's form. Read by revision 4's
rules, each parts ways with its record; by its own revision it replays exactly.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from games.core.engine import REVISION
from games.core.replay import Mismatch, replay
from games.dice_age.engine import ENGINE
from games.dice_age.rules import effects, flow

REVISION_3 = Path(__file__).parent / "records_revision3.jsonl.gz"


def _records() -> list[dict]:
    with gzip.open(REVISION_3, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("record", _records(),
                         ids=lambda r: f"L{r['options']['level']}-{len(r['seats'])}p")
def test_a_game_of_revision_3_replays_by_its_own_rules(record, monkeypatch):
    assert record["options"][REVISION] == 3
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked and final[REVISION] == 3
    assert verdict.final_hash == record["final_hash"] and ENGINE.decision(final) is None
    # The gates are what keep it: read by revision 4's rules, the game goes another way
    # (the bar from the first main roll; at levels 6-7 the Pair after a triangle throw).
    module = flow if record["options"]["level"] == 5 else effects
    monkeypatch.setattr(module, "revision_of", lambda state: 4)
    with pytest.raises(Mismatch):
        replay(ENGINE, record)
