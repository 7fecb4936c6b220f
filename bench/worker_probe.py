"""Bench only: the gm Celery app with CPU accounting of the worker's parts.

    celery -A bench.worker_probe worker ...      (bench/turns.py --probe does this)

Why: the worker's CPU per turn is measured from /proc as one figure; py-spy samples
wall time of a shared machine. This wraps the few places a task passes through with
`time.thread_time()` (CPU of this thread only, exclusive of nested wrapped parts) and
writes the totals from the worker's readiness to its shutdown as JSON to
$GM_BENCH_PROBE:

- receive: the broker's read of a message up to the task's start (kombu's delivery,
  the unacked bookkeeping, celery's strategy and request), minus the parts below;
- task: the task function itself (gm.play.tasks.*), minus its publishes;
- publish: Task.apply_async (building and sending a message);
- ack: Message.ack (acks_late: after the task);
- signals: close_old_connections before and after each task;
- process: the whole process (os.times), so the rest is the event loop, timers and the
  idle polls between waves.
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Callable
from typing import Any

from celery import signals

from gm.celery import app

__all__ = ["app"]

totals: dict[str, float] = {}
counts: dict[str, int] = {}
_stack: list[list[float]] = []  # [start, time spent in nested wrapped parts]
_start = os.times()


def _wrap(name: str, func: Callable) -> Callable:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _stack.append([time.thread_time(), 0.0])
        try:
            return func(*args, **kwargs)
        finally:
            start, nested = _stack.pop()
            spent = time.thread_time() - start
            totals[name] = totals.get(name, 0.0) + spent - nested
            counts[name] = counts.get(name, 0) + 1
            if _stack:
                _stack[-1][1] += spent
    return wrapper


def _install(**kwargs: Any) -> None:
    import django.db
    from celery.app.task import Task
    from kombu.message import Message
    from kombu.transport import redis as kredis

    from gm.play import tasks

    kredis.Channel._brpop_read = _wrap("receive", kredis.Channel._brpop_read)
    Message.ack = _wrap("ack", Message.ack)
    Task.apply_async = _wrap("publish", Task.apply_async)
    django.db.close_old_connections = _wrap("signals", django.db.close_old_connections)
    for task in (tasks.resolve_turn, tasks.resolve_at_deadline, tasks.sweep_deadlines):
        task.run = _wrap("task", task.run)


_profile: Any = None


def _ready(**kwargs: Any) -> None:
    """Count from here (the worker is ready); $GM_BENCH_CPROFILE: profile the worker (CPU
    time, not wall) from here to shutdown."""
    global _profile, _start
    totals.clear()  # start-up is not the worker's per-task work
    counts.clear()
    _start = os.times()
    if os.environ.get("GM_BENCH_CPROFILE"):
        import cProfile

        _profile = cProfile.Profile(time.thread_time)
        _profile.enable()


def _dump(**kwargs: Any) -> None:
    if _profile is not None:
        _profile.disable()
        _profile.dump_stats(os.environ["GM_BENCH_CPROFILE"])
    path = os.environ.get("GM_BENCH_PROBE")
    if not path:
        return
    end = os.times()
    process = (end.user + end.system) - (_start.user + _start.system)
    with open(path, "w") as out:
        json.dump({"totals": totals, "counts": counts, "process": process}, out)


signals.worker_init.connect(_install, weak=False)
signals.worker_ready.connect(_ready, weak=False)
signals.worker_shutdown.connect(_dump, weak=False)
