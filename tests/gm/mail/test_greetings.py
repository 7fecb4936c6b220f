"""Greetings and sign-offs around the orders (gm.mail.greetings): the rule as a table,
then real client mail in several charsets through `ingest_email` and the SMTP listener."""

from __future__ import annotations

import io
import smtplib
import sys

import pytest
from django.core.management import call_command

from games.core import registry
from games.core.types import OrderError, Orders, OrdersInvalid
from gm.mail import greetings
from gm.mail.models import InboundMessage, Outcome
from gm.mail.smtp_server import controller
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import free_port, seat
from .test_inbound_paths import crlf

TALLY = greetings.Vocabulary(frozenset({"ADD"}))
COMBAT = greetings.Vocabulary(frozenset({"EQUIP", "SPECIALTY", "WIELD", "KEEP", "REROLL",
                                         "CAST", "YIELD"}),
                              frozenset({"IF", "STANDING", "CANCEL"}))


@pytest.mark.parametrize("vocab,line,expected", [
    (TALLY, "ADD 2", True),
    (TALLY, "add 2, please", True),
    (TALLY, "Hi GM,", False),
    (TALLY, "Bonjour,", False),
    (TALLY, "here are my orders:", False),
    (TALLY, "Cheers & good luck!", False),
    (TALLY, "Dave", False),
    (TALLY, "ADDD 2", True),  # one slip from ADD: read, so the parser names the typo
    (COMBAT, "EQIUP SWORD", True),
    (COMBAT, "IF ATTACK < 2 THEN REROLL", True),
    (COMBAT, "let me know if it works", False),  # IF counts only as the first word
    (COMBAT, "Keep up the good work", True),  # an order word: read, never skipped
    (COMBAT, "Best regards", False),
    (COMBAT, "STANDING WIELD SWORD", True),
    (COMBAT, "— Ève, été 2026", False),
], ids=lambda v: v if isinstance(v, str) else None)
def test_may_be_order(vocab, line, expected):
    assert vocab.may_be_order(line) is expected


@pytest.mark.parametrize("text,orders,skipped,has_orders", [
    ("Hi GM,\n\nADD 2\n\nCheers & good luck!", "\n\nADD 2\n\n", ["Hi GM,", "Cheers & good luck!"],
     True),
    ("ADD 2", "ADD 2", [], True),
    ("Bonjour,\nhere are my orders:\nADD 1\n# a comment\nThanks!\nDave",
     "\n\nADD 1\n# a comment\n\n", ["Bonjour,", "here are my orders:", "Thanks!", "Dave"], True),
    # a line in the middle stays: the parser refuses it
    ("Hi\nADD 1\nsorry, one more\nADD 2\nbye", "\nADD 1\nsorry, one more\nADD 2\n",
     ["Hi", "bye"], True),
    ("Thanks for the game!\nSee you", "", ["Thanks for the game!", "See you"], False),
    ("", "", [], False),
], ids=["greeting-and-signoff", "bare", "several", "middle-line-kept", "no-orders", "empty"])
def test_trim_table(text, orders, skipped, has_orders):
    trimmed = greetings.trim(text, TALLY.may_be_order)
    assert (trimmed.text, trimmed.skipped, trimmed.has_orders) == (orders, skipped, has_orders)
    if has_orders:  # line numbers of what is left still match the mail
        assert len(trimmed.text.split("\n")) == len(text.split("\n"))


@pytest.mark.parametrize("name", sorted(registry.engines()))
def test_every_engine_exposes_its_order_words(name):
    engine = registry.get(name)
    if engine.free_text_orders:
        pytest.skip(f"{name}: free-text orders have no order words")
    vocab = greetings.vocabulary(engine)
    assert vocab is not None and vocab.keywords
    assert not vocab.may_be_order("Hi GM, here are my orders:")


class _NoGrammar:
    """An engine that keeps its order words to itself: only parse_orders is known."""

    def parse_orders(self, state, seat, text):
        word = text.split()[0].upper()
        if word != "GO":
            raise OrdersInvalid([OrderError(1, f"unknown order {text.split()[0]!r}")])
        if len(text.split()) != 2:
            raise OrdersInvalid([OrderError(1, "GO needs a direction")])
        return Orders(seat, [], text)


def test_engine_without_grammar_is_asked_line_by_line():
    engine = _NoGrammar()
    assert greetings.vocabulary(engine) is None
    test = greetings.order_test(engine, lambda: {}, "P1")
    assert test("GO north") and test("GO")  # an order with an error is still an order
    assert not test("Hello there")
    trimmed = greetings.trim("Hello there\nGO north\nbye", test)
    assert trimmed.skipped == ["Hello there", "bye"] and "GO north" in trimmed.text


# --- real client mail --------------------------------------------------------------------
GREETED = "Bonjour MJ,\n\nhere are my orders:\nADD 2\n\nÀ bientôt, et bonne chance !\nRené"
CLIENTS = {
    "gmail": (shapes.gmail, ["utf-8", "iso-8859-1"]),
    "outlook": (shapes.outlook, ["windows-1252", "iso-8859-15", "utf-8"]),
    "apple-mail": (shapes.apple_mail, ["utf-8", "iso-8859-1"]),
    "iphone": (shapes.iphone, ["utf-8"]),
    "thunderbird-html": (shapes.thunderbird_html, ["utf-8", "windows-1252"]),
    "thunderbird-flowed": (shapes.thunderbird_flowed, ["utf-8", "iso-8859-1"]),
    "windows-mail": (shapes.windows_mail, ["utf-8", "windows-1252"]),
}
CASES = [(client, charset) for client, (_b, charsets) in CLIENTS.items()
         for charset in charsets]


def _latest(game, name):
    return Submission.objects.filter(seat__game=game, seat__name=name).order_by(
        "-version").first()


def _receipt(mailoutbox, addr):
    return [m for m in mailoutbox if m.to == [addr]
            and m.extra_headers.get("Auto-Submitted") == "auto-replied"][-1]


def _assert_greeted_mail_accepted(game, row, mailoutbox):
    assert row.outcome == Outcome.ACCEPTED, row.detail
    sub = _latest(game, "P1")
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 2}}]
    assert "Bonjour" not in sub.text and "bientôt" not in sub.text
    body = _receipt(mailoutbox, sub.seat.user.email).body
    not_read = body.split("Not read (before or after your orders", 1)[1]
    for line in ("Bonjour MJ,", "here are my orders:", "À bientôt, et bonne chance !",
                 "René"):
        assert f"    > {line}\n" in not_read, (line, body)
    assert "    ADD 2\n" in body


@pytest.mark.parametrize("client,charset", CASES, ids=[f"{c}-{cs}" for c, cs in CASES])
def test_greetings_and_signoffs_through_ingest_email(tally_game, monkeypatch, mailoutbox,
                                                      on_commit, client, charset):
    p1 = seat(tally_game, "P1")
    builder = CLIENTS[client][0]
    raw = builder(GREETED, sender=f"René <{p1.user.email}>", to=p1.reply_address,
                  charset=charset, message_id=f"<{client}-{charset}@client.example>")
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    with on_commit():
        call_command("ingest_email", "--recipient", p1.reply_address, stdout=io.StringIO())
    row = InboundMessage.objects.get(message_id=f"{client}-{charset}@client.example")
    _assert_greeted_mail_accepted(tally_game, row, mailoutbox)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_greetings_and_signoffs_through_the_smtp_listener(transactional_db, tally_game,
                                                          mailoutbox, client):
    p1 = seat(tally_game, "P1")
    builder, charsets = CLIENTS[client]
    raw = builder(GREETED, sender=p1.user.email, to=p1.reply_address, charset=charsets[-1],
                  message_id=f"<smtp-{client}@client.example>")
    port = free_port()
    ctrl = controller("127.0.0.1", port)
    ctrl.start()
    try:
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            smtp.sendmail(p1.user.email, [p1.reply_address], crlf(raw))
    finally:
        ctrl.stop()
    row = InboundMessage.objects.get(message_id=f"smtp-{client}@client.example")
    _assert_greeted_mail_accepted(tally_game, row, mailoutbox)


def test_a_chatty_line_between_orders_still_refuses_the_mail(make_game, feed, mailoutbox):
    game = make_game("combat_dice", 2)
    p1 = seat(game, "P1")
    body = ("Hi GM,\nEQUIP SWORD, MEDIUM SHIELD\nand now the dice:\nSPECIALTY PROWESS\n"
            "Cheers")
    result = feed(shapes.gmail(body, sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.INVALID
    reply = _receipt(mailoutbox, p1.user.email).body
    assert "line 3: and now the dice:" in reply
    assert "    > Hi GM,\n" in reply and "    > Cheers\n" in reply
    assert _latest(game, "P1") is None


def test_a_mail_with_no_order_word_is_no_orders_found(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    result = feed(shapes.apple_mail("Thanks for the game!\nSee you next turn", sender=p1.user.email,
                                    to=p1.reply_address))
    assert result.outcome == Outcome.EMPTY
    reply = _receipt(mailoutbox, p1.user.email).body
    assert "had no orders in it" in reply and "start with one of: ADD" in reply
    assert "    > Thanks for the game!\n" in reply and _latest(tally_game, "P1") is None


def test_an_order_with_a_typo_is_never_skipped_as_a_greeting(make_game, feed, mailoutbox):
    game = make_game("combat_dice", 2)
    p1 = seat(game, "P1")
    result = feed(shapes.plain("Hello,\nEQIUP SWORD\nEQUIP SWORD, LIGHT ARMOR",
                               sender=p1.user.email, to=p1.reply_address))
    assert result.outcome == Outcome.INVALID
    assert "line 2: EQIUP SWORD" in _receipt(mailoutbox, p1.user.email).body


def test_a_games_own_phrases_are_orders_too(make_game):
    """Dungeonquest reads rulebook phrases as orders ("Draw corpse card" is SEARCH BODY),
    and while heroes are chosen it reads HERO lines with a grammar of their own (HERO is
    one of its order words; PLAY and CHOOSE are not): its parser, asked about the line
    alone, keeps such lines from being skipped."""
    from gm.play import actions

    picking = make_game("dungeonquest", 1)
    engine = actions.engine_for(picking)
    name = picking.seats.first().name
    test = greetings.order_test(engine, lambda: engine.from_json(picking.state), name)
    assert not greetings.vocabulary(engine).may_be_order("Play the Adventurer")
    assert test("Play the Adventurer") and test("HERO Ragnar") and not test("Hi GM,")

    game = make_game("dungeonquest", 1, options={"hero_choice": "assigned"})
    test = greetings.order_test(engine, lambda: engine.from_json(game.state), name)
    assert not greetings.vocabulary(engine).may_be_order("Draw corpse card")
    assert test("Draw corpse card")
    assert not test("Hi GM,") and not test("Cheers & good luck!")


def test_thunderbird_reply_written_below_the_quote_is_read(tally_game, feed, mailoutbox):
    p1 = seat(tally_game, "P1")
    raw = shapes.thunderbird_html(GREETED, sender=p1.user.email, to=p1.reply_address,
                                  below_quote=True)
    result = feed(raw)
    assert result.outcome == Outcome.ACCEPTED, result.detail
    sub = Submission.objects.get(pk=result.submission_id)
    assert sub.orders["items"] == [{"order": {"op": "add", "n": 2}}]
    assert "Example: ADD 2" not in sub.text  # the quoted notice stayed out


GREETINGS = ["Hi GM,", "Bonjour,", "here are my orders:", "Cheers & good luck!", "Dave",
             "Thanks for running this game"]


@pytest.mark.parametrize("name", sorted(registry.engines()))
def test_in_every_game_greetings_are_skipped_and_its_example_is_an_order(make_game, name):
    """Through each real engine's own vocabulary and parser, on a started game."""
    from gm.play import actions

    engine = registry.get(name)
    if engine.free_text_orders:
        pytest.skip(f"{name}: free-text orders are taken whole (to END, a signature or a "
                    "quote); no greeting can be told from an order")
    game = make_game(name, max(2, engine.min_seats))
    turn = game.current_turn()
    state = engine.from_json(game.state)
    for seat_name in turn.owing:
        test = greetings.order_test(engine, lambda: state, seat_name)
        assert not any(test(line) for line in GREETINGS), seat_name
        example = turn.decision["prompts"].get(seat_name, {}).get("example", "")
        if example:
            first = example.splitlines()[0]
            assert test(first), (seat_name, first)
    assert actions.engine_for(game) is engine


def test_combat_dice_orders_between_greeting_and_signoff_are_accepted(make_game, feed,
                                                                      mailoutbox):
    game = make_game("combat_dice", 2)
    p1 = seat(game, "P1")
    body = ("Salut l'arbitre,\nvoici mes ordres :\nEQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR\n\n"
            "Amitiés,\nGaëlle")
    result = feed(shapes.outlook(body, sender=p1.user.email, to=p1.reply_address,
                                 charset="iso-8859-15"))
    assert result.outcome == Outcome.ACCEPTED, result.detail
    reply = _receipt(mailoutbox, p1.user.email).body
    assert "    > Salut l'arbitre,\n" in reply and "    > Gaëlle\n" in reply
