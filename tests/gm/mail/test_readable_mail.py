"""Mail a player can read: plain-text reports, deadlines in the reader's zone, one turn
numbering, and header values that can never break a game's notices."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gm.accounts.timezones import set_zone
from gm.mail import compose, notices, outbox, plaintext
from gm.mail.models import Kind, Outbox
from gm.play import actions
from gm.play.models import Game

from .conftest import seat

# A deadline still ahead whenever the suite runs (a fixed date in 2026 made the receipt
# test a refusal as too late once that day's 17:00 UTC had passed); a Tuesday in winter.
DEADLINE = datetime(2099, 12, 1, 17, 0, tzinfo=UTC)

GOLDEN = sorted(Path(__file__).resolve().parents[2].glob("games/*/golden/*.md"))


def test_headings_tables_lists_and_markup():
    md = ("# Report for *turn* 2\n\nThe **duel** goes on; see `HELP` and "
          "[the rules](http://gm.example/r/).\n\n## Scores\n\n"
          "| seat | name | hits |\n|---|:---|---:|\n| P1 | Ève | 10 |\n| P2 | 张伟 | 9 |\n\n"
          "### Notes\n\n- one\n  - nested *deep*\n1. first\n\n---\n\n```text\n|a|  b|\n```\n")
    text = plaintext.render(md)
    assert text.startswith("Report for turn 2\n=================\n\nThe duel goes on; see HELP "
                           "and the rules <http://gm.example/r/>.\n\nScores\n------\n\n")
    assert ("seat  name  hits\n----  ----  ----\nP1    Ève     10\nP2    张伟     9\n"
            in text)
    assert "Notes\n~~~~~\n\n- one\n  - nested deep\n1. first\n" in text
    assert "\n" + "-" * 72 + "\n" in text
    assert "\n|a|  b|\n" in text  # a fenced block (a board) is kept as drawn


def test_running_text_wraps_at_72_with_hanging_indents():
    long = " ".join(["word"] * 40)
    text = plaintext.render(f"{long}\n\n- {long}\n")
    lines = text.splitlines()
    assert all(len(line) <= 72 for line in lines)
    bullet = lines[lines.index("") + 1:]
    assert bullet[0].startswith("- ") and all(b.startswith("  ") for b in bullet[1:])


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_every_golden_report_reads_without_markup(path):
    """The engines' real reports: no markdown marks left, prose within 72 columns."""
    text = plaintext.render(path.read_text())
    fenced = re.findall(r"```\w*\n(.*?)```", path.read_text(), re.S)
    kept = "\n".join(fenced)
    for line in text.splitlines():
        if line and line in kept:  # board drawings stay as the engine drew them
            continue
        assert "**" not in line and "`" not in line and not line.startswith("#"), line
        assert not re.match(r"^\s*\|", line), line
        if "  " not in line.strip():  # not a table row
            assert len(line) <= 72, line


def test_deadline_in_the_readers_zone_with_utc_beside(tally_game, mailoutbox, on_commit):
    p1, p2 = seat(tally_game, "P1"), seat(tally_game, "P2")
    set_zone(p1.user, "Europe/Paris")
    turn = tally_game.current_turn()
    turn.deadline = DEADLINE
    turn.save(update_fields=["deadline"])
    Outbox.objects.all().delete()
    mailoutbox.clear()
    with on_commit():
        notices.turn_opened(turn)
    to_p1 = next(m for m in mailoutbox if m.to == [p1.user.email])
    to_p2 = next(m for m in mailoutbox if m.to == [p2.user.email])
    assert "Orders are due by Tue 1 Dec 2099, 18:00 CET (17:00 UTC)." in to_p1.body
    assert "Orders are due by Tue 1 Dec 2099, 17:00 UTC." in to_p2.body


def test_receipt_deadline_in_the_senders_zone(tally_game, feed, mailoutbox):
    from . import mimeshapes as shapes

    p1 = seat(tally_game, "P1")
    set_zone(p1.user, "America/New_York")
    turn = tally_game.current_turn()
    turn.deadline = DEADLINE
    turn.save(update_fields=["deadline"])
    feed(shapes.plain("ADD 1", sender=p1.user.email, to=p1.reply_address))
    assert "(Tue 1 Dec 2099, 12:00 EST (17:00 UTC))" in mailoutbox[-1].body


def test_one_turn_number_in_subject_and_prompt(make_game, on_commit, mailoutbox):
    """Combat Dice counts combat turns from its own 1; the mail says the game's turn."""
    game = make_game("combat_dice", 2)
    with on_commit():
        for name in ("P1", "P2"):
            s = seat(game, name)
            actions.submit_orders(game, s, "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR",
                                  source="web", author=s.user)
    turn = game.current_turn()
    assert turn.number == 2
    notice = next(m for m in mailoutbox if m.subject.endswith("turn 2: your orders, seat P1"))
    assert "turn 2 is open" in notice.body
    numbers = {int(n) for n in re.findall(r"\bturn (\d+)", notice.body, re.IGNORECASE)}
    assert numbers == {2}, notice.body
    assert "Orders for combat round 1" in notice.body  # the game's own round, in words


def test_a_prompt_keeps_its_help_lines_and_shows_no_form_flags(make_game, mailoutbox):
    """Dungeonquest's hero choice has one help line per hero, as the order form lists
    them; the mail keeps them apart (not one paragraph with "1. HERO RANGER" starting a
    line), and the prompt's flag for the form ("pending": false) is not printed."""
    make_game("dungeonquest", 2)
    notice = next(m for m in mailoutbox if m.subject.endswith("seat P1"))
    body = notice.body
    assert "Pending:" not in body and "False" not in body, body
    for hero in ("KNIGHT", "BARBARIAN", "RANGER", "ADVENTURER"):
        assert re.search(rf"^HERO {hero}: ", body, re.MULTILINE), body
    assert all(len(line) <= 72 for line in notices.render_prompt(
        {"title": "T", "help": "a\n" + "word " * 40, "flag": True, "more": False}))
    assert notices.render_prompt({"title": "T", "help": "one\ntwo", "flag": True}) == \
        ["T", "one", "two"]


@pytest.mark.parametrize("title", ["Evil\r\nBcc: victim@example.org", "Line\nbreak",
                                   "Tab\tand\x0bvertical", "Unicode\u2028separator"])
def test_a_title_with_line_breaks_cannot_break_notices(make_game, mailoutbox, title):
    game = make_game("tally", 2, title="placeholder")
    Game.objects.filter(pk=game.pk).update(title=title)
    Outbox.objects.all().delete()
    mailoutbox.clear()
    notices.turn_opened(game.current_turn())
    rows = list(Outbox.objects.filter(kind=Kind.TURN_OPENED))
    assert len(rows) == 2
    for row in rows:
        assert "\n" not in row.subject and "\r" not in row.subject
        assert outbox.deliver(row.pk) is True or Outbox.objects.get(pk=row.pk).status == "sent"
    assert len(mailoutbox) == 2
    assert all("Bcc" not in m.extra_headers and m.bcc == [] for m in mailoutbox)


def test_a_row_with_a_broken_header_is_given_up_not_retried(tally_game):
    row = outbox.enqueue(key="broken", kind=Kind.REPORT, to="a@example.org",
                         subject="x\r\nBcc: b@example.org", text="t")
    assert outbox.deliver(row.pk) is False
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED and "not retried" in row.last_error
    assert outbox.requeue_stale(pending_after=0) == []


def test_header_value():
    assert compose.header_value("a\r\n b\x00c", 255) == "a b c"
    assert compose.header_value("x" * 300, 10) == "x" * 9 + "\u2026"
