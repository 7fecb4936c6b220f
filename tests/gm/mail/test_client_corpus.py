"""The corpus: raw messages as real mail clients write them (tests/gm/mail/corpus/*.eml),
each sent over SMTP to the service's own listener (the path an MTA takes), and what the
player gets back: the orders exactly as parsed, the receipt, the specific refusal, or
nothing at all (auto-replies and bounces).

The fixtures are written by hand in each client's shape (headers, MIME structure,
transfer encoding, charset, quoting and signature habits). Addresses and the notice's
Message-ID differ per run, so a fixture names them by placeholder:

* ``{{SENDER}}``: the seat's player's registered address (the From of a genuine reply);
* ``{{SENDER_DOMAIN}}``: its domain;
* ``{{SEAT}}``: the seat's reply address (``play+<token>@gm.example``);
* ``{{OTHER_SEAT}}``: the other seat's reply address;
* ``{{OTHER_SENDER}}``: the other seat's player's address;
* ``{{NOTICE}}``: the Message-ID of the turn notice the mail answers (no brackets);
* ``{{OLD_NOTICE}}``: the Message-ID of the seat's turn-1 notice.

Placeholders only appear where the client writes plain ASCII (headers, 7bit, 8bit and
quoted-printable text); a base64 body never holds one.
"""

from __future__ import annotations

import smtplib
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.core.types import Orders
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.mail.smtp_server import controller
from gm.play import actions
from gm.play.models import Submission

from .conftest import free_port, seat

CORPUS = Path(__file__).resolve().parent / "corpus"


@dataclass
class Case:
    """One fixture and what the player must get."""

    name: str
    ruleset: str
    outcome: str
    orders: list[str] | None = None  # the orders as understood, line by line
    reply: list[str] = field(default_factory=list)  # in the reply, read unwrapped
    not_in_reply: list[str] = field(default_factory=list)
    seat: str = "P1"
    turn: int = 1  # the service turn the game is at when the mail arrives
    envelope_from: str | None = None  # MAIL FROM (None: the player's address; "" = <>)
    answered: bool = True  # False: no mail at all goes out for it
    answer_to: str = "sender"  # "sender", or "owner" (a security notice to the seat's player)
    rcpt: str = ""  # the envelope recipient (default: the seat's reply address)


CASES = [
    # --- Gmail ----------------------------------------------------------------------
    Case("gmail-web-combat-dice", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR", "STANDING IF ATTACK < 2 THEN REROLL"],
         reply=["Orders accepted for Test combat_dice", "> Hi GM,", "> Cheers,", "> Alice"]),
    Case("gmail-android-wrapped-attribution", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP FLAIL, LARGE SHIELD, MEDIUM ARMOR"]),
    # the attribution glued to the last order line (no blank line between them): the
    # orders above it are read, the quote below it is not; the receipt counts the quote
    # of our notice and its attribution, it does not echo them (issue 28)
    Case("gmail-plain-glued-attribution", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR", "STANDING IF HP < 5 THEN YIELD"],
         reply=["quoted lines of an earlier mail, not shown]"],
         not_in_reply=["On Tue, 1 Dec 2026 at 10:00, GM", "Example: EQUIP SWORD"]),
    Case("gmail-android-glued-wrapped-attribution", "dungeonquest", Outcome.ACCEPTED,
         ["MOVE EAST", "IF TRAP THEN RETREAT"], turn=2,
         reply=["> [3 quoted lines of an earlier mail, not shown]"],
         not_in_reply=["Game Master of the Dungeon", "turn 2 is open."]),
    Case("gmail-forward-inline", "duelists", Outcome.EMPTY,
         reply=["No orders found: forwarded mail is not read as orders"]),
    Case("gmail-vacation-autoreply", "combat_dice", Outcome.LOOP, answered=False),
    # --- Outlook --------------------------------------------------------------------
    Case("outlook-desktop-cp1252", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP 2-H SWORD, LIGHT ARMOR", "STANDING IF HP < 5 THEN YIELD"],
         reply=["> Kind regards,"]),
    Case("outlook-web-html-only", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SPEAR, SMALL SHIELD, BOW & ARROWS"], reply=["> Grüße, Alice"]),
    Case("outlook-encoded-last-first-name", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP TRIDENT, NET, LIGHT ARMOR"]),
    Case("outlook-tnef-with-text", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP CLUB, HEAVY ARMOR"]),
    Case("outlook-tnef-only", "combat_dice", Outcome.NO_TEXT,
         reply=["only inside winmail.dat", "HTML or plain text"]),
    Case("outlook-automatic-reply", "combat_dice", Outcome.LOOP, answered=False),
    # autoresponders that set no Auto-Submitted, X-Autoreply or Precedence header, told
    # by their subject: no answer (no loop, no "errors" in a text the player never
    # wrote), nothing kept, though each holds an order word of its game
    Case("outlook-headerless-automatic-reply", "combat_dice", Outcome.LOOP, answered=False),
    Case("gmx-abwesenheitsnotiz", "dungeonquest", Outcome.LOOP, answered=False, turn=2),
    Case("orange-reponse-automatique", "duelists", Outcome.LOOP, answered=False),
    Case("cpanel-out-of-office-no-headers", "combat_dice", Outcome.LOOP, answered=False),
    # ... but a person's valid orders under such a subject are read and receipted
    Case("thunderbird-out-of-office-subject-orders", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR", "STANDING IF HP < 5 THEN YIELD"]),
    Case("windows-mail-base64-long-line", "dungeonquest", Outcome.ACCEPTED,
         ["MOVE EAST", "IF MONSTER TROLL AND LIFE < 8 THEN ESCAPE ELSE ATTACK",
          "IF TRAP THEN RETREAT"], turn=2),
    Case("windows-1252-mislabelled-utf8", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR"], reply=["> Merci, Renée"]),
    # --- Apple ----------------------------------------------------------------------
    Case("iphone-duelists-qp", "duelists", Outcome.ACCEPTED, ["CHAMPION Nathrax"],
         reply=["> Sent from my iPhone"]),
    Case("outlook-ios-html-only", "dungeonquest", Outcome.ACCEPTED,
         ["DESTINATION E7", "MOVE EAST", "IF SPIDER THEN FLEE"], turn=2,
         reply=["> Get Outlook for iOS"]),
    Case("apple-mail-flowed-delsp", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SWORD, SPELL CHARM HEAL, LIGHT ARMOR", "STANDING IF HP < 5 THEN CAST"]),
    # --- Thunderbird, mutt, K-9, Proton, Yahoo --------------------------------------
    Case("thunderbird-flowed-bottom-posted", "dungeonquest", Outcome.ACCEPTED,
         ["HERO RANGER ADVENTURER"], reply=["> Hallo Spielleiter,", "> Grüße"]),
    Case("mutt-signature-end", "dungeonquest", Outcome.ACCEPTED, ["HERO KNIGHT BARBARIAN"],
         reply=["> hero ranger"]),
    Case("thunderbird-dungeonquest-error", "dungeonquest", Outcome.INVALID, turn=2,
         reply=["line 1: MOVE NORTHEAST", "nothing from this message was kept"]),
    Case("k9-android", "duelists", Outcome.ACCEPTED, ["CHAMPION Harys"]),
    Case("protonmail-base64", "duelists", Outcome.ACCEPTED, ["CHAMPION Isdra"]),
    Case("yahoo-unprefixed-quote", "dungeonquest", Outcome.ACCEPTED, ["HERO BARBARIAN"]),
    # --- charsets, HTML, odd bodies --------------------------------------------------
    Case("iso-8859-1-8bit-error", "combat_dice", Outcome.INVALID,
         reply=["EQUIP épée", "NOT accepted"]),
    Case("html-only-dungeonquest-br", "dungeonquest", Outcome.ACCEPTED,
         ["MOVE SOUTH", "IF MONSTER DEATH-WARRIOR THEN ESCAPE",
          "IF LIFE < 6 THEN DRINK POTION", "STANDING IF TRAP THEN RETREAT"], turn=2),
    Case("orders-in-attachment", "combat_dice", Outcome.EMPTY,
         reply=["Attachments are not read: orders.txt."]),
    Case("orders-with-unrelated-attachment", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SHORT SWORD, SMALL SHIELD, LIGHT ARMOR"]),
    Case("empty-body", "combat_dice", Outcome.EMPTY, reply=["had no orders in it"]),
    # greetings only: "no orders found", the lines listed as not read, never as errors
    Case("gmail-thanks-no-orders", "duelists", Outcome.EMPTY,
         reply=["had no orders in it", "no order word of this game):", "> Hi GM,",
                "> thanks!", "> Bob", "> On Tue, 1 Dec 2026 at 14:00, GM"],
         not_in_reply=["NOT accepted", "Errors:", "line 1"]),
    Case("subject-only-orders", "combat_dice", Outcome.EMPTY,
         reply=["The subject is not read"]),
    Case("unquoted-comma-display-name", "duelists", Outcome.ACCEPTED, ["CHAMPION Nathrax"]),
    Case("duelists-seat-not-owing", "duelists", Outcome.REFUSED, seat="P2",
         reply=["seat P2 owes no orders this turn (waiting for: P1)",
                "Nothing from this message was kept"]),
    # --- loops, bounces, authentication, routing --------------------------------------
    Case("precedence-auto-reply", "combat_dice", Outcome.LOOP, answered=False),
    Case("mailer-daemon-dsn", "combat_dice", Outcome.LOOP, answered=False,
         envelope_from=""),
    Case("bounce-without-headers", "combat_dice", Outcome.LOOP, answered=False,
         envelope_from="postmaster@mail.example.org"),
    Case("forged-from-other-player", "combat_dice", Outcome.WRONG_SENDER,
         reply=["Security notice for your seat P1"], answer_to="owner",
         envelope_from="bob@example.org"),
    Case("forged-from-stranger", "combat_dice", Outcome.WRONG_SENDER,
         reply=["alice.example@freemail.example", "NOT read as orders"], answer_to="owner",
         envelope_from="alice.example@freemail.example"),
    # A forged From with the seat's secret address cannot be told apart, but the answer
    # goes to the registered address (never to Reply-To or Sender): the player learns.
    Case("spoofed-from-reply-to-elsewhere", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP NET"], envelope_from="mallory@attacker.example"),
    # our MTA (authserv-id mx.gm.example, GM_MAIL_AUTHSERV_ID in conftest) found the
    # From forged: not read, the seat's player is told why; others' verdicts are ignored
    Case("forged-from-dmarc-fail", "combat_dice", Outcome.WRONG_SENDER, answer_to="owner",
         reply=["Security notice for your seat P1", "check of the sender failed: "
                "dmarc=fail header.from=example.org It was", "NOT read as orders",
                "http://gm.example/games/"]),
    Case("forged-from-spf-fail-no-dmarc", "combat_dice", Outcome.WRONG_SENDER,
         answer_to="owner", reply=["failed: spf=fail smtp.mailfrom=", "NOT read as orders"]),
    Case("gmail-dmarc-pass-forwarded-verdicts", "combat_dice", Outcome.ACCEPTED,
         ["EQUIP SPEAR, SMALL SHIELD, LIGHT ARMOR"]),
    Case("reply-to-old-turn", "dungeonquest", Outcome.LATE, turn=2,
         reply=["arrived too late"]),
    Case("unknown-address", "combat_dice", Outcome.UNKNOWN_ADDRESS,
         rcpt="play+zz9nosuchseat0@gm.example",
         reply=["this reply address does not belong to any seat"]),
]


def _fixture(case: Case, values: dict[str, str]) -> bytes:
    raw = (CORPUS / f"{case.name}.eml").read_bytes()
    for key, value in values.items():
        raw = raw.replace(b"{{" + key.encode() + b"}}", value.encode())
    assert b"{{" not in raw, f"{case.name}: a placeholder left unfilled"
    return raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")  # SMTP's line ends


def _advance(game, to_turn: int) -> None:
    """Play every seat's default orders (Dungeonquest's heroes chosen) up to `to_turn`."""
    engine = actions.engine_for(game)
    while game.current_turn().number < to_turn:
        state = engine.from_json(game.state)
        for name in engine.decision(state).seats:
            text = engine.default_orders(state, name).text or \
                {"P1": "HERO RANGER", "P2": "HERO KNIGHT"}[name]
            actions.submit_orders(game, seat(game, name), text)
        game.refresh_from_db()


@pytest.fixture
def listener(transactional_db):
    port = free_port()
    ctrl = controller("127.0.0.1", port)
    ctrl.start()
    yield port
    ctrl.stop()


def _unwrapped(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def imap_server():
    """One throwaway Dovecot for the module (the IMAP path: poll_imap's `imap.poll`)."""
    import shutil
    import tempfile

    from .imapserver import DOVECOT, Dovecot

    if DOVECOT is None:
        pytest.skip("dovecot-imapd is not installed")
    root = Path(tempfile.mkdtemp(prefix="gm-dovecot-"))
    server = Dovecot(root, free_port()).start()
    yield server
    server.stop()
    shutil.rmtree(root, ignore_errors=True)


def _by_smtp(port: int, raw: bytes, envelope_from: str, rcpt: str) -> str:
    with smtplib.SMTP("127.0.0.1", port) as client:
        assert client.sendmail(envelope_from, [rcpt], raw) == {}
    return "smtp"


def _by_imap(server, raw: bytes) -> str:
    """Append to the mailbox (as a delivery agent would) and poll it once: no envelope,
    the message is read back through imap-tools as the poller reads it."""
    from imap_tools import MailBoxUnencrypted

    from gm.mail import imap

    with MailBoxUnencrypted("127.0.0.1", server.port).login(server.user,
                                                             server.password) as box:
        box.append(raw, "INBOX")
        report = imap.poll(box)
        assert report.failed == 0 and len(report.processed) == 1
        box.delete(list(box.uids()))
    return "imap"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_client_corpus(case, make_game, listener, mailoutbox):
    _check(case, make_game, mailoutbox,
           lambda raw, envelope_from, rcpt: _by_smtp(listener, raw, envelope_from, rcpt))


@pytest.mark.services
@pytest.mark.parametrize("case", [c for c in CASES if not c.rcpt and c.envelope_from is None],
                         ids=lambda c: c.name)
def test_client_corpus_by_imap(case, make_game, transactional_db, imap_server, mailoutbox):
    """The same messages through the IMAP poller (those that need no envelope)."""
    _check(case, make_game, mailoutbox, lambda raw, _from, _rcpt: _by_imap(imap_server, raw))


def _check(case, make_game, mailoutbox, deliver):
    game = make_game(case.ruleset, 2)
    _advance(game, case.turn)
    me, other = seat(game, case.seat), seat(game, "P2" if case.seat == "P1" else "P1")
    turn = game.current_turn()
    notices = Outbox.objects.filter(kind=Kind.TURN_OPENED, user=me.user).order_by("pk")
    notice, first = notices.filter(turn=turn).first(), notices.first()
    values = {"SENDER": me.user.email, "SEAT": me.reply_address,
              "SENDER_DOMAIN": me.user.email.rsplit("@", 1)[1],
              "OTHER_SEAT": other.reply_address, "OTHER_SENDER": other.user.email,
              "NOTICE": notice.message_id.strip("<>") if notice else "none@gm.example",
              "OLD_NOTICE": first.message_id.strip("<>") if first else "none@gm.example"}
    raw = _fixture(case, values)
    before = len(mailoutbox)
    envelope_from = me.user.email if case.envelope_from is None else case.envelope_from
    transport = deliver(raw, envelope_from, case.rcpt or me.reply_address)

    row = InboundMessage.objects.get(transport=transport)
    assert row.outcome == case.outcome, row.detail
    sub = Submission.objects.filter(seat=me).order_by("-pk").first()
    if case.outcome == Outcome.ACCEPTED:
        assert row.submission_id == sub.pk and sub.source == "email"
        assert Orders.from_json(sub.orders).text.splitlines() == case.orders
    else:
        assert row.submission_id is None
        assert sub is None or sub.source != "email"

    # the answers (orders that complete a turn also bring its report and the next notice)
    sent = [m for m in mailoutbox[before:]
            if m.extra_headers.get("Auto-Submitted") == "auto-replied"]
    if not case.answered:
        assert sent == [] and not Outbox.objects.filter(inbound=row).exists()
        return
    assert [m.to for m in sent] == [[me.user.email]]
    reply = sent[0]
    assert reply.extra_headers["Auto-Submitted"] == "auto-replied"
    body = _unwrapped(reply.body)
    if case.outcome == Outcome.ACCEPTED:
        assert f"Receipt (SHA-256 of the orders): {sub.receipt}" in body
        assert _unwrapped("\n".join(f"    {line}" for line in case.orders)) in body
    for text in case.reply:
        assert _unwrapped(text) in body, (text, reply.body)
    for text in case.not_in_reply:
        assert _unwrapped(text) not in body, (text, reply.body)
    if case.answer_to == "sender":
        assert reply.extra_headers["In-Reply-To"] == f"<{row.message_id}>"
    if case.answer_to == "sender" and not case.rcpt:
        assert reply.reply_to == [me.reply_address]


def test_a_message_delivered_twice_is_answered_once(make_game, listener, mailoutbox):
    """The same message again (an MTA retrying after a lost 250, an IMAP copy in two
    folders): one submission, one receipt; the second delivery is a no-op."""
    case = next(c for c in CASES if c.name == "gmail-web-combat-dice")
    game = make_game(case.ruleset, 2)
    me = seat(game, "P1")
    notice = Outbox.objects.filter(kind=Kind.TURN_OPENED, user=me.user).get()
    raw = _fixture(case, {"SENDER": me.user.email, "SEAT": me.reply_address,
                          "NOTICE": notice.message_id.strip("<>")})
    before = len(mailoutbox)
    for copy in (raw, raw.replace(b"Date: Tue, 1 Dec 2026 15:02:11", b"Date: Tue, 1 Dec 2026 "
                                  b"15:02:12")):  # a relay that rewrote a header: same id
        with smtplib.SMTP("127.0.0.1", listener) as client:
            client.sendmail(me.user.email, [me.reply_address], copy)
    assert Submission.objects.filter(seat=me).count() == 1
    assert InboundMessage.objects.count() == 1
    assert len([m for m in mailoutbox[before:]
                if m.extra_headers.get("Auto-Submitted") == "auto-replied"]) == 1
