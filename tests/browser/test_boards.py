"""The boards of Duelists, Dice Age and Dungeonquest on a phone (375 px) and a laptop.

What QA found on a phone: Duelists' cards shrank to unreadable text with the "hidden" tag
over the card's name, and Dice Age's wasteland column sat off-screen in a scroll nobody
could discover. Each board here is played a few turns in, then checked at both widths:
no horizontal scrolling anywhere (the board included), every text at least 12 px, no two
texts overlapping, and every column of the board inside the screen.
"""

from __future__ import annotations

import random

import pytest

from games.core import registry
from games.core.types import OrdersInvalid
from gm.play import actions
from gm.play.models import Game

from .conftest import LAPTOP, PHONE, SCREENSHOTS, axe_violations, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

def screenshot_dir():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


MIN_PX = 12  # the smallest text a phone reader is asked to read


def play(game: Game, turns: int, seed: int = 7) -> Game:
    """Let the engine's bots play `turns` turns (a refused bot falls back to defaults)."""
    rng = random.Random(seed)
    engine = registry.get(game.ruleset)
    for _ in range(turns):
        game.refresh_from_db()
        turn = game.current_turn()
        if game.status != Game.Status.RUNNING or turn is None:
            break
        state = engine.from_json(game.state)
        for seat in game.seats.filter(name__in=turn.owing):
            text = engine.bot_orders(state, seat.name, rng.choice)
            try:
                actions.submit_orders(game, seat, text)
            except OrdersInvalid:
                actions.submit_orders(game, seat, engine.default_orders(state, seat.name).text)
    game.refresh_from_db()
    return game


# Text smaller than MIN_PX, texts that overlap, and board parts outside the screen.
PROBE = """(minPx) => {
  const board = document.querySelector('.board');
  if (!board) return {missing: true};
  const texts = [];
  board.querySelectorAll('text, span, p, li, td, th, dt, dd, h3, h4, strong, em, b, small')
    .forEach(el => {
      const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      if (!own) return;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) return;
      let px = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) {
        const svg = el.ownerSVGElement, vb = svg.viewBox.baseVal;
        const scale = vb && vb.width ? svg.getBoundingClientRect().width / vb.width : 1;
        px = parseFloat(el.getAttribute('font-size') || px) * scale;
      }
      // One box per line: a name that wraps covers the start of its first line only.
      const boxes = [...el.getClientRects()].map(b => [b.left, b.top, b.right, b.bottom]);
      texts.push({text: el.textContent.trim().slice(0, 40), px, boxes,
                  r: [r.left, r.top, r.right, r.bottom]});
    });
  const hit = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 2
                        && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 2;
  const small = texts.filter(t => t.px < minPx - 0.01).slice(0, 5);
  const overlaps = [];
  for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
    if (texts[i].boxes.some(a => texts[j].boxes.some(b => hit(a, b))))
      overlaps.push(texts[i].text + ' / ' + texts[j].text);
  }
  const outside = texts.filter(t => t.r[2] > window.innerWidth + 1 || t.r[0] < -1)
    .map(t => t.text).slice(0, 5);
  return {count: texts.length, small, overlaps: overlaps.slice(0, 5), outside};
}"""


def check_board(page, name: str, width: int, must_show: list[str]) -> list[str]:
    problems = []
    scroll, inner = overflow(page)
    if scroll > inner:
        problems.append(f"{name}: the page scrolls sideways ({scroll} > {inner})")
    found = page.evaluate(PROBE, MIN_PX)
    if found.get("missing"):
        return [f"{name}: no board"]
    if found["small"]:
        problems.append(f"{name}: text under {MIN_PX}px: {found['small']}")
    if found["overlaps"]:
        problems.append(f"{name}: overlapping text: {found['overlaps']}")
    if found["outside"]:
        problems.append(f"{name}: off-screen: {found['outside']}")
    board_scroll = page.evaluate("(() => { const b = document.querySelector('.board');"
                                 " return [b.scrollWidth, b.clientWidth]; })()")
    if board_scroll[0] > board_scroll[1] + 1:
        problems.append(f"{name}: the board scrolls inside its card {board_scroll}")
    text = page.inner_text(".board")
    problems.extend(f"{name}: {needle!r} not shown" for needle in must_show
                    if needle not in text)
    screenshot(page, f"board-{name}", width)
    page.locator(".board").screenshot(path=str(screenshot_dir() / f"board-{name}-{width}-crop.png"))
    return problems


@pytest.fixture
def boards(make_game):
    duel = play(make_game("duelists", 2, title="Duel on a phone"), 8)
    dice = play(make_game("dice_age", 3, title="Dice on a phone", options={"level": 5}), 14)
    quest = play(make_game("dungeonquest", 2, title="Quest on a phone"), 4)
    return {"duelists": duel, "dice-age": dice, "dungeonquest": quest}


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_boards_are_legible_and_whole_at_phone_and_laptop_width(live_server, open_page,
                                                                 boards, width):
    base = live_server.url
    page = open_page(width)
    login(page, base, "alice")
    problems = []
    musts = {"duelists": ["P1", "P2"], "dice-age": ["garden", "wasteland"],
             "dungeonquest": []}
    for name, game in boards.items():
        page.goto(f"{base}/games/{game.pk}/")
        problems += check_board(page, name, width, musts[name])
        problems += [f"{name}: axe {v['id']} {v['nodes']}" for v in axe_violations(page)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_dungeonquest_four_heroes_on_one_square_overlap_nothing(live_server, open_page,
                                                                  make_game, width):
    """The fourth hero's number sat on a corridor's '+': four markers on a corridor, four
    in the treasure chamber, and the fourth seat alone on a corridor, at both widths."""
    from games.dungeonquest import content
    from games.dungeonquest.board import lay_tile

    game = make_game("dungeonquest", 4, title="Crowded quest",
                     options={"hero_choice": "assigned"})
    engine = registry.get("dungeonquest")
    base = live_server.url
    page = open_page(width)
    login(page, base, "alice")
    problems = []
    layouts = {"four-on-a-corridor": {s: "B3" for s in ("P1", "P2", "P3", "P4")},
               "four-in-the-chamber": {s: "E7" for s in ("P1", "P2", "P3", "P4")},
               "fourth-alone-on-a-corridor": {"P4": "I13"}}
    start = game.state  # each layout from the opening positions (the towers)
    for name, where in layouts.items():
        state = engine.from_json(start)
        tiles = content.of(state).tiles
        state["board"]["B3"] = lay_tile(tiles, "corridor-cross", "S")
        state["board"]["I13"] = lay_tile(tiles, "corridor-cross", "W")
        for seat, sq in where.items():
            state["chars"][seat]["pos"] = sq
        game.state = engine.to_json(state)
        game.save(update_fields=["state"])
        page.goto(f"{base}/games/{game.pk}/")
        problems += check_board(page, f"dungeonquest-{name}", width, [])
    assert not problems, "\n".join(problems)
