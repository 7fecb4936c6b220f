"""The settings page, the game's notifications page, the new-game form's proposed hour,
and the API endpoints."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from gm.notify.models import Schedule, Settings, Webhook


@pytest.fixture
def api():
    def make(user):
        client = APIClient()
        client.force_authenticate(user)
        return client
    return make


def test_settings_page_saves(client, players):
    alice = players[0]
    client.force_login(alice)
    page = client.get("/account/notifications/")
    assert page.status_code == 200 and b"Quiet hours" in page.content
    resp = client.post("/account/notifications/", {
        "what": "settings", "mode": "digest", "channel": "mail", "digest_hour": "7",
        "quiet_start": "22", "quiet_end": "7", "urgent_breaks_quiet": "on",
        "reminder_hours": "12, 2", "daily_cap": "5"})
    assert resp.status_code == 302
    s = Settings.objects.get(user=alice)
    assert (s.mode, s.digest_hour, s.quiet_start, s.quiet_end, s.urgent_breaks_quiet,
            s.reminder_hours, s.daily_cap, s.every_channel) == (
        "digest", 7, 22, 7, True, [12.0, 2.0], 5, False)


def test_settings_page_refuses_half_quiet_hours(client, players):
    client.force_login(players[0])
    resp = client.post("/account/notifications/", {"what": "settings", "quiet_start": "22",
                                                    "quiet_end": ""}, follow=True)
    assert b"both ends" in resp.content and not Settings.objects.exists()


def test_game_page_is_the_gms(client, make_game, players, gm_user, tally_engine):
    game = make_game("tally", 2, start=False)
    client.force_login(players[0])
    assert client.get(f"/games/{game.pk}/notifications/").status_code == 404
    client.force_login(gm_user)
    page = client.get(f"/games/{game.pk}/notifications/")
    assert page.status_code == 200 and b"proposed-hour" in page.content
    resp = client.post(f"/games/{game.pk}/notifications/", {
        "what": "schedule", "hour": "20", "time_zone": "Europe/Berlin",
        "excluded_days": ["5", "6"], "move": "later"})
    assert resp.status_code == 302
    s = Schedule.objects.get(game=game)
    assert (s.hour, s.time_zone, s.excluded_days) == (20, "Europe/Berlin", [5, 6])
    resp = client.post(f"/games/{game.pk}/notifications/", {
        "what": "add-webhook", "url": "https://example.org/hook", "format": "slack"})
    assert resp.status_code == 200 and b"new-hook-secret" in resp.content
    assert Webhook.objects.get().game == game


def test_new_game_form_shows_the_proposed_hour(client, players, tally_engine):
    from gm.accounts.timezones import set_zone
    set_zone(players[0], "Asia/Tokyo")
    client.force_login(players[0])
    page = client.get("/games/new/tally/")
    assert page.status_code == 200
    assert b'id="deadline-proposal"' in page.content and b"Asia/Tokyo" in page.content


def test_api(api, players, gm_user, make_game, tally_engine):
    alice = players[0]
    c = api(alice)
    assert c.get("/api/notify/settings/").json()["mode"] == "each"
    resp = c.patch("/api/notify/settings/", {"mode": "needs", "reminder_hours": [6, 1]},
                   format="json")
    assert resp.status_code == 200 and resp.json()["reminder_hours"] == [6.0, 1.0]
    assert c.patch("/api/notify/settings/", {"mode": "loud"}, format="json").status_code == 400
    resp = c.post("/api/notify/webhooks/", {"url": "http://example.org/x"}, format="json")
    assert resp.status_code == 400  # https only
    resp = c.post("/api/notify/webhooks/", {"url": "https://example.org/x",
                                            "format": "discord"}, format="json")
    assert resp.status_code == 201 and len(resp.json()["secret"]) == 64
    listed = c.get("/api/notify/webhooks/").json()
    assert len(listed) == 1 and "secret" not in listed[0]
    assert api(players[1]).delete(f"/api/notify/webhooks/{listed[0]['id']}/").status_code \
        == 403
    assert c.delete(f"/api/notify/webhooks/{listed[0]['id']}/").status_code == 204
    assert c.get("/api/notify/feed/").status_code == 200
    game = make_game("tally", 2, start=False)
    assert c.put(f"/api/games/{game.pk}/schedule/", {"hour": 20},
                 format="json").status_code == 403
    g = api(gm_user)
    resp = g.put(f"/api/games/{game.pk}/schedule/", {"hour": 20, "time_zone": "Europe/Berlin",
                                                     "excluded_days": [6]}, format="json")
    assert resp.status_code == 200 and resp.json()["schedule"]["hour"] == 20
    assert "by_hour" in resp.json()["proposal"]
    assert g.put(f"/api/games/{game.pk}/schedule/", {"hour": 20, "minute": "x"},
                 format="json").status_code == 400
    assert g.get(f"/api/games/{game.pk}/webhooks/").json() == []
    resp = c.get("/api/notify/proposal/?zones=Europe/Berlin,America/New_York&zone=UTC")
    assert resp.status_code == 200 and resp.json()["in_night"] == 0
