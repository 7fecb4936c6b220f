"""Bench only: the gm Celery app with a no-op task and a sentinel, for bench/broker.py.

    celery -A bench.broker_app worker --pool=solo -Q <queue>

`noop` acknowledges late, as the service's turn and mail tasks do.
"""

from __future__ import annotations

from gm.celery import app


@app.task(name="bench.noop", acks_late=True, ignore_result=True)
def noop(i: int) -> None:
    return None


@app.task(name="bench.sentinel", ignore_result=True)
def sentinel(token: str) -> None:
    """The batch's last message: tells bench/broker.py the worker ran everything before."""
    import os

    import redis

    redis.Redis.from_url(os.environ["GM_BENCH_REDIS"]).set("gm_bench_broker_done", token)
