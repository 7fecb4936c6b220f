"""A game's seat policy (GamePolicy) read with its defaults, and set by the GM."""

from __future__ import annotations

from typing import Any

from gm.play.errors import ActionError
from gm.play.models import Game

from .models import GamePolicy

FIELDS = ("approval", "free_turns", "min_finished", "min_met_percent")


def policy_of(game: Game) -> GamePolicy:
    """The game's policy, or an unsaved one with the defaults (no row is written on read)."""
    found = GamePolicy.objects.filter(game=game).first()
    return found if found is not None else GamePolicy(game=game)


def clean(values: dict[str, Any]) -> dict[str, Any]:
    """The known fields of `values`, checked; an unknown name or a bad value is refused."""
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ActionError(f"unknown seat policy field(s): {', '.join(sorted(unknown))}; "
                          f"known: {', '.join(FIELDS)}")
    out: dict[str, Any] = {}
    if "approval" in values:
        if values["approval"] not in GamePolicy.Approval.values:
            raise ActionError("approval is 'gm' (the GM approves each substitute) or 'auto' "
                              "(the first volunteer to accept takes the seat)")
        out["approval"] = values["approval"]
    for name, top in (("free_turns", 5), ("min_finished", 1000), ("min_met_percent", 100)):
        if name in values:
            try:
                number = int(values[name])
            except (TypeError, ValueError):
                raise ActionError(f"{name} must be a whole number") from None
            if not 0 <= number <= top:
                raise ActionError(f"{name} must be between 0 and {top}")
            out[name] = number
    return out


def store(game: Game, values: dict[str, Any]) -> GamePolicy:
    """Write checked `values` onto the game's policy row (created on first write)."""
    values = clean(values)
    policy, _ = GamePolicy.objects.get_or_create(game=game)
    for name, value in values.items():
        setattr(policy, name, value)
    policy.save()
    return policy


def describe(policy: GamePolicy) -> str:
    parts = [policy.get_approval_display()]
    parts.append(f"a newcomer gets {policy.free_turns} full turn"
                 f"{'' if policy.free_turns == 1 else 's'} before a deadline counts"
                 if policy.free_turns else "a newcomer gets no extra time")
    if policy.min_finished:
        parts.append(f"joining needs {policy.min_finished} finished game"
                     f"{'' if policy.min_finished == 1 else 's'}")
    if policy.min_met_percent:
        parts.append(f"joining needs {policy.min_met_percent}% of deadlines met")
    text = "; ".join(parts) + "."
    return text[:1].upper() + text[1:]


def as_json(policy: GamePolicy) -> dict[str, Any]:
    return {name: getattr(policy, name) for name in FIELDS}


def set_policy(game: Game, actor, values: dict[str, Any], reason: str = "") -> GamePolicy:
    """The GM changes the game's seat policy; on the public log."""
    from gm.play import actions as play
    from gm.play.errors import NotAllowed

    if not game.is_gm(actor):
        raise NotAllowed("only this game's GM, a co-GM or a site admin can do that")
    chosen = store(game, values)
    play.record_log(game, "seat-policy", f"Seat policy: {describe(chosen)}", actor=actor,
                    reason=reason, private=as_json(chosen))
    return chosen
