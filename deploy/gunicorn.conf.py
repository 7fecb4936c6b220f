"""Gunicorn settings for the web process: `gunicorn -c deploy/gunicorn.conf.py`.

Every value can be overridden from the environment (GM_BIND, GM_WEB_WORKERS, ...) so the
same file serves systemd, the compose file and the CI smoke test. The web process only
answers requests: turn resolution runs in `celery worker`, deadlines in `celery beat`.
"""

from __future__ import annotations

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


wsgi_app = "gm.wsgi:application"
# Behind nginx on the same host; the compose file sets GM_BIND=0.0.0.0:8000.
bind = os.environ.get("GM_BIND", "127.0.0.1:8000")
# Requests are short (reads, order submissions): a few sync workers with threads.
workers = _int("GM_WEB_WORKERS", min(2 * multiprocessing.cpu_count() + 1, 9))
threads = _int("GM_WEB_THREADS", 2)
worker_class = "gthread"
timeout = _int("GM_WEB_TIMEOUT", 30)
graceful_timeout = _int("GM_WEB_GRACEFUL_TIMEOUT", 20)
keepalive = 5
# Recycle workers now and then so a slow leak cannot grow without bound.
max_requests = _int("GM_WEB_MAX_REQUESTS", 2000)
max_requests_jitter = 200
# nginx sets X-Forwarded-Proto; trust it from the local proxy only (or as configured).
forwarded_allow_ips = os.environ.get("GM_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("GM_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("GM_WEB_LOG_LEVEL", "info")
# Load the app once in the master: faster forks, and a settings error stops startup.
preload_app = True
proc_name = "gm-web"
