"""Smoke test of the production shape (deploy/), without Docker.

Starts the same commands the systemd units and the compose file run - gunicorn with
deploy/gunicorn.conf.py, two `celery -A gm worker` and one `celery -A gm beat` - as
separate processes with DEBUG=0 against a fresh PostgreSQL database and a real broker,
then plays Combat Dice through HTTP only:

* game A is played to its end with orders sent through the API (turns resolve early,
  in the workers, as soon as both orders are in), and its export verifies;
* game B, started at the same time, gets no orders at all: only beat's deadline sweep
  can resolve its first turn (turn length one minute), with default orders.

Environment: GM_TEST_DATABASE_URL (a database that is created and dropped here; by default
postgres://postgres@127.0.0.1:5432/gm_smoke_<pid>_<random>, a new name for every run, so
two runs on one machine, from one checkout or two, never drop each other's database),
GM_TEST_BROKER_URL (default
redis://127.0.0.1:6379/5). The test only ever drops the database it created itself: a
name that exists already, or the one DATABASE_URL (or pytest-django's test database)
names, is refused before anything is created or dropped (`SmokeDatabase`).

Timing: every step waits on something it can observe (a process answering, a turn
resolved, the lapsed turn moved on) with a timeout of its own, generous enough for a
machine at load 20; the one fixed wait, game B's one-minute deadline, is read from the
API and waited for with a margin. BUDGET only stops a run that hangs altogether.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from games.core.verify import verify_record

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Seconds for the whole test before it gives up (cleanup adds < 25 s): a backstop against a
# hang, not a measure of speed (about 85 s on an idle machine, 155-275 s at load 20-30: a
# budget of 150 s used to fail it there); each step below has a timeout of its own.
BUDGET = 480.0
STEP_TIMEOUT = 240.0  # one management command (migrate at load 20: about 40 s)
START_TIMEOUT = 120.0  # gunicorn answering after it was started
# A turn whose orders are all in resolves early, in a worker, within this (a few seconds at
# load 20): well under the one-minute turn, so a game that only deadlines move on fails.
TURN_TIMEOUT = 45.0
# After game B's deadline: beat's sweep (every second here) or the task queued for the
# deadline claims the turn and a worker resolves it.
SWEEP_MARGIN = 90.0


def default_database_url() -> str:
    """A database name of this run alone: the test drops and recreates it."""
    return f"postgres://postgres@127.0.0.1:5432/gm_smoke_{os.getpid()}_{secrets.token_hex(4)}"


DB_URL = os.environ.get("GM_TEST_DATABASE_URL") or default_database_url()
BROKER_URL = os.environ.get("GM_TEST_BROKER_URL", "redis://127.0.0.1:6379/5")
PLAYERS = ("smoke_p1", "smoke_p2")


# --- database ------------------------------------------------------------------------
def test_the_default_database_is_this_runs_own() -> None:
    """Two runs at once (two checkouts, or two sessions in one) must not drop each other's
    database: the default name is new for every run, and one the guard below accepts."""
    names = {_admin_conninfo(default_database_url())[1] for _ in range(3)}
    assert len(names) == 3 and "gm_smoke" not in names, names
    assert all(name.startswith(f"gm_smoke_{os.getpid()}_") for name in names), names


def test_the_databases_in_use_are_refused_before_anything_is_dropped(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """GM_TEST_DATABASE_URL copied from DATABASE_URL, or naming the test database the
    session's other integration tests use, or the server's own: refused, no connection
    made (the conninfo points nowhere, so a connection would fail differently)."""
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/gm_hsomeone")
    for name in ("gm_hsomeone", "test_gm_hsomeone", "postgres", "template1"):
        database = SmokeDatabase(f"postgres://nobody@127.0.0.1:1/{name}")
        with pytest.raises(ValueError, match="refusing to create/drop"):
            database.create()
        assert not database.created
        database.drop()  # nothing created: nothing to drop, no connection either
    with pytest.raises(ValueError, match="refusing"):
        SmokeDatabase("postgres://nobody@127.0.0.1:1/gm;DROP")


@pytest.mark.services
def test_an_existing_database_is_neither_taken_nor_dropped() -> None:
    """A database the smoke test did not create (here: one made for this test, standing
    for a helper's or a CI pass's) survives `create` (refused) and `drop` (a no-op)."""
    import psycopg
    from psycopg import sql

    taken = SmokeDatabase(default_database_url())
    exists = "SELECT count(*) FROM pg_database WHERE datname = %s"
    with psycopg.connect(taken.conninfo, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(taken.name)))
        try:
            with pytest.raises(ValueError, match="exists already"):
                taken.create()
            taken.drop()
            assert conn.execute(exists, [taken.name]).fetchone() == (1,)
        finally:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(
                sql.Identifier(taken.name)))
    fresh = SmokeDatabase(default_database_url())  # and one it made is dropped
    fresh.create()
    fresh.drop()
    with psycopg.connect(fresh.conninfo, autocommit=True) as conn:
        assert conn.execute(exists, [fresh.name]).fetchone() == (0,)


def _admin_conninfo(url: str) -> tuple[str, str]:
    """(conninfo of the server's maintenance database, name of the test database)."""
    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        raise ValueError(f"refusing to create/drop a database named {name!r}")
    return urllib.parse.urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def _names_in_use() -> set[str]:
    """Databases the smoke test must never create, use or drop: the server's own, the one
    DATABASE_URL names (the project's, or a CI pass's) and the test database pytest-django
    makes of it (test_<name>), which the other integration tests of this session use."""
    names = {"postgres", "template0", "template1"}
    project = os.environ.get("DATABASE_URL", "")
    if project.startswith(("postgres://", "postgresql://", "pgsql://")):
        name = urllib.parse.urlsplit(project).path.lstrip("/")
        if name:
            names |= {name, f"test_{name}"}
    return names


class SmokeDatabase:
    """The smoke test's own database: created here, so dropped here, and only then.

    Before, the test ran `DROP DATABASE IF EXISTS` on whatever GM_TEST_DATABASE_URL named,
    before and after the run: a URL copied from DATABASE_URL (or naming the session's test
    database) would have dropped a database the test never made. Now `create` refuses the
    names in use (`_names_in_use`) and a database that exists already (CREATE without a
    DROP first: the server says whether it existed), and `drop` drops only what `create`
    made."""

    def __init__(self, url: str) -> None:
        self.conninfo, self.name = _admin_conninfo(url)
        self.created = False

    def create(self) -> None:
        import psycopg
        from psycopg import errors, sql

        if self.name in _names_in_use():
            raise ValueError(f"refusing to create/drop {self.name!r}: DATABASE_URL or the "
                             "server uses it (set GM_TEST_DATABASE_URL to a new name)")
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(self.name)))
            except errors.DuplicateDatabase:
                raise ValueError(
                    f"refusing to use database {self.name!r}: it exists already and the "
                    "smoke test drops only a database it created (set GM_TEST_DATABASE_URL "
                    "to a new name, or drop it yourself)") from None
        self.created = True

    def drop(self) -> None:
        if not self.created:
            return
        import psycopg
        from psycopg import sql

        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                sql.Identifier(self.name)))
        self.created = False


# --- processes -----------------------------------------------------------------------
class Stack:
    """The subprocesses of one run, their logs, and a deadline they all share."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env = env
        self.logs = logs
        self.procs: dict[str, subprocess.Popen] = {}
        self.started = time.monotonic()

    def remaining(self) -> float:
        return BUDGET - (time.monotonic() - self.started)

    def within(self, timeout: float) -> float:
        """The monotonic time a step of `timeout` seconds must end by (never past BUDGET)."""
        return time.monotonic() + min(timeout, self.remaining())

    def run(self, name: str, *args: str, timeout: float = STEP_TIMEOUT) -> str:
        out = subprocess.run([*args], cwd=ROOT, env=self.env, capture_output=True, text=True,
                             timeout=min(timeout, max(self.remaining(), 1)))
        assert out.returncode == 0, f"{name} failed:\n{out.stdout}\n{out.stderr}"
        return out.stdout

    def start(self, name: str, *args: str) -> None:
        log = open(self.logs / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        # A session of its own: stopping it stops its children (gunicorn/celery workers).
        self.procs[name] = subprocess.Popen([*args], cwd=ROOT, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        log.close()

    def log(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def check_alive(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise AssertionError(f"{name} exited with {proc.returncode}:\n"
                                     f"{self.log(name)[-4000:]}")

    def stop(self) -> None:
        """SIGTERM every process group (warm shutdown), then SIGKILL what is left."""
        for proc in self.procs.values():
            if proc.poll() is None:
                _signal_group(proc, signal.SIGTERM)
        end = time.monotonic() + 15
        for proc in self.procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(end - time.monotonic(), 0.1))
        for proc in self.procs.values():
            _signal_group(proc, signal.SIGKILL)  # children left behind, if any
            if proc.poll() is None:
                proc.wait(timeout=5)

    def dump_logs(self) -> str:
        return "\n".join(f"--- {name} ---\n{self.log(name)[-3000:]}" for name in self.procs)


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- HTTP ------------------------------------------------------------------------------
class Client:
    def __init__(self, base: str, token: str | None = None) -> None:
        self.base = base
        self.token = token

    def request(self, method: str, path: str, data: dict | None = None,
                form: bool = False) -> tuple[int, Any, dict[str, str]]:
        headers = {"Accept": "application/json"}
        body = None
        if data is not None:
            if form:
                body = urllib.parse.urlencode(data).encode()
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                body = json.dumps(data).encode()
                headers["Content-Type"] = "application/json"
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        req = urllib.request.Request(self.base + path, data=body, method=method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=20) as resp:
                status, raw, hdrs = resp.status, resp.read(), dict(resp.headers)
        except urllib.error.HTTPError as exc:
            status, raw, hdrs = exc.code, exc.read(), dict(exc.headers)
        ctype = hdrs.get("Content-Type", "")
        payload = json.loads(raw) if raw and ctype.startswith("application/json") else raw
        return status, payload, hdrs

    def get(self, path: str) -> Any:
        status, payload, _ = self.request("GET", path)
        assert status == 200, f"GET {path}: {status} {payload!r:.500}"
        return payload

    def post(self, path: str, data: dict, expect: int = 201) -> Any:
        status, payload, _ = self.request("POST", path, data)
        assert status == expect, f"POST {path}: {status} {payload!r:.500}"
        return payload


def _wait_http(base: str, stack: Stack, timeout: float = START_TIMEOUT) -> None:
    end = stack.within(timeout)
    while time.monotonic() < end:
        stack.check_alive()
        try:
            with urllib.request.urlopen(base + "/api/rulesets/", timeout=2) as resp:
                if resp.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise AssertionError("gunicorn did not answer in time")


def _send_orders(client: Client, game_id: int, prompt: dict[str, Any]) -> bool:
    """Send the prompt's example, else the first accepted choice (never a concession)."""
    candidates = [prompt.get("example"), *prompt.get("choices", [])]
    for text in candidates:
        if not text or text.split()[0] in ("YIELD", "CANCEL"):
            continue
        status, payload, _ = client.request("POST", f"/api/games/{game_id}/orders/",
                                            {"text": text})
        if status == 201:
            return True
        assert status == 400, f"orders {text!r}: {status} {payload!r:.500}"
    return False


# --- production settings (default run: no services needed) --------------------------------
def _env_example() -> dict[str, str]:
    """KEY=value lines of deploy/env.example that are not commented out."""
    values = {}
    for line in (ROOT / "deploy" / "env.example").read_text().splitlines():
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip()
    return values


def test_env_example_lists_every_variable_the_settings_read() -> None:
    settings_py = (ROOT / "gm" / "settings.py").read_text()
    read = set(re.findall(r"[eE]nv(?:\.\w+|\(\))*\.\w+\(\s*[\"']([A-Z][A-Z0-9_]*)[\"']",
                          settings_py))
    assert {"DEBUG", "SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL"} <= read
    documented = set(re.findall(r"^#?([A-Z][A-Z0-9_]*)=", (ROOT / "deploy" / "env.example")
                                .read_text(), flags=re.MULTILINE))
    assert sorted(read - documented) == []


def test_check_deploy_is_clean_and_static_files_collect(tmp_path: Path) -> None:
    """`check --deploy` with deploy/env.example's values (and a fresh secret) reports no
    issue at all, and collectstatic builds whitenoise's manifest with DEBUG=0."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GM_TEST"))}
    env.update(_env_example())
    env.update({"SECRET_KEY": secrets.token_urlsafe(64), "STATIC_ROOT": str(tmp_path / "s"),
                "GM_VAR_DIR": str(tmp_path / "var"), "DJANGO_SETTINGS_MODULE": "gm.settings"})
    assert env["DEBUG"] == "0"
    check = subprocess.run([str(BIN / "python"), "manage.py", "check", "--deploy",
                            "--fail-level", "WARNING"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "System check identified no issues" in check.stdout
    static = subprocess.run([str(BIN / "python"), "manage.py", "collectstatic", "--noinput"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert static.returncode == 0, static.stdout + static.stderr
    assert (tmp_path / "s" / "staticfiles.json").is_file()
    assert list((tmp_path / "s" / "web").glob("site.*.css.gz"))


# --- the whole stack ----------------------------------------------------------------------
@pytest.mark.services
def test_production_stack_plays_a_game_over_http(tmp_path: Path) -> None:
    queue = f"gm_smoke_{os.getpid()}_{secrets.token_hex(3)}"
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "GM_TEST"))}
    env.update({
        "DJANGO_SETTINGS_MODULE": "gm.settings",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": f"http://127.0.0.1:{port}",
        "DATABASE_URL": DB_URL,
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_QUEUE": queue,  # private queue: other runs on this broker cannot interfere
        "GM_SWEEP_SECONDS": "1",
        "SECURE_SSL_REDIRECT": "0",
        "STATIC_ROOT": str(tmp_path / "static"),
        "GM_VAR_DIR": str(tmp_path / "var"),
        "EMAIL_URL": "dummymail://",
        "GM_BIND": f"127.0.0.1:{port}",
        "GM_WEB_WORKERS": "2",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    })
    base = f"http://127.0.0.1:{port}"
    py = str(BIN / "python")
    celery = str(BIN / "celery")
    stack = Stack(env, tmp_path)
    database = SmokeDatabase(DB_URL)
    try:
        database.create()
        stack.run("migrate", py, "manage.py", "migrate", "--noinput")
        stack.run("collectstatic", py, "manage.py", "collectstatic", "--noinput")
        stack.run("users", py, "manage.py", "shell", "-c", (
            "from django.contrib.auth import get_user_model\n"
            "U = get_user_model()\n"
            "U.objects.create_user('smoke_gm', 'gm@example.org', 'smoke-pass-gm')\n"
            f"for n in {PLAYERS!r}: U.objects.create_user(n, n + '@example.org', "
            "'smoke-pass-' + n)\n"))
        stack.start("gunicorn", str(BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py")
        for i in (1, 2):
            stack.start(f"worker{i}", celery, "-A", "gm", "worker", "--loglevel=INFO",
                        "--concurrency=1", f"--hostname=smoke{i}@%h", "--without-mingle",
                        "--without-gossip", "-Q", f"{queue},{queue}-mail")
        stack.start("beat", celery, "-A", "gm", "beat", "--loglevel=INFO",
                    f"--schedule={tmp_path / 'beat-schedule'}")
        _wait_http(base, stack)
        _check_pages_and_static(base)

        tokens = {}
        for name in ("smoke_gm", *PLAYERS):
            password = "smoke-pass-gm" if name == "smoke_gm" else f"smoke-pass-{name}"
            status, payload, _ = Client(base).request(
                "POST", "/api/token/", {"username": name, "password": password}, form=True)
            assert status == 200, payload
            tokens[name] = payload["token"]
        gm = Client(base, tokens["smoke_gm"])
        players = {name: Client(base, tokens[name]) for name in PLAYERS}

        def new_game(title: str) -> int:
            game = gm.post("/api/games/", {
                "ruleset": "combat_dice", "title": title, "turn_hours": 0,
                "turn_minutes": 1, "process_early": True})
            for client in players.values():
                client.post(f"/api/games/{game['id']}/seats/", {})
            started = gm.post(f"/api/games/{game['id']}/start/", {}, expect=200)
            assert started["status"] == "running"
            assert started["turn"]["number"] == 1
            return game["id"]

        lapsed = new_game("Smoke: nobody answers")  # only beat's sweep can move it on
        played = new_game("Smoke: played to the end")
        turns_sent = _play_to_the_end(stack, played, players)

        record = Client(base).get(f"/api/games/{played}/export/")
        verdict = verify_record(record)
        assert verdict.ok, verdict.error
        assert verdict.secret_checked
        assert verdict.checked_turns == len(record["turns"]) == turns_sent
        summary = gm.get(f"/api/games/{played}/")
        assert summary["secret"] == record["secret"]
        # The reports API is paginated (?after=N&limit=L, Link: rel="next"): read every page.
        reports: list[dict] = []
        while True:
            page = players[PLAYERS[0]].get(
                f"/api/games/{played}/reports/?after={len(reports)}&limit=40")
            if not page:
                break
            reports += page
        assert [r["turn"] for r in reports] == list(range(1, turns_sent + 1))
        assert all(r["public"]["markdown"] and r["mine"]["markdown"] for r in reports)

        _wait_for_deadline_sweep(stack, players[PLAYERS[0]], lapsed)
        assert any("succeeded" in stack.log(f"worker{n}") for n in (1, 2)), \
            "no worker logged a finished task"
        for n in (1, 2):
            assert "ready." in stack.log(f"worker{n}"), f"worker{n} never became ready"
        stack.check_alive()
    except BaseException:
        print(stack.dump_logs())
        raise
    finally:
        stack.stop()
        _cleanup_broker(queue)
        database.drop()


def _check_pages_and_static(base: str) -> None:
    """DEBUG=0: the lobby renders with hashed static names that whitenoise serves."""
    status, html, _ = Client(base).request("GET", "/")
    assert status == 200, html[:500]
    match = re.search(rb'(/static/[^"\']+\.[0-9a-f]{12}\.css)', html)
    assert match, "the lobby links no hashed stylesheet"
    status, css, headers = Client(base).request("GET", match.group(1).decode())
    assert status == 200 and css
    assert "max-age" in headers.get("Cache-Control", "")
    status, _, _ = Client(base).request("GET", "/static/does-not-exist.css")
    assert status == 404


def _play_to_the_end(stack: Stack, game_id: int, players: dict[str, Client]) -> int:
    """Each turn, every owing player sends orders; return the number of turns resolved.

    Each turn must move on within TURN_TIMEOUT of the first look at it (its orders go in
    at once): resolved early by a worker, not by its deadline a minute later."""
    number, moved_by = 0, stack.within(TURN_TIMEOUT)
    while True:
        assert time.monotonic() < moved_by, (
            f"game {game_id}: turn {number} did not move on within {TURN_TIMEOUT:.0f} s "
            "of its orders (or the test's budget ran out)")
        stack.check_alive()
        views = {name: c.get(f"/api/games/{game_id}/") for name, c in players.items()}
        first = next(iter(views.values()))
        if first["status"] == "finished":
            assert first["result"]["summary"]
            return first["turn"]["number"]
        if first["turn"]["number"] != number:
            number, moved_by = first["turn"]["number"], stack.within(TURN_TIMEOUT)
        sent = False
        for name, view in views.items():
            turn = view["turn"]
            mine = turn.get("my_orders")
            if turn["status"] == "open" and "my_prompt" in turn and not (
                    mine and not mine["withdrawn"]):
                assert _send_orders(players[name], game_id, turn["my_prompt"]), \
                    f"no order in the prompt of {name} was accepted: {turn['my_prompt']}"
                sent = True
        if not sent:
            time.sleep(0.1)


def _wait_for_deadline_sweep(stack: Stack, client: Client, game_id: int) -> None:
    """Game B's turn 1 passes its one-minute deadline; beat claims it, a worker resolves
    it with default orders, and the report says so. Waited for until SWEEP_MARGIN after
    the deadline the API gives (the server's clock is this machine's)."""
    game = client.get(f"/api/games/{game_id}/")
    deadline = datetime.fromisoformat(game["turn"]["deadline"])
    left = (deadline - datetime.now(UTC)).total_seconds()
    by = stack.within(max(left, 0) + SWEEP_MARGIN)
    while game["turn"]["number"] < 2:
        assert time.monotonic() < by, (
            f"the lapsed turn (deadline {deadline:%H:%M:%S}) was not resolved "
            f"{SWEEP_MARGIN:.0f} s after it (or the test's budget ran out)")
        stack.check_alive()
        time.sleep(0.5)
        game = client.get(f"/api/games/{game_id}/")
    report = client.get(f"/api/games/{game_id}/reports/1/")
    for seat in (s["name"] for s in game["seats"]):
        assert f"{seat} sent no orders in time" in report["public"]["markdown"]
    assert "deadline-sweep" in stack.log("beat") or "sweep_deadlines" in stack.log("beat")


def _cleanup_broker(queue: str) -> None:
    """Remove the private queue's keys from Redis (other brokers: nothing to do)."""
    if not BROKER_URL.startswith(("redis://", "rediss://")):
        return
    try:
        import redis

        client = redis.Redis.from_url(BROKER_URL)
        keys = list(client.scan_iter(match=f"*{queue}*", count=1000))
        if keys:
            client.delete(*keys)
    except Exception:  # noqa: BLE001 - cleanup must not mask the test's own outcome
        pass
