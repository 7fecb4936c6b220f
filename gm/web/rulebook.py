"""A help page per ruleset, written from the engine's own metadata and the game's README.

The README (games/<name>/README.md) documents the order language with examples and the
designed content; the metadata gives seats, options and whether anything is hidden; a
sample setup shows the first order form exactly as a player meets it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

import games
from games.core import registry
from games.core.replay import run_setup, secret_rng
from gm.play.rendering import render_markdown

from . import playerdocs

SAMPLE_SECRET = "00" * 32  # a fixed, public secret: the sample is the same for everyone


@lru_cache(maxsize=32)
def readme_html(name: str) -> str:
    path = Path(games.__file__).parent / name / "README.md"
    if not path.is_file():
        return ""
    return render_markdown(path.read_text(encoding="utf-8"))


def sample_prompt(name: str) -> tuple[str, dict[str, Any]] | None:
    """The first decision of a sample game with default options: (phase, one seat's prompt)."""
    engine = registry.get(name)
    seats = engine.seat_names(max(engine.min_seats, min(2, engine.max_seats)))
    step = run_setup(engine, seats, engine.new_game_options({}), secret_rng(SAMPLE_SECRET, None))
    decision = engine.decision(step.state)
    if decision is None:
        return None
    seat = decision.seats[0]
    return decision.phase, {"seat": seat, **decision.prompts[seat]}


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "web/rules_index.html", {"engines": registry.engines().values()})


def _engine(ruleset: str):
    try:
        return registry.get(ruleset)
    except registry.UnknownRuleset:
        raise Http404(f"no ruleset {ruleset!r}") from None


def _options(engine) -> dict[str, Any]:
    return {k: o.to_json() for k, o in engine.options.items()}


def rules_page(request: HttpRequest, ruleset: str) -> HttpResponse:
    """The players' help (docs/players/<ruleset>.md) where the ruleset has one, else the
    page built from the metadata and the developers' README."""
    engine = _engine(ruleset)
    guide = playerdocs.render_guide(f"players/{ruleset}.md")
    if guide is None:
        return rules_readme(request, ruleset)
    game = request.GET.get("game", "")
    return render(request, "web/rules_player.html", {
        "engine": engine, "guide": guide, "html": mark_safe(guide.html),  # nh3-sanitised
        "toc": mark_safe(guide.toc), "options": _options(engine),
        "game_pk": int(game) if game.isdigit() and len(game) < 12 else None})


def rules_readme(request: HttpRequest, ruleset: str) -> HttpResponse:
    """Seats, options, the first order form of a sample game and the engine's README,
    for developers (and for rulesets without a players' help)."""
    engine = _engine(ruleset)
    from .views import TURN_NOTE

    sample = sample_prompt(ruleset)
    return render(request, "web/rules.html", {
        "engine": engine, "readme": mark_safe(readme_html(ruleset)),  # nh3-sanitised
        "options": _options(engine), "has_guide": playerdocs.render_guide(
            f"players/{ruleset}.md") is not None,
        "sample_phase": sample[0] if sample else None,
        "sample": sample[1] if sample else None, "turn_note": TURN_NOTE})


HELP_PAGES = {"players": "players.md", "gm": "gm.md", "absence": "absence.md",
              "substitutes": "substitutes.md", "notifications": "notifications.md",
              "gm-adjudicated": "gm-adjudicated.md"}


def help_page(request: HttpRequest, which: str = "players") -> HttpResponse:
    """The player's guide (/help/), the GM's guide (/help/gm/) and the guides to absence,
    substitutes, notifications and GM-adjudicated games (/help/<which>/), from docs/."""
    guide = playerdocs.render_guide(HELP_PAGES[which])
    if guide is None:
        raise Http404("no such guide")
    return render(request, "web/help.html", {
        "guide": guide, "html": mark_safe(guide.html), "toc": mark_safe(guide.toc),
        "which": which})
