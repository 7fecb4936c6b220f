"""ONE suite over every engine: what the order form shows a seat is true for that seat.

At each decision of random games (the conformance play), for each owing seat, the page
(gm/web/prompts.py sorting the engine's prompt; site.js appending a line per button):

(a) every example it shows is an order that seat could send now: the prompt's example,
    each form's `(e.g. ...)`, and every concrete order written into the title, the help
    or a form's note (`order_samples`; a sample followed by `<placeholder>`, `[...]` or
    `...` is syntax, not an order). A form's example may be a line that goes with the
    answer the decision asks for: it then parses after one line of the prompt's example.
(b) every button (quick pick or part), alone, twice, with every other one, and in random
    runs of distinct buttons, each click appending a line as the page does, gives an
    order that parses or a refusal a player can act on: every error has a hint, points at
    a line of the text (or the whole, 0), and is not one of the catch-alls of
    `GENERIC_REFUSALS` ("a second unconditional EQUIP" was one).
(c) the prompt and the buttons are built from the seat's view: changing what the seat
    may not see (the engine's perturb_hidden) changes neither.
"""

from __future__ import annotations

import itertools
import os
import random
import re

import pytest

from games.core import registry
from games.core.canonical import canonical_json
from gm.mail.greetings import grammar_of
from gm.web import prompts

from .conformance import GENERIC_REFUSALS, order_errors, order_samples, walk_decisions

ENGINES = sorted(n for n, e in registry.engines().items()
                 if type(e).__module__.startswith("games."))
SEEDS = range(int(os.environ.get("ORDER_HELP_SEEDS", "4")))
MAX_TURNS = 120
MAX_PAIRS = 400
RUNS = 8


def _keywords(engine) -> set[str]:
    grammar = grammar_of(engine)
    return set(grammar.keywords) if grammar else set()


def _button_texts(buttons: list[str], rnd: random.Random) -> list[list[str]]:
    """Every button alone and twice, every ordered pair (a sample when there are many),
    and random runs of distinct buttons: what a player can click together."""
    combos = [[b] for b in buttons]
    pairs = list(itertools.product(buttons, repeat=2))
    if len(pairs) > MAX_PAIRS:
        pairs = [(b, b) for b in buttons] + rnd.sample(pairs, MAX_PAIRS)
    combos += [list(p) for p in pairs]
    if len(buttons) > 2:
        for _ in range(RUNS):
            combos.append(rnd.sample(buttons, rnd.randint(3, min(6, len(buttons)))))
    return combos


def _examples(engine, prompt, offers) -> list[tuple[str, str]]:
    """(where, text) of every concrete order the page shows for this prompt."""
    keywords = _keywords(engine)
    shown = []
    if prompt.get("example"):
        shown.append(("the example", prompt["example"]))
    for help_ in offers.form_help:
        if help_.example:
            shown.append((f"the example of {help_.form}", help_.example))
        for sample in order_samples(help_.note, keywords):
            shown.append((f"the note of {help_.form}", sample))
    for key in ("title", "help"):
        for sample in order_samples(str(prompt.get(key) or ""), keywords):
            shown.append((f"the {key}", sample))
    return shown


def _example_problem(engine, state, seat, prompt, text) -> str:
    errors = order_errors(engine, state, seat, text)
    if not errors:
        return ""
    # A line that goes with the decision's answer: the example shows that answer.
    for line in str(prompt.get("example") or "").split("\n"):
        if line.strip() and line.strip() != text.strip() and not order_errors(
                engine, state, seat, f"{line}\n{text}"):
            return ""
    return "; ".join(str(e) for e in errors)


def _refusal_problems(text: str, errors) -> list[str]:
    lines = text.count("\n") + 1
    problems = []
    for e in errors:
        if not e.hint:
            problems.append(f"no hint: {e}")
        if GENERIC_REFUSALS.search(e.message):
            problems.append(f"a catch-all refusal: {e}")
        if not 0 <= e.line <= lines:
            problems.append(f"points outside the text: {e}")
    return problems


def _check_decision(engine, state, seat, prompt, rnd, failures):
    offers = prompts.offers(engine, state, seat, prompt)
    where = f"{prompt.get('title')!r} ({seat})"
    # (a) every example shown is an order this seat could send now
    for what, text in _examples(engine, prompt, offers):
        problem = _example_problem(engine, state, seat, prompt, text)
        if problem:
            failures.append(f"(a) {where}: {what} {text!r} is refused: {problem}")
    # (b) buttons alone and together
    buttons = offers.picks + offers.parts
    for combo in _button_texts(buttons, rnd):
        text = "\n".join(combo)  # site.js addLine: one line per click
        errors = order_errors(engine, state, seat, text)
        for problem in _refusal_problems(text, errors):
            failures.append(f"(b) {where}: clicking {combo} -> {problem}")


def _check_no_leak(engine, state, seat, prompt, pick, failures):
    perturbed = engine.perturb_hidden(state, seat, pick)
    if perturbed is None:
        return 0
    again = engine.decision(perturbed)
    where = f"{prompt.get('title')!r} ({seat})"
    if again is None or seat not in again.prompts:
        failures.append(f"(c) {where}: whether the seat is asked depends on hidden state")
        return 1
    if canonical_json(again.prompts[seat]) != canonical_json(prompt):
        failures.append(f"(c) {where}: the prompt changed with hidden state: "
                        f"{prompt} != {again.prompts[seat]}")
    elif prompts.offers(engine, perturbed, seat, prompt) != prompts.offers(
            engine, state, seat, prompt):
        failures.append(f"(c) {where}: the buttons the page offers changed with hidden state")
    return 1


def _failures(name: str) -> tuple[list[str], int, int]:
    engine = registry.get(name)
    failures: list[str] = []
    asked = probed = 0
    for seed in SEEDS:
        rnd = random.Random(seed)
        for state, decision, pick in walk_decisions(engine, seed, MAX_TURNS):
            for seat, prompt in decision.prompts.items():
                asked += 1
                _check_decision(engine, state, seat, prompt, rnd, failures)
                probed += _check_no_leak(engine, state, seat, prompt, pick, failures)
    return failures, asked, probed


def _summary(failures: list[str]) -> str:
    seen: dict[str, str] = {}
    for f in failures:  # one line per kind of failure
        kind = f.split(" -> ")[-1] if " -> " in f else f.split(" is refused: ")[-1]
        seen.setdefault(re.sub(r"\d+|'[^']*'", "#", f[:4] + kind)[:70], f)
    return f"{len(failures)} failures, e.g.\n" + "\n".join(list(seen.values())[:30])


@pytest.mark.parametrize("name", ENGINES)
def test_the_order_form_shows_only_what_holds_for_the_seat(name):
    failures, asked, probed = _failures(name)
    assert asked > 20, f"{name}: only {asked} prompts walked"
    if getattr(registry.get(name), "hidden_information", False):
        assert probed, f"{name}: perturb_hidden never probed a prompt"
    assert not failures, _summary(failures)


def test_order_samples_finds_orders_in_prose_and_leaves_syntax():
    keywords = {"ROLL", "ABSORB", "EXHAUST", "SQUARE", "REROLL", "KEEP"}
    text = ("IF NUMBER < 6 THEN ROLL A ELSE ROLL B; SQUARE <player> <die> plays. "
            "STANDING ABSORB ... keeps; EXHAUST ARMOR ... BEFORE ABSORB; with REROLL, "
            "KEEP or (ROLL SUN, ROLL MOON) and ROLL [die]")
    assert order_samples(text, keywords) == ["IF NUMBER < 6 THEN ROLL A ELSE ROLL B",
                                             "ROLL SUN", "ROLL MOON"]


def test_a_catch_all_refusal_is_caught():
    from games.core.types import OrderError

    assert _refusal_problems("EQUIP SWORD\nEQUIP SHIELD", [OrderError(
        2, "a second unconditional EQUIP (the first is on line 1)", "keep one")])
    assert _refusal_problems("PLAN A\nPLAN A", [OrderError(2, "only one PLAN per turn")])
    assert not _refusal_problems("QUEUE A", [OrderError(
        0, "the queue takes exactly three cards, not 1", "one QUEUE line per card")])
