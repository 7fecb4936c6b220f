"""The game page records each visit (what arrived since is marked new) in one statement.

mark_seen used update_or_create: a savepoint, a SELECT, the UPDATE and a release on every
game page. Now it is one UPDATE on every visit but the first, which inserts; a first
visit racing another request for the same reader and game updates the row the other
inserted instead of failing on the unique constraint."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import QuerySet
from django.utils import timezone

from gm.talk import actions as talk
from gm.talk.models import LastSeen

pytestmark = pytest.mark.django_db


def test_the_first_visit_inserts_and_later_visits_move_the_mark(make_game, players,
                                                                django_assert_num_queries):
    game = make_game("combat_dice", 2)
    reader = players[0]
    first = timezone.now() - timedelta(hours=2)
    talk.mark_seen(game, reader, first)
    assert talk.last_seen(game, reader) == first
    later = first + timedelta(hours=1)
    with django_assert_num_queries(1):
        talk.mark_seen(game, reader, later)
    assert talk.last_seen(game, reader) == later
    assert LastSeen.objects.filter(game=game, user=reader).count() == 1
    assert talk.last_seen(game, players[1]) is None  # another reader's mark is their own


def test_a_first_visit_racing_another_updates_the_row_the_other_inserted(
        make_game, players, monkeypatch):
    game = make_game("combat_dice", 2)
    reader = players[0]
    theirs = timezone.now() - timedelta(minutes=5)
    mine = timezone.now()
    update = QuerySet.update
    calls = []

    def before_the_other_request(self, **kwargs):
        calls.append(kwargs)
        if len(calls) == 1 and self.model is LastSeen:  # our UPDATE finds no row yet...
            LastSeen.objects.create(user=reader, game=game, at=theirs)  # ...then theirs
            return 0
        return update(self, **kwargs)

    monkeypatch.setattr(QuerySet, "update", before_the_other_request)
    talk.mark_seen(game, reader, mine)
    assert talk.last_seen(game, reader) == mine
    assert LastSeen.objects.filter(game=game, user=reader).count() == 1
    assert len(calls) == 2  # the UPDATE, the refused INSERT, the UPDATE again


def test_nobody_signed_in_leaves_no_mark(make_game, client):
    game = make_game("combat_dice", 2)
    assert client.get(f"/games/{game.pk}/").status_code == 200
    assert not LastSeen.objects.exists()
