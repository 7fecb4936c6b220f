"""The broker's cost per message: Redis against RabbitMQ, stock kombu, in one run.

    .venv/bin/python bench/broker.py                  # 2000 messages, 3 rounds
    .venv/bin/python bench/broker.py --messages 5000 --rounds 5 --amqp-url ''

For each round and each variant (alternating, so load on a shared machine hits both
alike) it starts one `celery -A bench.broker_app worker --pool=solo` on a private queue,
publishes --messages no-op tasks from a separate publisher process, then one sentinel
task; the batch is over when the sentinel has run (a solo worker runs a queue in order,
each task acknowledged after it ran, as the service's tasks are). Variants: `redis` and `amqp` (RabbitMQ), both kombu's own transports. (Until commit
408c60e it also ran gm/broker.py, a patched Redis transport, against stock kombu; the
figures that led to its removal are in bench/README.md.)

Printed per variant (median of the rounds): the worker's CPU per message (from /proc:
receive, bookkeeping, task, ack), the publisher's CPU per message, messages per second,
and the ratio of each to `redis` measured in the same run; then the load average. A
resolved turn costs about three messages in the workers (resolve_turn, notify, deliver),
so the worker saving per turn is about three times the per-message difference. Figures
only; nothing asserted. Needs Redis (and RabbitMQ for the `amqp` row).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SENTINEL_KEY = "gm_bench_broker_done"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--messages", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    p.add_argument("--amqp-url", default="amqp://guest:guest@127.0.0.1:5672//",
                   help="RabbitMQ for the reference row ('' to skip)")
    p.add_argument("--child-publish", nargs=2, metavar=("TASK", "N"),
                   help=argparse.SUPPRESS)
    return p.parse_args(argv)


def child_publish(task_name: str, n: int) -> None:
    """In the publisher process: send n messages, then the sentinel; print CPU used."""
    import django

    sys.path.insert(0, str(ROOT))
    django.setup()
    from bench import broker_app

    task = getattr(broker_app, task_name)
    task.delay(-1)  # connect and declare outside the measured span
    cpu, wall = time.process_time(), time.perf_counter()
    for i in range(n):
        task.delay(i)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    broker_app.app.send_task("bench.sentinel", args=(os.environ["GM_BENCH_TOKEN"],))
    print(json.dumps({"cpu": cpu, "wall": wall}))


def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_variant(args: argparse.Namespace, variant: str, tmp: Path) -> dict[str, float]:
    import redis

    queue = f"gm_bench_broker_{secrets.token_hex(4)}"
    token = secrets.token_hex(8)
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64), "ALLOWED_HOSTS": "127.0.0.1",
        "GM_VAR_DIR": str(tmp / "var"), "EMAIL_URL": "dummymail://",
        "CELERY_BROKER_URL": args.amqp_url if variant == "amqp" else args.redis_url,
        "CELERY_QUEUE": queue, "CELERY_MAIL_QUEUE": queue,
        "GM_BENCH_REDIS": args.redis_url, "GM_BENCH_TOKEN": token,
        "SECURE_SSL_REDIRECT": "0", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),
    })
    env.pop("DATABASE_URL", None)
    log_path = tmp / f"worker-{variant}.log"
    client = redis.Redis.from_url(args.redis_url)
    client.delete(SENTINEL_KEY)
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            [str(BIN / "celery"), "-A", "bench.broker_app", "worker", "--pool=solo",
             "--loglevel=INFO", "--without-mingle", "--without-gossip", "-Q", queue,
             f"--hostname=bench-{variant}@%h"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        end = time.monotonic() + 60
        while " ready." not in log_path.read_text(errors="replace"):
            if worker.poll() is not None or time.monotonic() > end:
                raise SystemExit(f"worker {variant} did not start:\n"
                                 f"{log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.1)
        time.sleep(0.5)
        before = cpu_of(worker.pid)
        start = time.perf_counter()
        out = subprocess.run([sys.executable, __file__, "--child-publish", "noop",
                              str(args.messages)], cwd=ROOT, env=env, check=True,
                             capture_output=True, text=True)
        published = json.loads(out.stdout.strip().splitlines()[-1])
        end = time.monotonic() + 600
        while client.get(SENTINEL_KEY) != token.encode():
            if time.monotonic() > end:
                raise SystemExit(f"worker {variant} did not finish")
            time.sleep(0.01)
        wall = time.perf_counter() - start
        worker_cpu = cpu_of(worker.pid) - before
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
        for key in client.scan_iter(match=f"*{queue}*", count=1000):
            client.delete(key)
    n = args.messages
    return {"worker_us": worker_cpu / n * 1e6, "publish_us": published["cpu"] / n * 1e6,
            "rate": n / wall}


def amqp_up(url: str) -> bool:
    if not url:
        return False
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1)
        return True
    except Exception:  # noqa: BLE001 - the reference row is optional
        return False


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child_publish:
        child_publish(args.child_publish[0], int(args.child_publish[1]))
        return 0
    import celery
    import kombu
    import redis

    variants = ["redis"] + (["amqp"] if amqp_up(args.amqp_url) else [])
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, float]]] = {v: [] for v in variants}
    with tempfile.TemporaryDirectory(prefix="gm_bench_broker_") as tmp:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
                       cwd=ROOT, check=True,
                       env={**os.environ, "GM_VAR_DIR": str(Path(tmp) / "var"), "DEBUG": "1"})
        for _ in range(args.rounds):
            for variant in variants:
                runs[variant].append(run_variant(args, variant, Path(tmp)))
    med = {v: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
           for v, rs in runs.items()}
    base = med["redis"]
    print(f"broker bench: {args.messages} no-op tasks x {args.rounds} rounds per variant "
          f"(kombu {kombu.__version__}, celery {celery.__version__}, "
          f"redis-py {redis.__version__}); medians, ratio to Redis")
    print(f"  {'variant':10} {'worker CPU/msg':>16} {'ratio':>6} {'publish CPU/msg':>16} "
          f"{'ratio':>6} {'msgs/s':>8} {'ratio':>6}")
    for variant, m in med.items():
        print(f"  {variant:10} {m['worker_us']:13.0f} us {m['worker_us'] / base['worker_us']:6.2f}"
              f" {m['publish_us']:13.0f} us {m['publish_us'] / base['publish_us']:6.2f}"
              f" {m['rate']:8.0f} {m['rate'] / base['rate']:6.2f}")
    print(f"  machine: {os.cpu_count()} CPUs, load average before/after "
          f"{load_before[0]:.2f}/{os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
