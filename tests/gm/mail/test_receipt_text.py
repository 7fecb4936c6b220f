"""The receipt of accepted orders and the mail footer are written in Python for speed
(gm.mail.replies.accepted_text, gm.mail.compose.footer); their templates stay the
reference: the two must give the same text, character for character."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from gm.mail import compose, replies
from gm.mail.models import Outcome


def _ctx(**changes):
    ctx = {
        "outcome": Outcome.ACCEPTED, "notice": False, "sender": "a@example.org",
        "game": SimpleNamespace(title="Duel at dawn: the rematch", pk=17),
        "seat": SimpleNamespace(name="P1"), "turn": SimpleNamespace(number=3),
        "submission": SimpleNamespace(version=12, receipt="3f9a0c11d2e4b5a6"),
        "deadline": "Thu 3 Dec 2026 14:00 CET (13:00 UTC)",
        "game_url": "http://gm.example/games/17/",
        "orders": ["EQUIP SWORD, MEDIUM SHIELD", "IF HP < 3 THEN YIELD"],
        "skipped": [], "rest_lines": [], "subject": "Re: turn 3",
        "prefs_url": "http://gm.example/mail/preferences/",
    }
    ctx.update(changes)
    return ctx


@pytest.mark.parametrize("changes", [
    {},
    {"skipped": ["Hi GM,", "Cheers & good luck!"]},
    {"rest_lines": ["On Sun, 29 Nov 2026 at 12:00, GM wrote:", "> Turn 3 is open", ""]},
    {"skipped": ["Hello"], "rest_lines": ["-- ", "Alice"], "orders": []},
    {"game_url": ""},
    {"game": SimpleNamespace(title="  <b>Ünïcode & {{ braces }}</b> ", pk=1),
     "deadline": "", "orders": ["  indented", ""]},
])
def test_the_accepted_receipt_is_the_template_s_text(changes):
    ctx = _ctx(**changes)
    assert replies.accepted_text(ctx) == compose.render("reply.txt", ctx)


def test_other_outcomes_and_unusual_contexts_use_the_template():
    assert replies.accepted_text(_ctx(outcome=Outcome.INVALID)) is None
    assert replies.accepted_text(_ctx(turn=None)) is None
    assert replies.accepted_text(_ctx(deadline=None)) is None


@pytest.mark.parametrize("label,url", [("replies to your orders", "http://gm.example/u/x/"),
                                       ("turn reports", "")])
def test_the_footer_is_the_template_s_text(label, url):
    expected = compose.render("footer.txt", {"kind_label": label, "unsubscribe": url,
                                             "prefs": compose.site_url("/mail/preferences/")})
    assert compose.footer(label, url) == expected
