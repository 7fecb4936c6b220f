"""Disputes: filed by a player on a published turn, ruled on by a GM, optionally reviewed.

Who reads what: the complaint text is for the GMs and the filing player (it may mention
that player's hidden cards); the ruling, its reasons and any second opinion are public,
posted in the game's thread and log, and every seat is notified through `signals`.
An upheld ruling carries its correction (state patch, die fixes, orders) and reruns the
game from the disputed turn through `actions.rerun_from`, or amends the open turn.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Post
from gm.play.rendering import render_markdown

from . import actions, signals
from .models import Dispute

TEXT_MAX = 20000


def _text(text: str | None, what: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ActionError(f"{what} cannot be empty")
    if len(text) > TEXT_MAX:
        raise ActionError(f"{what} can be at most {TEXT_MAX} characters")
    return text


def _post(game: Game, author, turn_number: int | None, text: str) -> Post:
    return Post.objects.create(game=game, author=author, kind=Post.Kind.GM,
                               turn_number=turn_number, markdown=text,
                               html=render_markdown(text))


def file_dispute(game: Game, user, turn_number: int, text: str) -> Dispute:
    """A player challenges a published turn; the GM rules beside its frozen record."""
    seat = game.seat_of(user)
    if seat is None:
        raise NotAllowed("only a player of this game can file a dispute")
    text = _text(text, "a dispute")
    record = game.records.filter(superseded=False, published=True, number=turn_number).first()
    if record is None:
        raise Conflict(f"turn {turn_number} has no published report to dispute")
    with transaction.atomic():
        dispute = Dispute.objects.create(game=game, record=record, turn_number=turn_number,
                                         seat=seat, filed_by=user, text=text)
        actions.log_act(game, "dispute-filed", f"Seat {seat.name} ({user.username}) filed "
                        f"dispute #{dispute.pk} on turn {turn_number}.", actor=user,
                        reason="", turn_number=turn_number,
                        private={"dispute": dispute.pk, "text": text})
        transaction.on_commit(lambda: signals.dispute_filed.send(sender=Dispute,
                                                                 dispute=dispute))
    return dispute


def rule(dispute: Dispute, actor, *, upheld: bool, reasons: str,
         correction: dict[str, Any] | None = None) -> Dispute:
    """Uphold (with a correction that is applied now) or reject, with public reasons.

    `correction`: {"turn": N (default: the disputed turn), "changes": [{"path", "value"}],
    "overrides": {index: value}, "orders": {seat: text}}. A ruling can be given again
    only after a second opinion.
    """
    game = dispute.game
    actions.require_gm(game, actor)
    reasons = _text(reasons, "the ruling's reasons")
    if dispute.ruled and dispute.opinion_status != Dispute.Opinion.GIVEN:
        raise Conflict(f"dispute #{dispute.pk} is already ruled on")
    if dispute.opinion_status == Dispute.Opinion.REQUESTED:
        raise Conflict("a second opinion was requested: wait for it before ruling again")
    applied: dict[str, Any] = {}
    with transaction.atomic():
        if upheld:
            applied = _apply_correction(game, actor, f"dispute #{dispute.pk}: {reasons}",
                                        correction or {}, dispute.turn_number)
        dispute.status = Dispute.Status.UPHELD if upheld else Dispute.Status.REJECTED
        dispute.ruling = reasons
        dispute.ruled_by = actor
        dispute.ruled_at = timezone.now()
        dispute.correction = {"request": correction or {}, "applied": applied}
        dispute.save()
        verdict = "upheld" if upheld else "rejected"
        public = (f"{actor.username} {verdict} dispute #{dispute.pk} (turn "
                  f"{dispute.turn_number}, filed by seat {dispute.seat.name}).")
        if applied.get("summary"):
            public += " " + applied["summary"]
        actions.log_act(game, "dispute-ruled", public, actor=actor, reason=reasons,
                        turn_number=dispute.turn_number,
                        private={"dispute": dispute.pk, "correction": dispute.correction})
        _post(game, actor, dispute.turn_number,
              f"**Ruling on dispute #{dispute.pk} (turn {dispute.turn_number}): "
              f"{verdict}.**\n\n{reasons}" + (f"\n\n{applied['summary']}"
                                              if applied.get("summary") else ""))
        transaction.on_commit(lambda: signals.dispute_ruled.send(sender=Dispute,
                                                                 dispute=dispute))
    return dispute


def _apply_correction(game: Game, actor, reason: str, correction: dict[str, Any],
                      disputed: int) -> dict[str, Any]:
    if not isinstance(correction, dict):
        raise ActionError("the correction must be an object")
    changes = correction.get("changes") or None
    overrides = correction.get("overrides")
    orders = correction.get("orders") or None
    if not (changes or overrides or orders):
        raise ActionError("an upheld dispute needs a correction: a state change, a die fix "
                          "or replacement orders (or reject it with reasons)")
    number = int(correction.get("turn") or disputed)
    current = game.current_turn()
    if (current is not None and number == current.number
            and not game.records.filter(superseded=False, number=number).exists()):
        if overrides:
            raise ActionError(f"turn {number} is not resolved yet: its dice cannot be fixed")
        summary = []
        if changes:
            amendment = actions.amend_state(game, actor, reason, changes)
            summary.append(f"The state before turn {number} was amended "
                           f"(amendment {amendment['version']}).")
        for seat, text in (orders or {}).items():
            actions.replace_orders(game, actor, reason, seat, text)
            summary.append(f"Seat {seat}'s orders for turn {number} were replaced.")
        return {"turn": number, "summary": " ".join(summary)}
    if overrides is not None:
        if not isinstance(overrides, dict):
            raise ActionError("overrides must map draw numbers to results")
        record = game.records.filter(superseded=False, number=number).first()
        if record is None:
            raise Conflict(f"turn {number} has not been resolved")
        merged = {str(k): v for k, v in record.turn.overrides.items()}
        for index, value in overrides.items():
            try:
                i = int(index)
            except (TypeError, ValueError):
                raise ActionError(f"{index!r} is not a draw number") from None
            if not 0 <= i < len(record.draws):
                raise ActionError(f"turn {number} has no draw {i}")
            actions.check_die_value(record.draws[i], value)
            merged[str(i)] = value
        overrides = merged
    result = actions.rerun_from(game, actor, reason, number, changes=changes,
                                overrides=overrides, orders=orders)
    summary = f"The game was rerun from turn {number}."
    if result.reorder:
        summary += (f" Turn {result.open_turn} needs new orders from "
                    f"{', '.join(result.reorder)}.")
    return {"turn": number, "rerun": result.to_json(), "summary": summary}


def request_second_opinion(dispute: Dispute, user, text: str = "") -> Dispute:
    """A player of the game asks another site GM to review the dispute."""
    game = dispute.game
    if game.seat_of(user) is None:
        raise NotAllowed("only a player of this game can ask for a second opinion")
    if dispute.opinion_status != Dispute.Opinion.NONE:
        raise Conflict(f"a second opinion on dispute #{dispute.pk} was already requested")
    note = (text or "").strip()[:TEXT_MAX]
    with transaction.atomic():
        dispute.opinion_status = Dispute.Opinion.REQUESTED
        dispute.opinion_requested_at = timezone.now()
        dispute.save(update_fields=["opinion_status", "opinion_requested_at"])
        actions.log_act(game, "opinion-requested", f"{user.username} asked another GM of the "
                        f"site for a second opinion on dispute #{dispute.pk}.", actor=user,
                        reason=note, turn_number=dispute.turn_number,
                        private={"dispute": dispute.pk})
        transaction.on_commit(lambda: signals.second_opinion_requested.send(
            sender=Dispute, dispute=dispute))
    return dispute


def can_give_opinion(dispute: Dispute, user) -> bool:
    """A staff user who is neither GM nor co-GM nor player of this game."""
    game = dispute.game
    return bool(getattr(user, "is_authenticated", False) and user.is_staff
                and user.pk != game.gm_id and not game.co_gms.filter(pk=user.pk).exists()
                and game.seat_of(user) is None)


def give_second_opinion(dispute: Dispute, user, text: str) -> Dispute:
    if not can_give_opinion(dispute, user):
        raise NotAllowed("a second opinion comes from a site GM (staff) who has no part in "
                         "this game")
    if dispute.opinion_status != Dispute.Opinion.REQUESTED:
        raise Conflict(f"no second opinion is pending on dispute #{dispute.pk}")
    text = _text(text, "the opinion")
    game = dispute.game
    with transaction.atomic():
        dispute.opinion_status = Dispute.Opinion.GIVEN
        dispute.opinion_by = user
        dispute.opinion_text = text
        dispute.opinion_at = timezone.now()
        dispute.save(update_fields=["opinion_status", "opinion_by", "opinion_text",
                                    "opinion_at"])
        actions.log_act(game, "opinion-given", f"{user.username} gave a second opinion on "
                        f"dispute #{dispute.pk}.", actor=user, reason=text,
                        turn_number=dispute.turn_number, private={"dispute": dispute.pk})
        _post(game, user, dispute.turn_number,
              f"**Second opinion on dispute #{dispute.pk}** by {user.username}:\n\n{text}")
        transaction.on_commit(lambda: signals.second_opinion_given.send(
            sender=Dispute, dispute=dispute))
    return dispute


def visible_disputes(game: Game) -> QuerySet[Dispute]:
    """Every dispute of the game (the list is public; complaint texts are not)."""
    return game.disputes.select_related("seat", "filed_by", "ruled_by", "opinion_by")


def can_read_text(dispute: Dispute, user) -> bool:
    return dispute.game.is_gm(user) or (
        getattr(user, "is_authenticated", False) and dispute.seat.user_id == user.pk)


def pending_opinions(user) -> QuerySet[Dispute]:
    """Second-opinion requests this staff user may answer."""
    if not getattr(user, "is_authenticated", False) or not user.is_staff:
        return Dispute.objects.none()
    qs = Dispute.objects.filter(opinion_status=Dispute.Opinion.REQUESTED).select_related(
        "game", "seat")
    return qs.exclude(game__gm=user).exclude(game__co_gms=user).exclude(game__seats__user=user)


def dispute_json(dispute: Dispute, user) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": dispute.pk, "turn": dispute.turn_number, "seat": dispute.seat.name,
        "filed_by": dispute.filed_by.username if dispute.filed_by else None,
        "filed": dispute.created, "status": dispute.status, "ruling": dispute.ruling or None,
        "ruled_by": dispute.ruled_by.username if dispute.ruled_by else None,
        "ruled_at": dispute.ruled_at, "second_opinion": {
            "status": dispute.opinion_status or None,
            "by": dispute.opinion_by.username if dispute.opinion_by else None,
            "text": dispute.opinion_text or None, "at": dispute.opinion_at},
    }
    if can_read_text(dispute, user):
        data["text"] = dispute.text
    if dispute.game.is_gm(user):
        data["correction"] = dispute.correction
    return data
