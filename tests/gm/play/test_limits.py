"""One order-size limit for web, API and mail, with the same clear message; game creation
caps per user per day and for games not yet started."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from gm.mail import inbound
from gm.mail.mime import Envelope
from gm.play import actions
from gm.play.limits import RateLimited, TooLarge
from gm.play.models import Game, Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(make_game):
    return make_game("tally", 2, process_early=False)


def _too_long(settings) -> str:
    return "ADD 1\n" + "# comment\n" * (settings.GM_ORDERS_MAX_CHARS // 10 + 1)


def test_the_action_refuses_oversized_orders_before_parsing(game, players, settings):
    seat = game.seats.get(user=players[0])
    text = _too_long(settings)
    with pytest.raises(TooLarge, match=f"orders can be at most {settings.GM_ORDERS_MAX_CHARS} "
                                       f"characters; these are {len(text)}"):
        actions.submit_orders(game, seat, text)
    assert not Submission.objects.exists()


def test_api_web_and_mail_share_the_limit(game, players, settings, on_commit):
    text = _too_long(settings)
    limit = f"orders can be at most {settings.GM_ORDERS_MAX_CHARS} characters"
    api = APIClient()
    api.force_authenticate(players[0])
    response = api.post(f"/api/games/{game.pk}/orders/", {"text": text}, format="json")
    assert response.status_code == 400 and limit in response.json()["detail"]

    web = Client()
    web.force_login(players[0])
    page = web.post(f"/games/{game.pk}/orders/", {"text": text}, follow=True)
    assert limit in page.content.decode()
    assert len(page.content) < 200_000  # the refusal does not echo the text back

    seat = game.seats.get(user=players[0])
    msg = EmailMessage()
    msg["From"] = players[0].email
    msg["To"] = seat.reply_address
    msg["Subject"] = "orders"
    msg["Message-ID"] = make_msgid(domain="player.example")
    msg.set_content(text)
    with on_commit():
        result = inbound.process(msg.as_bytes(), envelope=Envelope([seat.reply_address],
                                                                   players[0].email))
    assert result.outcome == "refused" and limit in result.detail
    assert not Submission.objects.exists()
    # Within the limit everything still works.
    ok = api.post(f"/api/games/{game.pk}/orders/", {"text": "ADD 2 # fine"}, format="json")
    assert ok.status_code == 201


def test_the_web_checks_the_limit_before_reading_greetings(game, players, settings):
    """A text over the limit with no order in it is refused for its size, not answered
    "no orders found" with the whole text echoed back as "not read" (the send button,
    the preview button and the live preview alike)."""
    text = "x" * (settings.GM_ORDERS_MAX_CHARS + 1)
    limit = f"orders can be at most {settings.GM_ORDERS_MAX_CHARS} characters"
    web = Client()
    web.force_login(players[0])
    page = web.post(f"/games/{game.pk}/orders/", {"text": text}, follow=True)
    assert limit in page.content.decode() and "no orders found" not in page.content.decode()
    assert len(page.content) < settings.GM_ORDERS_MAX_CHARS
    page = web.post(f"/games/{game.pk}/orders/", {"text": text, "preview": "1"}, follow=True)
    assert limit in page.content.decode() and len(page.content) < len(text)
    live = web.post(f"/games/{game.pk}/orders/preview.json", {"text": text})
    body = live.json()
    assert live.status_code == 200 and not body["ok"] and len(live.content) < 2000
    assert limit in body["errors"][0]["message"]


def test_games_per_day_are_capped_with_retry_after(make_user, settings):
    settings.GM_GAMES_PER_DAY = 3
    settings.GM_OPEN_GAMES_PER_USER = 100
    user = make_user("prolific")
    api = APIClient()
    api.force_authenticate(user)
    for i in range(3):
        assert api.post("/api/games/", {"ruleset": "tally", "title": f"g{i}"},
                        format="json").status_code == 201
    refused = api.post("/api/games/", {"ruleset": "tally", "title": "one more"},
                       format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "you created 3 games in the last 24 hours" in refused.json()["detail"]
    with time_machine.travel(timezone.now() + timezone.timedelta(days=1, minutes=1)):
        assert actions.create_game(user, ruleset="tally", title="next day")


def test_unstarted_games_are_capped_and_staff_are_exempt(make_user, settings):
    settings.GM_OPEN_GAMES_PER_USER = 2
    user = make_user("hoarder")
    for i in range(2):
        actions.create_game(user, ruleset="tally", title=f"waiting {i}")
    with pytest.raises(RateLimited, match="already have 2 games waiting for players"):
        actions.create_game(user, ruleset="tally", title="third")
    api = APIClient()
    api.force_authenticate(user)
    refused = api.post("/api/games/", {"ruleset": "tally", "title": "third"}, format="json")
    assert refused.status_code == 429
    assert "already have 2 games waiting for players" in refused.json()["detail"]
    user.is_staff = True
    user.save()
    assert actions.create_game(user, ruleset="tally", title="staff may")
    assert Game.objects.filter(gm=user).count() == 3
