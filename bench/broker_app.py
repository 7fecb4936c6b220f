"""Bench only: the gm Celery app with two no-op tasks, for bench/broker.py.

    celery -A bench.broker_app worker --pool=solo -Q <queue>

`noop` is published the way most tasks are (Celery's `delay`); `noop_direct` the way the
mail wake-ups are (gm.broker.DirectPublish, which falls back to `delay` on stock kombu).
Both acknowledge late, as the service's turn and mail tasks do.
"""

from __future__ import annotations

from gm.broker import DirectPublish
from gm.celery import app


@app.task(name="bench.noop", acks_late=True, ignore_result=True)
def noop(i: int) -> None:
    return None


@app.task(name="bench.noop_direct", base=DirectPublish, acks_late=True, ignore_result=True)
def noop_direct(i: int) -> None:
    return None


@app.task(name="bench.sentinel", ignore_result=True)
def sentinel(token: str) -> None:
    """The batch's last message: tells bench/broker.py the worker ran everything before."""
    import os

    import redis

    redis.Redis.from_url(os.environ["GM_BENCH_REDIS"]).set("gm_bench_broker_done", token)
