"""A stored state the engine cannot read (a bug, or an amendment that slipped past the
invariants) never makes a 500: sending and previewing orders (web, API, mail), the
thread, the reports and the turn history answer a clear error that names the way out,
and store nothing; what needs no engine (stored reports, the thread) still reads."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from gm.mail import inbound
from gm.mail.mime import Envelope
from gm.mail.models import Outbox, Outcome
from gm.play import actions
from gm.play.models import Game, Post, Submission, TurnRecord

CANNOT = "stored state cannot be read just now (KeyError)"


def _web(user) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def _api(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user)
    return client


@pytest.fixture
def played(make_game, play_defaults):
    """Combat Dice after one published turn (turn 2 open)."""
    game = make_game("combat_dice", 2)
    play_defaults(game)
    game.refresh_from_db()
    assert game.current_turn().number == 2
    return game


def _break(game) -> None:
    """What a bad amendment leaves: a state (and its records) the engine cannot load."""
    Game.objects.filter(pk=game.pk).update(state={"garbage": True},
                                           setup_record={"events": [{"garbage": 1}]})
    TurnRecord.objects.filter(game=game).update(state_after={"garbage": True},
                                                state_before={"garbage": True})


def test_orders_by_web_api_and_preview_are_refused_clearly(played, players):
    _break(played)
    g, before = played.pk, Submission.objects.count()
    web, api = _web(players[0]), _api(players[0])
    for extra in ({}, {"preview": "1"}):
        sent = web.post(f"/games/{g}/orders/", {"text": "ARM", **extra})
        assert sent.status_code == 302, sent.content[:300]
        page = web.get(sent["Location"])
        assert page.status_code == 503 and "Traceback" not in page.content.decode()
    live = web.post(f"/games/{g}/orders/preview.json", {"text": "ARM"})
    assert live.status_code == 503 and CANNOT in live.json()["detail"]
    sent = api.post(f"/api/games/{g}/orders/", {"text": "ARM"}, format="json")
    assert sent.status_code == 503 and CANNOT in sent.json()["detail"]
    assert "roll the game back" in sent.json()["detail"]
    assert Submission.objects.count() == before


def test_the_web_form_says_why_the_orders_were_not_stored(played, players):
    _break(played)
    web = _web(players[0])
    web.post(f"/games/{played.pk}/orders/", {"text": "ARM"})
    shown = [str(m) for m in web.get("/").context["messages"]]
    assert any(m.startswith("Your orders were not stored: this game's " + CANNOT)
               for m in shown), shown


@pytest.mark.parametrize("body", ["ARM", "Hi GM,\r\nARM\r\nCheers!"])
def test_orders_by_mail_get_a_refusal_that_says_why(played, settings, on_commit, body,
                                                     monkeypatch):
    """Also when a greeting line is tried on the engine's parser, which loads the
    stored state first (here an engine whose loading fails at once)."""
    settings.GM_MAIL_DOMAIN = "gm.example"
    _break(played)
    engine = actions.engine_for(played)
    monkeypatch.setattr(type(engine), "from_json", lambda self, data: data["phase"])
    p1 = played.seats.select_related("user").get(name="P1")
    raw = (f"From: {p1.user.email}\r\nTo: {p1.reply_address}\r\nSubject: orders\r\n"
           f"Message-ID: <o1@client.example>\r\n\r\n{body}\r\n").encode()
    with on_commit():
        result = inbound.process(raw, envelope=Envelope([p1.reply_address], None))
    assert result.outcome == Outcome.REFUSED and CANNOT in result.detail
    assert CANNOT in Outbox.objects.get(pk=result.reply_id).body_text


def test_thread_reports_and_history_never_500(played, players):
    _break(played)
    g = played.pk
    web, api = _web(players[0]), _api(players[0])
    assert web.post(f"/games/{g}/thread/", {"markdown": "is the game broken?"}).status_code \
        == 302
    assert Post.objects.filter(game=played, markdown="is the game broken?").exists()
    thread = api.get(f"/api/games/{g}/thread/")
    assert thread.status_code == 200 and any(p["markdown"] == "is the game broken?"
                                             for p in thread.json())
    reports = api.get(f"/api/games/{g}/reports/")
    assert reports.status_code == 200 and reports.json()[0]["turn"] == 1  # stored text
    assert api.get(f"/api/games/{g}/reports/1/").status_code == 200
    for number in (0, 1):  # the setup report and a past board are read by the engine
        page = web.get(f"/games/{g}/turns/{number}/")
        assert page.status_code == 503, (number, page.status_code)
        assert "stored state cannot be shown" in page.content.decode()
    assert web.get(f"/games/{g}/").status_code == 503
    assert api.get(f"/api/games/{g}/").status_code == 503
