"""What the referee pages and API read: the GM's full picture, the log, verification.

The GM functions check `require_gm` themselves, so a view cannot forget it; the log
function decides per entry what a reader sees (public text and reason for everyone,
private details for GMs only).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from games.core.verify import Verdict, verify_bytes
from gm.play import actions as play
from gm.play.errors import ActionError
from gm.play.models import Game, Turn
from gm.play.rendering import render_markdown

from .actions import require_gm

# Largest export the verify page/API accepts (settings.GM_VERIFY_MAX_BYTES).
VERIFY_MAX_BYTES = int(getattr(settings, "GM_VERIFY_MAX_BYTES", 20 * 1024 * 1024))


def overview(game: Game, user) -> dict[str, Any]:
    """Full state, the GM's view, invariants, every turn (superseded ones too), seats."""
    require_gm(game, user)
    engine = play.engine_for(game)
    state = engine.from_json(game.state) if game.state is not None else None
    turns = []
    for turn in game.turns.order_by("number", "id").prefetch_related("submissions"):
        record = getattr(turn, "record", None) if _has_record(turn) else None
        turns.append({"id": turn.pk, "number": turn.number, "status": turn.status,
                      "superseded": turn.superseded, "deadline": turn.deadline,
                      "owing": turn.owing, "resolved": record is not None,
                      "published": bool(record and record.published),
                      "amendments": len(turn.amendments), "overrides": turn.overrides})
    return {
        "id": game.pk, "title": game.title, "ruleset": game.ruleset, "status": game.status,
        "gm": game.gm.username,
        "co_gms": sorted(game.co_gms.values_list("username", flat=True)),
        "hold_for_review": game.hold_for_review,
        "paused_remaining_seconds": (game.paused_remaining.total_seconds()
                                     if game.paused_remaining is not None else None),
        "state": game.state, "state_hash": game.state_hash,
        "gm_view": engine.view(state, play.GM_VIEWER) if state is not None else None,
        "invariants": engine.invariants(state) if state is not None else [],
        "seats": [{"name": s.name, "player": s.player_name(), "mode": s.mode,
                   "reply_address": s.reply_address}
                  for s in game.seats.select_related("user").order_by("id")],
        "turns": turns,
    }


def _has_record(turn: Turn) -> bool:
    try:
        turn.record  # noqa: B018 - reverse one-to-one raises when absent
    except Turn.record.RelatedObjectDoesNotExist:
        return False
    return True


def turn_detail(game: Game, user, number: int) -> list[dict[str, Any]]:
    """Every version of turn `number` (live first): decision, all submissions, the record."""
    require_gm(game, user)
    turns = list(game.turns.filter(number=number).order_by("superseded", "-id"))
    if not turns:
        raise ActionError(f"this game has no turn {number}")
    out = []
    for turn in turns:
        subs = [{"seat": s.seat.name, "version": s.version, "text": s.text,
                 "withdrawn": s.withdrawn, "receipt": s.receipt, "source": s.source,
                 "author": s.author.username if s.author else None, "created": s.created}
                for s in turn.submissions.select_related("seat", "author")
                .order_by("seat__id", "version")]
        entry: dict[str, Any] = {
            "id": turn.pk, "number": turn.number, "status": turn.status,
            "superseded": turn.superseded, "opened": turn.opened, "deadline": turn.deadline,
            "decision": turn.decision, "overrides": turn.overrides,
            "amendments": turn.amendments, "submissions": subs, "record": None}
        if _has_record(turn):
            rec = turn.record
            entry["record"] = {
                "orders": rec.orders, "defaulted": rec.defaulted, "draws": rec.draws,
                "events": rec.events, "overrides": rec.overrides,
                "amendments": rec.amendments, "state_before": rec.state_before,
                "state_after": rec.state_after, "before_hash": rec.before_hash,
                "after_hash": rec.after_hash, "published": rec.published,
                "superseded": rec.superseded, "created": rec.created,
                "preview": None if rec.published else preview_reports(game, rec)}
        out.append(entry)
    return out


def preview_reports(game: Game, record) -> list[dict[str, str]]:
    """A held turn's reports as they would go out: public, each seat, the GM's."""
    audiences = ["", *game.setup_record.get("seats", []), play.GM_VIEWER]
    out = []
    for audience in audiences:
        text = play.compose_report(game, record, audience or None)
        out.append({"audience": audience or "public", "markdown": text,
                    "html": render_markdown(text)})
    return out


def log_entries(game: Game, user) -> list[dict[str, Any]]:
    """The game's log in order: public text and reason for all, details for GMs."""
    gm = game.is_gm(user)
    out = []
    for entry in game.log.select_related("actor").order_by("created", "id"):
        item: dict[str, Any] = {"id": entry.pk, "at": entry.created, "action": entry.action,
                                "actor": entry.actor.username if entry.actor else None,
                                "turn": entry.turn_number, "public": entry.public,
                                "reason": entry.reason}
        if gm:
            item["private"] = entry.private
        out.append(item)
    return out


def verify_upload(data: bytes) -> Verdict:
    """Run games.core.verify on an uploaded export; unreadable input is a failed verdict."""
    if len(data) > VERIFY_MAX_BYTES:
        return Verdict(False, 0, None, error=f"the file is larger than "
                                             f"{VERIFY_MAX_BYTES // (1024 * 1024)} MB")
    return verify_bytes(data)  # any malformed input is a failed verdict, not an error


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    return {"ok": verdict.ok, "checked_turns": verdict.checked_turns,
            "final_hash": verdict.final_hash, "notes": verdict.notes, "error": verdict.error,
            "secret_checked": verdict.secret_checked}
