"""A forged From, as our own mail server found it (gm.mail.authres): Authentication-Results
headers with our authserv-id (GM_MAIL_AUTHSERV_ID) are read, no others; dmarc=fail for
the From's domain refuses the mail, and without a DMARC verdict so do spf=fail and
dkim=fail for that domain unless a check of it passed. The corpus
(test_client_corpus.py: forged-from-dmarc-fail, forged-from-spf-fail-no-dmarc,
gmail-dmarc-pass-forwarded-verdicts) sends such mail over SMTP."""

from __future__ import annotations

import pytest

from gm.mail import authres, mime
from gm.mail.models import InboundMessage, Kind, Outbox, Outcome
from gm.play.models import Submission
from gm.talk import actions as talk
from gm.talk.models import GM_END, Message

from . import mimeshapes as shapes
from .conftest import seat

OURS = "mx.gm.example"


def _mail(*values: str, sender: str = "alice@example.org") -> mime.Mail:
    head = "".join(f"Authentication-Results: {v}\n" for v in values)
    return mime.parse(f"{head}From: Alice <{sender}>\nTo: play+x@gm.example\nSubject: x\n\n"
                      "ADD 1\n".encode())


@pytest.mark.parametrize("values,why", [
    ([f"{OURS}; dmarc=fail (p=reject dis=none) header.from=example.org"],
     "dmarc=fail header.from=example.org"),
    ([f"{OURS}; dmarc=fail header.from=example.org; spf=pass smtp.mailfrom=example.org"],
     "dmarc=fail header.from=example.org"),  # DMARC's verdict is the one that counts
    ([f"{OURS} 1; spf=fail smtp.mailfrom=alice@example.org"],
     "spf=fail smtp.mailfrom=alice@example.org"),
    ([f"{OURS};\n\tdkim=fail (bad signature) header.d=example.org header.s=s1"],
     "dkim=fail header.d=example.org"),
    ([f"{OURS}; dkim=fail header.i=@mail.example.org"], "dkim=fail header.d=mail.example.org"),
    ([f"{OURS}; dmarc=pass header.from=example.org", f"{OURS}; spf=fail "
      "smtp.mailfrom=alice@example.org"], ""),  # DMARC passed (DKIM aligned, say)
    ([f"{OURS}; dkim=fail header.d=example.org; spf=pass smtp.mailfrom=bounce.example.org"],
     ""),  # a list changed the body; SPF of the same domain passed
    ([f"{OURS}; spf=softfail smtp.mailfrom=alice@example.org; dkim=none"], ""),
    ([f"{OURS}; spf=fail smtp.mailfrom=bounces@lists.example.net"], ""),  # not the From's
    ([f"{OURS}; dkim=fail header.d=other.example"], ""),
    ([f"{OURS}; dmarc=fail header.from=other.example"], ""),
    ([f"{OURS}; dmarc=temperror header.from=example.org"], ""),
    ([f"{OURS}; none"], ""),
    (["mx.elsewhere.example; dmarc=fail header.from=example.org"], ""),  # not ours
    ([f"evil.{OURS}; dmarc=fail header.from=example.org"], ""),
    ([f'{OURS}; dmarc=fail reason="a; b (c" header.from=example.org'],
     "dmarc=fail header.from=example.org"),  # a quoted reason with ';' and '('
    ([f"{OURS.upper()}; DMARC=FAIL header.from=Example.ORG"],
     "dmarc=fail header.from=example.org"),
    ([], ""),
])
def test_forged(settings, values, why):
    settings.GM_MAIL_AUTHSERV_ID = OURS
    assert authres.forged(_mail(*values)) == why


def test_nothing_is_read_without_our_authserv_id(settings):
    settings.GM_MAIL_AUTHSERV_ID = ""
    assert authres.forged(_mail(f"{OURS}; dmarc=fail header.from=example.org")) == ""


@pytest.mark.django_db
def test_a_forged_from_is_not_read_and_its_player_is_told(tally_game, feed):
    p1 = seat(tally_game, "P1")
    raw = shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address, extra={
        "Authentication-Results": f"{OURS}; spf=fail smtp.mailfrom={p1.user.email}; "
                                  "dmarc=fail (p=reject) header.from=example.org"})
    done = feed(raw, rcpt=[p1.reply_address])
    assert done.outcome == Outcome.WRONG_SENDER
    assert "dmarc=fail header.from=example.org" in done.detail
    assert not Submission.objects.filter(seat=p1).exists()
    notice = Outbox.objects.get(inbound_id=done.inbound_id)
    assert notice.to == p1.user.email and notice.reply_to == ""
    assert "[security notice: a message that failed the sender check]" in notice.subject
    assert "failed: dmarc=fail header.from=example.org It was" in \
        " ".join(notice.body_text.split())
    # the same mail without the failing verdict is read
    done = feed(shapes.plain("ADD 3", sender=p1.user.email, to=p1.reply_address),
                rcpt=[p1.reply_address])
    assert done.outcome == Outcome.ACCEPTED


@pytest.mark.django_db
def test_a_forged_from_posts_no_press_as_gm(tally_game, gm_user, on_commit, feed):
    with on_commit():
        talk.send(tally_game, seat(tally_game, "P1").user, GM_END, "A question")
    to_gm = Outbox.objects.get(kind=Kind.PRESS, to=gm_user.email)
    raw = shapes.plain("Yes.", sender=gm_user.email, to=to_gm.reply_to,
                       in_reply_to=to_gm.message_id, extra={
                           "Authentication-Results": f"{OURS}; dmarc=fail "
                           f"header.from={gm_user.email.rsplit('@', 1)[1]}"})
    done = feed(raw, rcpt=[to_gm.reply_to])
    assert done.outcome == Outcome.WRONG_SENDER
    assert not Message.objects.filter(sender=GM_END).exists()
    notice = Outbox.objects.get(inbound=InboundMessage.objects.get(pk=done.inbound_id))
    assert notice.to == gm_user.email
    assert "failed the sender check" in notice.subject
    assert "check of the sender failed (dmarc=fail" in " ".join(notice.body_text.split())
