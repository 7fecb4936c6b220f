"""gm.mail.outbox_rows and the delivery's shortcuts: the batch INSERT writes the rows
bulk_create wrote and returns only the new ids, the claimed rows read back are what
select_related read, the SENT mark is the ORM's UPDATE, the ledger's batch read finds
the mails handed off before (and nothing when the ledger is down), and a mail's MIME message is built once and is Django's; on SQLite
and on PostgreSQL (DATABASE_URL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.mail import EmailMultiAlternatives
from django.utils import timezone

from gm.mail import outbox, outbox_rows
from gm.mail.models import Kind, Outbox
from gm.play.models import Turn

from .test_notice_rows import same, values

pytestmark = pytest.mark.django_db


def _rows(prefix: str, n: int, **kw) -> list[Outbox]:
    return [Outbox(key=f"{prefix}:{i}", kind=Kind.TURN_OPENED, to=f"p{i}@example.org",
                   subject=f"[T] turn {i}", body_text=f"text {i}\n", body_html="<p>h</p>",
                   headers={"List-Id": f'"T" <game-{i}.gm.example>', "X-GM-Game": "1"},
                   reply_to=f"play+t{i}@gm.example", message_id=f"<{prefix}{i}@gm.example>",
                   **kw) for i in range(n)]


def _stored(pk: int) -> dict:
    found = values(Outbox.objects.get(pk=pk))
    for name in ("id", "key", "message_id", "created"):
        del found[name]
    return found


def test_the_batch_insert_writes_what_bulk_create_wrote(tally_game):
    turn = Turn.objects.get(game=tally_game, number=1)
    user = tally_game.seats.get(name="P1").user
    Outbox.objects.bulk_create(_rows("orm", 3, user=user, turn=turn), ignore_conflicts=True)
    theirs = list(Outbox.objects.filter(key__startswith="orm:").order_by("pk")
                  .values_list("pk", flat=True))
    before = timezone.now()
    ours = outbox_rows.insert_many(_rows("sql", 3, user=user, turn=turn), timezone.now())
    assert len(ours) == 3 and ours == sorted(ours)
    for mine, expected in zip(ours, theirs):
        assert _stored(mine) == _stored(expected)
        row = Outbox.objects.get(pk=mine)
        assert row.created >= before and row.status == Outbox.Status.PENDING
        assert row.attempts == 0 and row.sent_at is None and row.claimed_at is None


def test_the_batch_insert_returns_only_the_rows_it_wrote(db, monkeypatch):
    first = outbox_rows.insert_many(_rows("k", 2), timezone.now())
    monkeypatch.setattr(outbox_rows, "CHUNK", 2)  # several statements for one batch
    again = _rows("k", 5)
    for row in again:
        row.message_id = row.message_id.replace("<k", "<again")
    second = outbox_rows.insert_many(again, timezone.now())
    assert len(first) == 2 and len(second) == 3 and not set(first) & set(second)
    assert sorted(Outbox.objects.filter(key__startswith="k:").values_list("key", flat=True)) \
        == [f"k:{i}" for i in range(5)]
    # the two keys queued before kept their first row
    assert set(Outbox.objects.filter(pk__in=first).values_list("message_id", flat=True)) \
        == {"<k0@gm.example>", "<k1@gm.example>"}
    assert outbox_rows.insert_many([], timezone.now()) == []


def test_claimed_rows_are_what_select_related_read(tally_game, django_assert_num_queries):
    turn = Turn.objects.get(game=tally_game, number=1)
    ids = outbox_rows.insert_many(_rows("a", 2, turn=turn) + _rows("b", 1),
                                  timezone.now())
    with django_assert_num_queries(1):
        ours = outbox_rows.claimed([ids[2], ids[0], ids[1]])
    theirs = list(Outbox.objects.select_related("turn").filter(pk__in=ids).order_by("pk"))
    assert [r.pk for r in ours] == [r.pk for r in theirs] == ids
    for mine, expected in zip(ours, theirs):
        same(mine, expected)
        with django_assert_num_queries(0):
            mine_turn = mine.turn
        if expected.turn is None:
            assert mine_turn is None
        else:  # what `obsolete` reads of it; the JSON columns are left in the database
            assert values(mine_turn) == {k: v for k, v in values(expected.turn).items()
                                         if k not in ("decision", "overrides", "amendments")}
            assert outbox.obsolete(mine, timezone.now()) == outbox.obsolete(expected,
                                                                            timezone.now())
    assert outbox_rows.claimed([]) == []


def test_the_sent_mark_is_the_orm_update(db):
    ids = outbox_rows.insert_many(_rows("m", 2), timezone.now())
    now = timezone.now() - timedelta(minutes=1)
    Outbox.objects.filter(pk__in=ids).update(last_error="Refused", attempts=2)
    Outbox.objects.filter(pk=ids[0]).update(status=Outbox.Status.SENT, sent_at=now,
                                            attempts=3, last_error="")
    assert outbox_rows.mark_sent(ids[1], 3, now) == 1
    marked = ("status", "sent_at", "attempts", "last_error", "claimed_at")
    expected, ours = (Outbox.objects.filter(pk=pk).values(*marked).get() for pk in ids)
    assert ours == expected
    assert outbox_rows.mark_sent(10**9, 1, now) == 0


class FakeLedger:
    def __init__(self, keys: set[str], down: bool = False) -> None:
        self.keys, self.down, self.calls = keys, down, 0

    def _check(self) -> None:
        self.calls += 1
        if self.down:
            raise ConnectionError("ledger down")

    def mget(self, keys: list[str]) -> list[bytes | None]:
        self._check()
        return [b"1" if k in self.keys else None for k in keys]


@pytest.mark.parametrize("down", [False, True])
def test_the_ledger_read_for_a_batch_finds_the_mails_handed_off(monkeypatch, down):
    ledger = FakeLedger({outbox._ledger_key("<b@x>"), outbox._ledger_key("<d@x>")}, down)
    monkeypatch.setattr(outbox, "_ledger", lambda: ledger)
    ids = ["<a@x>", "<b@x>", "<c@x>", "<d@x>"]
    assert outbox.ledger_seen(ids) == (set() if down else {"<b@x>", "<d@x>"})
    calls = ledger.calls
    assert outbox.ledger_seen([]) == set() and ledger.calls == calls
    monkeypatch.setattr(outbox, "_ledger", lambda: None)
    assert outbox.ledger_seen(ids) == set()


def test_a_mail_is_built_once_and_as_django_builds_it(db, settings):
    settings.EMAIL_USE_LOCALTIME = False
    (pk,) = outbox_rows.insert_many(_rows("mime", 1), timezone.now())
    row = Outbox.objects.get(pk=pk)
    mail = outbox.build(row)
    built = mail.message()
    assert mail.message() is built  # the send takes the message _ready built
    plain = EmailMultiAlternatives(
        subject=row.subject, body=row.body_text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to], reply_to=[row.reply_to], headers={"Message-ID": row.message_id,
                                                        **row.headers})
    plain.attach_alternative(row.body_html, "text/html")
    theirs = plain.message()
    for message in (built, theirs):
        del message["Date"]  # the time it was built
    ours_bytes, their_bytes = built.as_bytes(), theirs.as_bytes()
    # the multipart boundary is random per build
    boundary, other = built.get_boundary(), theirs.get_boundary()
    assert ours_bytes.replace(boundary.encode(), b"B") == their_bytes.replace(
        other.encode(), b"B")


def test_the_claim_takes_only_pending_rows_once(db):
    ids = outbox_rows.insert_many(_rows("c", 3), timezone.now())
    Outbox.objects.filter(pk=ids[1]).update(status=Outbox.Status.SENT)
    now = timezone.now()
    assert outbox_rows.claim([ids[2], ids[0], ids[1]], now) == [ids[0], ids[2]]
    assert outbox_rows.claim(ids, now) == []
    claimed = Outbox.objects.filter(pk__in=[ids[0], ids[2]])
    assert {(r.status, r.claimed_at) for r in claimed} == {(Outbox.Status.SENDING, now)}
