"""gm.mail.rows: the record, the claim and the reply as plain SQL (one statement for the
claim and the reply on PostgreSQL), with parameters prepared as Model.save() would."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from gm.mail import rows
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model,values", [
    (InboundMessage, {"message_id": "a@b", "outcome": Outcome.ACCEPTED, "size": 12,
                      "attempts": True, "seat_id": None, "recipients": ["x@y"],
                      "raw": b"bytes", "processed": timezone.now(), "detail": ""}),
    (Outbox, {"kind": Kind.RECEIPT, "status": Outbox.Status.PENDING, "user_id": 3,
              "headers": {"In-Reply-To": "<a@b>"}, "subject": "s", "created": timezone.now()}),
])
def test_parameters_are_what_save_would_send(model, values):
    table = rows.Table(model)
    for name, value in values.items():
        field = table.by_attname[name]
        got = table.prepare(name, value, connection)
        expected = field.get_db_prep_save(value, connection)
        assert type(got) is type(expected) and _plain(got) == _plain(expected), name


def _plain(value):
    if isinstance(value, memoryview):
        return bytes(value)
    if hasattr(value, "obj"):  # psycopg's Jsonb wrapper
        return value.obj
    return value


def _record(message_id: str) -> rows.Recorded | None:
    return rows.record({"message_id": message_id, "sha256": "0" * 64, "transport": "test",
                        "sender": "a@example.org", "recipients": ["play+x@gm.example"],
                        "subject": "Re: turn 1", "size": 5, "raw": b"hello"})


def _outcome() -> dict:
    return {"outcome": Outcome.ACCEPTED, "detail": "version 1", "seat_id": None,
            "submission_id": None, "reply_suppressed": "", "processed": timezone.now()}


def test_a_claim_writes_its_reply_once_and_a_second_claim_nothing(on_commit):
    found = _record("rows-1@example.org")
    assert found is not None and not found.done and _record("rows-1@example.org") is None
    woken = []
    reply = {"key": f"reply:{found.pk}", "kind": Kind.RECEIPT, "to": "a@example.org",
             "user_id": None, "subject": "Re: turn 1 [orders accepted]",
             "body_text": "Orders accepted", "body_html": "", "headers": {"X-A": "1"},
             "reply_to": "play+x@gm.example", "message_id": "<r1@gm.example>",
             "turn_id": None, "inbound_id": found.pk}
    with on_commit():
        reply_id = rows.claim_and_reply(found.pk, _outcome(), reply, woken.append)
    assert reply_id is not None and woken == [reply_id]
    row = Outbox.objects.get(pk=reply_id)
    assert (row.key, row.kind, row.to, row.subject, row.body_text, row.headers, row.reply_to,
            row.message_id, row.inbound_id, row.status, row.attempts, row.user_id) == (
        reply["key"], "receipt", "a@example.org", reply["subject"], "Orders accepted",
        {"X-A": "1"}, "play+x@gm.example", "<r1@gm.example>", found.pk, "pending", 0, None)
    assert row.created is not None and row.sent_at is None
    record = InboundMessage.objects.get(pk=found.pk)
    assert (record.outcome, record.detail) == ("accepted", "version 1")

    again = rows.claim_and_reply(found.pk, _outcome(), {**reply, "key": "other"},
                                 woken.append)
    assert again is None and not Outbox.objects.filter(key="other").exists()
    assert rows.claim(found.pk, _outcome()) is False


def test_a_claim_without_a_reply():
    found = _record("rows-2@example.org")
    assert rows.claim(found.pk, {**_outcome(), "reply_suppressed": "loop mail"}) is True
    assert InboundMessage.objects.get(pk=found.pk).reply_suppressed == "loop mail"
    assert rows.claim(found.pk, _outcome()) is False


def test_a_row_s_parameters_are_the_insert_save_would_send():
    from gm.play.rows import insert_parts

    now = timezone.now()
    values = {"message_id": "p@q", "sha256": "f" * 64, "recipients": ["a@b"], "raw": b"x",
              "size": 1}
    table = rows.Table(InboundMessage)
    at = [f.attname for f in table.fields].index("received")  # save() takes its own now
    for _ in range(2):  # the second time from the defaults prepared the first
        got = table.params(values, now)
        expected = insert_parts(InboundMessage(**values))[1]
        assert got[at] == table.prepare("received", now, connection)
        del got[at], expected[at]
        assert [(type(v), _plain(v)) for v in got] == \
            [(type(v), _plain(v)) for v in expected]
