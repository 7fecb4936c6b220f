"""gm.play.rows' fast paths give what Django's own paths give (issue 14, inbound mail).

* `Columns.instance` builds instances without Model.__init__'s per-field setattr: the
  same field values, deferred fields, state and cached relations as `Model.from_db`;
* `prep_save` hands the usual values over without the field's method chain: the same
  parameters as `get_db_prep_save`;
* `insert_version` builds its Submission directly: what `Submission(...)` gave;
* on PostgreSQL, the psycopg cursor under `rows.cursor()` is kept and used again, its
  timestamps load as Django's do, and the live-turn lock runs on a generic plan.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import DEFERRED
from django.db.models.signals import post_init

from gm.accounts.models import Profile
from gm.play import actions, live_rows, rows
from gm.play.models import Game, Seat, Submission, Turn

pytestmark = pytest.mark.django_db

POSTGRESQL = connection.vendor == "postgresql"


def _fields(obj) -> dict:
    return {k: v for k, v in obj.__dict__.items() if k != "_state"}


def _row(cols: rows.Columns, pk: int) -> list:
    with rows.cursor() as cur:
        cur.execute(f"SELECT {cols.sql()} FROM {rows.qn(cols.model._meta.db_table)} "
                    f"{cols.alias} WHERE {cols.alias}.{rows.qn('id')} = %s", [pk])
        return list(cur.fetchone())


@pytest.mark.parametrize("model,defer", [
    (Game, ()), (Game, ("state", "setup_record")), (Turn, ()), (Seat, ()),
    (get_user_model(), ()), (Submission, ())])
def test_an_instance_is_what_from_db_builds(make_game, model, defer):
    game = make_game("combat_dice")
    seat = game.seats.first()
    actions.submit_orders(game, seat, "EQUIP SWORD, MEDIUM SHIELD, LIGHT ARMOR")
    pk = {Game: game.pk, Turn: game.current_turn().pk, Seat: seat.pk,
          Submission: Submission.objects.get(seat=seat).pk}.get(model, seat.user_id)
    cols = rows.Columns(model, "x", defer=defer)
    values = _row(cols, pk)
    fast = cols.instance(values)
    converted = list(values)
    for i, col, convs in cols._converters_for(connection):
        for conv in convs:
            converted[i] = conv(converted[i], col, connection)
    slow = model.from_db(connection.alias, cols.attnames, converted)
    assert type(fast) is model and _fields(fast) == _fields(slow)
    assert (fast._state.adding, fast._state.db) == (slow._state.adding, slow._state.db)
    assert fast.get_deferred_fields() == slow.get_deferred_fields() == {
        model._meta.get_field(name).attname for name in defer}
    assert fast == model.objects.get(pk=pk)
    for name in defer:  # a deferred field still loads on access, as the ORM's does
        assert getattr(fast, name) == getattr(model.objects.get(pk=pk), name)


def test_init_signal_listeners_get_the_ordinary_path(make_game):
    game = make_game("combat_dice")
    seen = []

    def listener(sender, instance, **kwargs):
        seen.append(instance)

    post_init.connect(listener, sender=Game)
    try:
        obj = rows.Columns(Game, "g").instance(_row(rows.Columns(Game, "g"), game.pk))
    finally:
        post_init.disconnect(listener, sender=Game)
    assert seen == [obj]


def test_a_model_with_its_own_init_is_not_plain():
    class Own(Profile):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

        class Meta:
            proxy = True
            app_label = "accounts"

    assert not rows._plain_init(Own, ["id"])
    assert rows._plain_init(Profile, [f.attname for f in Profile._meta.concrete_fields])
    assert DEFERRED is not None


@pytest.mark.parametrize("model,name,value", [
    (Submission, "turn", 7), (Submission, "author", None), (Submission, "author", 3),
    (Submission, "version", 2), (Submission, "version", True), (Submission, "text", "x"),
    (Submission, "source", Submission.Source.EMAIL), (Submission, "receipt", ""),
    (Submission, "orders", {"seat": "A", "items": []}), (Submission, "orders", None),
    (Submission, "created", datetime(2026, 12, 1, 23, 0, tzinfo=UTC)),
    (Submission, "created", datetime(2026, 12, 1, 23, 0, tzinfo=timezone(timedelta(hours=2)))),
    (Turn, "deadline", datetime(2026, 12, 1, 23, 0, tzinfo=UTC)),
    (Turn, "superseded", False), (Turn, "number", 3), (Turn, "decision", {"seats": ["A"]}),
    (Game, "turn_hours", 48), (Seat, "emails", ["a@b.c"]), (Seat, "game", 12),
])
def test_parameters_are_what_get_db_prep_save_gives(model, name, value):
    field = model._meta.get_field(name)
    got = rows.prep_save(field, value, connection)
    expected = field.get_db_prep_save(value, connection)
    assert type(got) is type(expected)
    assert getattr(got, "obj", got) == getattr(expected, "obj", expected)


def test_a_stored_version_is_the_submission_save_would_leave(make_game, django_assert_num_queries):
    game = make_game("combat_dice")
    seat = game.seats.select_related("user").first()
    with transaction.atomic():
        turn, _game = live_rows.lock_live_turn(game.pk)
        now = datetime(2026, 12, 1, 23, 0, tzinfo=UTC)
        sub = live_rows.insert_version(turn, seat, "EQUIP SPEAR", {"seat": seat.name},
                                  "r" * 64, Submission.Source.EMAIL, seat.user, now)
    stored = Submission.objects.get(pk=sub.pk)
    assert _fields(sub) == {**_fields(stored), "orders": {"seat": seat.name}}
    assert (sub._state.adding, sub._state.db) == (False, "default")
    with django_assert_num_queries(0):  # the relations come cached, as the kwargs gave
        assert (sub.turn, sub.seat, sub.author) == (turn, seat, seat.user)


@pytest.mark.skipif(not POSTGRESQL, reason="the kept cursor and the loader are PostgreSQL's")
def test_the_psycopg_cursor_is_kept_and_a_nested_one_is_its_own():
    with rows.cursor() as first:
        kept = first.cursor
        with rows.cursor() as nested:
            assert nested.cursor is not kept
            nested.execute("SELECT 2")
            assert nested.fetchone() == (2,)
        first.execute("SELECT 1")
        assert first.fetchone() == (1,)
    with rows.cursor() as again:
        assert again.cursor is kept
        again.execute("SELECT 3")
        assert again.fetchone() == (3,)
    assert not kept.closed


@pytest.mark.skipif(not POSTGRESQL, reason="the kept cursor and the loader are PostgreSQL's")
def test_timestamps_load_as_django_loads_them():
    sql = ("SELECT TIMESTAMPTZ '2026-12-01 23:59:58.123456+05:30', "
           "TIMESTAMPTZ '0001-01-01 00:00:00+00', NULL::timestamptz")
    with connection.cursor() as cur:
        cur.execute(sql)
        django_row = cur.fetchone()
    with rows.cursor() as cur:
        cur.execute(sql)
        fast_row = cur.fetchone()
    assert fast_row == django_row
    assert [getattr(v, "tzinfo", None) for v in fast_row] == \
        [getattr(v, "tzinfo", None) for v in django_row]


@pytest.mark.skipif(not POSTGRESQL, reason="prepared statements are PostgreSQL's")
def test_the_live_turn_lock_runs_on_a_generic_plan(make_game):
    game = make_game("combat_dice")
    for _ in range(8):
        with transaction.atomic():
            assert live_rows.lock_live_turn(game.pk) is not None
    with connection.cursor() as cur:
        cur.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements "
                    "WHERE statement LIKE %s", ["%FOR UPDATE OF t FOR KEY SHARE OF g%"])
        generic, custom = cur.fetchone()
    assert generic > 0 and custom <= 5  # planned once, not at every execution
