"""Every past turn of a game: its report and the board as it stood after it.

Built from the turn records (published, not superseded) through the engine's `view()`
for this reader, so a past board never shows more than the reader could see then. Turn 0
is the setup: the board before turn 1.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe

from gm.play import actions
from gm.play.models import Game


def turn_page(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("gm"), pk=pk)
    engine = actions.engine_for(game)
    viewer = actions.viewer_for(game, request.user)
    records = list(game.records.filter(superseded=False, published=True).order_by("number")
                   .only("number", "state_before", "state_after"))
    numbers = [r.number for r in records]
    if number == 0:
        if not game.setup_record:
            raise Http404("this game has not started yet")
        # Before any published turn: the setup state, never a held turn's outcome.
        state = records[0].state_before if records else actions.published_state(game, viewer)
        report = {"turn": 0, "setup": actions.setup_report(game, viewer)}
    else:
        record = next((r for r in records if r.number == number), None)
        if record is None:
            raise Http404(f"turn {number} has no published report")
        state = record.state_after
        entries = actions.reports_for(game, request.user, number)
        report = entries[0] if entries else None
    view = actions.view_of(game, state, viewer) if state is not None else None
    board = engine.board(view) if view is not None else None
    index = [0, *numbers]
    at = index.index(number)
    return render(request, "web/turn.html", {
        "game": game, "number": number, "report": report,
        "board": mark_safe(board) if board else None,  # SVG built from the view only
        # as the game page shows it: JSON, the format of the API and the export
        "view_json": json.dumps(view, indent=2, sort_keys=True, default=str)
        if view is not None else "", "index": index,
        "previous": index[at - 1] if at > 0 else None,
        "next": index[at + 1] if at + 1 < len(index) else None})
