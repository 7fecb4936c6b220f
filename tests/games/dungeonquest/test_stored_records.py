"""Games recorded before rules revisions 2 and 3 replay by their own content and rules.

`records_revision1.jsonl.gz` holds three finished games in the public export format,
recorded with the engine of commit 7a87cfa^ (before the content tuning 7a87cfa and the
heroes' evening out e770dcd), random legal orders as the conformance suite plays them
(tests/games/conformance.py `play_random_game`, check=False): seed 7 solo (the hero
chosen, the knight), seed 21 with three heroes assigned from the adventurer, seed 35 with
four heroes chosen. Their options carry no rules revision, so they play revision 1's
content (data/rev1/ over data/); replay recomputes every draw from the revealed secret
and checks every state hash. Read as revision 2 (today's decks, tiles and heroes) the
same games part ways at setup.

`records_revision2.jsonl.gz` holds five games of revision 2 recorded the same way with
the engine of 0607754 (before revision 3; seeds 32, 66, 26, 5 and 40 of the conformance
player: one to four heroes), each chosen because one of its heroes walks into a
portcullis room by a side the tile was not laid from, which revision 3 plays otherwise.
They replay to their hashes as revision 2; played again from their orders and secret by
revision 3's rules they part ways at that turn, on that very exit.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from games.core.canonical import canonical_json, sha256_hex
from games.core.engine import REVISION
from games.core.replay import Mismatch, replay, run_setup, run_turn, secret_rng
from games.core.types import Orders
from games.dungeonquest import content
from games.dungeonquest.engine import ENGINE

REVISION_1 = Path(__file__).parent / "records_revision1.jsonl.gz"
REVISION_2 = Path(__file__).parent / "records_revision2.jsonl.gz"


def _records(path: Path = REVISION_1) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


RECORDS = _records()
RECORDS_2 = _records(REVISION_2)


def _id(record: dict) -> str:
    return f"{len(record['seats'])}p-{record['options']['hero_choice']}"


@pytest.mark.parametrize("record", RECORDS, ids=_id)
def test_a_game_of_revision_1_replays_by_its_own_content(record):
    assert REVISION not in record["options"]
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked and REVISION not in final
    assert verdict.checked_turns == len(record["turns"])
    assert verdict.final_hash == record["final_hash"] and ENGINE.decision(final) is None


@pytest.mark.parametrize("record", RECORDS, ids=_id)
def test_the_same_game_read_as_revision_2_parts_ways(record):
    newer = {**record, "options": {**record["options"], REVISION: 2}}
    with pytest.raises(Mismatch, match="setup: state after setup does not match its hash"):
        replay(ENGINE, newer)


def test_the_stored_games_play_the_heroes_whose_sheets_changed():
    """The knight (Armour 4 -> 3) and the barbarian (Luck 3 -> 4, Life 20 -> 22) are in
    the stored games, so their revision-1 sheets are what the hashes hold."""
    played = set()
    for record in RECORDS:
        final, _ = replay(ENGINE, record)
        played |= {c["hero"] for c in final["chars"].values()}
        for ch in final["chars"].values():
            assert ch["max_life"] == content.for_revision(1).heroes[ch["hero"]]["life"]
    assert {"knight", "barbarian"} <= played


def test_revision_1_content_is_the_content_before_the_tuning():
    old, new = content.for_revision(1), content.for_revision(2)
    assert (old.heroes["knight"]["armour"], new.heroes["knight"]["armour"]) == (4, 3)
    assert (old.heroes["barbarian"]["luck"], new.heroes["barbarian"]["luck"]) == (3, 4)
    assert (old.heroes["barbarian"]["life"], new.heroes["barbarian"]["life"]) == (20, 22)
    assert old.tile_bag().count("dead-end") == 5 and new.tile_bag().count("dead-end") == 2
    assert old.deck_cards("room").count("empty") == 16
    assert new.deck_cards("room").count("empty") == 6
    # Only heroes, tiles and decks changed: the other tables are revision 2's files.
    changed = {name for name in content.CONTENT_FILES
               if old.sources[name] != new.sources[name]}
    assert changed == {"heroes", "tiles", "decks"}
    assert content.for_revision(ENGINE.revision).sources["heroes"] == content.DATA / "heroes.toml"


# Each revision's content, as its games were recorded with it. A game replays only with
# the very tables it was played with, so these never change for a revision once games
# are played by it: to change a count, a stat or a table, start a new revision (README,
# "Rules revisions": copy the file as it is into data/rev<current>/, bump the engine's
# revision, then edit data/). Only a change of wording (a name, a text) may move a pin.
PINNED = {1: "721213266017cf905a97139ff93fbcf4157b30409adb5b7c3f2e6d0cce41c6b9",
          2: "680db5faf094aedd36e109de0590bf83226d0dff962670192494fdcf4b0ced13",
          3: "680db5faf094aedd36e109de0590bf83226d0dff962670192494fdcf4b0ced13"}  # = 2:
# revision 3 changed rules (a portcullis, a skeleton), not content


@pytest.mark.parametrize("revision", sorted(PINNED))
def test_a_revisions_content_never_changes(revision):
    tables = content.for_revision(revision)
    played = {"heroes": tables.heroes, "rings": tables.rings, "ring_pool": tables.ring_pool,
              "monsters": tables.monsters, "tiles": tables.tiles, "decks": tables.decks,
              "tables": tables.tables}
    assert sha256_hex(canonical_json(played)) == PINNED[revision], (
        f"the content of rules revision {revision} changed: games recorded with it would "
        f"replay differently; make the change a new revision (README 'Rules revisions')")


def test_every_revision_has_its_content_pinned():
    assert sorted(PINNED) == list(range(1, ENGINE.revision + 1))


# -- revision 2 games, and what revision 3 would have made of them ---------------------

def _states(record: dict, revision: int) -> list[dict]:
    """Every state of a recorded game played again from its orders and secret by the
    rules of `revision` (the revision key itself taken out, to compare the play)."""
    options = {**record["options"], REVISION: revision}
    state = run_setup(ENGINE, list(record["seats"]), options,
                      secret_rng(record["secret"], None)).state
    out = [state]
    for turn in record["turns"]:
        orders = {seat: Orders.from_json(o) for seat, o in turn["orders"].items()}
        state = run_turn(ENGINE, state, orders, secret_rng(record["secret"], turn["number"])).state
        out.append(state)
    return [{k: v for k, v in s.items() if k != REVISION} for s in out]


@pytest.mark.parametrize("record", RECORDS_2, ids=_id)
def test_a_game_of_revision_2_replays_to_its_hashes(record):
    assert record["options"][REVISION] == 2
    final, verdict = replay(ENGINE, record)
    assert verdict.ok and verdict.secret_checked and final[REVISION] == 2
    assert verdict.checked_turns == len(record["turns"])
    assert verdict.final_hash == record["final_hash"] and ENGINE.decision(final) is None


@pytest.mark.parametrize("record", RECORDS_2, ids=_id)
def test_revision_3_plays_the_same_orders_otherwise_at_a_portcullis(record):
    old, new = _states(record, 2), _states(record, 3)
    turn = next(k for k, (a, b) in enumerate(zip(old, new)) if a != b)
    assert old[:turn] == new[:turn]
    changed = [(sq, side) for sq, cell in new[turn]["board"].items()
               for side, kind in cell["exits"].items()
               if old[turn]["board"].get(sq, {}).get("exits", {}).get(side) != kind]
    assert changed and all(new[turn]["board"][sq]["kind"] == "portcullis" and
                           new[turn]["board"][sq]["exits"][side] == "portcullis"
                           for sq, side in changed), changed
