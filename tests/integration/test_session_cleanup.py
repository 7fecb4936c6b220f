"""The integration tests' own clean-up never reaches a database they did not create.

`_no_stray_sessions` (conftest.py) ends the sessions killed workers leave in the test
database before pytest-django drops it. In a run where no test used the database (the
deploy smoke test's module alone, say) pytest-django creates no test database, and the
fixture ran its `pg_terminate_backend` on the database DATABASE_URL names: with a
helper's URL naming a database that does not exist, the run ended with "database
gm_<name> does not exist" at teardown; with one that exists (a developer's, a CI
pass's), it ended every other session on it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import psycopg
import pytest

from .stack import ROOT
from .test_deploy_smoke import SmokeDatabase, default_database_url

pytestmark = pytest.mark.services

PURE = "tests/integration/test_deploy_smoke.py::test_env_example_lists_every_variable_the_settings_read"


def _run_pytest(database_url: str) -> subprocess.CompletedProcess:
    """A pytest session whose only test uses no database, with DATABASE_URL given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GM_TEST"))}
    env["DATABASE_URL"] = database_url
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           PURE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=180)


def test_a_run_without_a_test_database_leaves_database_url_alone() -> None:
    """One subprocess run (a Django start-up: seconds) for both symptoms: the fixture
    must not connect to DATABASE_URL's database at all, so it neither ends our session
    on it nor, for a database that does not exist, fails to connect."""
    database = SmokeDatabase(default_database_url())  # standing for the project's own
    database.create()
    try:
        url = f"postgresql://postgres@127.0.0.1:5432/{database.name}"
        with psycopg.connect(url, autocommit=True) as someone:  # a user of that database
            run = _run_pytest(url.replace("postgresql://", "postgres://"))
            assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
            assert "Error when trying" not in run.stdout
            assert "does not exist" not in run.stdout + run.stderr
            assert someone.execute("SELECT 1").fetchone() == (1,), "our session was ended"
    finally:
        database.drop()

