"""`VACATION <from> TO <to>` mailed to a seat's reply address: recorded and answered with
a receipt; refused (and said why) where the game forbids vacations or the dates do not
read. Once through the pipeline, once over real SMTP into the service's listener."""

from __future__ import annotations

import smtplib
from datetime import UTC, datetime

import pytest

from gm.absence import actions as absence
from gm.absence.models import Vacation
from gm.mail.models import Outcome
from gm.mail.smtp_server import controller
from gm.play.models import LogEntry

from . import mimeshapes as shapes
from .conftest import free_port, seat
from .test_answers import answers

pytestmark = pytest.mark.django_db


@pytest.fixture
def dated(monkeypatch):
    """Vacations checked against a fixed 'now' before the dates the tests mail."""
    from django.utils import timezone

    fixed = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: fixed)
    return fixed


def test_vacation_by_mail_is_recorded_and_answered_with_a_receipt(
        tally_game, feed, mailoutbox, gm_user, dated):
    absence.configure(tally_game, gm_user, {"vacation_cap_days": 7})
    p2 = seat(tally_game, "P2")
    result = feed(shapes.plain("VACATION 2026-12-24 TO 2027-01-02", sender=p2.user.email,
                               to=p2.reply_address))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    vac = Vacation.objects.get(user=p2.user)
    assert vac.starts == datetime(2026, 12, 24, tzinfo=UTC)
    assert vac.ends == datetime(2027, 1, 3, tzinfo=UTC)  # the last day is included
    reply = answers(mailoutbox, p2.user.email)[-1]
    assert "[vacation recorded]" in reply.subject
    assert "Vacation recorded for your account (seat P2" in reply.body
    assert "away from Thu 24 Dec 2026, 00:00 UTC" in reply.body
    assert "until     Sun 3 Jan 2027, 00:00 UTC" in reply.body
    assert 'The other players see: "P2 is away from' in reply.body
    assert LogEntry.objects.filter(game=tally_game, action="vacation").exists()


def test_vacation_by_mail_in_a_game_that_forbids_them_is_refused(
        tally_game, feed, mailoutbox, gm_user, dated):
    absence.configure(tally_game, gm_user, {"vacations_allowed": False})
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("vacation 2026-12-24 to 2026-12-26", sender=p1.user.email,
                               to=p1.reply_address))
    assert result.outcome == Outcome.REFUSED
    assert not Vacation.objects.exists()
    body = " ".join(answers(mailoutbox, p1.user.email)[-1].body.split())
    assert "your vacation was not recorded: this game's GM does not allow vacations" in body


@pytest.mark.parametrize("line, why", [
    ("VACATION soon TO later", "write it as VACATION 2026-12-24 TO 2027-01-02"),
    ("VACATION 2026-12-24 TO 2026-12-20", "a vacation ends after it starts"),
    ("VACATION 2026-02-30 TO 2026-03-02", "not a date or time"),
    ("VACATION 2026-12-24 TO 2027-06-01", "a vacation lasts at most 90 days"),
])
def test_a_vacation_line_that_does_not_read_is_refused_with_the_reason(
        tally_game, feed, mailoutbox, dated, line, why):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain(line, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.REFUSED
    reply = answers(mailoutbox, p1.user.email)[-1]
    assert "[vacation not recorded]" in reply.subject
    assert "Your VACATION command for seat P1" in reply.body
    assert why in " ".join(reply.body.split())
    assert not Vacation.objects.exists()


def test_vacation_over_real_smtp(transactional_db, make_game, smtp_sink, gm_user):
    game = make_game("tally", 2, turn_hours=48)
    absence.configure(game, gm_user, {})
    p2 = seat(game, "P2")
    port = free_port()
    listener = controller("127.0.0.1", port)
    listener.start()
    try:
        raw = shapes.plain("VACATION 2030-01-10 09:00 TO 2030-01-12 18:00",
                           sender=p2.user.email, to=p2.reply_address)
        with smtplib.SMTP("127.0.0.1", port) as client:
            assert client.sendmail(p2.user.email, [p2.reply_address], raw) == {}
        for _ in range(100):
            replies = [m for m in smtp_sink.to(p2.user.email)
                       if "vacation recorded" in m["Subject"]]
            if replies:
                break
            import time
            time.sleep(0.05)
        assert replies, [m["Subject"] for m in smtp_sink.to(p2.user.email)]
        assert "away from Thu 10 Jan 2030, 09:00 UTC" in replies[0].get_content()
        vac = Vacation.objects.get(user=p2.user)
        assert vac.ends == datetime(2030, 1, 12, 18, 0, tzinfo=UTC)
    finally:
        listener.stop()
