"""Production settings: DEBUG off unless asked, no start without SECRET_KEY, headers.

Each check runs `manage.py` in a fresh process with the environment a server would have
(pytest's own variables removed, since settings let tests use the development key).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[3]
PRINT = ("from django.conf import settings as s; import json; print(json.dumps({"
         "'debug': s.DEBUG, 'hsts': s.SECURE_HSTS_SECONDS, 'sub': "
         "s.SECURE_HSTS_INCLUDE_SUBDOMAINS, 'redirect': s.SECURE_SSL_REDIRECT, "
         "'cookie': s.SESSION_COOKIE_SECURE}))")


def _server_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST", "GM_TEST", "DEBUG", "SECRET_KEY"))}
    env.update({"DJANGO_SETTINGS_MODULE": "gm.settings", **extra})
    return env


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=_server_env(**env),
                          capture_output=True, text=True, timeout=120)


def test_without_secret_key_a_production_process_refuses_to_start(tmp_path):
    done = _manage("check", GM_VAR_DIR=str(tmp_path))
    assert done.returncode != 0
    assert "SECRET_KEY is not set" in done.stderr


def test_debug_is_off_unless_asked_for_and_production_is_hardened(tmp_path):
    done = _manage("shell", "-c", PRINT, SECRET_KEY="k" * 60, GM_VAR_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr
    values = json.loads(done.stdout.strip().splitlines()[-1])
    assert values == {"debug": False, "hsts": 63072000, "sub": True, "redirect": True,
                      "cookie": True}


def test_debug_on_runs_with_the_development_key(tmp_path):
    done = _manage("check", DEBUG="1", GM_VAR_DIR=str(tmp_path))
    assert done.returncode == 0, done.stderr


def test_make_run_turns_debug_on_explicitly():
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^run demo migrate: export DEBUG \?= 1$", makefile, re.MULTILINE)


# --- Content-Security-Policy -------------------------------------------------------------
def _inline_handler_hashes() -> set[str]:
    found = set()
    for path in (ROOT / "templates").rglob("*.html"):
        for value in re.findall(r'\son[a-z]+="([^"]*)"', path.read_text()):
            digest = hashlib.sha256(html.unescape(value).encode()).digest()
            found.add(f"'sha256-{base64.b64encode(digest).decode()}'")
    return found


def test_templates_have_no_inline_scripts_and_every_handler_is_allowed_by_hash():
    for path in (ROOT / "templates").rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*>", path.read_text()):
            assert "src=" in tag, f"{path}: inline <script> (CSP allows none): {tag}"
    assert _inline_handler_hashes() == set(settings.CSP_SCRIPT_HASHES)


@pytest.mark.django_db
def test_pages_carry_the_policy(client, make_game, players):
    game = make_game("tally", 2)
    client.force_login(players[0])
    for url in ("/", f"/games/{game.pk}/", "/login/", "/api/docs/"):
        policy = client.get(url)["Content-Security-Policy"]
        directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
        assert directives["default-src"] == "'self'"
        assert "'unsafe-inline'" not in directives["script-src"]
        assert directives["object-src"] == "'none'"
        assert directives["frame-ancestors"] == "'none'"


def test_nginx_sends_a_long_hsts_everywhere():
    conf = (ROOT / "deploy" / "nginx" / "gm.conf").read_text()
    ages = [int(a) for a in re.findall(r'Strict-Transport-Security "max-age=(\d+); '
                                       r'includeSubDomains" always', conf)]
    assert len(ages) == 2 and min(ages) >= 31536000  # server level + the /static/ block
    assert conf.count("proxy_hide_header Strict-Transport-Security") == \
        conf.count("proxy_pass http://gm_web")


DATABASES_PRINT = ("from django.conf import settings as s; import json; d = s.DATABASES['default'];"
                   " print(json.dumps({k: d.get(k) for k in ('ENGINE', 'CONN_MAX_AGE', "
                   "'CONN_HEALTH_CHECKS')}))")


def _database_settings(tmp_path, **env: str) -> dict:
    """The web process's database settings for this environment (no connection made)."""
    done = _manage("shell", "-c", DATABASES_PRINT, SECRET_KEY="k" * 60,
                   GM_VAR_DIR=str(tmp_path), **env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_web_process_keeps_health_checked_postgresql_connections(tmp_path):
    url = "postgres://gm@127.0.0.1:5432/gm"
    assert _database_settings(tmp_path, DATABASE_URL=url) == {
        "ENGINE": "django.db.backends.postgresql", "CONN_MAX_AGE": 60,
        "CONN_HEALTH_CHECKS": True}
    # The environment sets the age (0 = one connection per request) ...
    assert _database_settings(tmp_path, DATABASE_URL=url, CONN_MAX_AGE="0")[
        "CONN_MAX_AGE"] == 0
    # ... and DATABASE_URL's own options win over both defaults.
    got = _database_settings(tmp_path, CONN_MAX_AGE="30", DATABASE_URL=(
        url + "?conn_max_age=5&conn_health_checks=false"))
    assert (got["CONN_MAX_AGE"], got["CONN_HEALTH_CHECKS"]) == (5, False)


def test_sqlite_keeps_django_s_defaults(tmp_path):
    got = _database_settings(tmp_path, CONN_MAX_AGE="30",
                             DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert got["ENGINE"] == "django.db.backends.sqlite3"
    assert (got["CONN_MAX_AGE"], got["CONN_HEALTH_CHECKS"]) == (0, False)


def test_the_test_run_s_own_database_follows_the_same_rule():
    conf = settings.DATABASES["default"]
    if conf["ENGINE"].endswith("postgresql"):
        assert conf["CONN_MAX_AGE"] > 0 and conf["CONN_HEALTH_CHECKS"] is True
    else:
        assert not conf.get("CONN_MAX_AGE") and not conf.get("CONN_HEALTH_CHECKS")
