"""The substitutes API and the seat policy set at game creation (API and new-game form)."""

from __future__ import annotations

import pytest
from django.test import Client

from gm.play.models import Game, LogEntry
from gm.substitutes import policy
from gm.substitutes.models import SeatOffer

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_create_a_game_with_a_seat_policy_by_api(gm_user):
    api = _client(gm_user)
    answer = api.post("/api/games/", {"ruleset": "tally", "title": "Auto seats",
                                      "seat_policy": {"approval": "auto", "free_turns": 2,
                                                      "min_finished": 3}},
                      content_type="application/json")
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    assert policy.as_json(policy.policy_of(game)) == {
        "approval": "auto", "free_turns": 2, "min_finished": 3, "min_met_percent": 0}


@pytest.mark.parametrize("bad, says", [
    ({"approval": "maybe"}, "approval is 'gm'"),
    ({"free_turns": 9}, "free_turns must be between 0 and 5"),
    ({"min_met_percent": "lots"}, "min_met_percent must be a whole number"),
    ({"colour": "red"}, "unknown seat policy field"),
])
def test_a_bad_seat_policy_creates_no_game(gm_user, bad, says):
    answer = _client(gm_user).post("/api/games/", {"ruleset": "tally", "title": "x",
                                                   "seat_policy": bad},
                                   content_type="application/json")
    assert answer.status_code == 400 and says in answer.json()["detail"]
    assert not Game.objects.exists()


def test_create_a_game_with_a_seat_policy_by_the_form(gm_user):
    web = _client(gm_user)
    form = web.get("/games/new/tally/").content.decode()
    assert 'id="seat-policy"' in form and 'name="seat_approval"' in form
    web.post("/games/new/tally/", {
        "title": "Form seats", "role": "referee", "turn_hours": 48, "turn_minutes": 0,
        "process_early": "on", "option_target": 12, "option_max_turns": 6,
        "seat_approval": "auto", "seat_free_turns": 0, "seat_min_finished": 0,
        "seat_min_met_percent": 50})
    game = Game.objects.get(title="Form seats")
    chosen = policy.policy_of(game)
    assert (chosen.approval, chosen.free_turns, chosen.min_met_percent) == ("auto", 0, 50)


def test_the_flow_by_api(tally, gm_user, players, make_user, on_commit):
    erin = make_user("erin")
    api_erin, api_bob, api_gm = _client(erin), _client(players[1]), _client(gm_user)
    answer = api_erin.put("/api/substitutes/volunteer/", {"rulesets": ["tally"]},
                          content_type="application/json")
    assert answer.json() == {"rulesets": ["tally"]}
    assert api_erin.put("/api/substitutes/volunteer/", {"rulesets": ["chess"]},
                        content_type="application/json").status_code == 400
    assert api_bob.post(f"/api/games/{tally.pk}/leave/").status_code == 400  # unconfirmed
    with on_commit():
        left = api_bob.post(f"/api/games/{tally.pk}/leave/", {"confirm": True},
                            content_type="application/json")
    assert left.status_code == 201 and left.json()["reason"] == "leaving"
    assert api_bob.post(f"/api/games/{tally.pk}/leave/", {"confirm": True},
                        content_type="application/json").status_code == 409
    listed = api_erin.get("/api/substitutes/offers/").json()
    assert [(o["seat"], o["approval"]) for o in listed] == [("P2", "gm")]
    offer_id = listed[0]["id"]
    claimed = api_erin.post(f"/api/substitutes/offers/{offer_id}/accept/")
    assert claimed.json()["status"] == "claimed"
    assert api_erin.post(f"/api/games/{tally.pk}/gm/seat-offers/{offer_id}/approve/",
                         {"reason": "me"}, content_type="application/json").status_code == 403
    with on_commit():
        done = api_gm.post(f"/api/games/{tally.pk}/gm/seat-offers/{offer_id}/approve/",
                           {"reason": "welcome"}, content_type="application/json")
    assert done.json()["status"] == "filled"
    seats = api_erin.get(f"/api/games/{tally.pk}/seats/history/").json()["seats"]
    assert [h["player"] for h in seats["P2"]] == ["bob", "erin"]
    assert [h["player"] for h in seats["P1"]] == ["alice"]
    brief = api_erin.get(f"/api/games/{tally.pk}/briefing/").json()
    assert brief["seat"] == "P2"
    assert [s["key"] for s in brief["sections"]][:2] == ["deadline", "view"]
    assert api_bob.get(f"/api/games/{tally.pk}/briefing/").status_code == 403
    changed = api_gm.put(f"/api/games/{tally.pk}/gm/seat-policy/",
                         {"approval": "auto", "reason": "faster"},
                         content_type="application/json")
    assert changed.json()["approval"] == "auto"
    assert LogEntry.objects.filter(game=tally, action="seat-policy", reason="faster").exists()
    assert api_erin.put(f"/api/games/{tally.pk}/gm/seat-policy/", {"approval": "gm"},
                        content_type="application/json").status_code == 403
    offered = api_gm.post(f"/api/games/{tally.pk}/gm/seat-offers/", {"seat": "P1"},
                          content_type="application/json")
    assert offered.status_code == 201 and SeatOffer.objects.get(pk=offered.json()["id"]).reason == "gm"


def test_the_volunteer_account_page(make_user):
    erin = make_user("erin")
    web = _client(erin)
    assert 'id="volunteer-form"' in web.get("/account/substitute/").content.decode()
    web.post("/account/substitute/", {"ruleset": ["tally", "*"]})
    page = web.get("/players/erin/").content.decode()
    assert "Volunteers as a substitute for: any ruleset, tally." in page
    web.post("/account/substitute/", {})
    assert "Volunteers as a substitute" not in web.get("/players/erin/").content.decode()
