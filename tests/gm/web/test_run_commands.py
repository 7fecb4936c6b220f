"""`make run`'s commands: the demo does not flood the console, links follow the served
address, and the server logs a 403 as one line rather than a traceback."""

from __future__ import annotations

import io
import logging

import pytest
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)  # commits for real, so mail goes out as in `make run`
def test_demo_writes_its_notices_to_files_with_links_to_the_served_address(settings, tmp_path,
                                                                            capsys):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    settings.VAR_DIR = tmp_path
    settings.SITE_URL = "http://127.0.0.1:9123"
    out = io.StringIO()
    call_command("demo", stdout=out)
    printed = out.getvalue().splitlines() + capsys.readouterr().out.splitlines()
    assert len(printed) <= 12, printed  # a line per demo game, the logins, where mail went
    assert "Demo logins" in out.getvalue()
    mails = "".join(p.read_text() for p in (tmp_path / "mail").iterdir())
    assert "http://127.0.0.1:9123/games/" in mails and ":8000" not in mails


def test_serve_logs_a_403_without_its_traceback(gm_user, players, make_game):
    from gm.web.management.commands.serve import _NoTracebackBelow500

    game = make_game("tally", 1)
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger("django.request")
    handler, quiet = Keep(), _NoTracebackBelow500()
    logger.addHandler(handler)
    logger.addFilter(quiet)
    try:
        c = Client()
        c.force_login(players[0])
        assert c.get(f"/games/{game.pk}/gm/").status_code == 403
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(quiet)
    forbidden = [r for r in records if getattr(r, "status_code", None) == 403]
    assert forbidden and all(r.exc_info is None for r in forbidden)


@pytest.mark.parametrize("addrport, site", [("127.0.0.1:8765", "http://127.0.0.1:8765"),
                                            ("8766", "http://127.0.0.1:8766")])
def test_serve_links_follow_the_served_address_unless_site_url_is_set(
        settings, monkeypatch, addrport, site):
    from gm.web.management.commands import serve

    monkeypatch.delenv("SITE_URL", raising=False)
    settings.SITE_URL = "http://127.0.0.1:8000"
    ran = []
    monkeypatch.setattr(serve, "call_command", lambda *a, **k: ran.append(a))
    monkeypatch.setattr(serve, "_sweep_forever", lambda *a, **k: None)
    call_command("serve", addrport, smtp_port=0, stdout=io.StringIO())
    assert ran == [("runserver", addrport)]
    assert site == settings.SITE_URL
    monkeypatch.setenv("SITE_URL", "https://games.example.org")
    settings.SITE_URL = "https://games.example.org"
    call_command("serve", addrport, smtp_port=0, stdout=io.StringIO())
    assert settings.SITE_URL == "https://games.example.org"


def test_make_run_shows_the_sites_own_error_pages_never_djangos_debug_pages(tmp_path):
    """`make run` (DEBUG=1: the development key, plain http, static files from the apps)
    answers a wrong address or a crash with the site's short pages: Django's debug pages
    list the URL patterns, settings and every frame's local variables (hands, decks,
    secrets) and do not fit a phone. GM_DEBUG_PAGES=1 brings them back for development."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    probe = (
        "import json; from django.conf import settings; from django.test import Client; "
        "from django.test.utils import setup_test_environment; setup_test_environment(); "
        "from django.core.management import call_command; "
        "call_command('migrate', verbosity=0); c = Client(raise_request_exception=False); "
        "miss = c.get('/games/987654/'); nowhere = c.get('/no/such/page/'); "
        "css = c.get('/static/web/site.css'); "
        "print(json.dumps({'debug': settings.DEBUG, 'miss': [miss.status_code, "
        "miss.content.decode()], 'nowhere': [nowhere.status_code, nowhere.content.decode()], "
        "'css': css.status_code, 'redirect': settings.SECURE_SSL_REDIRECT}))")
    # `make run` is the embedded default: none of the services a CI pass points at
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTEST", "GM_TEST", "DEBUG", "SECRET_KEY", "GM_DEBUG",
                                "DATABASE_URL", "CELERY_", "EMAIL_URL"))}
    env.update({"DJANGO_SETTINGS_MODULE": "gm.settings", "DEBUG": "1",
                "GM_VAR_DIR": str(tmp_path)})
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", probe], cwd=root,
                          env=env, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["debug"] is False and seen["redirect"] is False and seen["css"] == 200
    for status, body in (seen["miss"], seen["nowhere"]):
        assert status == 404 and "DEBUG = True" not in body and "URLconf" not in body
        assert "Back to the lobby" in body
    env["GM_DEBUG_PAGES"] = "1"
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c",
                           "from django.conf import settings; print(settings.DEBUG)"],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip().splitlines()[-1] == "True", done.stderr
