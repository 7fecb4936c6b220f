"""The Duel of Ages board as a player sees it (issue 28): on a phone the board, wider than
its box, opens scrolled so that the reader's own units are in view (not at the board's
left edge, wherever they stand), and at 375 and 1280 px no unit tag is drawn over a hex's
own label (its name, dome number, tower or labyrinth letter). The boxes are the
browser's (getBoundingClientRect), so the test sees what a reader sees. Screenshots go to
var/screenshots/."""

from __future__ import annotations

import pytest

from gm.play import actions

from .conftest import LAPTOP, PHONE, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOXES = """() => {
    const box = document.querySelector('.board');
    const rect = e => { const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const svg = box.querySelector('svg');
    return {
        box: rect(box), scrollLeft: box.scrollLeft,
        scrollable: box.scrollWidth > box.clientWidth + 1,
        mine: [...svg.querySelectorAll('.unit-mine')].map(u =>
            [u.dataset.char, u.dataset.team, rect(u)]),
        theirs: svg.querySelectorAll('.unit-theirs').length,
        tags: [...svg.querySelectorAll('.unit rect')].map(r =>
            [r.parentNode.dataset.char, rect(r)]),
        labels: [...svg.querySelectorAll('.hex-label')].map(t => [t.textContent, rect(t)]),
    };
}"""


def _play(game, turns: int) -> None:
    """The seats' standard orders for a few turns: the characters walk onto the field."""
    for _ in range(turns):
        game.refresh_from_db()
        engine = actions.engine_for(game)
        state = engine.from_json(game.state)
        for seat in engine.decision(state).seats:
            actions.submit_orders(game, game.seats.get(name=seat),
                                  engine.default_orders(state, seat).text)


def _overlaps(a: list[float], b: list[float]) -> bool:
    """Do two boxes share an area (touching edges, a rounding's width, do not count)?"""
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5


def _colour(game, username: str) -> str:
    """The team the user's seat plays, as the engine's view names it."""
    game.refresh_from_db()
    engine = actions.engine_for(game)
    seat = game.seats.get(user__username=username).name
    view = engine.view(engine.from_json(game.state), seat)
    return next(colour for colour, s in view["seats"].items() if s == seat)


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
@pytest.mark.parametrize("options, turns, name", [
    ({}, 3, "doa-units-skirmish"),
    ({"map": "standard", "team_size": 4}, 3, "doa-units-standard"),
])
@pytest.mark.parametrize("username", ["alice", "bob"])
def test_own_units_in_view_and_no_tag_over_a_hex_label(live_server, open_page, make_game,
                                                      on_commit, width, options, turns,
                                                      name, username):
    game = make_game("duel_of_ages", 2, title="Duel on a phone", options=options)
    with on_commit():
        _play(game, turns)
    colour = _colour(game, username)
    page = open_page(width)
    login(page, live_server.url, username)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".board svg .unit")
    page.wait_for_load_state("load")
    scroll, inner = overflow(page)
    assert scroll <= inner, f"the page scrolls sideways: {scroll} > {inner}"
    got = page.evaluate(BOXES)
    assert got["mine"], "the reader's own units are not marked on the board"
    assert {team for _, team, _ in got["mine"]} == {colour}, "another team's units marked"
    assert got["theirs"], "the enemy's units are not told apart"
    left, _, right, _ = got["box"]
    shown = [key for key, _, (x1, _, x2, _) in got["mine"]
             if x1 >= left - 0.5 and x2 <= right + 0.5]
    assert shown, (f"no own unit is in the board's visible area {got['box']} "
                   f"(scrolled {got['scrollLeft']}): {got['mine']}")
    if width == PHONE:
        assert got["scrollable"], "at 375 px the board is expected to scroll inside its box"
    covered = [(unit, label, tag, box) for unit, tag in got["tags"]
               for label, box in got["labels"]
               if _overlaps(tag, box)]
    assert not covered, f"unit tags over hex labels: {covered[:8]}"
    assert got["labels"], "the board has no hex labels to check"
    shot = screenshot(page, f"{name}-{username}", width)
    page.locator("#board").screenshot(path=str(shot.with_name(
        f"{name}-{username}-board-{width}.png")))


def test_the_public_board_marks_no_side(live_server, open_page, make_game, on_commit):
    """A visitor (no seat) reads the public view: no unit is called 'mine'."""
    game = make_game("duel_of_ages", 2, title="Duel watched")
    with on_commit():
        _play(game, 2)
    page = open_page(PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".board svg .unit")
    assert page.locator(".board svg .unit-mine").count() == 0
    assert page.locator(".board svg .unit-theirs").count() == 0


@pytest.mark.parametrize("username", ["alice", "bob"])
def test_the_phone_board_scrolls_to_units_off_its_right_edge(live_server, open_page,
                                                             make_game, on_commit, username):
    """Where all the reader's units stand beyond the box's right edge, the board opens
    scrolled to them. The game's units are spread over the field, so the page is served
    with only the reader's right-most unit marked as his (the others as the enemy's)."""
    game = make_game("duel_of_ages", 2, title="Duel on a phone")
    with on_commit():
        _play(game, 3)
    page = open_page(PHONE)
    login(page, live_server.url, username)
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    page.wait_for_selector(".board svg .unit")
    page.evaluate("document.querySelector('.board').scrollLeft = 0")
    got = page.evaluate(BOXES)
    far = max(got["mine"], key=lambda m: m[2][2])
    assert far[2][2] > got["box"][2], "no own unit beyond the box's right edge to test with"
    others = [key for key, _, _ in got["mine"] if key != far[0]]

    def only_far(route):
        body = route.fetch().text()
        for key in others:
            body = body.replace(f'class="unit unit-mine" data-team="{far[1]}" data-char="{key}"',
                                f'class="unit unit-theirs" data-team="{far[1]}" '
                                f'data-char="{key}"')
        route.fulfill(body=body, headers={"content-type": "text/html; charset=utf-8"})

    page.route(url, only_far)
    page.goto(url)
    page.wait_for_selector(".board svg .unit")
    page.wait_for_load_state("load")
    got = page.evaluate(BOXES)
    assert [key for key, _, _ in got["mine"]] == [far[0]]
    (_, _, (x1, _, x2, _)), = got["mine"]
    assert got["scrollLeft"] > 0
    assert got["box"][0] <= x1 and x2 <= got["box"][2], (got["box"], x1, x2)
    page.locator("#board").screenshot(path=str(
        screenshot(page, f"doa-units-scrolled-{username}", PHONE).with_name(
            f"doa-units-scrolled-{username}-board-{PHONE}.png")))
