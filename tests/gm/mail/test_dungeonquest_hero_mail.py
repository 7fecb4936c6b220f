"""Dungeonquest's turn 1 by mail: HERO is an order word, so a typo in it is refused with
its line and hint, never skipped as a greeting; and a mail with no order names HERO among
the words orders start with."""

from __future__ import annotations

import io
import sys

import pytest
from django.core.management import call_command

from gm.mail.models import InboundMessage, Outcome
from gm.play.models import Submission

from . import mimeshapes as shapes
from .conftest import seat

pytestmark = pytest.mark.django_db


def _ingest(monkeypatch, on_commit, raw: bytes, to: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    with on_commit():
        call_command("ingest_email", "--recipient", to, stdout=io.StringIO())


def _reply(mailoutbox, addr):
    """The last reply's text, unwrapped (mail is wrapped at 72 columns)."""
    return " ".join([m for m in mailoutbox if m.to == [addr]
                     and m.extra_headers.get("Auto-Submitted") == "auto-replied"][-1]
                    .body.split())


def test_a_typo_in_hero_is_refused_not_skipped(make_game, monkeypatch, on_commit,
                                               mailoutbox):
    game = make_game("dungeonquest", 2)
    assert game.state.get("picking")
    p1 = seat(game, "P1")
    raw = shapes.plain("Hi GM,\n\nHEOR KNIGHT\n\nCheers", sender=p1.user.email,
                       to=p1.reply_address, message_id="<heor@client.example>")
    _ingest(monkeypatch, on_commit, raw, p1.reply_address)
    row = InboundMessage.objects.get(message_id="heor@client.example")
    assert row.outcome == Outcome.INVALID, (row.outcome, row.detail)
    body = _reply(mailoutbox, p1.user.email)
    assert "HEOR KNIGHT" in body and "had no orders in it" not in body
    assert not Submission.objects.filter(seat=p1).exists()


def test_no_orders_found_lists_hero_on_turn_1(make_game, monkeypatch, on_commit,
                                              mailoutbox):
    game = make_game("dungeonquest", 2)
    p1 = seat(game, "P1")
    raw = shapes.plain("Hi GM,\n\nlooking forward to it!", sender=p1.user.email,
                       to=p1.reply_address, message_id="<none@client.example>")
    _ingest(monkeypatch, on_commit, raw, p1.reply_address)
    assert InboundMessage.objects.get(message_id="none@client.example").outcome == \
        Outcome.EMPTY
    body = _reply(mailoutbox, p1.user.email)
    assert "had no orders in it" in body
    assert "HERO" in body.split("start with one of:")[1].split(".")[0].split(", ")


def test_the_web_order_form_names_hero_on_turn_1(make_game):
    from html import unescape

    from django.test import Client

    game = make_game("dungeonquest", 2)
    web = Client()
    web.force_login(seat(game, "P1").user)
    page = unescape(web.post(f"/games/{game.pk}/orders/",
                             {"text": "Hi GM,", "turn": 1}).content.decode())
    hint = page.split("orders start with one of: ")[1].split("<")[0]
    assert "HERO" in hint.split(", "), hint


@pytest.mark.parametrize("line,expected", [
    ("HEOR KNIGHT", True),  # two neighbouring letters swapped: one slip
    ("EHRO KNIGHT", True),
    ("Best regards", False),  # one letter from REST, but not a swap: a sign-off
    ("Hope you are well", False),
    ("HREO KNIGHT", True),
])
def test_a_swapped_pair_of_letters_is_one_slip(line, expected):
    from gm.mail.greetings import Vocabulary

    words = Vocabulary(frozenset({"HERO", "REST", "MOVE"}))
    assert words.may_be_order(line) is expected
