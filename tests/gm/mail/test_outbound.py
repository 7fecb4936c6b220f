"""Notices out: turn opened, reports, game over, reminders; preferences and unsubscribe;
the outbox never mails the same event twice and retries a failed send."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from gm.accounts.timezones import format_deadline
from gm.mail import notices, outbox, plaintext, prefs, tasks
from gm.mail.models import Kind, MailPreference, Outbox
from gm.play import actions
from gm.play.models import Report, Turn, TurnRecord

from .conftest import seat


def by_kind(kind: str, to: str | None = None) -> list[Outbox]:
    qs = Outbox.objects.filter(kind=kind)
    return list(qs.filter(to=to) if to else qs)


def test_turn_opened_notice_has_deadline_prompt_and_reply_address(tally_game, mailoutbox):
    p1 = seat(tally_game, "P1")
    turn = tally_game.current_turn()
    msg = next(m for m in mailoutbox if m.to == [p1.user.email])
    assert msg.subject == "[Test tally] turn 1: your orders, seat P1"
    assert msg.reply_to == [p1.reply_address]
    assert f"Orders are due by {format_deadline(turn.deadline)}." in msg.body
    assert "How much to add?\nExample: ADD 2\nChoices:\n  ADD 1\n  ADD 2\n  ADD 3" in msg.body
    assert msg.extra_headers["Auto-Submitted"] == "auto-generated"
    assert msg.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = msg.extra_headers["List-Unsubscribe"].strip("<>")
    assert url.startswith("http://gm.example/mail/unsubscribe/") and url in msg.body
    assert len(by_kind(Kind.TURN_OPENED)) == 2


def test_report_mail_is_the_seats_own_report_multipart(tally_game, on_commit, mailoutbox):
    with on_commit():
        for name, n in (("P1", 1), ("P2", 2)):
            s = seat(tally_game, name)
            actions.submit_orders(tally_game, s, f"ADD {n}", source="email", author=s.user)
    record = TurnRecord.objects.get(game=tally_game, number=1)
    own = Report.objects.get(record=record, audience="P1")
    other = Report.objects.get(record=record, audience="P2")
    p1 = seat(tally_game, "P1")
    msg = next(m for m in mailoutbox if m.to == [p1.user.email]
               and m.subject == "[Test tally] report for turn 1")
    assert msg.body.startswith(plaintext.render(own.markdown))
    assert msg.body.startswith("Test tally: turn 1\n==================\n\n- P1 adds 1")
    html, mimetype = msg.alternatives[0]
    assert mimetype == "text/html" and html.startswith(own.html)
    secret_line = next(line for line in other.markdown.splitlines() if "secret" in line)
    assert secret_line not in msg.body and secret_line not in html  # P2's hidden die
    assert msg.reply_to == [p1.reply_address]
    # turn 2 opened as well
    assert len(by_kind(Kind.TURN_OPENED)) == 4


def test_game_over_mail_reveals_secret_and_result(make_game, on_commit, mailoutbox):
    game = make_game("tally", 2, options={"max_turns": 1}, title="Short")
    with on_commit():
        for name in ("P1", "P2"):
            s = seat(game, name)
            actions.submit_orders(game, s, "ADD 3", source="email", author=s.user)
    game.refresh_from_db()
    over = [m for m in mailoutbox if m.subject == "[Short] game over"]
    assert sorted(m.to[0] for m in over) == ["alice@example.org", "bob@example.org"]
    assert game.secret in over[0].body and game.result["summary"] in over[0].body


def test_signal_twice_mails_once(tally_game, on_commit, mailoutbox):
    turn = tally_game.current_turn()
    before = len(mailoutbox)
    with on_commit():
        assert notices.turn_opened(turn) == 0
    assert len(mailoutbox) == before


def test_preference_off_means_no_mail_of_that_kind(make_game, players, on_commit,
                                                    mailoutbox):
    prefs.set_pref(players[0], Kind.TURN_OPENED, False)
    make_game("tally", 2)
    assert [m.to for m in mailoutbox if "your orders" in m.subject] == [["bob@example.org"]]


def test_unsubscribe_link_get_then_post(tally_game, client, players):
    alice = players[0]
    url = prefs.unsubscribe_url(alice, Kind.REPORT).replace("http://gm.example", "")
    page = client.get(url)
    assert page.status_code == 200 and b"Stop turn reports?" in page.content
    assert prefs.wants(alice, Kind.REPORT)  # a GET (link scanner) changes nothing
    done = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and b"Unsubscribed" in done.content
    assert not prefs.wants(alice, Kind.REPORT)
    assert prefs.wants(alice, Kind.TURN_OPENED)


def test_forged_unsubscribe_token_is_refused(tally_game, client, players):
    url = prefs.unsubscribe_url(players[0], Kind.REPORT).replace("http://gm.example", "")
    bad = client.post(url[:-3] + "xx/")
    assert bad.status_code == 400
    assert not MailPreference.objects.exists()


def test_preferences_page(tally_game, client, players):
    client.force_login(players[1])
    page = client.get("/mail/preferences/")
    assert page.status_code == 200 and b'name="reminder" checked' in page.content
    client.post("/mail/preferences/", {"turn_opened": "on", "report": "on", "game_over": "on",
                                       "receipt": "on"})
    assert prefs.prefs_for(players[1]) == {"receipt": True, "turn_opened": True,
                                           "reminder": False, "report": True,
                                           "game_over": True, "press": False}


def test_reminders_only_to_seats_without_orders_once(tally_game, on_commit, mailoutbox,
                                                     settings):
    settings.GM_MAIL_REMIND_HOURS = 12
    p1 = seat(tally_game, "P1")
    with on_commit():
        actions.submit_orders(tally_game, p1, "ADD 1", source="web", author=p1.user)
    turn = tally_game.current_turn()
    assert notices.send_reminders(now=turn.deadline - timedelta(hours=13)) == 0
    with on_commit():
        assert notices.send_reminders(now=turn.deadline - timedelta(hours=11)) == 1
        assert notices.send_reminders(now=turn.deadline - timedelta(hours=10)) == 0
    reminders = [m for m in mailoutbox if "reminder" in m.subject]
    assert [m.to for m in reminders] == [["bob@example.org"]]
    assert reminders[0].reply_to == [seat(tally_game, "P2").reply_address]
    assert Turn.objects.get(pk=turn.pk).reminded


def test_short_turns_are_reminded_at_half_time(make_game, on_commit, mailoutbox, settings):
    settings.GM_MAIL_REMIND_HOURS = 12
    game = make_game("tally", 2, turn_hours=0, turn_minutes=30)
    turn = game.current_turn()
    assert notices.send_reminders(now=turn.deadline - timedelta(minutes=20)) == 0
    with on_commit():
        assert notices.send_reminders(now=turn.deadline - timedelta(minutes=14)) == 2


def test_periodic_task_entry_point(tally_game, on_commit):
    turn = tally_game.current_turn()
    Turn.objects.filter(pk=turn.pk).update(deadline=timezone.now() + timedelta(hours=1))
    with on_commit():
        assert tasks.send_reminders.apply().get() == 2


def test_outbox_key_is_unique(db, on_commit, mailoutbox):
    with on_commit():
        first = outbox.enqueue(key="k1", kind=Kind.RECEIPT, to="a@example.org", subject="s",
                               text="t")
        second = outbox.enqueue(key="k1", kind=Kind.RECEIPT, to="a@example.org",
                                subject="s", text="t")
    assert first is not None and second is None
    assert len(mailoutbox) == 1
    assert outbox.deliver(first.pk) is False  # already sent: never again


def test_failed_send_is_retried_then_sent(db, on_commit, monkeypatch, mailoutbox):
    calls = {"n": 0}
    real = django_mail.EmailMessage.send

    def flaky(self, fail_silently=False):
        calls["n"] += 1
        if calls["n"] == 1:
            raise smtplib.SMTPServerDisconnected("connection dropped")
        return real(self, fail_silently)

    monkeypatch.setattr(django_mail.EmailMessage, "send", flaky)
    with on_commit():
        row = outbox.enqueue(key="k2", kind=Kind.RECEIPT, to="a@example.org", subject="s",
                             text="t")
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Outbox.Status.PENDING, 1)
    assert "connection dropped" in row.last_error and mailoutbox == []
    # Not before the backoff (30 s after the first failure) and the 120 s pending grace:
    assert outbox.requeue_stale(now=timezone.now() + timedelta(seconds=20)) == []
    requeued = outbox.requeue_stale(now=timezone.now() + timedelta(minutes=5))
    row.refresh_from_db()
    assert requeued == [row.pk]
    assert (row.status, row.attempts, row.last_error) == (Outbox.Status.SENT, 2, "")
    assert len(mailoutbox) == 1


def test_deliver_task_retries_with_backoff_on_a_broker(db, monkeypatch):
    """With a broker the task re-raises Retry with a growing countdown."""
    from celery.exceptions import Retry

    row = Outbox.objects.create(key="k3", kind=Kind.RECEIPT, to="a@example.org",
                                subject="s", body_text="t", message_id="<x@y>")
    monkeypatch.setattr(outbox, "deliver", lambda pk: (_ for _ in ()).throw(
        outbox.TransientSendError("down")))
    seen = []

    def fake_retry(exc=None, countdown=None, **kw):
        seen.append(countdown)
        raise Retry(exc=exc, when=countdown)

    monkeypatch.setattr(tasks.deliver, "retry", fake_retry)
    for retries in (0, 3):
        tasks.deliver.push_request(retries=retries, is_eager=False)
        try:
            with pytest.raises(Retry):
                tasks.deliver.run(row.pk)
        finally:
            tasks.deliver.pop_request()
    assert seen == [30.0, 240.0]
    tasks.deliver.push_request(retries=8, is_eager=False)
    try:
        assert tasks.deliver.run(row.pk) is False
    finally:
        tasks.deliver.pop_request()
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED


def test_mail_goes_out_over_real_smtp(tally_game, feed, smtp_sink):
    """Django's SMTP backend to a real aiosmtpd server: the reply arrives as sent."""
    from . import mimeshapes as shapes

    p1 = seat(tally_game, "P1")
    result = feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                               message_id="<smtp-out@client.example>"))
    got = smtp_sink.to(p1.user.email)
    reply = next(m for m in got if m["In-Reply-To"] == "<smtp-out@client.example>")
    assert reply["Reply-To"] == p1.reply_address
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["Message-ID"] == Outbox.objects.get(pk=result.reply_id).message_id
    assert "    ADD 2\r\n" in reply.get_content()


def test_sweep_respects_backoff_and_gives_up(db, monkeypatch):
    now = timezone.now()
    old = now - timedelta(hours=2)
    rows = {}
    for name, attempts, claimed in (("fresh", 0, None), ("backing-off", 5, now),
                                    ("due", 5, now - timedelta(minutes=9)),
                                    ("spent", 9, old)):
        rows[name] = Outbox.objects.create(key=name, kind=Kind.RECEIPT, to="a@example.org",
                                           subject="s", body_text="t", message_id=f"<{name}>",
                                           attempts=attempts, claimed_at=claimed)
    Outbox.objects.update(created=old)
    queued = []
    monkeypatch.setattr(outbox, "_queue", queued.append)
    ids = outbox.requeue_stale(now=now)
    assert sorted(ids) == sorted([rows["fresh"].pk, rows["due"].pk]) == sorted(queued)
    assert Outbox.objects.get(key="spent").status == Outbox.Status.FAILED


def test_admin_lists_inbound_and_outbox(tally_game, client, django_user_model, feed):
    from . import mimeshapes as shapes

    p1 = seat(tally_game, "P1")
    feed(shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                      message_id="<adm@client.example>"))
    admin = django_user_model.objects.create_superuser("root", "root@x.example", "pw")
    client.force_login(admin)
    page = client.get("/admin/gm_mail/inboundmessage/")
    assert page.status_code == 200 and b"adm@client.example" in page.content
    assert client.get("/admin/gm_mail/outbox/?kind=receipt").status_code == 200
