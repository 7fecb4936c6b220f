"""Every kind of mail the service writes has a text part within 72 columns: a longer
line is broken at spaces, and only a single token longer than 72 (a URL, an address)
stands alone on a longer line (gm.mail.compose.wrap). Long game titles, long sender
addresses, the order-word list and the seat's reply address included."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gm.mail import compose, notices
from gm.mail.models import Kind, Outbox, Outcome
from gm.play import actions
from gm.talk import actions as talk

from . import mimeshapes as shapes
from .conftest import seat

TITLE = "The Long and Winding Campaign of the Northern Marches, second season"


def _too_wide(text: str) -> list[str]:
    bad = []
    for line in text.split("\n"):
        if len(line) <= compose.WIDTH:
            continue
        token = line.strip()
        if token.startswith("> "):
            token = token[2:]
        if " " not in token:  # one token longer than the width: kept whole
            continue
        bad.append(line)
    return bad


def test_wrap_breaks_at_spaces_and_keeps_tokens_whole():
    url = "http://gm.example/mail/unsubscribe/" + "x" * 60 + "/"
    text = compose.wrap(f"Stop them: {url}\n-- \n    > " + "word " * 30 + "\nshort")
    lines = text.split("\n")
    assert lines[:3] == ["Stop them:", url, "-- "]
    assert all(line.startswith("    > ") and len(line) <= 72 for line in lines[3:-1])
    assert lines[-1] == "short" and not _too_wide(text)
    assert compose.wrap("a\nb") == "a\nb"
    item = "  Thrown Dagger (damage -1, attack -1, initiative +2, opening exchange only)"
    assert compose.wrap(item).split("\n") == [
        "  Thrown Dagger (damage -1, attack -1, initiative +2, opening exchange", "    only)"]
    table = "col  " * 20
    assert compose.wrap(table, {table}) == table  # a report's table stays as drawn


@pytest.fixture
def long_game(make_game):
    return make_game("tally", 2, turn_hours=48, title=TITLE, options={"max_turns": 2})


def test_every_kind_of_mail_is_within_72_columns(long_game, make_game, players, feed,
                                                 on_commit, settings, mailoutbox):
    game = long_game
    p1, p2 = seat(game, "P1"), seat(game, "P2")
    long_sender = "someone.with.a.rather.long.address@a-mail-provider.example.org"
    # replies: accepted (greetings, quote), invalid, empty (order words), forwarded,
    # no text, wrong sender, unknown address, refused (size), too large
    outcomes = set()

    def mail(raw, **kw):
        outcomes.add(feed(raw, **kw).outcome)

    long_line = "Hi GM, here are my orders for this turn, as we agreed on the forum " * 2
    mail(shapes.gmail(f"{long_line}\nADD 2\nCheers", sender=p1.user.email,
                      to=p1.reply_address))
    mail(shapes.plain("ADD 9 " + "because " * 12, sender=p1.user.email, to=p1.reply_address))
    mail(shapes.plain(long_line, sender=p1.user.email, to=p1.reply_address))
    mail(shapes.forward("ADD 3", client="apple", sender=p1.user.email, to=p1.reply_address))
    mail(shapes.attachment_only(b"ADD 3", sender=p1.user.email, to=p1.reply_address))
    mail(shapes.plain("ADD 1", sender=long_sender, to=p1.reply_address))
    mail(shapes.plain("ADD 1", sender=p1.user.email,
                      to=p1.reply_address.replace("+", "+zz")))
    mail(shapes.plain("x" * (settings.GM_ORDERS_MAX_CHARS + 1), sender=p1.user.email,
                      to=p1.reply_address))
    settings.GM_MAIL_MAX_BYTES = 2000
    mail(shapes.plain("ADD 1\n" + "# padding\n" * 300, sender=p1.user.email,
                      to=p1.reply_address))
    settings.GM_MAIL_MAX_BYTES = 256 * 1024
    # the order-word list of a game with many order words
    dice = make_game("combat_dice", 2, turn_hours=48, title=TITLE)
    d1 = seat(dice, "P1")
    mail(shapes.plain("Hello there, nothing to say this time really", sender=d1.user.email,
                      to=d1.reply_address))
    # press, both ways
    with on_commit():
        talk.send_from_seat(p1, "P2", "A long private word " * 10)
        talk.send_from_seat(p1, "GM", "And one to the referee " * 10)
    # a reminder, a report, the next turn, game over, a late and a finished answer
    turn = game.current_turn()
    with on_commit():
        notices.send_reminders(now=turn.deadline - timedelta(hours=11))
    for _turn in (1, 2):
        with on_commit():
            for s in (p1, p2):
                actions.submit_orders(game, s, "ADD 1", source="email", author=s.user)
    mail(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))

    assert {Outcome.ACCEPTED, Outcome.INVALID, Outcome.EMPTY, Outcome.NO_TEXT,
            Outcome.WRONG_SENDER, Outcome.UNKNOWN_ADDRESS, Outcome.REFUSED,
            Outcome.TOO_LARGE, Outcome.FINISHED} <= outcomes
    rows = list(Outbox.objects.all())
    assert {r.kind for r in rows} == set(Kind.values)
    assert any("start with one of:" in r.body_text for r in rows)
    for row in rows:
        assert not _too_wide(row.body_text), (row.kind, row.subject, _too_wide(row.body_text))
    # the addresses and URLs are whole
    assert any(p1.reply_address in r.body_text.split("\n") or
               any(line.endswith(p1.reply_address) for line in r.body_text.split("\n"))
               for r in rows if r.kind == Kind.TURN_OPENED)
    delivered = [m for m in mailoutbox if m.body]
    assert delivered and all(not _too_wide(m.body) for m in delivered)

