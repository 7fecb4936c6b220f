"""A database outage, for real: PostgreSQL is cut off behind a TCP proxy mid-run.

API clients get a JSON 503 with Retry-After (not an HTML 500), browsers a short 503
page; once the database is reachable again the same requests succeed. The proxy cuts only
this test's connections, so nothing else using the server notices.
"""

from __future__ import annotations

import pytest
from django.db import connection, connections
from django.test import Client
from rest_framework.test import APIClient

from .stack import TcpProxy

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def through_proxy(make_game, tally_engine):
    if connection.vendor != "postgresql":
        pytest.skip("the outage test runs on PostgreSQL (set DATABASE_URL)")
    game = make_game("tally", 2)
    settings_dict = connection.settings_dict
    proxy = TcpProxy(settings_dict.get("HOST") or "127.0.0.1",
                     int(settings_dict.get("PORT") or 5432))
    saved = (settings_dict.get("HOST"), settings_dict.get("PORT"))
    connections.close_all()
    settings_dict["HOST"], settings_dict["PORT"] = "127.0.0.1", proxy.port
    try:
        yield game, proxy
    finally:
        connections.close_all()
        settings_dict["HOST"], settings_dict["PORT"] = saved
        proxy.close()


def test_api_clients_get_a_json_503_and_browsers_a_page(through_proxy, players):
    game, proxy = through_proxy
    api = APIClient(raise_request_exception=False)
    assert api.get(f"/api/games/{game.pk}/").status_code == 200
    proxy.cut(refuse=True)  # the database host gone away
    response = api.get(f"/api/games/{game.pk}/")
    assert response.status_code == 503, response.content[:300]
    assert response["Content-Type"] == "application/json"
    assert int(response["Retry-After"]) > 0
    assert "database is not answering" in response.json()["detail"]
    page = Client(raise_request_exception=False).get(f"/games/{game.pk}/")
    assert page.status_code == 503 and "database is not answering" in page.content.decode()
    proxy.restore()
    connections.close_all()
    assert api.get(f"/api/games/{game.pk}/").status_code == 200
