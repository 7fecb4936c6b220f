"""Every kind of event becomes notifications under the budget: `notable` happenings
(vacation, substitute offer...), press, thread posts and GM acts."""

from __future__ import annotations

from gm.mail.models import Outbox
from gm.notify.models import Notification
from gm.play import actions, signals
from gm.play.models import Game
from gm.talk import actions as talk


def test_notable_happenings(make_game, players, gm_user, set_prefs, on_commit, tally_engine):
    alice, bob, carol = players[:3]
    set_prefs(bob, mode="digest")
    game = make_game("tally", 3)
    signals.notable.send(sender=Game, game=game, kind="vacation",
                         text="bob is away until Friday", users=None, urgent=False)
    notes = Notification.objects.filter(kind="vacation")
    assert set(notes.values_list("user_id", flat=True)) == {alice.pk, bob.pk, carol.pk,
                                                             gm_user.pk}
    assert notes.get(user=bob).state == "digest"
    assert Outbox.objects.filter(kind="notice", user=alice).count() == 1
    assert not Outbox.objects.filter(kind="notice", user=bob).exists()
    signals.notable.send(sender=Game, game=game, kind="substitute_offer",
                         text="seat P2 needs a player", users=[bob.pk], urgent=True)
    offer = Notification.objects.get(kind="substitute_offer")
    assert offer.user == bob and offer.needs_action and offer.state == "sent"
    assert Outbox.objects.filter(kind="notice", user=bob).count() == 1  # urgent: now


def test_press_goes_through_the_budget(make_game, players, set_prefs, on_commit,
                                       tally_engine):
    alice, bob = players[:2]
    set_prefs(bob, mode="digest")
    game = make_game("tally", 2)
    seats = {s.user_id: s for s in game.seats.all()}
    with on_commit():
        talk.send_from_seat(seats[alice.pk], seats[bob.pk].name, "Shall we?")
        talk.send_from_seat(seats[bob.pk], seats[alice.pk].name, "Yes.")
    assert Outbox.objects.filter(kind="press", user=alice).count() == 1  # as before
    assert not Outbox.objects.filter(kind="press", user=bob).exists()   # in the digest
    assert Notification.objects.get(user=bob, kind="press").state == "digest"


def test_thread_posts_and_gm_acts_are_not_mailed_one_by_one(make_game, players, gm_user,
                                                            on_commit, tally_engine):
    alice, bob = players[:2]
    game = make_game("tally", 2)
    before = Outbox.objects.count()
    with on_commit():
        actions.post_message(game, alice, "Good luck all")
    notes = Notification.objects.filter(kind="post")
    assert set(notes.values_list("user_id", flat=True)) == {bob.pk, gm_user.pk}
    assert all(n.state == "page" for n in notes)
    assert Outbox.objects.count() == before


def test_held_notices_go_out_when_quiet_hours_end(make_game, players, set_prefs, receiver,
                                                  tally_engine):
    """One catch-up mail for a mail reader, each held notice to a webhook reader's hook;
    nothing twice."""
    from datetime import UTC, datetime, timedelta

    from gm.notify import budget, digest, notes
    from gm.notify.models import Webhook

    alice, bob = players[:2]
    set_prefs(alice, "Asia/Tokyo", quiet_start=22, quiet_end=7)
    set_prefs(bob, "Asia/Tokyo", quiet_start=22, quiet_end=7, channel="webhook")
    Webhook.objects.create(owner=bob, url=receiver.url)
    night = datetime(2027, 1, 10, 15, tzinfo=UTC)  # 00:00 in Tokyo
    for n in range(3):
        notes.fan_out([alice.pk, bob.pk], lambda pk, n=n: budget.Event(
            "vacation", f"v{n}", f"Table: news {n}", None), night)
    assert Notification.objects.filter(state="held").count() == 6
    assert digest.release_held(night + timedelta(hours=5)) == 0  # 05:00: still quiet
    morning = night + timedelta(hours=7)  # 07:00 in Tokyo
    assert digest.release_held(morning) == 2
    (mail,) = Outbox.objects.filter(user=alice)
    assert all(f"news {n}" in mail.body_text for n in range(3))
    assert not Outbox.objects.filter(user=bob).exists()
    from gm.notify import webhooks
    webhooks.send_due(morning)
    assert len(receiver.posts) == 3
    assert digest.release_held(morning + timedelta(hours=1)) == 0


def test_gm_acts_reach_the_players(make_game, players, gm_user, on_commit, tally_engine):
    from gm.referee import actions as referee

    game = make_game("tally", 2)
    with on_commit():
        referee.pause(game, gm_user, reason="holiday")
    notes = Notification.objects.filter(kind="gm_act")
    assert set(notes.values_list("user_id", flat=True)) == {players[0].pk, players[1].pk}
    assert all(n.state == "page" for n in notes)  # in-page and digest, not one mail each
