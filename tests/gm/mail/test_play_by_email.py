"""A whole Warpspawn Combat Dice game played by email only, over real SMTP both ways.

The players never call the service: they read the mails an aiosmtpd sink receives and
answer each turn notice through the service's own SMTP listener (`manage.py smtpd`'s
controller), replying in Gmail's shape (their orders on top, the notice quoted below),
to the Reply-To address of the notice and in its thread. From the first notice to the
final report and the game-over mail.
"""

from __future__ import annotations

import re
import smtplib

import pytest

from gm.mail import plaintext
from gm.mail.models import InboundMessage, Outcome
from gm.mail.smtp_server import controller
from gm.play.models import Game, Report, Submission

from .conftest import free_port, seat


def _reply(notice, body: str, sender: str) -> bytes:
    from email.mime.text import MIMEText
    from email.utils import make_msgid

    quoted = "\n".join(f"> {line}" for line in notice.get_content().splitlines())
    msg = MIMEText(f"{body}\n\nOn Sun, Nov 29, 2026 at 12:00 PM GM <{notice['From']}> "
                   f"wrote:\n{quoted}\n", "plain", "utf-8")
    msg["From"] = sender
    msg["To"] = notice["Reply-To"]
    msg["Subject"] = "Re: " + notice["Subject"]
    msg["Message-ID"] = make_msgid(domain="player.example")
    msg["In-Reply-To"] = notice["Message-ID"]
    msg["References"] = notice["Message-ID"]
    return msg.as_bytes().replace(b"\n", b"\r\n")


@pytest.mark.slow
def test_combat_dice_by_email_end_to_end(transactional_db, make_game, smtp_sink):
    port = free_port()
    listener = controller("127.0.0.1", port)
    listener.start()
    try:
        game = make_game("combat_dice", 2, title="Mail Duel", turn_hours=24)
        players = {name: seat(game, name) for name in ("P1", "P2")}
        answered: set[str] = set()
        turns_played = 0
        tried_error = False

        def send(notice, body, who):
            raw = _reply(notice, body, players[who].user.email)
            with smtplib.SMTP("127.0.0.1", port) as client:
                assert client.sendmail(players[who].user.email, [notice["Reply-To"]],
                                       raw) == {}
            return raw

        for _round in range(30):
            game.refresh_from_db()
            if game.status == Game.Status.FINISHED:
                break
            progressed = False
            for name, s in players.items():
                for notice in smtp_sink.to(s.user.email):
                    subject = notice["Subject"]
                    if notice["Auto-Submitted"] != "auto-generated" or \
                            "your orders" not in subject or notice["Message-ID"] in answered:
                        continue
                    answered.add(notice["Message-ID"])
                    progressed = True
                    number = int(re.search(r"turn (\d+):", subject).group(1))
                    assert notice["Reply-To"] == s.reply_address
                    text = notice.get_content().replace("\r\n", "\n")
                    found = re.search(r"^Example: (.+)$", text, re.MULTILINE)
                    assert found, text
                    example = found.group(1)
                    if name == "P1" and not tried_error:
                        tried_error = True
                        send(notice, "EQUIP LIGHTSABER", name)
                        error = [m for m in smtp_sink.to(s.user.email)
                                 if "NOT accepted" in m["Subject"]]
                        assert len(error) == 1 and "line 1: EQUIP LIGHTSABER" in \
                            error[0].get_content()
                    orders = "YIELD" if name == "P2" and number >= 4 else example
                    raw = send(notice, orders, name)
                    mid = re.search(rb"Message-ID: <([^>]+)>", raw).group(1).decode()
                    assert InboundMessage.objects.get(message_id=mid).outcome == \
                        Outcome.ACCEPTED
                    receipt = [m for m in smtp_sink.to(s.user.email)
                               if m["In-Reply-To"] == f"<{mid}>"]
                    assert len(receipt) == 1 and "Receipt (SHA-256" in receipt[0].get_content()
                    turns_played = max(turns_played, number)
            assert progressed, "no new notice arrived: the game is stuck"
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED
        assert game.result["summary"] == "P1 wins: P2 yielded"
        assert turns_played == 4
        # Every submission came by email; every turn's report reached each seat by mail.
        assert set(Submission.objects.filter(turn__game=game).values_list(
            "source", flat=True)) == {"email"}
        for name, s in players.items():
            got = smtp_sink.to(s.user.email)
            reports = [m for m in got if " report for turn " in m["Subject"]]
            assert [int(m["Subject"].rsplit(" ", 1)[1]) for m in reports] == [1, 2, 3, 4]
            final = Report.objects.get(record__game=game, record__number=4, audience=name)
            body = reports[-1].get_body(preferencelist=("plain",)).get_content()
            text = body.replace("\r\n", "\n")
            assert text.startswith(plaintext.render(final.markdown))
            assert "**" not in text and "#" not in text.split("Reply to this mail")[0]
            html = reports[-1].get_body(preferencelist=("html",)).get_content()
            assert final.html in html.replace("\r\n", "\n")
            over = [m for m in got if m["Subject"] == "[Mail Duel] game over"]
            assert len(over) == 1 and game.secret in over[0].get_content()
            assert all(m["Reply-To"] == s.reply_address for m in got)
    finally:
        listener.stop()
