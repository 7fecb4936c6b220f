"""Games recorded before rules revision 2 replay by their own content.

`records_revision1.jsonl.gz` holds three finished games in the public export format,
recorded with the engine of commit 7a87cfa^ (before the content tuning 7a87cfa and the
heroes' evening out e770dcd), random legal orders as the conformance suite plays them
(tests/games/conformance.py `play_random_game`, check=False): seed 7 solo (the hero
chosen, the knight), seed 21 with three heroes assigned from the adventurer, seed 35 with
four heroes chosen. Their options carry no rules revision, so they play revision 1's
content (data/rev1/ over data/); replay recomputes every draw from the revealed secret
and checks every state hash. Read as revision 2 (today's decks, tiles and heroes) the
same games part ways at setup.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from games.core.canonical import canonical_json, sha256_hex
from games.core.engine import REVISION
from games.core.replay import Mismatch, replay
from games.dungeonquest import content
from games.dungeonquest.engine import ENGINE

REVISION_1 = Path(__file__).parent / "records_revision1.jsonl.gz"


def _records() -> list[dict]:
    with gzip.open(REVISION_1, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


RECORDS = _records()


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
          2: "680db5faf094aedd36e109de0590bf83226d0dff962670192494fdcf4b0ced13"}


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
