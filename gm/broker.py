"""kombu's Redis transport, building its command client once per connection pool.

kombu's Redis channel makes a new `redis.Redis` for every publish, for the unacknowledged
bookkeeping of every message a worker receives and for every ack (`Channel._create_client`
through `conn_or_acquire`), and redis-py fills a table of about 170 response callbacks in
each: about 0.1 ms of CPU, three times per resolved turn in a worker and once per task the
sweep queues, more than the Redis commands themselves cost. A `redis.Redis` is only a
handle on the channel's connection pool (it holds no connection between commands and is
safe to share between threads), so one per pool serves every one of those calls; a new
pool (kombu drops it when the connection is closed or lost) gets a new client.

The unacked bookkeeping and the acks go out as the same MULTI/EXEC without redis-py's
pipeline machinery (`QoS`), and the mail wake-up is published straight on a channel
(`DirectPublish`). Everything else is kombu's: the same commands, messages, acks and
visibility handling. gm.celery registers this transport under kombu's `redis` and
`rediss` names, so broker URLs, log lines ("Connected to redis://...") and TLS handling
are unchanged.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
from typing import Any

from celery import signals as celery_signals
from celery.app.task import Task as CeleryTask
from kombu import Queue, serialization
from kombu.common import maybe_declare
from kombu.entity import maybe_delivery_mode
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual
from kombu.utils.json import dumps as json_dumps
from kombu.utils.uuid import uuid


class QoS(kombu_redis.QoS):
    """kombu's Redis acknowledgement emulation, each bookkeeping step sent as one
    MULTI/EXEC written straight on a pooled connection.

    A worker records every message it takes (ZADD of the delivery tag into the unacked
    index, HSET of the message into the unacked hash) and acks it (ZREM + HDEL): kombu
    sends each pair as a redis-py transaction pipeline, whose Python (stack, reset,
    response callbacks, observability hooks) costs about as much CPU as the round trip.
    Here the same MULTI, commands, EXEC go out packed at once and the replies are read
    back; connection errors are retried as redis-py retries them (each step is
    idempotent: the same tag, the same message). The keys, values and atomicity are
    kombu's, so the visibility-timeout restore and a killed worker's redelivery are
    unchanged. A global key prefix (kombu prefixes keys in its client) keeps kombu's
    pipelines."""

    def append(self, message: Any, delivery_tag: str) -> None:
        if self.channel.global_keyprefix:
            return super().append(message, delivery_tag)
        delivery = message.delivery_info
        self._transaction(
            ("ZADD", self.unacked_index_key, time.time(), delivery_tag),
            ("HSET", self.unacked_key, delivery_tag,
             json_dumps([message._raw, delivery["exchange"], delivery["routing_key"]])))
        virtual.QoS.append(self, message, delivery_tag)
        return None

    def ack(self, delivery_tag: str) -> None:
        if self.channel.global_keyprefix:
            return super().ack(delivery_tag)
        self._transaction(("ZREM", self.unacked_index_key, delivery_tag),
                          ("HDEL", self.unacked_key, delivery_tag))
        virtual.QoS.ack(self, delivery_tag)
        return None

    def _transaction(self, *commands: tuple) -> list:
        """MULTI, `commands`, EXEC on one connection of the channel's pool; EXEC's
        replies (an error reply raised, the connection then dropped)."""
        pool = self.channel._create_client().connection_pool
        conn = pool.get_connection()
        packed = conn.pack_commands([("MULTI",), *commands, ("EXEC",)])

        def attempt() -> list:
            conn.send_packed_command(packed)
            for _ in range(len(commands) + 1):  # +OK, then QUEUED for each command
                conn.read_response()
            return conn.read_response()

        try:
            replies = conn.retry.call_with_retry(attempt, lambda error: conn.disconnect())
            for reply in replies or ():
                if isinstance(reply, Exception):
                    raise reply
            return replies
        except BaseException:
            conn.disconnect()  # nothing half-read is left for the next user
            raise
        finally:
            pool.release(conn)


class Channel(kombu_redis.Channel):
    """A Redis channel that reuses its synchronous client (see the module docstring)."""

    QoS = QoS

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


# --- publishing a task straight onto the channel -----------------------------------------
# A resolved turn queues one mail wake-up (gm.mail.tasks.notify) on commit, and Celery's
# `delay` spent about 1.2-1.5 ms of CPU on it, five times the Redis command it ends in:
# the task's execution options merged, routing, `saferepr` of the arguments for the
# argsrepr header, a producer taken from and given back to the pool, kombu's publish
# with its retry wrapper and the queue's declaration check, and the publish signals.
# `DirectPublish.delay` builds the same message (Celery's own `create_task_message`,
# with argsrepr written by `repr` where that is what saferepr writes) and hands it to
# a Redis channel this thread keeps (its own connection), declaring the queue once. Anything
# it does not cover, or any error, goes through Celery's `delay` as before: eager mode,
# another transport, routing other than a plain queue, execution options, publish
# signals with receivers, sent events, a result to store.
_held = threading.local()  # .key (pid, the app's pool), .connection, .channel, ...


def _plain(value: Any, depth: int) -> bool:
    """`value` is ints, plain strings, None and lists/tuples of them, nested at most
    `depth` containers deep: what saferepr writes as repr does."""
    kind = type(value)
    if kind is int or kind is bool or value is None:
        return True
    if kind is str:  # short, and nothing saferepr would escape differently
        return _PLAIN_TEXT.fullmatch(value) is not None
    if kind is list or kind is tuple:
        return depth > 0 and all(_plain(item, depth - 1) for item in value)
    return False


_PLAIN_TEXT = re.compile(r"[A-Za-z0-9_.:@/+-]{0,100}")


def plain_repr(args: tuple, maxlevels: int, maxsize: int) -> str | None:
    """Celery's argsrepr of `args` (saferepr, `maxlevels`, `maxsize`) when it is the plain
    repr (see `_plain`), else None (Celery writes it)."""
    if not _plain(args, maxlevels):
        return None
    text = repr(args)
    return text if len(text) <= maxsize // 2 else None


def _channel(app: Any) -> Any:
    """This thread's channel for `app`'s broker (a new one after a fork, or once the
    app's connection pool is replaced), or None when it is not this module's.

    Its own connection, not one of the app's pools: a thread holding a pooled producer
    for good would take it from Celery's own publishing (with many web threads, all of
    them). The settings a direct message depends on are read with it: the tests that
    change the broker at run time replace the pool, and so does a process that
    reconfigures."""
    pool = app.pool
    key = (os.getpid(), pool)
    if getattr(_held, "key", None) != key:
        _drop_channel()
        conf = app.conf
        _held.key, _held.declared, _held.tasks = key, set(), {}
        _held.settings = (conf.task_repr_maxlevels, conf.task_serializer,
                          conf.task_default_delivery_mode)
        if conf.task_send_sent_event or conf.task_compression \
                or conf.task_inherit_parent_priority:
            return None
        connection = app.connection_for_write()
        try:
            channel = connection.default_channel
        except Exception:  # noqa: BLE001 - Celery's path reports it (and retries)
            channel = None
        if isinstance(channel, Channel):
            _held.connection, _held.channel = connection, channel
        else:
            with contextlib.suppress(Exception):
                connection.release()
    return _held.channel


def _drop_channel() -> None:
    connection = getattr(_held, "connection", None)
    _held.key = _held.connection = _held.channel = None
    if connection is not None:
        with contextlib.suppress(Exception):
            connection.release()


# execution options a direct message may carry (the others must be unset)
_DIRECT_OPTIONS = ("ignore_result", "serializer")


def _direct_task(task: Any) -> bool:
    """Nothing in the task's own options that Celery's path would add to the message."""
    return (task.ignore_result
            and type(task).shadow_name is CeleryTask.shadow_name
            and getattr(task, "_dump_pydantic_arguments", None) is None
            and all(value is None for name, value in task._get_exec_options().items()
                    if name not in _DIRECT_OPTIONS))


def publish_direct(task: Any, args: tuple, kwargs: dict) -> Any:
    """Send `task(*args, **kwargs)` as Celery would (see above); its AsyncResult, or
    None when it must go through Celery's own path."""
    app = task._get_app()
    if (app.conf.task_always_eager
            or celery_signals.before_task_publish.receivers
            or celery_signals.after_task_publish.receivers
            or celery_signals.task_sent.receivers):
        return None
    channel = _channel(app)
    if channel is None:
        return None
    direct = _held.tasks.get(task)
    if direct is None:
        direct = _held.tasks[task] = _direct_task(task)
    if not direct:
        return None
    if task.typing:
        task.__header__(*args, **kwargs)  # a TypeError for wrong arguments, as Celery's
    amqp = app.amqp
    route = amqp.router.route({}, task.name, args, kwargs, task)
    queue = route.get("queue")
    if (len(route) != 1 or type(queue) is not Queue
            or queue.exchange.type != "direct"):
        return None
    maxlevels, serializer, delivery_mode = _held.settings
    task_id = uuid()
    parent = app.current_worker_task
    root_id = parent_id = None
    if parent:
        parent_id = parent.request.id
        root_id = parent.request.root_id or parent_id
    headers, properties, body, _ = amqp.create_task_message(
        task_id, task.name, args, kwargs, reply_to=app.thread_oid,
        root_id=root_id, parent_id=parent_id, ignore_result=True,
        argsrepr=plain_repr(args, maxlevels, amqp.argsrepr_maxsize),
        kwargsrepr=None if kwargs else "{}")
    content_type, content_encoding, data = serialization.dumps(
        body, serializer=task.serializer or serializer)
    properties["delivery_mode"] = maybe_delivery_mode(
        queue.exchange.delivery_mode or delivery_mode)
    try:
        if queue.name not in _held.declared:
            maybe_declare(queue, channel)
            _held.declared.add(queue.name)
        channel.basic_publish(
            channel.prepare_message(data, 0, content_type, content_encoding, headers,
                                    properties),
            exchange="", routing_key=queue.name)
    except Exception:  # noqa: BLE001 - Celery's path, with its retries, tries again
        _drop_channel()
        return None
    result = task.AsyncResult(task_id)
    result.ignored = True
    if parent:
        parent.add_trail(result)
    return result


class DirectPublish(CeleryTask):
    """A task whose `delay` publishes directly on Redis (see `publish_direct`); for
    tasks that are safe to run twice (a failed direct send is retried through Celery)."""

    def delay(self, *args: Any, **kwargs: Any) -> Any:
        result = publish_direct(self, args, kwargs)
        return result if result is not None else super().delay(*args, **kwargs)
