"""The desk page and its API: side-by-side orders, draft, rolls, live preview, publish;
only the GM gets in; a seat's sheet shows on its page."""

from __future__ import annotations

import pytest

from gm.play import actions
from gm.play.models import Turn

pytestmark = pytest.mark.django_db

ORDERS = {"France": "Army Paris to Burgundy", "England": "Fleet London to the Channel"}


def _to_adjudication(game, send_all, on_commit):
    send_all(game, ORDERS)
    with on_commit():
        actions.mark_due(Turn.objects.get(game=game, status=Turn.Status.OPEN))
    game.refresh_from_db()
    return game


def test_the_desk_shows_every_seats_orders_and_marks_the_missing(adj_game, send_all, client,
                                                                 gm_user, on_commit):
    game = _to_adjudication(adj_game(), send_all, on_commit)
    client.force_login(gm_user)
    page = client.get(f"/games/{game.pk}/adjudicate/").content.decode()
    assert ORDERS["France"] in page and ORDERS["England"] in page
    assert 'data-seat="Germany"' in page and "<strong>missing</strong>" in page
    assert "/adjudicate/" in client.get(f"/games/{game.pk}/").content.decode()


def test_only_the_gm_reaches_the_desk(adj_game, send_all, client, players, on_commit):
    game = _to_adjudication(adj_game(), send_all, on_commit)
    client.force_login(players[0])
    assert client.get(f"/games/{game.pk}/adjudicate/").status_code == 403
    got = client.get(f"/api/games/{game.pk}/gm/adjudication/")
    assert got.status_code == 403 and ORDERS["England"] not in got.content.decode()
    assert client.post(f"/api/games/{game.pk}/gm/adjudication/",
                       {"action": "publish", "text": "x"},
                       content_type="application/json").status_code == 403


def test_the_page_saves_rolls_previews_and_publishes(adj_game, send_all, client, gm_user,
                                                     players, on_commit):
    game = _to_adjudication(adj_game(), send_all, on_commit)
    client.force_login(gm_user)
    url = f"/games/{game.pk}/adjudicate/"
    n = str(Turn.objects.get(game=game, status=Turn.Status.OPEN).number)
    wrong = client.post(url, {"do": "save", "text": "x", "turn": "1"}, follow=True)
    assert "turn 1 is not the turn waiting" in wrong.content.decode()
    client.post(url, {"do": "save", "text": "Storms: {storm}.\n@sheet France\nHP 7",
                      "turn": n})
    client.post(url, {"do": "roll", "label": "storm", "what": "d6", "turn": n,
                      "text": "Storms: {storm}.\n@sheet France\nHP 7"})
    page = client.get(url).content.decode()
    assert "storm" in page and "Storms: " in page
    api = client.post(f"/api/games/{game.pk}/gm/adjudication/",
                      {"action": "preview", "text": "Calm {storm}\n@private England\nHi"},
                      content_type="application/json").json()
    assert api["ok"] and "Hi" in api["reports"]["England"]["markdown"]
    assert "Hi" not in api["reports"]["public"]["markdown"]
    bad = client.post(f"/api/games/{game.pk}/gm/adjudication/",
                      {"action": "preview", "text": "@private Narnia\nx"},
                      content_type="application/json").json()
    assert not bad["ok"] and bad["errors"][0]["line"] == 1
    with on_commit():
        client.post(url, {"do": "publish", "text": "Storms: {storm}.\n@sheet France\nHP 7",
                          "turn": n})
    game.refresh_from_db()
    assert Turn.objects.get(game=game, status=Turn.Status.OPEN).owing == [
        "England", "France", "Germany"]
    france = game.seats.get(name="France").user
    client.force_login(france)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Your sheet (version 1)" in page and "HP 7" in page
    client.force_login(game.seats.get(name="England").user)
    assert "HP 7" not in client.get(f"/games/{game.pk}/").content.decode()


def test_api_rolls_are_kept_and_reported(adj_game, send_all, client, gm_user, on_commit):
    game = _to_adjudication(adj_game(), send_all, on_commit)
    client.force_login(gm_user)
    url = f"/api/games/{game.pk}/gm/adjudication/"
    one = client.post(url, {"action": "roll", "label": "hp", "what": "4d6 keep 3"},
                      content_type="application/json")
    assert one.status_code == 201
    two = client.post(url, {"action": "roll", "label": "hp", "what": "4d6 keep 3"},
                      content_type="application/json").json()
    assert len(two["rolls"]) == 2
    bad = client.post(url, {"action": "roll", "label": "x", "what": "2d"},
                      content_type="application/json")
    assert bad.status_code == 400
    desk = client.get(url).json()
    assert [r["label"] for r in desk["rolls_made"]] == ["hp", "hp"]


def test_the_new_game_page_lists_the_ruleset_beside_the_others(client, gm_user):
    client.force_login(gm_user)
    page = client.get("/games/new/").content.decode()
    for name in ("gm_adjudicated", "combat_dice", "dungeonquest", "duelists", "dice_age",
                 "duel_of_ages"):
        assert name in page, name


def test_the_new_game_form_sets_up_named_seats_and_decks(client, gm_user, players):
    from gm.play.models import Game

    client.force_login(gm_user)
    got = client.post("/games/new/gm_adjudicated/", {
        "title": "Werewolf night", "role": "referee", "turn_hours": "24",
        "turn_minutes": "0", "process_early": "on",
        "option_seats": "Villager 1, Villager 2, Seer", "option_help": "",
        "option_seat_help": "Seer: name one player to look at; Villager 1: vote",
        "option_reveal": "gm_only", "option_max_lines": "3", "option_first_words": "",
        "option_decks": "roles: wolf, seer, villager", "option_remind_gm": "on"})
    assert got.status_code in (200, 302), got.content[:500]
    game = Game.objects.get(title="Werewolf night")
    for user in players[:3]:
        client.force_login(user)
        client.post(f"/games/{game.pk}/join/")
    assert sorted(game.seats.values_list("name", flat=True)) == ["Seer", "Villager 1",
                                                                 "Villager 2"]
    client.force_login(players[3])
    client.post(f"/games/{game.pk}/join/")
    assert game.seats.count() == 3  # the GM named three seats: the table is full
    client.force_login(gm_user)
    client.post(f"/games/{game.pk}/start/")
    game.refresh_from_db()
    turn = game.current_turn()
    assert "name one player to look at" in turn.decision["prompts"]["Seer"]["help"]
    assert game.state["decks"]["roles"]["left"] == ["wolf", "seer", "villager"]
