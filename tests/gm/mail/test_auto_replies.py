"""Autoresponders that set none of the headers `mime.loop_reason` knows, told by their
subject (`bodytext.is_auto_reply_subject`): never answered, never read as press (two
players' autoresponders would otherwise answer each other through the press mails), and
read as orders only when those are valid as they stand. The corpus
(test_client_corpus.py) sends Outlook, GMX, Orange and cPanel-style ones over SMTP."""

from __future__ import annotations

import pytest

from gm.mail.bodytext import is_auto_reply_subject
from gm.mail.models import Kind, Outbox, Outcome
from gm.talk import actions as talk
from gm.talk.models import GM_END, Message

from . import mimeshapes as shapes
from .conftest import seat


@pytest.mark.parametrize("subject,auto", [
    ("Automatic reply: [Game] turn 1: your orders, seat P1", True),
    ("Out of Office: [Game] turn 1", True),
    ("Out of office until 8 December", True),
    ("Out of Office AutoReply: turn 1", True),
    ("Auto-Reply: turn 1", True),
    ("Abwesenheitsnotiz: Re: [Game] turn 1", True),
    ("Automatische Antwort: [Game] turn 1", True),
    ("Réponse automatique : [Game] turn 1", True),
    ("Respuesta automática: [Game] turn 1", True),
    ("Risposta automatica: [Game] turn 1", True),
    ("Automatisch antwoord: [Game] turn 1", True),
    ("Automatiskt svar: [Game] turn 1", True),
    ("Automatyczna odpowiedź: [Game] turn 1", True),
    ("Re: [Game] turn 1: your orders, seat P1", False),
    ("Re: Automatic reply: turn 1", False),  # a person answering one
    ("AW: Abwesenheitsnotiz: turn 1", False),
    ("Out of office next week, my standing orders", False),
    ("Automatic replies are annoying", False),
    ("Outbound orders", False),
    ("", False),
])
def test_auto_reply_subject(subject, auto):
    assert is_auto_reply_subject(subject) is auto


@pytest.mark.django_db
def test_an_auto_reply_to_press_mail_is_not_posted(tally_game, feed):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    talk.send(tally_game, p1.user, "P2", "Ally with me?")
    press_mail = Outbox.objects.get(kind=Kind.PRESS, to=p2.user.email)
    before = Outbox.objects.count()
    raw = shapes.plain("I am out of the office until Monday.", sender=p2.user.email,
                       to=p2.reply_address, subject=f"Automatic reply: {press_mail.subject}",
                       in_reply_to=press_mail.message_id)
    done = feed(raw, rcpt=[p2.reply_address])
    assert done.outcome == Outcome.LOOP and done.reply_id is None
    assert not Message.objects.filter(sender="P2").exists()
    assert Outbox.objects.count() == before  # no press mail to P1, no answer to P2


@pytest.mark.django_db
def test_a_gms_auto_reply_to_press_mail_is_not_posted(tally_game, gm_user, on_commit, feed):
    with on_commit():
        talk.send(tally_game, seat(tally_game, "P1").user, GM_END, "A question")
    to_gm = Outbox.objects.get(kind=Kind.PRESS, to=gm_user.email)
    before = Outbox.objects.count()
    raw = shapes.plain("Ich bin nicht im Büro.", sender=gm_user.email, to=to_gm.reply_to,
                       subject=f"Abwesenheitsnotiz: {to_gm.subject}",
                       in_reply_to=to_gm.message_id)
    done = feed(raw, rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.LOOP
    assert not Message.objects.filter(sender=GM_END).exists()
    assert Outbox.objects.count() == before
