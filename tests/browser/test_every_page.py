"""Every page at 375 and 1280 px: no horizontal scrolling, one h1, no critical or serious
axe-core violation, and on a phone no text under 12 px nor a control under 24 px high;
a screenshot of each written to var/screenshots/ for reviewers."""

from __future__ import annotations

import pytest

from gm.accounts import pending
from gm.play import actions

from .conftest import LAPTOP, PHONE, axe_violations, login, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world(make_game, gm_user, players, tally_engine):
    """Games in each state a reader meets: open, running (real engines), finished."""
    running = make_game("combat_dice", 2, title="A combat")
    for seat, text in (("P1", None), ("P2", None)):
        engine = actions.engine_for(running)
        state = engine.from_json(running.state)
        orders = engine.default_orders(state, seat).text if text is None else text
        actions.submit_orders(running, running.seats.get(name=seat), orders)
    quest = make_game("dungeonquest", 2, title="A quest with a long title that must wrap "
                                                "on a phone screen without scrolling")
    duel = make_game("duel_of_ages", 2, title="Duel of ages")
    finished = actions.create_game(gm_user, ruleset="tally", title="Finished tally",
                                   options={"max_turns": 1})
    actions.join_game(finished, players[0])
    finished = actions.start_game(finished, gm_user)
    actions.submit_orders(finished, finished.seats.get(name="P1"), "ADD 2")
    open_game = actions.create_game(gm_user, ruleset="duelists", title="Open duel")
    actions.join_game(open_game, players[2])
    duelists = make_game("duelists", 2, title="Duelists")
    dice = make_game("dice_age", 2, title="Dice Age", options={"level": 5})
    return {"running": running, "quest": quest, "duel": duel, "finished": finished,
            "open": open_game, "duelists": duelists, "dice": dice}


def pages(world) -> list[tuple[str, str | None, str]]:
    """(name, user, path) of every page a reader can reach."""
    r, q, d, f, o, du, da = (world[k].pk for k in ("running", "quest", "duel", "finished",
                                                      "open", "duelists", "dice"))
    rules = [(f"rules-{name}", None, f"/rules/{name}/")
             for name in ("combat_dice", "duelists", "dice_age", "duel_of_ages")]
    return [*rules,
        ("signup", None, "/signup/"),
        ("signup-sent", None, "/signup/sent/"),
        ("signup-confirm", None,
         f"/signup/c/{pending.create('newcomer', 'newcomer@example.org')}/"),
        ("password-reset", None, "/password-reset/"),
        ("account", "alice", "/account/"),
        ("game-duelists", "alice", f"/games/{du}/"),
        ("game-dice-age", "alice", f"/games/{da}/"),
        ("setup-dungeonquest", "alice", f"/games/{q}/turns/0/"),
        ("lobby-anonymous", None, "/"),
        ("login", None, "/login/"),
        ("rules-index", None, "/rules/"),
        ("rules-dungeonquest", None, "/rules/dungeonquest/"),
        ("verify", None, "/verify/"),
        ("lobby", "alice", "/"),
        ("new-game", "alice", "/games/new/"),
        ("new-game-duelists", "alice", "/games/new/duelists/"),
        ("time-zone", "alice", "/settings/time-zone/"),
        ("mail-preferences", "alice", "/mail/preferences/"),
        ("game-combat-dice", "alice", f"/games/{r}/"),
        ("turn-combat-dice", "alice", f"/games/{r}/turns/1/"),
        ("game-dungeonquest", "alice", f"/games/{q}/"),
        ("game-duel-of-ages", "alice", f"/games/{d}/"),
        ("game-finished", "alice", f"/games/{f}/"),
        ("setup-finished", "alice", f"/games/{f}/turns/0/"),
        ("game-open", "carol", f"/games/{o}/"),
        ("invite", "dave", f"/games/{o}/invite/"),
        ("game-public", None, f"/games/{r}/"),
        ("gm-desk", "gamemaster", f"/games/{r}/gm/"),
        ("gm-turn", "gamemaster", f"/games/{r}/gm/turns/1/"),
        ("log", "alice", f"/games/{r}/log/"),
        ("disputes", "alice", f"/games/{r}/disputes/"),
        ("vacations", "alice", "/account/vacations/"),  # gm.absence
        ("absence", "alice", f"/games/{r}/absence/"),
        ("absence-gm", "gamemaster", f"/games/{r}/absence/"),
    ]


# Text under 12 px, and controls under 24 px high (WCAG 2.5.8's minimum target; links
# inside a sentence are exempt), outside picture boards (test_boards.py checks those).
SMALL_PRINT = """() => {
  const out = [];
  const seen = el => { const r = el.getBoundingClientRect(); return r.width && r.height; };
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('svg') || el.closest('.sr-only') || !seen(el)) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (own && px < 12) out.push(`text ${px.toFixed(1)}px: ${el.textContent.trim().slice(0, 30)}`);
  }
  for (const el of document.querySelectorAll('button, select, input:not([type=hidden]), '
                                             + 'nav a, .pager a, .history a, summary')) {
    if (!seen(el) || el.closest('.skip')) continue;
    const r = el.getBoundingClientRect();
    if (r.height < 24 - 0.5 || (el.matches('button, select') && r.width < 24))
      out.push(`small target ${r.width.toFixed(0)}x${r.height.toFixed(0)}: `
               + (el.textContent || el.name || el.tagName).trim().slice(0, 30));
  }
  return [...new Set(out)].slice(0, 6);
}"""


def small_print(page) -> list[str]:
    return page.evaluate(SMALL_PRINT)


@pytest.mark.parametrize("width", [PHONE, LAPTOP])
def test_every_page_fits_is_accessible_and_is_photographed(live_server, open_page, world, width):
    base = live_server.url
    tabs: dict[str | None, object] = {}
    problems = []
    for name, user, path in pages(world):
        if user not in tabs:
            tabs[user] = open_page(width)
            if user is not None:
                login(tabs[user], base, user)
        page = tabs[user]
        response = page.goto(base + path)
        assert response.status == 200, (name, response.status)
        page.wait_for_load_state("load")
        scroll, inner = overflow(page)
        if scroll > inner:
            wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
                .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
                .slice(0, 4).map(e => e.tagName + '#' + e.id + '.' + e.className)""")
            problems.append(f"{name}: scrollWidth {scroll} > {inner} ({wide})")
        if width == PHONE and page.locator(".board svg:not(.board-fit)").count():
            # A picture board keeps a legible size (one drawn to fit is checked for 12 px
            # text in test_boards.py).
            board = page.evaluate("document.querySelector('.board svg:not(.board-fit)')"
                                  ".getBoundingClientRect().width")
            if board < 600:
                problems.append(f"{name}: the board shrank to {board:.0f}px (illegible)")
        if width == PHONE:
            problems.extend(f"{name}: {p}" for p in small_print(page))
        h1 = page.locator("h1").count()
        if h1 != 1:
            problems.append(f"{name}: {h1} h1 elements")
        screenshot(page, name, width)
        problems.extend(f"{name}: {e}" for e in page.csp_errors)
        page.csp_errors.clear()
        for v in axe_violations(page):
            problems.append(f"{name}: axe {v['impact']} {v['id']} ({v['help']}) at {v['nodes']}")
    assert not problems, "\n".join(problems)


# Every control of the GM's forms reachable without scrolling a table sideways: a wide
# table may scroll in its card, but a form hidden to the right of it is missed on a phone.
OFF_SCREEN = """() => [...document.querySelectorAll(
    'main input:not([type=hidden]), main select, main textarea, main button')].filter(e => {
      const r = e.getBoundingClientRect();
      return r.width && (r.right > window.innerWidth + 1 || r.left < -1);
    }).slice(0, 5).map(e => e.tagName + '[' + (e.name || e.textContent.trim()) + ']'
                      + ' ' + Math.round(e.getBoundingClientRect().right))"""


def test_gm_pages_and_the_log_fit_a_phone(live_server, open_page, world):
    base = live_server.url
    running = world["running"]
    engine = actions.engine_for(running)
    for seat in ("P1", "P2"):  # turn 2 of the fight rolls dice: its page has a fix form each
        running.refresh_from_db()
        state = engine.from_json(running.state)
        actions.submit_orders(running, running.seats.get(name=seat),
                              engine.default_orders(state, seat).text)
    assert running.records.get(number=2).draws
    page = open_page(PHONE)
    login(page, base, "gamemaster")
    problems = []
    for path in (f"/games/{running.pk}/gm/", f"/games/{world['dice'].pk}/gm/",
                 f"/games/{running.pk}/gm/amend/", f"/games/{running.pk}/gm/turns/2/"):
        page.goto(base + path)
        problems += [f"{path}: {p}" for p in page.evaluate(OFF_SCREEN)]
        scroll, inner = overflow(page)
        if scroll > inner:
            problems.append(f"{path}: scrollWidth {scroll} > {inner}")
        for v in axe_violations(page):
            problems.append(f"{path}: axe {v['impact']} {v['id']} at {v['nodes']}")
    # The public log and the list of disputes are read on phones by every player: their
    # entries are not cut by a table that has to be scrolled sideways.
    from gm.referee import disputes

    seat = running.seats.get(name="P1")
    disputes.file_dispute(running, seat.user, 1, "The sword should have hit.")
    for path, table in ((f"/games/{running.pk}/log/", "log"),
                        (f"/games/{running.pk}/disputes/", "disputes")):
        page.goto(base + path)
        wide = page.evaluate(f"(() => {{ const t = document.getElementById('{table}');"
                             " return [t.scrollWidth, t.clientWidth]; })()")
        if wide[0] > wide[1] + 1:
            problems.append(f"{path}: the table scrolls sideways ({wide[0]} > {wide[1]})")
    assert not problems, "\n".join(problems)


def test_a_new_badge_stays_on_one_line_on_a_phone(live_server, open_page, world):
    """The lobby's "1 new" marker in a narrow column is one pill, not "1" above "new"."""
    page = open_page(PHONE)
    login(page, live_server.url, "alice")
    page.goto(live_server.url + "/")
    badges = page.locator(".badge")
    assert badges.count(), "alice has reports she has not read"
    lines = page.evaluate("[...document.querySelectorAll('.badge')]"
                          ".map(b => b.getClientRects().length)")
    assert set(lines) == {1}, lines


@pytest.mark.parametrize("ruleset", ["dungeonquest", "duel_of_ages", "combat_dice"])
def test_the_rules_options_read_on_a_phone(live_server, open_page, ruleset):
    """What each option does is the column a reader needs: on a phone it is not cut off
    to the right of a sideways-scrolling table, and it shows no markdown backticks."""
    page = open_page(PHONE)
    page.goto(f"{live_server.url}/rules/{ruleset}/")
    wide = page.evaluate("(() => { const t = document.getElementById('options-table');"
                         " return [t.scrollWidth, t.clientWidth]; })()")
    assert wide[0] <= wide[1] + 1, wide
    assert "`" not in page.inner_text("#options")



def test_the_api_tokens_read_on_a_phone(live_server, open_page, players):
    """The account page's API tokens: on a phone each token is one block (label, dates
    and its Revoke button in view), not a table scrolling the page sideways."""
    from gm.accounts import tokens

    tokens.issue(players[0], "my phone's order script")
    tokens.issue(players[0], "")
    page = open_page(PHONE)
    login(page, live_server.url, "alice")
    page.goto(live_server.url + "/account/")
    scroll, inner = overflow(page)
    assert scroll <= inner, (scroll, inner)
    wide = page.evaluate("(() => { const t = document.getElementById('token-table');"
                         " return [t.scrollWidth, t.clientWidth]; })()")
    assert wide[0] <= wide[1] + 1, wide
    assert not page.evaluate(OFF_SCREEN)
    labels = page.evaluate("[...document.querySelectorAll('#token-table td')]"
                           ".map(td => getComputedStyle(td, '::before').content)")
    assert '"Label: "' in labels and labels.count('"Expires: "') == 2, labels
    assert page.locator("#token-table button", has_text="Revoke").count() == 2


def test_the_pages_off_the_main_paths_on_a_phone(live_server, open_page, world, make_user):
    """The pages a player meets less often, at 375 px: a dispute, the password reset's
    steps, a dead sign-up link, unsubscribing, not found, not allowed, the GM's second
    opinions; the same checks as every page above (width, small print, one h1, axe)."""
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from gm.mail import prefs
    from gm.referee import disputes

    running = world["running"]
    alice = running.seats.get(name="P1").user
    dispute = disputes.file_dispute(running, alice, 1, "The sword should have hit.")
    staff = make_user("judge")
    staff.is_staff = True
    staff.save()
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    reset = f"/password-reset/{uid}/{default_token_generator.make_token(alice)}/"
    pages = [
        ("dispute", "alice", f"/games/{running.pk}/disputes/{dispute.pk}/", 200),
        ("gm-dispute", "gamemaster", f"/games/{running.pk}/disputes/{dispute.pk}/", 200),
        ("gm-amend", "gamemaster", f"/games/{running.pk}/gm/amend/", 200),
        ("opinions", "judge", "/referee/opinions/", 200),
        ("reset-sent", None, "/password-reset/sent/", 200),
        ("reset-choose", None, reset, 200),
        ("reset-dead-link", None, f"/password-reset/{uid}/not-a-token/", 200),
        ("reset-done", None, "/password-reset/done/?next=/", 200),
        ("signup-dead-link", None, "/signup/c/forged/", 400),
        ("unsubscribe", None, f"/mail/unsubscribe/{prefs.unsubscribe_token(alice, 'report')}/",
         200),
        ("not-found", None, "/games/999999/", 404),
        ("not-allowed", "alice", f"/games/{running.pk}/gm/", 403),
    ]
    tabs: dict[str | None, object] = {}
    problems = []
    for name, user, path, status in pages:
        if user not in tabs:
            tabs[user] = open_page(PHONE)
            if user is not None:
                login(tabs[user], live_server.url, user)
        page = tabs[user]
        response = page.goto(live_server.url + path)
        assert response.status == status, (name, response.status)
        scroll, inner = overflow(page)
        if scroll > inner:
            problems.append(f"{name}: scrollWidth {scroll} > {inner}")
        problems.extend(f"{name}: {p}" for p in small_print(page))
        if page.locator("h1").count() != 1:
            problems.append(f"{name}: {page.locator('h1').count()} h1 elements")
        screenshot(page, name, PHONE)
        for v in axe_violations(page):
            problems.append(f"{name}: axe {v['impact']} {v['id']} ({v['help']}) at {v['nodes']}")
    assert not problems, "\n".join(problems)


def test_a_report_s_short_table_is_read_whole_on_a_phone(live_server, open_page, world):
    """Combat Dice's first report lists the combatants in a four-column table: on a phone
    all four columns show (no last column hidden behind a sideways scroll), on the game
    page and in the turn history."""
    running = world["running"]
    page = open_page(PHONE)
    login(page, live_server.url, "alice")
    for path, card in ((f"/games/{running.pk}/", "#latest-report"),
                       (f"/games/{running.pk}/turns/1/", "#turn-report")):
        page.goto(live_server.url + path)
        tables = page.locator(f"{card} .report table")
        assert tables.count(), f"{path}: no table in the report"
        widths = tables.evaluate_all("ts => ts.map(t => [t.scrollWidth, t.clientWidth])")
        assert all(s <= c + 1 for s, c in widths), (path, widths)
