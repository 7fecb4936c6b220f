"""Settings from the environment (12-factor).

With no variables set you get the embedded default: SQLite in ./var, Celery tasks run
in-process (eager), mail printed to the console. Production sets DATABASE_URL,
CELERY_BROKER_URL, SECRET_KEY, ALLOWED_HOSTS, EMAIL_URL etc. (see deploy/README.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(environ.Env().str("GM_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()
if (BASE_DIR / ".env").exists():
    env.read_env(BASE_DIR / ".env", overwrite=False)

# pytest (8.2+) sets PYTEST_VERSION for its run and every process it starts: tests may use
# the development key below and keep plain-http cookies; nothing else changes for them.
TESTING = "PYTEST_VERSION" in os.environ
# DEBUG=1 (`make run` sets it) is the local development server: the development key,
# plain http, static files straight from the apps. Django's own debug pages stay off even
# then: they show settings and every frame's local variables (hands, decks, secrets) to
# whoever triggers an error, and a 404 lists the URL patterns; the site's short error
# pages answer instead. GM_DEBUG_PAGES=1 as well turns Django's DEBUG on for development.
LOCAL_DEV = env.bool("DEBUG", default=False)
DEBUG = LOCAL_DEV and env.bool("GM_DEBUG_PAGES", default=False)
DEV_SECRET_KEY = "dev-only-insecure-key-change-me-0123456789abcdef"
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not (LOCAL_DEV or TESTING):
        # The key signs sessions, unsubscribe links and e-mail confirmations: a public
        # default would let anyone forge them.
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it to 50+ random characters (see deploy/env.example), "
            "or set DEBUG=1 for a local development server.")
    SECRET_KEY = DEV_SECRET_KEY
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env.str("SITE_URL", default="http://127.0.0.1:8000")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "gm.play",
    "gm.api",
    "gm.web",
    "gm.mail",
    "gm.referee",
    "gm.accounts",
    "axes",
    "gm.talk",
    "gm.absence",  # vacations, grace, "if I miss" orders, civil disorder, bot seats
    "gm.gmadj",  # issue 27: GM-adjudicated games (the adjudication desk)
    "gm.notify",  # issue 26: notifications under one budget per person
    "gm.substitutes",  # issue 25: substitutes, seat history, reliability
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "gm.accounts.middleware.BadInputMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into its 429 response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "gm.urls"
WSGI_APPLICATION = "gm.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [BASE_DIR / "templates"],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}")}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Writers wait for each other instead of failing at once (the sweep runs beside the web).
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
    DATABASES["default"]["OPTIONS"]["transaction_mode"] = "IMMEDIATE"
elif DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # A database host that does not answer fails the request instead of hanging it.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)
    # The web process keeps each thread's connection this many seconds instead of opening
    # one per request, and checks it before a request's first query (a restarted server
    # costs one reconnect, not a failed request). DATABASE_URL's ?conn_max_age=N and
    # ?conn_health_checks=… win; CONN_MAX_AGE=0 restores one connection per request.
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    if isinstance(DATABASES["default"]["CONN_HEALTH_CHECKS"], str):  # from the URL
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = (
            DATABASES["default"]["CONN_HEALTH_CHECKS"].lower() in env.BOOLEAN_TRUE_STRINGS)
# Celery worker processes keep their connections this long, health-checked, instead of
# one per task (gm/celery.py); the web process: CONN_MAX_AGE above.
GM_WORKER_CONN_MAX_AGE = env.int("GM_WORKER_CONN_MAX_AGE", default=300)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out account or address before any password check.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "lobby"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = env.str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
# The development server (Django's DEBUG off, see above) serves static files through
# whitenoise straight from the apps, re-read on change, with no collectstatic.
WHITENOISE_USE_FINDERS = LOCAL_DEV or DEBUG
WHITENOISE_AUTOREFRESH = LOCAL_DEV or DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": env.str(
        "STATICFILES_STORAGE",
        default="django.contrib.staticfiles.storage.StaticFilesStorage" if LOCAL_DEV or TESTING
        else "whitenoise.storage.CompressedManifestStaticFilesStorage")},
}

# --- Abuse limits -----------------------------------------------------------------------
# Rate limits and API throttles count in this cache: with several web processes it must be
# shared (e.g. CACHE_URL=redis://127.0.0.1:6379/1), else each process counts on its own.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://gm")}
# How many proxies (nginx = 1) stand between clients and Django: the client address is
# then the one that many entries from the right of X-Forwarded-For; 0 = REMOTE_ADDR.
GM_PROXY_COUNT = env.int("GM_PROXY_COUNT", default=0)
# Log-in throttling (django-axes, counted in the database): after this many failures an
# account from one address, and separately an address, is refused for the cool-off time,
# even with the right password. Web log-in, the admin and POST /api/token/ all count.
# Never an account on its own: usernames are public, and a stranger's wrong passwords
# from elsewhere would lock the player out (issue 29).
AXES_FAILURE_LIMIT = env.int("GM_LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = env.float("GM_LOGIN_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "gm.accounts.clientip.client_ip"
AXES_LOCKOUT_CALLABLE = "gm.accounts.views.locked_out"
AXES_VERBOSE = False
# Self-service sign-up: per address and window; e-mail confirmation links last this long.
GM_SIGNUP_LIMIT = env.int("GM_SIGNUP_LIMIT", default=5)
GM_SIGNUP_WINDOW = env.int("GM_SIGNUP_WINDOW", default=3600)
GM_CONFIRM_DAYS = env.int("GM_CONFIRM_DAYS", default=3)
# Games one user may create per day (web and API), and not-yet-started games held at once.
GM_GAMES_PER_DAY = env.int("GM_GAMES_PER_DAY", default=10)
GM_OPEN_GAMES_PER_USER = env.int("GM_OPEN_GAMES_PER_USER", default=10)
# API tokens expire this many days after they are issued; a user holds at most this many.
GM_API_TOKEN_DAYS = env.int("GM_API_TOKEN_DAYS", default=90)
GM_API_TOKENS_PER_USER = env.int("GM_API_TOKENS_PER_USER", default=10)
# One size limit for orders by web, API and mail (characters of order text).
GM_ORDERS_MAX_CHARS = env.int("GM_ORDERS_MAX_CHARS", default=20000)
# Press (private messages), per sending end (a seat, or the GM) of a game: characters per
# message, messages per window (seconds; a 429 beyond), and how long after one press mail
# to a reader further press from the same sender waits to go out folded into one mail.
GM_PRESS_MAX_CHARS = env.int("GM_PRESS_MAX_CHARS", default=20000)
GM_PRESS_LIMIT = env.int("GM_PRESS_LIMIT", default=10)
GM_PRESS_WINDOW = env.int("GM_PRESS_WINDOW", default=300)
GM_PRESS_FOLD_SECONDS = env.int("GM_PRESS_FOLD_SECONDS", default=300)
# Nesting depth of a JSON request body (a deeper one is refused with 400).
GM_JSON_MAX_DEPTH = env.int("GM_JSON_MAX_DEPTH", default=64)
# Form posts: Django refuses bigger bodies with 400 (mail webhooks have their own limit).
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=1024 * 1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "gm.accounts.tokens.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # DRF's browsable API, with a language and a name on its format menu (axe-core)
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer",
                                 "gm.api.renderers.BrowsableAPIRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "gm.api.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env.str("GM_API_ANON_RATE", default="300/min"),
        "user": env.str("GM_API_USER_RATE", default="1200/min"),
        "token": env.str("GM_API_TOKEN_RATE", default="20/min"),
    },
    "NUM_PROXIES": GM_PROXY_COUNT or None,
    "EXCEPTION_HANDLER": "gm.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tabletop GM API",
    "DESCRIPTION": "Asynchronous tabletop games: create, join, order, read reports.",
    "VERSION": "1",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Without deep links an operation's path is plain text inside its toggle button, not
    # a link nested in a button (axe-core's nested-interactive; a screen reader would
    # announce one control inside another).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
}

# --- Celery ---------------------------------------------------------------------------
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = env.bool("CELERY_TASK_EAGER_PROPAGATES", default=False)
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="gm")
# Mail tasks have a queue of their own (workers: `-Q gm` and `-Q gm-mail`, or one worker
# `-Q gm,gm-mail`), so a slow or hung mail server never delays turn resolution.
CELERY_MAIL_QUEUE = env.str("CELERY_MAIL_QUEUE", default=f"{CELERY_TASK_DEFAULT_QUEUE}-mail")
CELERY_TASK_ROUTES = {"gm.mail.tasks.*": {"queue": CELERY_MAIL_QUEUE},
                      "gm.notify.tasks.*": {"queue": CELERY_MAIL_QUEUE}}  # outbound too
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Workers keep trying to reach a broker that went away, for as long as it takes.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Publishing (from a web request or a task) gives up quickly when the broker is down: what
# it would have woken up is in the database and the periodic jobs pick it up.
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0,
                                    "interval_step": 0.5, "interval_max": 1}
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=4.0)
# Redis redelivers an unacknowledged task (its worker died) after this many seconds.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    # No outbound connection without a timeout: a broker that hangs fails the publish.
    "socket_timeout": 10.0, "socket_connect_timeout": 4.0}
GM_SWEEP_SECONDS = env.float("GM_SWEEP_SECONDS", default=5.0)
# A turn's resolution is queued with eta = its deadline once the deadline is this near
# (gm.play.sweep); the sweep above is the backstop. Keep it well under the visibility timeout.
GM_DEADLINE_LOOKAHEAD_SECONDS = env.float("GM_DEADLINE_LOOKAHEAD_SECONDS", default=60.0)
CELERY_BEAT_SCHEDULE = {
    "deadline-sweep": {"task": "gm.play.tasks.sweep_deadlines", "schedule": GM_SWEEP_SECONDS},
    # gm.notify's tick replaces the mail app's single reminder (issue 26): escalating
    # reminders, quiet-hours catch-ups, digests, webhook sends
    "notify-tick": {"task": "gm.notify.tasks.tick", "schedule": 60.0},
    "mail-pending": {"task": "gm.mail.tasks.deliver_pending", "schedule": 60.0},
}
# Periodic jobs that hosts without beat run from `run_deadlines --loop` and `serve`
# (dotted path -> seconds between runs); beat runs the same ones from CELERY_BEAT_SCHEDULE.
GM_PERIODIC = {"gm.notify.tasks.tick": 60, "gm.mail.tasks.deliver_pending": 60}
# A turn claimed for resolution but not finished within this many seconds is re-sent
# (its worker died and the broker did not redeliver): resolution is idempotent.
GM_RESOLVE_LEASE_SECONDS = env.int("GM_RESOLVE_LEASE_SECONDS", default=120)
# Deadline of an out-of-turn reaction window (games may override: option reaction_minutes).
GM_REACTION_MINUTES = env.int("GM_REACTION_MINUTES", default=60)

# --- Mail -----------------------------------------------------------------------------
EMAIL_CONFIG = env.email_url("EMAIL_URL", default="consolemail://")
vars().update(EMAIL_CONFIG)
# Seconds before a silent mail server is given up on (connect, greeting, each reply).
EMAIL_TIMEOUT = env.float("EMAIL_TIMEOUT", default=20.0)
# After the SMTP hand-off, how long to keep retrying the SENT mark through a database
# blip before leaving the row claimed (it is then re-sent, same Message-ID, after the lease).
GM_MAIL_MARK_RETRY_SECONDS = env.float("GM_MAIL_MARK_RETRY_SECONDS", default=60.0)
# Turn notices older than this are not sent at all (a restored backup, a long outage).
GM_MAIL_MAX_AGE_HOURS = env.float("GM_MAIL_MAX_AGE_HOURS", default=24.0)
# Message-IDs handed to the mail server are also noted here (Redis; empty = off), so a
# restored database or a missed SENT mark does not send them again. Default: the broker
# when it is Redis.
GM_MAIL_LEDGER_URL = env.str("GM_MAIL_LEDGER_URL", default=CELERY_BROKER_URL
                             if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
                             else "")
GM_MAIL_LEDGER_DAYS = env.float("GM_MAIL_LEDGER_DAYS", default=45.0)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="gm@localhost")
GM_MAIL_DOMAIN = env.str("GM_MAIL_DOMAIN", default="localhost")
GM_MAIL_LOCALPART = env.str("GM_MAIL_LOCALPART", default="play")
# The authserv-id our receiving mail server writes first in its Authentication-Results
# headers (e.g. "mx.gm.example.org"): those headers are trusted, and a From that fails
# DMARC there (or SPF/DKIM for its domain) is not read as orders. Empty: none is read.
GM_MAIL_AUTHSERV_ID = env.str("GM_MAIL_AUTHSERV_ID", default="")
ANYMAIL = env.dict("ANYMAIL", default={})
# Inbound provider webhooks that exist at /mail/anymail/<provider>/...: none by default
# (a 404). Each one listed needs ANYMAIL's WEBHOOK_SECRET or its provider's signing key,
# else it refuses every post and `manage.py check` fails with gm.E001 (gm/mail/webhook_gate.py).
GM_MAIL_WEBHOOKS = env.list("GM_MAIL_WEBHOOKS", default=[])
GM_MAIL_MAX_BYTES = env.int("GM_MAIL_MAX_BYTES", default=256 * 1024)
GM_MAIL_REPLY_LIMIT = env.int("GM_MAIL_REPLY_LIMIT", default=20)
GM_MAIL_REPLY_WINDOW = env.int("GM_MAIL_REPLY_WINDOW", default=3600)
GM_MAIL_REMIND_HOURS = env.int("GM_MAIL_REMIND_HOURS", default=12)
GM_MAIL_MAX_ATTEMPTS = env.int("GM_MAIL_MAX_ATTEMPTS", default=5)
GM_IMAP_HOST = env.str("GM_IMAP_HOST", default="localhost")
GM_IMAP_PORT = env.int("GM_IMAP_PORT", default=None)
GM_IMAP_SECURITY = env.str("GM_IMAP_SECURITY", default="ssl")  # ssl | starttls | none
GM_IMAP_USER = env.str("GM_IMAP_USER", default="")
GM_IMAP_PASSWORD = env.str("GM_IMAP_PASSWORD", default="")
GM_IMAP_FOLDER = env.str("GM_IMAP_FOLDER", default="INBOX")
GM_IMAP_DONE_FOLDER = env.str("GM_IMAP_DONE_FOLDER", default="")  # empty: mark as seen
GM_VERIFY_MAX_BYTES = env.int("GM_VERIFY_MAX_BYTES", default=20 * 1024 * 1024)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"},
                "mail.log": {"level": "WARNING"}},  # aiosmtpd's per-connection chatter
}

# --- Content-Security-Policy (django-csp 4) -------------------------------------------------
# No inline <script> anywhere; the templates' few inline event handlers are allowed one by
# one by hash (tests/gm/accounts/test_security_headers.py recomputes them from the
# templates, so a changed handler fails a test rather than silently breaking a page).
# Inline styles stay allowed: engines' SVG boards and the API docs use them.
CSP_SCRIPT_HASHES = [
    # templates/referee/amend.html: choosing a turn reloads the form
    "'sha256-osjxnKEPL/pQJbFk1dKsF7PYFmTyMWGmVSiL9inhxJY='",
]
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", "'unsafe-hashes'", *CSP_SCRIPT_HASHES],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

if not LOCAL_DEV:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Tests talk plain http to the test client and a live server; production never does.
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=not TESTING)
    SESSION_COOKIE_SECURE = not TESTING
    CSRF_COOKIE_SECURE = not TESTING
    # Two years, subdomains included (nginx in deploy/ sends the same header).
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=63072000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)

# --- gm.notify (issue 26) ---------------------------------------------------------------
# A webhook is switched off (and its owner told) after this many failed deliveries in a row.
GM_NOTIFY_WEBHOOK_MAX_FAILURES = env.int("GM_NOTIFY_WEBHOOK_MAX_FAILURES", default=5)
GM_NOTIFY_WEBHOOK_TIMEOUT = env.float("GM_NOTIFY_WEBHOOK_TIMEOUT", default=5.0)
# Plain http:// to the loopback only, for tests and local development.
GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL = env.bool("GM_NOTIFY_WEBHOOK_ALLOW_HTTP_LOCAL",
                                              default=False)
