"""Shared fixtures. Service-backed tests skip cleanly unless their variables are set:

* GM_TEST_SERVICES=1 with DATABASE_URL (PostgreSQL) and GM_TEST_BROKER_URL (Redis or
  RabbitMQ): integration tests that start real Celery workers;
* GM_TEST_BROWSER=1: Playwright page tests in Debian's chromium (/usr/bin/chromium).
"""

from __future__ import annotations

import os

import pytest

SERVICES = os.environ.get("GM_TEST_SERVICES") == "1"
BROWSER = os.environ.get("GM_TEST_BROWSER") == "1"
# GM_TEST_DATABASE_ONLY=1 (CI's PostgreSQL pass): leave out the tests that use no
# database and no service - they run the same code the same way on either database, and
# CI's SQLite pass runs them. Kept everywhere: the modules whose tests read the database
# settings or the environment (their answer differs with DATABASE_URL).
DATABASE_ONLY = os.environ.get("GM_TEST_DATABASE_ONLY") == "1"
READS_THE_ENVIRONMENT = ("tests/integration/", "tests/gm/accounts/test_production_settings.py",
                         "tests/gm/test_celery_app.py")
USES_THE_DATABASE = {"db", "transactional_db", "django_db_reset_sequences",
                     "django_db_serialized_rollback", "live_server"}


def pytest_configure(config):
    if not config.pluginmanager.hasplugin("django"):
        return  # pure engine runs (-p no:django) need no Django settings
    from django.conf import settings

    # Fast password hashing: tests create many users and never need real hashes.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _flush_by_delete()


def _flush_by_delete():
    """After each transactional test Django empties every table (`flush`); on PostgreSQL
    that is one TRUNCATE of all 32, which drops and recreates each table's and index's
    files: 2-3 s a test on a loaded CI machine, against 60-100 ms for a DELETE of each
    (the tables hold a few rows). The tables end as empty either way and no sequence is
    reset by either (a `reset_sequences` flush keeps Django's own SQL). Foreign keys are
    DEFERRABLE INITIALLY DEFERRED, and flush runs in one transaction: the order of the
    DELETEs does not matter."""
    try:
        from django.db.backends.postgresql.operations import DatabaseOperations
    except ImportError:  # no psycopg: no PostgreSQL run
        return
    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return ["SET CONSTRAINTS ALL DEFERRED;"] + [
            f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} "
            f"{style.SQL_FIELD(self.quote_name(table))};" for table in tables]

    DatabaseOperations.sql_flush = sql_flush


def pytest_collection_modifyitems(config, items):
    if DATABASE_ONLY:
        kept, left = [], []
        for item in items:
            pure = (item.get_closest_marker("django_db") is None
                    and not USES_THE_DATABASE & set(getattr(item, "fixturenames", ()))
                    and "services" not in item.keywords and "browser" not in item.keywords
                    and not item.nodeid.startswith(READS_THE_ENVIRONMENT))
            (left if pure else kept).append(item)
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = kept
    for item in items:
        if "services" in item.keywords and not SERVICES:
            item.add_marker(pytest.mark.skip(
                reason="needs real services (PostgreSQL, a broker, workers, dovecot...): "
                       "set GM_TEST_SERVICES=1 (.ci/run does)"))
        if "browser" in item.keywords and not BROWSER:
            item.add_marker(pytest.mark.skip(
                reason="needs Debian chromium + playwright: set GM_TEST_BROWSER=1 (.ci/run does)"))


@pytest.fixture(autouse=True)
def _fresh_rate_limits(request):
    """API throttles and rate limits count in the cache: every test starts from zero."""
    if request.config.pluginmanager.hasplugin("django"):
        from django.core.cache import cache

        cache.clear()


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, *, email: str | None = None, password: str = "pw-for-tests-1"):
        return django_user_model.objects.create_user(
            username=username, email=email or f"{username}@example.org", password=password)
    return make


@pytest.fixture
def gm_user(make_user):
    return make_user("gamemaster")


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("alice", "bob", "carol", "dave")]


@pytest.fixture
def make_game(gm_user, players, django_capture_on_commit_callbacks):
    """make_game(ruleset, n_players, **create_kwargs) -> started Game (tasks run on commit)."""
    from gm.play import actions

    def make(ruleset: str = "combat_dice", n: int = 2, *, start: bool = True,
             entropy: bytes = b"\x01" * 32, **kwargs):
        kwargs.setdefault("title", f"Test {ruleset}")
        with django_capture_on_commit_callbacks(execute=True):
            game = actions.create_game(gm_user, ruleset=ruleset, **kwargs)
            for user in players[:n]:
                actions.join_game(game, user)
            if start:
                game = actions.start_game(game, gm_user, entropy=entropy)
        game.refresh_from_db()
        return game
    return make


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """`with on_commit(): ...` runs on-commit callbacks (eager tasks, signals) at the end."""
    def ctx():
        return django_capture_on_commit_callbacks(execute=True)
    return ctx


@pytest.fixture
def play_defaults(on_commit):
    """play_defaults(game): every seat sends its default orders, the state read afresh for
    each (an early resolution may have moved it); on-commit work runs at the end."""
    def play(game):
        from gm.play import actions
        from gm.play.models import Game

        engine = actions.engine_for(game)
        with on_commit():
            for seat in game.seats.all():
                state = engine.from_json(Game.objects.get(pk=game.pk).state)
                actions.submit_orders(game, seat, engine.default_orders(state, seat.name).text)
    return play


@pytest.fixture
def tally_engine():
    """Register the "tally" test engine (tests/gm/engines.py) beside the real ones."""
    from games.core import registry
    from tests.gm.engines import ENGINE

    engines = registry.engines()
    engines[ENGINE.name] = ENGINE
    yield ENGINE
    engines.pop(ENGINE.name, None)

