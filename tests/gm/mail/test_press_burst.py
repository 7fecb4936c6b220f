"""Press limits (issue 29): a rate limit per sending end like the other limits, and a
burst of press to one reader folded into one mail, over a real SMTP peer."""

from __future__ import annotations

import pytest
import time_machine
from django.utils import timezone

from gm.mail import outbox
from gm.play.limits import RateLimited
from gm.talk import actions as talk
from gm.talk.models import Message

from .conftest import seat

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_burst_is_limited_and_folded_into_one_mail(tally_game, smtp_sink, on_commit,
                                                    settings):
    settings.GM_PRESS_LIMIT, settings.GM_PRESS_WINDOW = 10, 300
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    bob = p2.user.email
    for i in range(10):
        with on_commit():
            talk.send(tally_game, p1.user, "P2", f"burst message number {i}")
    with pytest.raises(RateLimited) as refused:
        talk.send(tally_game, p1.user, "P2", "the eleventh")
    assert refused.value.status == 429 and 0 < refused.value.retry_after <= 301
    assert "10 private messages" in refused.value.message
    assert Message.objects.filter(game=tally_game).count() == 10
    # The first went out at once; the nine that followed wait, folded into one mail.
    assert len(smtp_sink.to(bob)) == 1
    outbox.deliver_pending()
    mails = smtp_sink.to(bob)
    assert len(mails) == 2
    folded = mails[1].get_body(("plain",)).get_content()
    assert "9 press messages from P1" in mails[1]["Subject"]
    assert all(f"burst message number {i}" in folded for i in range(1, 10))
    assert "burst message number 0" not in folded
    assert "--- 1 of 9 ---" in folded and "--- 9 of 9 ---" in folded
    # The GM's end has a count of its own, and the window passes.
    with on_commit():
        talk.send(tally_game, tally_game.gm, "P2", "from the GM")
    later = timezone.now() + timezone.timedelta(seconds=301)
    with time_machine.travel(later, tick=False):
        talk.send(tally_game, p1.user, "P2", "after the window")


def test_the_size_limit_is_a_setting(tally_game, settings):
    settings.GM_PRESS_MAX_CHARS = 100
    p1 = seat(tally_game, "P1")
    with pytest.raises(Exception, match="at most 100 characters"):
        talk.send(tally_game, p1.user, "P2", "x" * 101)
    assert not Message.objects.exists()
