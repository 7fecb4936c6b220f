"""`python -m games.core.verify FILE.json`: verdicts and exit codes on real exports."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.core import registry
from games.core.verify import main

from ..conformance import play_random_game

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def record():
    engine = registry.get("combat_dice")
    seed = 21
    play = play_random_game(engine, seed, check=False)
    while len(play.turns) < 3:
        seed += 1
        play = play_random_game(engine, seed, check=False)
    return play.record


def _write(tmp_path, data) -> str:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_honest_export_verifies(tmp_path, record, capsys):
    assert main([_write(tmp_path, record)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK: {len(record['turns'])} turns replayed, final state "
                          f"{record['final_hash']}")
    assert "every draw recomputed from the revealed secret" in out


def test_unrevealed_secret_is_checked_for_consistency_only(tmp_path, record, capsys):
    data = {k: v for k, v in record.items() if k != "secret"}
    assert main([_write(tmp_path, data)]) == 0
    assert "draws checked for consistency only" in capsys.readouterr().out


def test_tampered_draw_is_pinpointed(tmp_path, record, capsys):
    data = copy.deepcopy(record)
    turn = next(t for t in data["turns"] if any(d["kind"] == "die" for d in t["draws"]))
    draw = next(d for d in turn["draws"] if d["kind"] == "die")
    draw["result"] = draw["result"] % draw["args"][0] + 1
    assert main([_write(tmp_path, data)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"MISMATCH: turn {turn['number']}: draw {draw['i']} ({draw['label']}) "
                          f"recorded {draw['result']}")


def test_tampered_orders_are_caught(tmp_path, record, capsys):
    data = copy.deepcopy(record)
    last = data["turns"][-1]
    seat = sorted(last["orders"])[0]
    last["orders"][seat]["items"] = [{"order": {"op": "yield"}}]
    assert main([_write(tmp_path, data)]) == 1
    assert capsys.readouterr().out.startswith(f"MISMATCH: turn {last['number']}:")


def test_unreadable_and_foreign_files(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main([str(bad)]) == 2
    assert main([_write(tmp_path, {"format": "something-else"})]) == 1
    assert "not a tabletop-gm/1 export" in capsys.readouterr().out


def test_runs_as_a_module(tmp_path, record):
    done = subprocess.run([sys.executable, "-m", "games.core.verify", _write(tmp_path, record)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("OK:")
