"""GM-adjudicated games by mail: free-text orders in (receipt, checks with clear errors,
withdrawal by a later version), the GM's reports out to each seat with its own part."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from gm.gmadj import actions as adj
from gm.mail import inbound
from gm.mail.mime import Envelope
from gm.play import actions
from gm.play.models import Submission, Turn

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _mail(settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    settings.GM_MAIL_LOCALPART = "play"
    settings.DEFAULT_FROM_EMAIL = "gm@gm.example"
    settings.SITE_URL = "http://gm.example"
    settings.GM_MAIL_AUTHSERV_ID = "mx.gm.example"


def _send(seat, body: str, on_commit):
    msg = EmailMessage()
    msg["From"] = seat.user.email
    msg["To"] = seat.reply_address
    msg["Subject"] = "orders"
    msg["Message-ID"] = make_msgid(domain="player.example")
    msg.set_content(body)
    with on_commit():
        return inbound.process(msg.as_bytes(), envelope=Envelope([seat.reply_address],
                                                                 seat.user.email),
                               transport="pipe")


def test_orders_in_by_mail_and_reports_out(adj_game, gm_user, on_commit, mailoutbox):
    game = adj_game(first_words="ARMY, FLEET", max_lines=3)
    france = game.seats.select_related("user").get(name="France")
    england = game.seats.select_related("user").get(name="England")
    mailoutbox.clear()
    _send(france, "Army Paris to Burgundy\nFleet Brest holds\nEND\nthanks", on_commit)
    sub = Submission.objects.filter(seat=france).latest("version")
    assert sub.text.startswith("Army Paris to Burgundy") and sub.receipt
    receipt = [m for m in mailoutbox if france.user.email in m.to]
    assert receipt and sub.receipt[:12] in receipt[-1].body
    mailoutbox.clear()
    _send(england, "Retreat to London\nFleet North Sea", on_commit)
    refusal = [m for m in mailoutbox if england.user.email in m.to][-1].body
    assert "must start with one of: ARMY, FLEET" in refusal
    assert not Submission.objects.filter(seat=england).exclude(receipt="").exists()
    with on_commit():
        actions.mark_due(Turn.objects.get(game=game, status=Turn.Status.OPEN))
    game.refresh_from_db()
    mailoutbox.clear()
    with on_commit():
        adj.publish(game, gm_user, text="Burgundy falls.\n@private France\nWell done.\n"
                                        "@private England\nYou were late.")
    to_france = "\n".join(m.body for m in mailoutbox if france.user.email in m.to)
    to_england = "\n".join(m.body for m in mailoutbox if england.user.email in m.to)
    assert "Burgundy falls." in to_france and "Well done." in to_france
    assert "You were late." in to_england and "Well done." not in to_england
    assert "You were late." not in to_france
