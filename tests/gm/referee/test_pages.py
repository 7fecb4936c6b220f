"""The referee's web pages: GM desk and powers, amend form, turn inspector, log, disputes,
verify."""

import copy
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from gm.play import actions as play
from gm.play.models import Game
from gm.referee import actions


def client_for(user=None):
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def played(race, play_turn):
    play_turn(race, {"P1": "MOVE 2", "P2": "MOVE 1"})
    return race


def test_desk_is_for_gms_only(race, gm_user, co_gm, players):
    url = f"/games/{race.pk}/gm/"
    r = client_for().get(url)
    assert r.status_code == 302 and "/login/" in r["Location"]
    assert client_for(players[0]).get(url).status_code == 403
    for user in (gm_user, co_gm):
        r = client_for(user).get(url)
        assert r.status_code == 200
        assert b"GM desk" in r.content and b"&quot;energy&quot;" in r.content


def test_power_forms(race, gm_user, players):
    url = f"/games/{race.pk}/gm/do/pause/"
    assert client_for(players[0]).post(url, {"reason": "x"}).status_code == 403
    r = client_for(gm_user).post(url, {"reason": ""}, follow=True)
    assert b"give a reason" in r.content
    assert Game.objects.get(pk=race.pk).status == Game.Status.RUNNING
    r = client_for(gm_user).post(url, {"reason": "lunch"}, follow=True)
    assert r.redirect_chain[-1][0] == f"/games/{race.pk}/gm/"
    assert b"The game is paused." in r.content
    assert Game.objects.get(pk=race.pk).status == Game.Status.PAUSED
    r = client_for(gm_user).post(f"/games/{race.pk}/gm/do/resume/", {"reason": "back"},
                                 follow=True)
    assert Game.objects.get(pk=race.pk).status == Game.Status.RUNNING


def test_amend_form_on_the_open_turn(race, gm_user):
    url = f"/games/{race.pk}/gm/amend/"
    r = client_for(gm_user).get(url)
    assert b'name="f/energy/P1" value="9"' in r.content
    r = client_for(gm_user).post(url, {"turn": "1", "f/energy/P1": "5", "f/pos/P1": "0",
                                       "reason": "penalty"}, follow=True)
    assert b"Amendment 1 applied (1 value)" in r.content
    race.refresh_from_db()
    assert race.state["energy"]["P1"] == 5
    r = client_for(gm_user).post(url, {"turn": "1", "f/energy/P1": "-3", "reason": "bad"})
    assert r.status_code == 200
    assert b"P1 has negative energy" in r.content and b'value="-3"' in r.content


def test_amend_form_on_a_resolved_turn_reruns(played, gm_user):
    old = played.state["pos"]["P2"]
    r = client_for(gm_user).post(f"/games/{played.pk}/gm/amend/",
                                 {"turn": "1", "f/pos/P2": "2", "reason": "head start"},
                                 follow=True)
    assert b"Amended before turn 1. Rerun from turn 1: turn 1 resolved again." in r.content
    played.refresh_from_db()
    assert played.state["pos"]["P2"] == old + 2


def test_turn_inspector_and_die_fix_form(played, gm_user, players):
    url = f"/games/{played.pk}/gm/turns/1/"
    assert client_for(players[1]).get(url).status_code == 403
    r = client_for(gm_user).get(url)
    assert b"boost/P1" in r.content and b"MOVE 2" in r.content
    r = client_for(gm_user).post(f"/games/{played.pk}/gm/do/dice/", {
        "turn": "1", "index": "0", "value": "6", "reason": "cocked die", "next": url},
        follow=True)
    assert r.redirect_chain[-1][0] == url
    assert b"Die fixed" in r.content and b"Superseded version" in r.content
    assert played.records.get(superseded=False, number=1).draws[0]["result"] == 6


def test_log_shows_players_only_the_public_part(played, gm_user, players):
    actions.amend_state(played, gm_user, "fixing a slip", [{"path": "/pos/P1", "value": 40}])
    url = f"/games/{played.pk}/log/"
    r = client_for(players[0]).get(url)
    assert b"amended the game state before turn 2" in r.content
    assert b"fixing a slip" in r.content
    assert b"/pos/P1" not in r.content and b"GM only" not in r.content
    r = client_for(gm_user).get(url)
    assert b"/pos/P1" in r.content and b"GM only" in r.content
    assert client_for().get(url).status_code == 200


def test_dispute_pages_from_filing_to_ruling(played, gm_user, players):
    alice, bob = players[0], players[1]
    r = client_for(bob).post(f"/games/{played.pk}/disputes/",
                             {"turn": "1", "text": "I should be at 4"}, follow=True)
    assert b"Dispute #" in r.content and b"I should be at 4" in r.content
    d = played.disputes.get()
    url = f"/games/{played.pk}/disputes/{d.pk}/"
    r = client_for(alice).get(url)
    assert b"I should be at 4" not in r.content and b"frozen-record" not in r.content
    r = client_for(gm_user).get(url)
    assert b"I should be at 4" in r.content and b"frozen-record" in r.content
    assert b"boost/P2" in r.content
    r = client_for(alice).post(url, {"do": "rule", "upheld": "0", "reasons": "no"}, follow=True)
    assert b"only this game" in r.content
    r = client_for(gm_user).post(url, {"do": "rule", "upheld": "1", "turn": "1",
                                       "changes": "/pos/P2 = 4", "reasons": "Agreed."},
                                 follow=True)
    assert b"Ruling recorded" in r.content
    d.refresh_from_db()
    assert d.status == "upheld"
    r = client_for(alice).get(f"/games/{played.pk}/log/")
    assert b"upheld dispute #" in r.content and b"Agreed." in r.content


def test_a_refused_ruling_keeps_what_the_gm_typed(played, gm_user, players):
    """A ruling with one mistake (no reasons, a bad state line, an unknown upheld value)
    comes back with its error and every field as typed, not an empty form."""
    client_for(players[1]).post(f"/games/{played.pk}/disputes/",
                                {"turn": "1", "text": "I should be at 4"})
    dispute = played.disputes.get()
    url = f"/games/{played.pk}/disputes/{dispute.pk}/"
    gm = client_for(gm_user)
    typed = {"do": "rule", "upheld": "1", "turn": "1", "changes": "/pos/P2 = 4\nno equals",
             "dice": "0 = 3", "orders-P2": "MOVE 3", "reasons": "Long careful reasons."}
    r = gm.post(url, typed)
    page = r.content.decode()
    assert r.status_code == 400 and "line 2: write it as" in page
    for value in ("/pos/P2 = 4\nno equals", "0 = 3", "MOVE 3", "Long careful reasons."):
        assert value in page, value
    assert 'name="upheld" value="1" checked' in page
    r = gm.post(url, {**typed, "changes": "/pos/P2 = 4", "reasons": ""})
    assert r.status_code == 400 and "MOVE 3" in r.content.decode()
    r = gm.post(url, {"do": "rule", "upheld": "7", "reasons": "x"})
    assert r.status_code == 400 and "uphold or reject" in r.content.decode()
    dispute.refresh_from_db()
    assert not dispute.ruled


def test_verify_page(make_game, play_turn, gm_user):
    game = make_game("toy_race", 2, options={"rounds": 2})
    play_turn(game, {"P1": "MOVE 1", "P2": "MOVE 2"})
    actions.fix_die(game, gm_user, "table fell", 1, 1, 6)
    play_turn(game, {"P1": "MOVE 1", "P2": "MOVE 2"})
    export = play.export_game(Game.objects.get(pk=game.pk))

    def upload(record):
        f = SimpleUploadedFile("export.json", json.dumps(record).encode(), "application/json")
        return client_for().post("/verify/", {"export": f})

    r = upload(export)
    assert b"Verified: 2 turns replayed" in r.content
    assert b"turn 1: draw 1 set to 6 by the GM" in r.content
    bad = copy.deepcopy(export)
    bad["turns"][1]["orders"]["P2"]["items"] = [3]
    r = upload(bad)
    assert b"Mismatch" in r.content
    assert b"turn 2: state after the turn does not match its hash" in r.content
    assert client_for().get("/verify/").status_code == 200


def test_held_turn_preview_shows_the_reports_before_release(race, gm_user, play_turn):
    actions.set_hold(race, gm_user, "review", True)
    play_turn(race, {"P1": "MOVE 2", "P2": "MOVE 1"})
    r = client_for(gm_user).get(f"/games/{race.pk}/gm/turns/1/")
    assert b"Reports as they will go out" in r.content
    assert b"P1 moves 2+" in r.content
    actions.release(race, gm_user, "ok")
    r = client_for(gm_user).get(f"/games/{race.pk}/gm/turns/1/")
    assert b"Reports as they will go out" not in r.content


def test_held_turn_preview_keeps_one_h1_and_names_each_audience(make_game, gm_user, play_turn):
    """The engine's reports start with a markdown '#' title: in the preview they sit under
    the page's own headings (one h1 per page), and each is labelled for whom it goes."""
    game = make_game("combat_dice", 2)
    actions.set_hold(game, gm_user, "review", True)
    play_turn(game, {s: "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR" for s in ("P1", "P2")})
    page = client_for(gm_user).get(f"/games/{game.pk}/gm/turns/1/").content.decode()
    assert "Reports as they will go out" in page
    assert page.count("<h1") == 1, page
    labels = re.findall(r"<summary>(.*?)</summary>", page)
    assert "*" not in labels and "GM only" in labels and "public" in labels, labels


def test_the_rerun_message_ends_with_its_full_stop(played, gm_user):
    """The desk's message after a rerun with no notes: no space after the last sentence."""
    r = client_for(gm_user).post(f"/games/{played.pk}/gm/do/rerun/",
                                 {"turn": "1", "reason": "check"}, follow=True)
    said = [str(m) for m in r.context["messages"]]
    assert said == ["Rerun from turn 1: turn 1 resolved again."], said


@pytest.mark.parametrize("power", ["rollback", "rerun"])
def test_turn_0_is_the_setup_and_the_gm_is_told_what_to_do_instead(played, gm_user, power):
    r = client_for(gm_user).post(f"/games/{played.pk}/gm/do/{power}/",
                                 {"turn": "0", "reason": "start over"}, follow=True)
    said = " ".join(str(m) for m in r.context["messages"])
    assert "turn 0 is the game's setup, which cannot be rerun or rolled back" in said
    assert "roll back to turn 1" in said and "has not been resolved" not in said
    r = client_for(gm_user).post(f"/games/{played.pk}/gm/do/{power}/",
                                 {"turn": "-1", "reason": "start over"}, follow=True)
    said = " ".join(str(m) for m in r.context["messages"])
    assert "there is no turn -1: turns are numbered from 1" in said
    assert played.turns.filter(superseded=True).count() == 0
