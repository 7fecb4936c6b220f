"""Counting Celery task publications in tests: the task still runs (eagerly, as in the
embedded default); what it was published with is recorded."""

from __future__ import annotations

from typing import Any


def record(monkeypatch, task) -> list[tuple[Any, ...]]:
    """Every `task.delay(...)` from now on, as its argument tuple, in order."""
    calls: list[tuple[Any, ...]] = []
    real = task.delay

    def delay(*args: Any, **kwargs: Any):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(task, "delay", delay)
    return calls


def play_turn(game, on_commit, orders: dict[str, str] | None = None) -> None:
    """Every seat of a tally game sends orders (by mail); the turn resolves at once."""
    from gm.play import actions

    with on_commit():
        for seat in game.seats.select_related("user").order_by("name"):
            text = (orders or {}).get(seat.name, "ADD 1")
            actions.submit_orders(game, seat, text, source="email", author=seat.user)
