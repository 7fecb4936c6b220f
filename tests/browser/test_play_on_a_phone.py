"""Playing each game through the order form on a phone (375 px), as a new player would.

The other browser tests check that pages fit a phone; these play. Each seated player logs
in, reads the turn's prompt, sends the orders the page itself offers (its example, put in
the box with the page's own button), checks that the preview is what the receipt then
shows, reads the report once the turn resolves, and goes on to the next turn, a few turns
into each of the five games. A malformed order is sent once per game: the error says what
orders look like, keeps the text and takes the focus.

What playing found, each pinned by an assertion below:

* Dungeonquest: the example was the first exit, so a knight under his tower was shown
  "MOVE NORTH", sent it and left the dungeon on turn 3 with no gold.
* Duelists: the champion choice named the champions and nothing else.
* Combat Dice: the arming turn offered 27 EQUIP buttons and not one word of what an item
  does (the mail listed them, the page did not); the board was 640 px wide in a 317 px
  card, so P1 had to swipe to see the foe and P2 did not see his own fighter.
* Dice Age: the draft offered "PICK SUN ... PICK TANK" and not the dice's faces; the
  roll said "see the board" for the Number (the example rolled the Sun, 6 to 10, against
  a 5) and told a level 1 game of level 5's rules.
* Duel of Ages: "MOVE DEX TO <space>" said neither where DEX stands nor how far he goes,
  and HOLD (give up melee) was a button with no word of what it does.
* Every game: a form's example ("IF MONSTER TROLL THEN ESCAPE ELSE ATTACK") had to be
  typed out on a phone keyboard; one that parses alone now has an "Add" button.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from gm.play import actions
from gm.play.models import Game

from .conftest import LAPTOP, PHONE, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Site turns to play in each game (enough to pass its setup choices into real play), and
# the options: Dice Age twice, its draft at level 1, then its rolls at level 4 (no draft).
GAMES = {"dungeonquest": ("dungeonquest", {}, 4), "duelists": ("duelists", {}, 4),
         "combat_dice": ("combat_dice", {}, 3), "dice_age": ("dice_age", {}, 3),
         "dice_age-level-4": ("dice_age", {"level": 4}, 2),
         "duel_of_ages": ("duel_of_ages", {}, 3)}

# The text of one element or "" (a selector that is not on the page).
TEXT = "sel => { const e = document.querySelector(sel); return e ? e.innerText : ''; }"


class Table:
    """One logged-in phone per player, reused turn after turn (a login costs a page)."""

    def __init__(self, open_page, base: str, game: Game, width: int = PHONE):
        self.open_page, self.base, self.game, self.width = open_page, base, game, width
        self.users = {s.name: s.user.username for s in game.seats.select_related("user")}
        self.pages: dict[str, object] = {}

    def page(self, seat: str):
        user = self.users[seat]
        if user not in self.pages:
            self.pages[user] = page = self.open_page(self.width)
            # Signed in by its session cookie: the login form has its own tests, and two
            # logins a game cost this module seconds of CI time.
            client = Client()
            client.force_login(self.game.seats.get(name=seat).user)
            page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "url": self.base,
                                       "value": client.cookies[settings.SESSION_COOKIE_NAME].value}])
        page = self.pages[user]
        page.goto(f"{self.base}/games/{self.game.pk}/")
        return page


def fits(page, what: str) -> None:
    width, inner = overflow(page)
    assert width <= inner, f"{what}: the page scrolls sideways ({width} > {inner})"


def no_other_seats_private_lines(page, seat: str, seats: list[str]) -> None:
    """A seat's report speaks of "you" for that seat only: another seat's "(you)" lines
    would be that seat's private report on the wrong page."""
    text = page.inner_text("#latest-report")
    for other in seats:
        if other != seat:
            assert f"{other} (you)" not in text, f"{other}'s private report on {seat}'s page"


def send_malformed(page, number: int) -> None:
    page.fill("#id_text", "FLY TO THE MOON")
    page.click("#send-orders")
    page.wait_for_selector("#order-errors")
    errors = page.inner_text("#order-errors")
    assert "none of these lines is an order of this game" in errors
    assert "orders start with one of:" in errors  # says what an order looks like
    assert page.input_value("#id_text") == "FLY TO THE MOON"  # the text is kept
    page.wait_for_function("document.activeElement && document.activeElement.id"
                           " == 'order-errors'")
    assert page.inner_text("#orders-h") == f"Orders for turn {number}"
    fits(page, "the refused orders")


def tap_a_form_example(page) -> bool:
    """Tap the first form's "Add": its example goes into the box and parses as it stands
    (no typing on a phone keyboard). False when no form's example parses alone."""
    button = page.locator("#order-forms button.add-example").first
    if not button.count():
        return False
    line = button.get_attribute("data-line")
    assert button.bounding_box()["height"] >= 24  # a tap target
    page.fill("#id_text", "")
    button.click()
    assert page.input_value("#id_text") == line
    page.wait_for_selector("#live-preview pre")
    assert page.inner_text("#live-preview p") == "As understood (not sent yet):", line
    page.fill("#id_text", "")  # and wait for the preview of the empty box (no orders)
    page.locator("#live-preview pre").wait_for(state="detached")
    return True


def send_the_example(page, number: int, preview: bool = True) -> None:
    """Put the page's example in the box, read the preview (when `preview`: it comes half
    a second after typing stops), send it: the receipt shows what the preview showed."""
    assert page.inner_text("#prompt-title").strip()
    example = page.inner_text("#example-text")
    page.click("#use-example")
    assert page.input_value("#id_text") == example
    understood = None
    if preview:
        page.wait_for_selector("#live-preview pre")
        assert page.inner_text("#live-preview p") == "As understood (not sent yet):"
        understood = page.inner_text("#live-preview pre").splitlines()
    page.click("#send-orders")
    page.wait_for_selector("#messages")
    assert f"Orders accepted for turn {number}" in page.inner_text("#messages")
    if page.inner_text("#orders-h") == f"Orders for turn {number}":  # others still owe
        if understood is not None:
            assert page.inner_text("#my-orders").splitlines() == understood
        assert "Receipt" in page.inner_text("#receipt")
    else:  # the last orders in: the turn resolved at once, and its report is shown
        assert page.inner_text("#report-h") == f"Report of turn {number}"


def play(table: Table, turns: int, *, malformed: bool = True) -> list[dict]:
    """Play `turns` site turns through the form; returns what each seat saw per turn."""
    game = table.game
    seats = list(table.users)
    seen: list[dict] = []
    tapped = False
    previewed: set[str] = set()  # the preview is checked on each seat's first orders
    for _ in range(turns):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        number = game.current_turn().number
        owing = actions.owing_summary(game)["owing"]
        assert owing, f"turn {number} is open and nobody owes orders"
        for seat in owing:
            page = table.page(seat)
            assert f"Your orders for turn {number} are due." in page.inner_text("#next-step")
            fits(page, f"turn {number}, {seat}")
            no_other_seats_private_lines(page, seat, seats)
            seen.append({"turn": number, "seat": seat,
                         "title": page.inner_text("#prompt-title"),
                         "intro": page.evaluate(TEXT, "#prompt-help"),
                         "help": page.evaluate(TEXT, "#prompt-help-list"),
                         "lists": page.evaluate("[...document.querySelectorAll("
                                                "'.prompt-list')].map(e => e.textContent)"
                                                ".join('\\n')"),
                         "forms": page.evaluate(TEXT, "#order-forms"),
                         "report": page.evaluate(TEXT, "#latest-report")})
            if malformed:
                send_malformed(page, number)
                malformed = False
            if not tapped:
                tapped = tap_a_form_example(page)
            send_the_example(page, number, preview=seat not in previewed)
            previewed.add(seat)
        # Every owing seat is in: the turn resolved as the last orders came in, and the
        # page the last sender is back on shows its report.
        assert page.inner_text("#report-h") == f"Report of turn {number}"
        assert page.inner_text(".report").strip()
        fits(page, f"the report of turn {number}")
    return seen


@pytest.mark.parametrize("name", list(GAMES))
def test_a_new_player_plays_a_few_turns_through_the_form_on_a_phone(
        live_server, open_page, make_game, name):
    ruleset, options, turns = GAMES[name]
    game = make_game(ruleset, 2, options=options)
    table = Table(open_page, live_server.url, game)
    if ruleset == "combat_dice":
        combat_dice_items_are_a_tap_away(table)
    seen = play(table, turns)
    if ruleset != "dice_age":  # picks only, no forms
        assert any("Add" in s["forms"] for s in seen), "no form's example is a tap away"
    assert len({s["turn"] for s in seen}) == turns, "the game stopped early"
    screenshot(next(iter(table.pages.values())), f"play-{name}", PHONE)
    first = seen[0]
    reports = "\n".join(s["report"] for s in seen)
    if ruleset == "dungeonquest":
        assert "has escaped the dungeon" not in reports  # nobody left by the example
    elif ruleset == "duelists":
        assert "CHAMPION Isdra, the dagger huntress: 20 maneuver cards" in first["help"]
    elif ruleset == "combat_dice":
        assert "Flail (damage +2" in first["lists"] and "Ward (" in first["lists"]
        combat_dice_board_shows_both_fighters(table)
    elif name == "dice_age":
        assert "SUN, the Sun (yellow): faces 6 7 8 9 10 smile" in first["help"]
    elif name == "dice_age-level-4":  # the Number on the form, each die's faces below it
        assert first["intro"].startswith("No Number stands: your roll sets it.")
        assert seen[1]["intro"].startswith("The Number is ")
        assert ", the " in seen[1]["help"] and ": faces " in seen[1]["help"]
    elif ruleset == "duel_of_ages":
        moving = next(s for s in seen if "MOVE " in s["forms"])
        assert " move points, by the cheapest route" in moving["forms"]
        assert "HOLD <character> gives up his melee attack" in moving["intro"]
        waiting = next(s for s in seen if "opportunity fire" in s["title"])
        assert "IF ENEMY ENTERS LOS THEN FIRE <character> only if" in waiting["intro"]


BOARD_PROBE = """() => {
    const b = document.querySelector('.board'), svg = b.querySelector('svg');
    const heads = [...svg.querySelectorAll('text')].filter(t => /^P[12]$/.test(t.textContent))
        .map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.right]; });
    const vb = svg.viewBox.baseVal, w = svg.getBoundingClientRect().width;
    const sizes = [...svg.querySelectorAll('text')]
        .map(t => +t.getAttribute('font-size') * w / vb.width);
    return {scroll: [b.scrollWidth, b.clientWidth], heads, width: w,
            smallest: Math.min(...sizes)};
}"""


def combat_dice_items_are_a_tap_away(table: Table) -> None:
    """The arming turn tells what each item does, one tap away."""
    page = table.page("P1")
    summary = page.locator(".prompt-list summary").first
    assert summary.inner_text() == "Items (22)"
    assert summary.bounding_box()["height"] >= 24  # a tap target
    summary.click()
    assert page.locator(".prompt-list li", has_text="Flail (damage +2").is_visible()


def combat_dice_board_shows_both_fighters(table: Table) -> None:
    """Both fighters' cards inside the screen at 375 px (the board does not scroll in its
    card), and on a laptop the one-column picture is capped rather than blown up."""
    laptop = Table(table.open_page, table.base, table.game, LAPTOP)
    for page, width in ((table.page("P2"), PHONE), (laptop.page("P2"), LAPTOP)):
        found = page.evaluate(BOARD_PROBE)
        assert found["scroll"][0] <= found["scroll"][1] + 1, (width, found)
        assert sorted(h[0] for h in found["heads"]) == ["P1", "P2"]
        assert all(left >= 0 and right <= width for _, left, right in found["heads"]), found
        assert found["smallest"] >= 12 - 0.01, (width, found)
        if width == LAPTOP:
            assert found["width"] <= 26 * 16 + 1, found  # capped at 26rem
            screenshot(page, "play-combat-dice-board", width)
