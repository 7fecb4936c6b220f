"""Greetings and sign-offs typed in the web order box are read as on mail.

One rule for both paths (gm.mail.greetings.for_seat): the lines before the first line
that may be an order and after the last are skipped and listed back as "not read"; a
chatty line between orders still refuses them; text with no order at all is "no orders
found". Each case is sent by web form and by mail, and both must agree.
"""

from __future__ import annotations

import html

import pytest

from gm.mail import inbound
from gm.mail.models import Outcome
from gm.mail.smtp_server import Envelope
from gm.play.models import Submission
from gm.web.not_read import token as not_read_token
from tests.gm.mail import mimeshapes as shapes

pytestmark = pytest.mark.django_db

CASES = [  # (text, orders kept, lines not read, accepted?)
    ("Hi GM,\n\nhere are my orders:\nADD 2\n\nCheers & good luck!\nRené",
     ["ADD 2"], ["Hi GM,", "here are my orders:", "Cheers & good luck!", "René"], True),
    ("ADD 3", ["ADD 3"], [], True),
    ("Hello,\nADD 1\nand one more:\nADD 1\nBye", None, ["Hello,", "Bye"], False),
    ("Thanks for the game!\nSee you next turn", None,
     ["Thanks for the game!", "See you next turn"], False),
]


@pytest.fixture
def game(make_game, tally_engine, settings):
    settings.GM_MAIL_DOMAIN = "gm.example"
    settings.GM_MAIL_LOCALPART = "play"
    return make_game("tally", 2, turn_hours=48)


def _latest(game):
    return Submission.objects.filter(seat__game=game, seat__name="P1").order_by(
        "-version").first()


@pytest.mark.parametrize("text, kept, not_read, accepted", CASES)
def test_the_web_form_reads_greetings_as_mail_does(text, kept, not_read, accepted, game,
                                                   players, client):
    client.force_login(players[0])
    response = client.post(f"/games/{game.pk}/orders/", {"text": text, "turn": 1},
                           follow=True)
    if accepted and not_read:  # no typed line disappears quietly: the player confirms
        page = html.unescape(response.content.decode())
        assert _latest(game) is None and 'id="confirm-send"' in page
        response = client.post(f"/games/{game.pk}/orders/",
                               {"text": text, "turn": 1,
                                "confirm_not_read": not_read_token(not_read)}, follow=True)
    page = html.unescape(response.content.decode())
    sub = _latest(game)
    if accepted:
        assert response.redirect_chain and sub is not None
        assert sub.orders["items"] and "Orders accepted for turn 1" in page
        for line in kept:
            assert line in page.split('id="my-orders"', 1)[1].split("</pre>", 1)[0]
    else:
        assert response.status_code == 400 and sub is None
        assert "Your orders were not accepted" in page
    shown = page.split('id="not-read"', 1)[1].split("</div>", 1)[0] if not_read else ""
    for line in not_read:
        assert f"<q>{line}</q>" in shown, (line, shown)
    if not not_read:
        assert 'id="not-read"' not in page
    # Shown once: the next visit's receipt no longer lists them.
    assert 'id="not-read"' not in client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize("text, kept, not_read, accepted", CASES)
def test_the_live_preview_skips_the_same_lines(text, kept, not_read, accepted, game, players,
                                               client):
    client.force_login(players[0])
    data = client.post(f"/games/{game.pk}/orders/preview.json", {"text": text}).json()
    assert data["ok"] is accepted and data["not_read"] == not_read
    if kept:
        assert data["orders"] == kept
    assert _latest(game) is None  # a preview stores nothing


@pytest.mark.parametrize("text, kept, not_read, accepted", CASES)
def test_mail_and_web_agree(text, kept, not_read, accepted, game, players, client, on_commit):
    p1 = game.seats.select_related("user").get(name="P1")
    raw = shapes.plain(text, sender=p1.user.email, to=p1.reply_address)
    with on_commit():
        result = inbound.process(raw, envelope=Envelope([], None), transport="pipe")
    by_mail = _latest(game)
    assert (result.outcome == Outcome.ACCEPTED) is accepted
    client.force_login(players[0])
    client.post(f"/games/{game.pk}/orders/", {"text": text, "turn": 1,
                                              "confirm_not_read": not_read_token(not_read)})
    by_web = _latest(game)
    if accepted:
        assert by_web.version == by_mail.version + 1
        assert by_web.orders == by_mail.orders and by_web.text == by_mail.text
    else:
        assert by_mail is None and by_web is None


def test_no_orders_found_names_the_order_words(game, players, client):
    client.force_login(players[0])
    response = client.post(f"/games/{game.pk}/orders/", {"text": "Hi!\nBye", "turn": 1})
    page = html.unescape(response.content.decode())
    assert response.status_code == 400
    assert "no orders found" in page and "start with one of: ADD" in page
    assert "Hi!\nBye" in page  # the text stays in the box


def test_with_no_order_at_all_the_lines_are_not_called_greetings(game, players):
    """Text with no order in it: every line is listed back, under a heading that says no
    line was an order, not as "greetings and sign-offs" (which "ADD TWO" and "PLAY X"
    are not), in the send answer and in the live preview alike."""
    from django.test import Client

    client = Client()
    client.force_login(players[0])
    text = "Hi GM,\nPLAY FOO BAR\nSTRIKE 7\nCheers"
    page = html.unescape(client.post(f"/games/{game.pk}/orders/", {"text": text}).content
                         .decode())
    shown = page.split('id="not-read"', 1)[1].split("</div>", 1)[0]
    assert "no line is an order of this game" in shown and "greetings" not in shown
    assert "\u201cPLAY FOO BAR\u201d" in shown or "<q>PLAY FOO BAR</q>" in shown
    data = client.post(f"/games/{game.pk}/orders/preview.json", {"text": text}).json()
    assert data["no_orders"] is True and data["not_read"] == text.splitlines()
    # a real greeting around real orders keeps its heading
    page = html.unescape(client.post(f"/games/{game.pk}/orders/",
                                     {"text": "Hi GM,\nADD 2\nJUMP", "preview": "1"})
                         .content.decode())
    assert "greetings and sign-offs around the orders" in page
    assert "no_orders" not in client.post(f"/games/{game.pk}/orders/preview.json",
                                          {"text": "Hi GM,\nADD 2"}).json()


def test_a_skipped_line_is_not_sent_without_confirmation(game, players, client):
    """Issue 28: a mistyped last line (`JUMP` after `ADD 2`) is skipped as a sign-off; the
    web form stores nothing until the player confirms exactly those lines, and asks again
    when the text changes so that other lines would be skipped."""
    client.force_login(players[0])
    url = f"/games/{game.pk}/orders/"
    page = html.unescape(client.post(url, {"text": "ADD 2\nJUMP", "turn": 1}).content.decode())
    assert _latest(game) is None
    assert "some lines you typed would not be read" in page and "<q>JUMP</q>" in page
    assert f'value="{not_read_token(["JUMP"])}"' in page
    # a stale confirmation (for other lines) asks again
    client.post(url, {"text": "ADD 2\nHOP", "turn": 1,
                      "confirm_not_read": not_read_token(["JUMP"])})
    assert _latest(game) is None
    response = client.post(url, {"text": "ADD 2\nJUMP", "turn": 1,
                                 "confirm_not_read": not_read_token(["JUMP"])})
    assert response.status_code == 302 and _latest(game).orders["items"]
    # nothing skipped: no question
    assert client.post(url, {"text": "ADD 3", "turn": 1}).status_code == 302
