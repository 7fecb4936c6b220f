"""Export and /verify/ of a finished GM-adjudicated game confirm every roll and draw; a
forged roll is caught."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games.core.verify import verify_record
from gm.gmadj import actions as adj
from gm.play import actions
from gm.play.models import Turn

pytestmark = pytest.mark.django_db


def _finished_game(adj_game, send_all, gm_user, on_commit):
    game = adj_game(decks="tarot: fool, magician, tower, star")
    for turn_text in ("first", "last"):
        send_all(game, {"France": "hold", "England": "hold", "Germany": "hold"})
        adj.roll(game, gm_user, "fate", "4d6 keep 3")
        adj.roll(game, gm_user, "fate", "4d6 keep 3")  # a reroll: both kept
        adj.roll(game, gm_user, "omen", "tarot", draw=True, count=2)
        adj.roll(game, gm_user, "hidden", "d100", secret=True)
        adj.save(game, gm_user, f"{turn_text}: {{fate}} {{omen}}" +
                 ("\n@end" if turn_text == "last" else ""))
        with on_commit():
            adj.publish(game, gm_user)
        game.refresh_from_db()
    assert not Turn.objects.filter(game=game, status=Turn.Status.OPEN).exists()
    return game


def test_export_and_verify_confirm_every_roll(adj_game, send_all, gm_user, on_commit,
                                              client, players):
    game = _finished_game(adj_game, send_all, gm_user, on_commit)
    client.force_login(players[0])
    export = client.get(f"/api/games/{game.pk}/export/").json()
    labels = [d["label"] for t in export["turns"] for d in t["draws"]]
    assert labels.count("roll 1: fate#1") == 1 and "roll 2: fate#1" in labels
    assert any(lbl.startswith("draw 3: omen#") for lbl in labels)
    assert any(lbl.startswith("roll 8: hidden#") for lbl in labels)
    verdict = verify_record(export)
    assert verdict.ok and verdict.secret_checked
    page = client.post("/verify/", {"export": SimpleUploadedFile(
        "export.json", json.dumps(export).encode(), "application/json")})
    assert "Every draw was recomputed from the revealed secret" in page.content.decode()
    forged = copy.deepcopy(export)
    draw = next(d for t in forged["turns"] for d in t["draws"] if d["kind"] == "die")
    draw["result"] = draw["result"] % draw["args"][0] + 1
    assert not verify_record(forged).ok


def test_the_export_is_refused_to_players_before_the_end(adj_game, send_all, client,
                                                         players, on_commit, gm_user):
    game = adj_game()
    send_all(game, {"France": "hold"})
    client.force_login(players[0])
    assert client.get(f"/api/games/{game.pk}/export/").status_code in (403, 409)
    assert actions.export_game(game, for_gm=True)["turns"] == []  # nothing resolved yet
