"""The budget as scenarios: a burst of events in one game, and one across ten games,
give exactly the mails and webhook posts they should, no more.

Readers: alice keeps the defaults (each event by mail: today's mails), bob takes one
daily digest, carol takes her personal webhook only; the GM has a game webhook (public
events)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from gm.mail.models import Outbox
from gm.notify import digest, tick
from gm.notify.models import Notification, Webhook


def mails(user) -> list[Outbox]:
    return list(Outbox.objects.filter(user=user).order_by("id"))


def test_a_burst_in_one_game(make_game, players, gm_user, set_prefs, receiver, play_defaults,
                             tally_engine):
    alice, bob, carol = players[:3]
    set_prefs(bob, "Europe/Berlin", mode="digest", digest_hour=8)
    set_prefs(carol, channel="webhook")
    Webhook.objects.create(owner=carol, url=receiver.url, format="generic")
    game = make_game("tally", 3, start=False, options={"max_turns": 5, "target": 100})
    Webhook.objects.create(owner=gm_user, game=game, url=receiver.url, format="discord")
    from gm.play import actions
    with _commits():
        actions.start_game(game, gm_user, entropy=b"\x01" * 32)
    for _ in range(5):  # five turns, everyone in: a resolution every few milliseconds
        play_defaults(game)
    game.refresh_from_db()
    assert game.status == "finished"
    kinds = [m.kind for m in mails(alice)]
    # each event, as before: 5 orders requests, 5 reports, the game over
    assert sorted(kinds) == sorted(["turn_opened"] * 5 + ["report"] * 5 + ["game_over"])
    assert mails(bob) == [] and mails(carol) == []
    personal = [b for b in receiver.bodies() if b.get("personal")]
    public = [b for b in receiver.bodies() if "content" in b]
    assert len(personal) == 11 and {b["event"] for b in personal} == {
        "turn_opened", "report", "game_over"}
    assert len(public) == 11  # 5 turns opened, 5 reports, the game over
    # bob's digest: one mail for the whole burst, then nothing more
    later = timezone.now() + timedelta(days=1)
    assert digest.send_digests(later) == 1
    assert digest.send_digests(later + timedelta(minutes=5)) == 0
    (sent,) = mails(bob)
    assert sent.kind == "notice" and "Since last time:" in sent.body_text
    assert sent.body_text.count("report") >= 5
    assert not Notification.objects.filter(user=bob, state="digest").exists()
    assert len(receiver.posts) == 22  # nothing sent twice
    tick.run(later + timedelta(hours=1))
    assert len(receiver.posts) == 22 and len(mails(bob)) == 1


def test_a_burst_across_ten_games(make_game, players, set_prefs, receiver, play_defaults,
                                  tally_engine):
    alice, bob = players[:2]
    set_prefs(alice, mode="digest")
    set_prefs(bob, channel="webhook", mode="needs")
    Webhook.objects.create(owner=bob, url=receiver.url, format="slack")
    games = [make_game("tally", 2, title=f"Table {i}") for i in range(10)]
    for game in games:
        play_defaults(game)  # a report and a new turn in each
    assert mails(alice) == [] and mails(bob) == []
    # bob wants only what needs him: ten + ten orders requests, no reports
    assert len(receiver.posts) == 20
    assert all("orders" in b["text"] for b in receiver.bodies())
    assert digest.send_digests(timezone.now() + timedelta(days=1)) == 1
    (sent,) = mails(alice)
    needs = sent.body_text.split("Needs you now:")[1].split("Since last time:")[0]
    assert sum(f"Table {i}:" in needs for i in range(10)) == 10  # every game, one mail
    assert "left)" in needs


def _commits():
    from django.test import TestCase
    return TestCase.captureOnCommitCallbacks(execute=True)
