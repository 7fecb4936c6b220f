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
def token(make_game, players, gm_user, db, in_process_wsgi):
    """A player's token, and the GM's for the GM powers (a player only gets 403 there)."""
    make_game("tally", 2)  # something real behind /api/games/1/
    return {"player": tokens.issue(players[0])[1], "gm": tokens.issue(gm_user)[1]}


def _has_message(response) -> bool:
    """A 4xx says why: {"detail"}, line errors, or DRF's errors by field."""
    try:
        body = response.json()
    except ValueError:
        return False
    return bool(body) and isinstance(body, dict | list)


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_server_errors(case, token):
    key = token["gm"] if "/gm/" in case.path else token["player"]
    for headers in ({}, {"Authorization": f"Token {key}"}):
        response = case.call(headers=headers)
        assert response.status_code < 500, (case.method, case.formatted_path, response.text)
        if response.status_code == 400:
            assert _has_message(response), (case.method, case.formatted_path, response.text)


def test_the_run_covers_the_games_api():
    operations = {f"{op.method.upper()} {op.path}" for op in
                  (result.ok() for result in schema.get_all_operations())}
    assert {"POST /api/games/", "POST /api/games/{id}/orders/",
            "GET /api/games/{id}/reports/{number}/"} <= operations
