"""The Duel of Ages board of a map built of platters and keys, in a real browser at 375
and 1280 px: the page never scrolls sideways (the board may, inside its own box), no
coordinate or label is drawn smaller than 12 CSS pixels (the project's phone minimum,
as tests/browser/test_boards.py asks of the other boards), and axe-core finds nothing
serious. Screenshots go to var/screenshots/ for a reviewer to look at."""

from __future__ import annotations

import pytest

from games.duel_of_ages.board import MIN_FONT
from gm.play import actions

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SMALLEST = 12
"""CSS pixels: the smallest text the board may show (it is drawn at its natural size, so
MIN_FONT units are MIN_FONT pixels)."""

FONTS = """() => {
    const svg = document.querySelector('.board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')].map(t =>
        [t.textContent, parseFloat(t.getAttribute('font-size')) * scale]);
}"""


def _play(game, turns: int) -> None:
    """Play the seats' standard orders for a few turns (characters enter the map)."""
    for _ in range(turns):
        game.refresh_from_db()
        engine = actions.engine_for(game)
        state = engine.from_json(game.state)
        decision = engine.decision(state)
        for seat in decision.seats:
            actions.submit_orders(game, game.seats.get(name=seat),
                                  engine.default_orders(state, seat).text)


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
@pytest.mark.parametrize("options, turns, name", [
    ({"map": "standard", "team_size": 4}, 3, "doa-standard-map"),
    ({"map": "build", "team_size": 4}, 5, "doa-map-build"),
])
def test_a_built_map_is_legible_at_phone_width(live_server, open_page, make_game, on_commit,
                                               width, options, turns, name):
    game = make_game("duel_of_ages", 2, title="Duel on the platters", options=options)
    with on_commit():
        _play(game, turns)
    page = open_page(width)
    login(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".board svg")
    scroll, inner = overflow(page)
    assert scroll <= inner, f"the page scrolls sideways: {scroll} > {inner}"
    fonts = page.evaluate(FONTS)
    assert fonts, "the board has no text"
    small = [(body, round(px, 1)) for body, px in fonts if px < SMALLEST]
    assert not small, f"text under {SMALLEST}px: {small[:8]}"
    box = page.evaluate("""() => { const b = document.querySelector('.board');
        return [b.scrollWidth, b.clientWidth, b.getBoundingClientRect().right]; }""")
    assert box[2] <= inner + 1                        # the box itself stays on the page
    text = page.content()
    for label in ("tunnel entrance", "red eye", "Tower of", "labyrinth wall"):
        assert label in text, label
    if options["map"] == "build":
        assert "COLOSSUS" in text                     # the pieces are named on the board
    shot = screenshot(page, f"{name}", width)
    page.locator("#board").screenshot(path=str(shot.with_name(f"{name}-board-{width}.png")))
    assert axe_violations(page) == []
    assert MIN_FONT >= 12
