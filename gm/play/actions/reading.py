"""Reading a game: who the reader is, the state as they may see it, reports, the thread,
the export, and the summaries the API and pages show.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DatabaseError

from games.core.replay import FORMAT
from games.core.types import Event, Orders, OrdersInvalid

from ..errors import (
    ActionError,
    Conflict,
    NotAllowed,
)
from ..models import (
    Game,
    Post,
    Report,
    Seat,
    Submission,
    Turn,
    TurnRecord,
    fill_html,
)
from ..rendering import render_markdown
from .common import GM_VIEWER, engine_for, log
from .seating import seat_capacity
from .turns import latest_submission, seats_in


def viewer_for(game: Game, user) -> str | None:
    """Whose eyes `user` reads this game with: their seat first, the GM's only seatless.

    A seat wins over GM powers (a site admin who plays, or a seat taken before the GM
    rule), so no player page ever shows the omniscient view by accident; the GM's desk
    reads the full state through its own permission check.
    """
    seat = game.seat_of(user)
    if seat is not None:
        return seat.name
    return GM_VIEWER if game.is_gm(user) else None


class StateUnreadable(ActionError):
    """The stored state cannot be shown (a bug or a bad amendment): a clear 503, no 500."""

    status = 503


@contextmanager
def stored_state(game: Game, doing: str = "shown") -> Iterator[None]:
    """Engine calls on a game's stored state: a failure that is not the engine's own
    verdict (OrdersInvalid) or an action's refusal becomes StateUnreadable, logged, so
    no page, API answer or mail reply is a 500. A database error stays itself (an
    outage has its own 503)."""
    try:
        yield
    except (ActionError, OrdersInvalid, DatabaseError):
        raise
    except Exception as exc:  # noqa: BLE001 - any engine failure on stored data
        log.exception("game %s: the stored state cannot be %s", game.pk, doing)
        raise StateUnreadable(
            f"this game's stored state cannot be {doing} just now ({type(exc).__name__}); "
            "its GM can amend the state or roll the game back") from exc


def view_for(game: Game, user) -> dict[str, Any] | None:
    viewer = viewer_for(game, user)
    state = published_state(game, viewer)
    return None if state is None else view_of(game, state, viewer)


def view_of(game: Game, state: Any, viewer: str | None) -> dict[str, Any]:
    """`viewer`'s view of a stored state (the current one or a past turn's)."""
    engine = engine_for(game)
    with stored_state(game):
        return engine.view(engine.from_json(state), viewer)


def published_state(game: Game, viewer: str | None) -> Any:
    """The state `viewer` may be shown: the GM's is the latest; everyone else's is the
    state of the last published turn, so a turn held for review shows no outcome."""
    if viewer == GM_VIEWER or game.state is None:
        return game.state
    held = (TurnRecord.objects.filter(game=game, superseded=False, published=False,
                                      turn__status=Turn.Status.HELD)
            .values_list("state_before", flat=True).first())
    return game.state if held is None else held


def setup_report(game: Game, viewer: str | None) -> str:
    if not game.setup_record:
        return ""
    with stored_state(game):
        events = [Event.from_json(e) for e in game.setup_record.get("events", [])]
        return engine_for(game).report(events, viewer)


def reports_for(game: Game, user, number: int | None = None, *, after: int = 0,
                limit: int | None = None) -> list[dict[str, Any]]:
    """Published reports: public plus the reader's own (or the GM's full one).

    `after`/`limit` page through them by turn number (the API's ?after=&limit=)."""
    viewer = viewer_for(game, user)
    records = game.records.filter(superseded=False, published=True).order_by("number")
    if number is not None:
        records = records.filter(number=number)
    if after:
        records = records.filter(number__gt=after)
    if limit is not None:
        records = records[:limit]
    shown: list[tuple[int, Report | None, Report | None]] = []
    for record in records.prefetch_related("reports"):
        by_audience = {r.audience: r for r in record.reports.all()}
        shown.append((record.number, by_audience.get(""),
                      by_audience.get(viewer) if viewer is not None else None))
    # the texts first read here are rendered and stored together (one UPDATE)
    fill_html(r for _n, public, mine in shown for r in (public, mine) if r is not None)
    out = []
    for number, public, mine in shown:
        entry: dict[str, Any] = {"turn": number, "public": _rep(public)}
        if viewer is not None:
            entry["mine"] = _rep(mine)
        out.append(entry)
    return out


def _rep(report: Report | None) -> dict[str, str] | None:
    return None if report is None else {"markdown": report.markdown, "html": report.html}


def post_message(game: Game, user, text: str) -> Post:
    if not text.strip():
        raise ActionError("a message cannot be empty")
    if len(text) > 20000:
        raise ActionError("a message can be at most 20000 characters")
    if not (game.is_gm(user) or game.seat_of(user)):
        raise NotAllowed("only the game's players and GM can post in its thread")
    kind = Post.Kind.GM if game.is_gm(user) else Post.Kind.MESSAGE
    return Post.objects.create(game=game, author=user, kind=kind, markdown=text,
                               html=render_markdown(text))


def export_game(game: Game, *, for_gm: bool = False) -> dict[str, Any]:
    """The public record (input of `python -m games.core.verify`).

    Players get it once the game is over (with the secret); the GM may fetch it any
    time, without the secret until the end.
    """
    if game.status != Game.Status.FINISHED and not for_gm:
        raise Conflict("the export is published when the game is over")
    turns = []
    for rec in game.records.filter(superseded=False, published=True).order_by("number"):
        turns.append({"number": rec.number, "attempt": rec.attempt, "orders": rec.orders,
                      "overrides": rec.overrides, "amendments": rec.amendments,
                      "draws": rec.draws, "before_hash": rec.before_hash,
                      "after_hash": rec.after_hash})
    setup = game.setup_record or {}
    record = {"format": FORMAT, "ruleset": game.ruleset, "title": game.title,
              "seats": setup.get("seats", []), "options": game.options,
              "secret_sha256": game.secret_sha256,
              "setup": {"draws": setup.get("draws", []), "state_hash": setup.get("state_hash")},
              "turns": turns}
    if turns:
        record["final_hash"] = turns[-1]["after_hash"]
    if game.status == Game.Status.FINISHED:
        record["secret"] = game.secret
    return record


_UNREAD: Any = object()


def owing_summary(game: Game, turn: Turn | None = _UNREAD) -> dict[str, Any]:
    """Who still owes orders this turn (never what anyone ordered). `turn`: the game's
    current turn when the caller has read it already (None: it has none)."""
    if turn is _UNREAD:
        turn = game.current_turn()
    if turn is None or turn.status != Turn.Status.OPEN:
        return {"turn": turn.number if turn else None, "owing": [], "in": []}
    done = seats_in(turn)
    return {"turn": turn.number, "owing": [s for s in turn.owing if s not in done],
            "in": sorted(done)}


def orders_error_payload(exc: OrdersInvalid) -> dict[str, Any]:
    return {"errors": [e.to_json() for e in exc.errors], "accepted": exc.accepted}


def receipt_json(sub: Submission) -> dict[str, Any]:
    orders = [] if sub.withdrawn else Orders.from_json(sub.orders).text.splitlines()
    return {"turn": sub.turn.number, "seat": sub.seat.name, "version": sub.version,
            "orders": orders, "receipt": sub.receipt, "withdrawn": sub.withdrawn,
            "source": sub.source, "ready": sub.ready, "created": sub.created}


def my_orders(game: Game, seat: Seat) -> Submission | None:
    turn = game.current_turn()
    return latest_submission(turn, seat) if turn else None


def game_summary(game: Game, user) -> dict[str, Any]:
    """What the game page and GET /api/games/<id>/ show this reader."""
    engine = engine_for(game)
    turn = game.current_turn()
    seat = game.seat_of(user)
    viewer = viewer_for(game, user)
    data: dict[str, Any] = {
        "id": game.pk, "title": game.title, "ruleset": game.ruleset, "ruleset_title":
        engine.title, "status": game.status, "gm": game.gm.username,
        "options": game.options, "turn_hours": game.turn_hours,
        "turn_minutes": game.turn_minutes, "process_early": game.process_early,
        "seats": [{"name": s.name, "player": s.player_name(), "mode": s.mode}
                  for s in game.all_seats()],
        "capacity": seat_capacity(game),
        "secret_sha256": game.secret_sha256 or None,
        "secret": game.secret if game.status == Game.Status.FINISHED else None,
        "turn": None, "my_seat": seat.name if seat else None,
        "is_gm": viewer == GM_VIEWER, "view": view_for(game, user), "result": game.result,
    }
    if turn is not None:
        owing = owing_summary(game, turn)
        data["turn"] = {
            "number": turn.number, "status": turn.status, "deadline": turn.deadline,
            "phase": turn.decision.get("phase"), "owing": owing["owing"],
            "in": owing["in"], "waiting_for": turn.owing,
        }
        if seat and seat.name in turn.owing and turn.status == Turn.Status.OPEN:
            data["turn"]["my_prompt"] = turn.decision["prompts"][seat.name]
            sub = latest_submission(turn, seat)
            data["turn"]["my_orders"] = receipt_json(sub) if sub else None
    return data
