"""Property-based API run: every operation in /api/schema/ with generated input, no 5xx."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings

from gm.accounts import tokens

schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def in_process_wsgi():
    """Keep the test's DB connection open across requests, as Django's test client does."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def token(make_game, players, db, in_process_wsgi):
    make_game("tally", 2)  # something real behind /api/games/1/
    return tokens.issue(players[0])[1]


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, token):
    for headers in ({}, {"Authorization": f"Token {token}"}):
        response = case.call(headers=headers)
        assert response.status_code < 500, (case.method, case.formatted_path, response.text)


def test_the_run_covers_the_games_api():
    operations = {f"{op.method.upper()} {op.path}" for op in
                  (result.ok() for result in schema.get_all_operations())}
    assert {"POST /api/games/", "POST /api/games/{id}/orders/",
            "GET /api/games/{id}/reports/{number}/"} <= operations
