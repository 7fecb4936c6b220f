"""The API's own pages read in a browser: the Swagger docs (/api/docs/) and DRF's browsable
pages (any /api/ URL opened in a browser), at phone and laptop width, logged out and in:
no critical or serious axe-core finding, and no sideways scrolling of the page."""

from __future__ import annotations

import pytest

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _api_pages(game) -> list[tuple[str | None, str]]:
    g = game.pk
    return [(None, "/api/docs/"), (None, "/api/rulesets/"), (None, "/api/games/"),
            (None, f"/api/games/{g}/"), (None, "/api/token/"),
            ("alice", "/api/docs/"), ("alice", f"/api/games/{g}/"),
            ("alice", f"/api/games/{g}/orders/"), ("alice", f"/api/games/{g}/reports/"),
            ("alice", f"/api/games/{g}/thread/")]


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_the_api_pages_are_accessible(live_server, open_page, make_game, width):
    game = make_game("combat_dice", 2, title="API fight")
    base, tabs, problems = live_server.url, {}, []
    for user, path in _api_pages(game):
        if user not in tabs:
            tabs[user] = open_page(width)
            if user is not None:
                login(tabs[user], base, user)
        page = tabs[user]
        page.goto(base + path)
        page.wait_for_load_state("load")
        if path == "/api/docs/":
            page.wait_for_selector(".swagger-ui .opblock")  # drawn from the schema
        for v in axe_violations(page):
            problems.append(f"{user} {path}: axe {v['impact']} {v['id']} ({v['help']}) "
                            f"at {v['nodes']}")
        scroll, inner = overflow(page)
        if scroll > inner:
            problems.append(f"{user} {path}: scrollWidth {scroll} > {inner}")
    assert not problems, "\n".join(problems)
