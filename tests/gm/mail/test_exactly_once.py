"""Duplicate deliveries are processed once; a crash mid-way loses nothing."""

from __future__ import annotations

import pytest

from gm.mail import inbound
from gm.mail.mime import Envelope
from gm.mail.models import InboundMessage, Outbox, Outcome
from gm.play import actions
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat


def test_same_message_twice_is_processed_once(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<dup@client.example>")
    first = feed(raw)
    before = len(mailoutbox)
    second = feed(raw)
    assert (first.outcome, first.duplicate) == (Outcome.ACCEPTED, False)
    assert (second.outcome, second.duplicate) == (Outcome.ACCEPTED, True)
    assert second.inbound_id == first.inbound_id
    assert Submission.objects.filter(seat=p1).count() == 1
    assert len(mailoutbox) == before
    assert Outbox.objects.filter(kind="receipt").count() == 1


def test_same_message_id_with_other_bytes_is_a_duplicate(tally_game, feed):
    """A relay that rewrites headers redelivers the same Message-ID: still once."""
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<dup2@client.example>")
    feed(raw)
    again = feed(b"Received: from relay2.example\n" + raw)
    assert again.duplicate
    assert Submission.objects.filter(seat=p1).count() == 1


def test_message_without_message_id_is_keyed_by_hash(tally_game, feed):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address)
    raw = b"\n".join(line for line in raw.split(b"\n")
                     if not line.lower().startswith(b"message-id"))
    first = feed(raw)
    row = InboundMessage.objects.get(pk=first.inbound_id)
    assert row.message_id == f"sha256-{row.sha256}@inbound"
    assert feed(raw).duplicate
    other = feed(raw.replace(b"ADD 2", b"ADD 3"))
    assert not other.duplicate and other.outcome == Outcome.ACCEPTED
    assert Submission.objects.filter(seat=p1).count() == 2


def test_crash_during_processing_rolls_back_and_redelivery_does_it_once(
        tally_game, feed, monkeypatch, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<crash@client.example>")
    real = actions.submit_orders

    def boom(*args, **kwargs):
        real(*args, **kwargs)  # the orders are written ...
        raise RuntimeError("worker killed")  # ... and then the process dies

    monkeypatch.setattr(actions, "submit_orders", boom)
    before = len(mailoutbox)
    with pytest.raises(RuntimeError):
        inbound.process(raw, envelope=Envelope(), transport="imap")
    row = InboundMessage.objects.get(message_id="crash@client.example")
    assert row.outcome == Outcome.RECEIVED  # recorded, not done
    assert Submission.objects.filter(seat=p1).count() == 0  # rolled back with it
    assert len(mailoutbox) == before and not Outbox.objects.filter(kind="receipt").exists()
    monkeypatch.setattr(actions, "submit_orders", real)
    result = feed(raw)
    assert (result.outcome, result.duplicate) == (Outcome.ACCEPTED, False)
    assert Submission.objects.filter(seat=p1).count() == 1
    assert Outbox.objects.filter(kind="receipt").count() == 1


@pytest.mark.services
def test_concurrent_duplicate_deliveries_process_once(transactional_db, tally_game):
    """Two transports deliver the same message at the same instant (PostgreSQL)."""
    import threading

    from django.db import connection

    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<race@client.example>")
    barrier = threading.Barrier(4)
    results, errors = [], []

    def deliver():
        try:
            barrier.wait()
            results.append(inbound.process(raw, transport="race"))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == []
    assert sorted(r.duplicate for r in results) == [False, True, True, True]
    assert {r.outcome for r in results} == {Outcome.ACCEPTED}
    assert Submission.objects.filter(seat=p1).count() == 1
    assert Outbox.objects.filter(kind="receipt").count() == 1


def test_a_message_that_fails_every_time_is_set_aside(tally_game, feed, monkeypatch,
                                                       settings, mailoutbox):
    """A poison message must not block the IMAP folder or the MTA queue for ever."""
    settings.GM_MAIL_MAX_ATTEMPTS = 3
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 2", sender=p1.user.email, to=p1.reply_address,
                       message_id="<poison@client.example>")

    def boom(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(actions, "submit_orders", boom)
    for _ in range(3):
        with pytest.raises(RuntimeError):
            inbound.process(raw, envelope=Envelope(), transport="imap")
    before = len(mailoutbox)
    result = feed(raw)
    assert result.outcome == Outcome.ERROR
    row = InboundMessage.objects.get(message_id="poison@client.example")
    assert (row.outcome, row.attempts) == (Outcome.ERROR, 4)
    assert bytes(row.raw) == raw  # kept for the operator
    assert len(mailoutbox) == before
    assert feed(raw).duplicate  # and from now on a plain duplicate
