"""A batch of outbox rows is delivered by ONE task over ONE SMTP connection (issue 14),
and a row that fails (a refused address, a connection dropped under it, a server that
cannot be reached) neither blocks nor repeats the others: it alone goes back to PENDING
and alone is retried, with the usual backoff and give-up."""

from __future__ import annotations

from email import message_from_bytes, policy

import pytest
from aiosmtpd.controller import Controller
from celery.exceptions import Retry
from django.core.mail.backends.smtp import EmailBackend

from gm.mail import outbox, tasks
from gm.mail.models import Kind, Outbox

from .conftest import free_port


class Server:
    """An SMTP server that refuses some recipients and drops the session on others."""

    def __init__(self) -> None:
        self.received: list[tuple[object, str, str]] = []  # (session, rcpt, Message-ID)
        self.refuse: set[str] = set()
        self.drop: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        if set(envelope.rcpt_tos) & self.drop:
            return "421 4.3.0 closing the session"
        msg = message_from_bytes(envelope.original_content or envelope.content,
                                 policy=policy.default)
        for rcpt in envelope.rcpt_tos:
            self.received.append((session, rcpt, msg["Message-ID"]))
        return "250 OK"

    def to(self, address: str) -> int:
        return sum(rcpt == address for _s, rcpt, _m in self.received)

    def sessions(self) -> int:
        return len({id(session) for session, _r, _m in self.received})


def _smtp_settings(settings, port: int) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5


@pytest.fixture
def server(settings):
    handler = Server()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    _smtp_settings(settings, port)
    yield handler
    controller.stop()


def batch(db, *addresses: str) -> list[int]:
    """Pending rows (not delivered: no commit runs in the test), one per address."""
    return outbox.enqueue_many([
        Outbox(key=f"batch:{i}", kind=Kind.REPORT, to=address, subject=f"mail {i}",
               body_text="t") for i, address in enumerate(addresses)])


def run_task(ids, retries: int = 0, *, monkeypatch):
    """The deliver task as a worker with a broker runs it: (result, retried with)."""
    retried: list = []

    def fake_retry(args=None, exc=None, countdown=None, **kw):
        retried.append((args, countdown))
        raise Retry(exc=exc, when=countdown)

    monkeypatch.setattr(tasks.deliver, "retry", fake_retry)
    tasks.deliver.push_request(retries=retries, is_eager=False)
    try:
        try:
            return tasks.deliver.run(ids), retried
        except Retry:
            return None, retried
    finally:
        tasks.deliver.pop_request()


def status(pk: int) -> tuple[str, int]:
    row = Outbox.objects.get(pk=pk)
    return row.status, row.attempts


def test_a_batch_goes_out_over_one_connection(db, server, monkeypatch):
    ids = batch(db, "a@example.org", "b@example.org", "c@example.org")
    assert run_task(ids, monkeypatch=monkeypatch) == (3, [])
    assert [rcpt for _s, rcpt, _m in server.received] == [
        "a@example.org", "b@example.org", "c@example.org"]
    assert server.sessions() == 1
    rows = Outbox.objects.filter(pk__in=ids).order_by("pk")
    assert [m for _s, _r, m in server.received] == [r.message_id for r in rows]
    assert {r.status for r in rows} == {Outbox.Status.SENT}
    # the broker delivers the task again: nothing is sent twice
    assert run_task(ids, monkeypatch=monkeypatch) == (0, [])
    assert len(server.received) == 3


def test_a_refused_address_is_retried_alone(db, server, monkeypatch):
    server.refuse.add("gone@example.org")
    good_1, bad, good_2 = batch(db, "a@example.org", "gone@example.org", "c@example.org")
    result, retried = run_task([good_1, bad, good_2], monkeypatch=monkeypatch)
    assert retried == [(([bad],), 30.0)]  # only the failed row, after the first backoff
    assert server.to("a@example.org") == server.to("c@example.org") == 1
    assert status(good_1) == status(good_2) == (Outbox.Status.SENT, 1)
    assert status(bad) == (Outbox.Status.PENDING, 1)
    assert "550" in Outbox.objects.get(pk=bad).last_error
    # the retries: the good rows are never sent again; out of retries, the row FAILED
    result, retried = run_task([bad], retries=3, monkeypatch=monkeypatch)
    assert retried == [(([bad],), 240.0)] and status(bad) == (Outbox.Status.PENDING, 2)
    assert run_task([bad], retries=8, monkeypatch=monkeypatch) == (0, [])
    assert status(bad) == (Outbox.Status.FAILED, 3)
    assert len(server.received) == 2 and server.to("gone@example.org") == 0


def test_a_session_dropped_under_one_mail_does_not_lose_the_next(db, server, monkeypatch):
    server.drop.add("b@example.org")
    ids = batch(db, "a@example.org", "b@example.org", "c@example.org")
    sent, failed = outbox.deliver_many(ids)
    assert sent == 2 and list(failed) == [ids[1]] and "421" in failed[ids[1]]
    assert [rcpt for _s, rcpt, _m in server.received] == ["a@example.org", "c@example.org"]
    assert server.sessions() == 2  # the mail after the drop went over a new connection
    assert [status(pk)[0] for pk in ids] == [Outbox.Status.SENT, Outbox.Status.PENDING,
                                             Outbox.Status.SENT]
    server.drop.clear()  # the retry of the dropped one alone
    assert outbox.deliver_many([ids[1]]) == (1, {})
    assert [rcpt for _s, rcpt, _m in server.received].count("b@example.org") == 1


def test_an_unreachable_server_fails_the_batch_once_not_per_mail(db, settings, monkeypatch):
    _smtp_settings(settings, free_port())  # nothing listens there
    opened = []
    real_open = EmailBackend.open
    monkeypatch.setattr(EmailBackend, "open", lambda self: opened.append(1) or real_open(self))
    ids = batch(db, "a@example.org", "b@example.org", "c@example.org")
    result, retried = run_task(ids, monkeypatch=monkeypatch)
    assert len(opened) == 1  # one connection attempt (one timeout), not three
    assert retried == [((ids,), 30.0)]
    assert [status(pk) for pk in ids] == [(Outbox.Status.PENDING, 1)] * 3


def test_rows_claimed_elsewhere_or_settled_are_not_sent(db, server):
    """Two workers handed overlapping batches: each row is claimed by one of them."""
    ids = batch(db, "a@example.org", "b@example.org", "c@example.org")
    Outbox.objects.filter(pk=ids[0]).update(status=Outbox.Status.SENDING)  # another worker
    Outbox.objects.filter(pk=ids[1]).update(status=Outbox.Status.SENT)
    assert outbox.deliver_many(ids) == (1, {})
    assert [rcpt for _s, rcpt, _m in server.received] == ["c@example.org"]
