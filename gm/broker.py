"""kombu's Redis transport, building its command client once per connection pool.

kombu's Redis channel makes a new `redis.Redis` for every publish, for the unacknowledged
bookkeeping of every message a worker receives and for every ack (`Channel._create_client`
through `conn_or_acquire`), and redis-py fills a table of about 170 response callbacks in
each: about 0.1 ms of CPU, three times per resolved turn in a worker and once per task the
sweep queues, more than the Redis commands themselves cost. A `redis.Redis` is only a
handle on the channel's connection pool (it holds no connection between commands and is
safe to share between threads), so one per pool serves every one of those calls; a new
pool (kombu drops it when the connection is closed or lost) gets a new client.

Everything else is kombu's: the same commands, messages, acks and visibility handling.
gm.celery registers this class under kombu's `redis` and `rediss` names, so broker URLs,
log lines ("Connected to redis://...") and TLS handling are unchanged.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    """A Redis channel that reuses its synchronous client (see the module docstring)."""

    _shared_client: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:  # the event loop's BRPOP client: kombu keeps it already
            return super()._create_client(asynchronous=True)
        client = self._shared_client
        if client is None or client.connection_pool is not self.pool:
            client = self._shared_client = super()._create_client()
        return client

    def _disconnect_pools(self) -> None:
        super()._disconnect_pools()
        self._shared_client = None


class Transport(kombu_redis.Transport):
    Channel = Channel
