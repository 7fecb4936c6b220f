"""The substitute's briefing and a volunteer's offer as mail clients receive them over
SMTP: sent to the newcomer only, in the game's thread, with the seat's own view, its
last orders, the last three reports and the deadline, never another seat's secret."""

from __future__ import annotations

import pytest

from gm.mail import outbox
from gm.play import actions, signals
from gm.substitutes import offers, policy
from gm.substitutes.models import SeatOffer

pytestmark = pytest.mark.django_db


def _text(msg) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def test_volunteer_offer_and_briefing_over_smtp(make_game, make_user, on_commit,
                                                play_defaults, smtp_sink):
    game = make_game("tally", 2, turn_hours=48, options={"max_turns": 10, "target": 100})
    for _ in range(4):
        play_defaults(game)
    with on_commit():
        actions.submit_orders(game, game.seats.get(name="P2"), "ADD 3")
    erin = make_user("erin", email="erin@players.example")
    offers.set_volunteer(erin, ["tally"])
    policy.store(game, {"approval": "auto"})
    with on_commit():
        signals.seat_needs_player.send(sender=type(game), seat=game.seats.get(name="P2"),
                                       reason="civil_disorder")
    outbox.deliver_pending()
    [offer_mail] = smtp_sink.to("erin@players.example")
    assert "seat P2 needs a substitute" in offer_mail["Subject"]
    assert "http://gm.example/substitutes/" in _text(offer_mail)

    offer = SeatOffer.objects.get()
    with on_commit():
        offers.accept(offer.pk, erin)
    outbox.deliver_pending()
    got = smtp_sink.to("erin@players.example")
    assert len(got) == 2
    brief = got[1]
    seat = game.seats.get(name="P2")
    assert "you now play seat P2: your briefing" in brief["Subject"]
    assert brief["Reply-To"] == seat.reply_address
    assert brief["In-Reply-To"] == f"<game-{game.pk}@gm.example>"
    text = _text(brief)
    for heading in ("## Time until the deadline", "## Your seat now", "## Standing orders",
                    "## The last 3 reports"):
        assert heading in text
    assert "Turn 5 is open. Orders are due" in text and "in 1 d 23 h" in text
    assert "ADD 3" in text                       # the seat's last orders
    assert "my_secret" in text and '"secret"' not in text
    assert "Turn 4: public report" in text and "Turn 1: public report" not in text
    assert f"http://gm.example/games/{game.pk}/briefing/" in text
    html = brief.get_body(preferencelist=("html",)).get_content()
    assert "<h2>Your seat now</h2>" in html and "<script" not in html
    # nobody else got a briefing
    assert not [m for _f, r, m in smtp_sink.messages
                if "briefing" in m["Subject"] and "erin@players.example" not in r]
