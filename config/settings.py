"""Settings, read from the environment. Bad values fail loudly at import time."""

import os
import re
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import dj_database_url
from corsheaders.defaults import default_headers as cors_default_headers
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use one of 1/0, true/false)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={raw!r} must be >= {minimum}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_url(name: str, default: str, *, schemes: set[str]) -> str:
    raw = os.environ.get(name, default)
    parsed = urlparse(raw)
    if parsed.scheme not in schemes or (parsed.scheme.startswith("http") and not parsed.netloc):
        raise ImproperlyConfigured(
            f"{name}={raw!r} is not a valid URL (scheme must be one of {sorted(schemes)})"
        )
    return raw


# --- core -----------------------------------------------------------------------------------
# Off unless asked for: `make run` (scripts/run_dev.sh) sets DEBUG=true for itself.
DEBUG = env_bool("DEBUG", False)

DEV_SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"  # noqa: S105
# Secrets that appear in this repository (or Django's generated dev keys): anyone can read them,
# so with DEBUG off they are refused rather than used to sign sessions, tokens and puzzles.
PUBLIC_SECRETS = frozenset({DEV_SECRET_KEY, "change-me-to-a-long-random-string", "change-me"})


# Django's own deploy check (security.W009) asks the same of SECRET_KEY.
MIN_SECRET_LENGTH = 50
GENERATE_SECRET = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"


def refuse_weak_secret(name: str, value: str) -> None:
    """With DEBUG off a secret must be set, unpublished and long: it signs sessions, links and
    tokens (SECRET_KEY) or seeds every Daily Puzzle (PUZZLE_SECRET), so it is generated once and
    kept (README, "Production": ``make secrets`` writes both into .env)."""
    if not value:
        raise ImproperlyConfigured(
            f"{name} must be set when DEBUG is off: generate it once (e.g. `make secrets`, or "
            f"{GENERATE_SECRET}) and keep it"
        )
    if value in PUBLIC_SECRETS or value.startswith("django-insecure"):
        raise ImproperlyConfigured(
            f"{name} is a published default: set it to a long random value, e.g. the output of "
            f"{GENERATE_SECRET}"
        )
    if len(value) < MIN_SECRET_LENGTH or len(set(value)) < 5:
        raise ImproperlyConfigured(
            f"{name} is too weak ({len(value)} characters): use at least {MIN_SECRET_LENGTH} "
            f"random ones, e.g. the output of {GENERATE_SECRET}"
        )


SECRET_KEY = env_str("SECRET_KEY")
if not DEBUG:
    refuse_weak_secret("SECRET_KEY", SECRET_KEY)
elif not SECRET_KEY:
    SECRET_KEY = DEV_SECRET_KEY

# Seeds the Daily Puzzle together with the date: without it anyone could compute tomorrow's
# puzzle and its solution from the source. Its own value, never SECRET_KEY's: rotating the key
# (sessions, links) must not change every puzzle, past ones included.
PUZZLE_SECRET = env_str("PUZZLE_SECRET")
if not DEBUG:
    refuse_weak_secret("PUZZLE_SECRET", PUZZLE_SECRET)
    if PUZZLE_SECRET == SECRET_KEY:
        raise ImproperlyConfigured(
            "PUZZLE_SECRET must differ from SECRET_KEY (rotating SECRET_KEY must not change the "
            "Daily Puzzles)"
        )
elif not PUZZLE_SECRET:
    PUZZLE_SECRET = SECRET_KEY  # development only

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

SITE_BASE_URL = env_url("SITE_BASE_URL", "http://127.0.0.1:8000", schemes={"http", "https"})
SITE_BASE_URL = SITE_BASE_URL.rstrip("/")

# --- HTTPS (python manage.py check --deploy; README "Production") ----------------------------
# With DEBUG off, cookies are HTTPS-only and plain HTTP is redirected unless switched off (a
# local stack without TLS, or a proxy that redirects itself). HSTS is opt-in: browsers remember
# it for SECURE_HSTS_SECONDS, so a wrong value cannot be taken back.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
# Health probes come over plain HTTP from inside the container network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Behind a TLS-terminating proxy: the header it sets (e.g. X-Forwarded-Proto) tells Django the
# request came over HTTPS. Only set it when the proxy always sets or overwrites that header,
# or a client could claim HTTPS itself.
_proxy_ssl_header = env_str("SECURE_PROXY_SSL_HEADER", "").strip()
if _proxy_ssl_header:
    if not re.fullmatch(r"[A-Za-z0-9-]+", _proxy_ssl_header):
        raise ImproperlyConfigured(
            f"SECURE_PROXY_SSL_HEADER={_proxy_ssl_header!r} is not a header name "
            "(e.g. X-Forwarded-Proto)"
        )
    SECURE_PROXY_SSL_HEADER = (
        "HTTP_" + _proxy_ssl_header.upper().replace("-", "_"),
        "https",
    )

# --- CORS (browser clients on another origin) -------------------------------------------------
CORS_ALLOWED_ORIGINS = env_list("CORS_ALLOWED_ORIGINS", [])
for _origin in CORS_ALLOWED_ORIGINS:
    _parsed = urlparse(_origin)
    if _parsed.scheme not in {"http", "https"} or not _parsed.netloc or _parsed.path:
        raise ImproperlyConfigured(
            f"CORS_ALLOWED_ORIGINS: {_origin!r} is not an origin (scheme://host[:port], no path)"
        )
CORS_URLS_REGEX = r"^/api/.*$"
# Tokens travel in the Authorization header, never in cookies: no credentials mode needed.
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_HEADERS = (*cors_default_headers, "idempotency-key", "if-none-match")
CORS_EXPOSE_HEADERS = ["ETag", "Retry-After", "Content-Language"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # Before staticfiles: runserver leaves static files to WhiteNoise too, as in production.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "corsheaders",
    "rest_framework",
    "rest_framework.authtoken",  # its table held the tokens before accounts.Device (0006)
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not from a CDN
    "config.apps.ProjectConfig",  # start-up hooks (config.unknown_fields)
    "accounts",
    "games",
    "games.crazy10s.puzzles",
    "games.moderation",
    "games.notifications",
    "live",
    "games.tables",
    "games.correspondence",  # vacations, the archive, exports, replays, spectators
    "social",
    "django_htmx",
    "web",  # the players' web client, served at /
]

# Game kinds (``games.kinds.base.GameKind``), by dotted path; the first is the default kind.
# ``EXTRA_GAME_KINDS`` (comma-separated dotted paths) adds more: each one's package becomes an
# installed app too, so its templates, static files and catalogs are found (the tests register
# a small third kind this way, ARCHITECTURE.md "Adding a game kind").
GAME_KINDS = [
    "games.crazy10s.kind.Crazy10sKind",
    "games.crazy_eights.kind.CrazyEightsKind",
    *env_list("EXTRA_GAME_KINDS", []),
]
INSTALLED_APPS += [path.rsplit(".", 2)[0] for path in GAME_KINDS[2:]]

# What other apps add to a player's public profile (social.selectors.profile): dotted paths
# of functions ``f(user) -> dict`` (the Daily Puzzle's streaks).
SOCIAL_PROFILE_EXTRAS = ["games.crazy10s.puzzles.selectors.profile_extras"]
# The same for a player's own account (``GET me``) and their account export.
ACCOUNT_PROFILE_EXTRAS = ["games.crazy10s.puzzles.selectors.profile_extras"]
ACCOUNT_EXPORT_EXTRAS = ["games.crazy10s.puzzles.selectors.export_extras"]
# Called once at ASGI lifespan startup, in the server's event loop (config imports no app).
ASGI_STARTUP_HOOKS = [
    "live.shutdown.install_signal_handlers",
    "config.gc_tuning.freeze_after_startup",
]
# The start-up's objects left out of the garbage collector's full walks (config/gc_tuning.py).
WEB_GC_FREEZE = env_bool("WEB_GC_FREEZE", True)

MIDDLEWARE = [
    # First: the request id, the log line and the API's error envelope cover every answer.
    "config.middleware.RequestMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in player's saved language wins over Accept-Language.
    "web.middleware.UserLanguageMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Redis/broker down or hung: 503 + Retry-After in the error envelope instead of a 500.
    "config.unavailable.ServiceUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# Threads per ASGI process for the sync views (the whole API but the event streams): see
# config/asgi.py. Like gunicorn's --threads for the WSGI set-up.
ASGI_SYNC_THREADS = env_int("ASGI_SYNC_THREADS", 8, minimum=1)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "web.context.site",
            ],
        },
    },
]

# The web client's sign-in page; a signed-out visitor comes back to the page they asked for.
LOGIN_URL = "web:signin"
LOGIN_REDIRECT_URL = "web:home"
# How often a game page without an event stream asks for news (seconds, while visible).
WEB_POLL_SECONDS = env_int("WEB_POLL_SECONDS", 5, minimum=1)

# --- database -------------------------------------------------------------------------------
_DEFAULT_DB_URL = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASE_URL = env_str("DATABASE_URL", "") or _DEFAULT_DB_URL
try:
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=env_int("DB_CONN_MAX_AGE", 0, minimum=0),
            # A persistent connection is checked (SELECT 1) before the first query of each
            # request that reuses it: one the database dropped (a restart, a failover) is
            # replaced instead of failing the request.
            conn_health_checks=env_bool("DB_CONN_HEALTH_CHECKS", False),
        )
    }
except Exception as exc:  # dj_database_url raises several types on garbage
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not usable: {exc}") from exc
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # An unreachable server fails a request (and /healthz) in seconds instead of hanging.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5, minimum=1)
    )
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web + worker) share the file in embedded mode.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- accounts: devices (django-rest-knox), signed links ----------------------------------------
# One token per sign-in (``accounts.Device``, knox's abstract token model plus a name and the
# time of last use). Keys are stored as SHA-512 digests; ``Authorization: Token <key>`` as
# before. A token unused for ACCOUNT_TOKEN_IDLE_DAYS expires (its expiry moves on with each
# use, written at most once a minute).
KNOX_TOKEN_MODEL = "accounts.Device"
# knox's own migrations create its (swapped-out, unused) AuthToken table: skip them.
MIGRATION_MODULES = {"knox": None}
ACCOUNT_TOKEN_IDLE_DAYS = env_int("ACCOUNT_TOKEN_IDLE_DAYS", 90, minimum=1)
REST_KNOX = {
    "TOKEN_TTL": timedelta(days=ACCOUNT_TOKEN_IDLE_DAYS),
    "AUTO_REFRESH": True,
    "MIN_REFRESH_INTERVAL": 60,
    "AUTH_HEADER_PREFIX": "Token",
}
# Email verification links are valid this long; password reset links one hour (single use).
ACCOUNT_VERIFY_EMAIL_DAYS = env_int("ACCOUNT_VERIFY_EMAIL_DAYS", 3, minimum=1)
ACCOUNT_RESET_PASSWORD_MINUTES = env_int("ACCOUNT_RESET_PASSWORD_MINUTES", 60, minimum=1)
# Game emails go only to verified addresses. `make run` (emails printed to the console, where
# nobody can click a link) turns this off for itself.
ACCOUNT_REQUIRE_VERIFIED_EMAIL = env_bool("ACCOUNT_REQUIRE_VERIFIED_EMAIL", True)
# A deleted account's username is free for others after this.
ACCOUNT_USERNAME_HOLD_DAYS = env_int("ACCOUNT_USERNAME_HOLD_DAYS", 30, minimum=0)

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- redis / cache --------------------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "") or None
if REDIS_URL:
    REDIS_URL = env_url("REDIS_URL", REDIS_URL, schemes={"redis", "rediss", "unix"})



def _next_redis_db(url: str) -> str:
    """``url`` with the following database number (db 0 -> db 1): the cache's default.

    The broker's queues and the cache must not share a database: clearing the cache (FLUSHDB)
    would drop every queued task with it.
    """
    parsed = urlparse(url)
    if parsed.scheme == "unix":
        return url  # a socket URL names its db in the query string: set CACHE_REDIS_URL
    path = parsed.path.strip("/")
    try:
        db = int(path or 0)
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL={url!r}: the path must be a db number") from None
    return parsed._replace(path=f"/{db + 1}").geturl()


# Redis hung (not down) would block every web thread on a cache read without these.
REDIS_SOCKET_CONNECT_TIMEOUT = float(env_str("REDIS_SOCKET_CONNECT_TIMEOUT", "0.5") or 0.5)
REDIS_SOCKET_TIMEOUT = float(env_str("REDIS_SOCKET_TIMEOUT", "1") or 1)

if REDIS_URL:
    CACHE_REDIS_URL = env_url(
        "CACHE_REDIS_URL", env_str("CACHE_REDIS_URL", "") or _next_redis_db(REDIS_URL),
        schemes={"redis", "rediss", "unix"},
    )
    if CACHE_REDIS_URL == REDIS_URL:
        raise ImproperlyConfigured(
            "CACHE_REDIS_URL must name another Redis database than REDIS_URL (the broker's): "
            "clearing the cache would drop the queued tasks"
        )
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",  # one connection pool per process
            "LOCATION": CACHE_REDIS_URL,
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX", "c10s"),
            "OPTIONS": {
                "socket_connect_timeout": REDIS_SOCKET_CONNECT_TIMEOUT,
                "socket_timeout": REDIS_SOCKET_TIMEOUT,
                "retry_on_timeout": False,
            },
        }
    }
else:
    # File-based so that throttling is shared between processes in embedded mode.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }

# --- i18n -----------------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("pt-br", "Português (Brasil)"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- static files ---------------------------------------------------------------------------
# WhiteNoise serves them in every set-up (runserver, gunicorn, the container): compressed, with
# content-hashed names cached for ever. `collectstatic` fills STATIC_ROOT (make run and the
# Dockerfile run it); with DEBUG off a file missing from its manifest is an error.
STATIC_URL = "static/"
STATIC_ROOT = Path(env_str("STATIC_ROOT", "") or VAR_DIR / "static")
if not os.environ.get("STATIC_ROOT"):
    STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise warns on every start without it
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- email ----------------------------------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)
# --- web push (games/notifications/push.py) ------------------------------------------------
# The application server's VAPID key pair (RFC 8292): the private key (base64url of the raw
# 32 bytes or of its DER, or a PEM), its public half derived from it. Without it push delivery
# is off (logged once) and email works as before; `make run` makes a development pair under
# var/ (VAPID_PRIVATE_KEY_FILE) the first time.
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_PRIVATE_KEY_FILE = env_str("VAPID_PRIVATE_KEY_FILE", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", "mailto:noreply@localhost")
# Seconds to connect to / wait for a push service: a hung one never holds a worker long.
PUSH_TIMEOUT_SECONDS = env_int("PUSH_TIMEOUT_SECONDS", 5, minimum=1)
# A turn pushed to a device is emailed only if it is still waiting after this (unless the
# player chose both); 0 emails at once, as without push.
PUSH_EMAIL_DELAY_MINUTES = env_int("PUSH_EMAIL_DELAY_MINUTES", 15, minimum=0)
# Subscriptions whose endpoint is plain http or a private/loopback address: only for
# development and the tests' push service on loopback, never in production.
PUSH_ALLOW_PRIVATE_ENDPOINTS = env_bool("PUSH_ALLOW_PRIVATE_ENDPOINTS", False)

EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Crazy10s Online <noreply@localhost>")

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK: dict[str, Any] = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token/session authentication that also switches to the user's saved language.
        "accounts.authentication.LanguageTokenAuthentication",  # accounts.Device tokens (knox)
        "accounts.authentication.LanguageSessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "EXCEPTION_HANDLER": "config.exceptions.exception_handler",
    # JSON only (nothing uploads files; a form or multipart body answers 415), with a nesting
    # limit (a deep body is a 400, not a RecursionError). The body is marked as the client's:
    # fields nobody takes are refused (unknown_fields).
    "DEFAULT_PARSER_CLASSES": ["config.parsers.JSONParser"],
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    "DEFAULT_SCHEMA_CLASS": "config.schema.AutoSchema",
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_THROTTLE_RATES": {
        "login": env_str("THROTTLE_LOGIN", "10/min"),
        "register": env_str("THROTTLE_REGISTER", "5/min"),
        # games: POST games, moves, preview, resign (per user)
        "game_writes": env_str("THROTTLE_GAME_WRITES", "600/min"),
        # social (per user): chat messages, rematch offers, friend requests
        "chat": env_str("THROTTLE_CHAT", "10/min"),
        "rematch": env_str("THROTTLE_REMATCH", "10/hour"),
        "friend_requests": env_str("THROTTLE_FRIEND_REQUESTS", "30/hour"),
        # accounts: verification email resends (per user), reset requests (per client address
        # and per address asked for, known or not), reports (per user)
        "email_resend": env_str("THROTTLE_EMAIL_RESEND", "3/hour"),
        "password_reset": env_str("THROTTLE_PASSWORD_RESET", "10/hour"),
        "password_reset_email": env_str("THROTTLE_PASSWORD_RESET_EMAIL", "3/hour"),
        "reports": env_str("THROTTLE_REPORTS", "30/hour"),
        # tables: lookups and joins of codes that name no table, per user and per address
        "table_misses": env_str("THROTTLE_TABLE_MISSES", "20/hour"),
        "table_misses_address": env_str("THROTTLE_TABLE_MISSES_ADDRESS", "60/hour"),
    },
}
# --- throttling: trusted proxies, per-account login rate (config/throttling.py) ---------------
# X-Forwarded-For is only believed behind this many trusted proxies (0: the socket address).
REST_FRAMEWORK["NUM_PROXIES"] = env_int("NUM_PROXIES", 0, minimum=0)
# Logins per account (the submitted name, any case or look-alike), on top of "login" per address.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["login_account"] = env_str(
    "THROTTLE_LOGIN_ACCOUNT", "30/hour"
)
# --- end of throttling block ------------------------------------------------------------------

SPECTACULAR_SETTINGS: dict[str, Any] = {
    "TITLE": "Crazy10s Online API",
    "DESCRIPTION": "Asynchronous Crazy10s number-tile games against people and the computer.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI's files from drf-spectacular-sidecar: the docs work offline and never change
    # under us (a CDN served an unpinned latest).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "ComputerLevelEnum": "games.api.serializers.LEVELS",
        "OutcomeEnum": "games.api.serializers.OUTCOMES",
        "GameKindEnum": "games.api.serializers.KIND_NAMES",
        "MoveKindEnum": "games.api.serializers.MOVE_KINDS",  # history and analysis
        "TrueEnum": [(True, True)],  # {"random": true}, a wild tile
        "ReportInputReasonEnum": "games.moderation.models.Report.Reason",  # in both ways to report
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.schema.require_bodies_that_need_a_property",
        "config.schema.close_request_objects",  # as config.unknown_fields enforces
        "config.schema.request_defaults_in_words",  # omittable for openapi-typescript too
        "config.schema.add_links",  # where an answer leads (clients, Schemathesis's stateful run)
        "live.schema.add_event_streams",  # the async SSE views (live/) DRF cannot see
        "config.schema_responses.add_responses",  # every status and header an answer has
        "config.schema.anonymous_operations_without_security",  # `security: []`, not [{}]
        "config.schema.overlapping_unions_as_any_of",  # a resignation fits every kind's entry
    ],
}

# --- Celery ---------------------------------------------------------------------------------
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Every task has time limits (tasks may set tighter ones); they stay below the broker's
# visibility timeout, or a task still running would be delivered a second time.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 25, minimum=1)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 35, minimum=1)
if CELERY_TASK_SOFT_TIME_LIMIT >= CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_SOFT_TIME_LIMIT must be below CELERY_TASK_TIME_LIMIT")
if REDIS_URL:
    CELERY_BROKER_URL = REDIS_URL
    # At-least-once delivery (acks_late + reject_on_worker_lost above, every task idempotent).
    # A message taken by a worker that dies stays "unacked" in Redis until it is older than
    # the visibility timeout; a live worker then restores it. Restore scans run every
    # unacked_restore_interval * unacked_restore_throttle seconds (kombu's defaults: 10 * 10),
    # so 45 s + 5 * 1 s brings a lost task back in under a minute. The timeout must exceed
    # the longest task and retry countdown (tasks cap their backoff at 30 s), or a task still
    # running would be delivered a second time. Tests shorten it with CELERY_VISIBILITY_TIMEOUT.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, Any] = {
        "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 45, minimum=1),
        "unacked_restore_interval": env_int("CELERY_UNACKED_RESTORE_INTERVAL", 5, minimum=1),
        "unacked_restore_throttle": 1,
        # A hung Redis must not hold a web request: publishing after a move gives up fast
        # (the move is committed, the sweeps send what the lost message announced).
        "socket_connect_timeout": REDIS_SOCKET_CONNECT_TIMEOUT,
        "socket_timeout": REDIS_SOCKET_TIMEOUT,
    }
    CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_CONNECT_TIMEOUT
    # One quick retry, then the publish fails (logged): at most ~2 socket timeouts per request.
    CELERY_TASK_PUBLISH_RETRY_POLICY = {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.1,
        "interval_max": 0.1,
    }
else:
    _CELERY_DIR = VAR_DIR / "celery"
    _queue_dir = _CELERY_DIR / "queue"
    _processed_dir = _CELERY_DIR / "processed"
    _control_dir = _CELERY_DIR / "control"  # kombu's default is ./control in the working dir
    for _d in (_queue_dir, _processed_dir, _control_dir):
        _d.mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(_processed_dir),
        "store_processed": False,
        "control_folder": str(_control_dir),
    }
# Queues per task name (GAMES_AI_QUEUE, NOTIFY_QUEUE), decided where the tasks are sent from.
CELERY_TASK_ROUTES = ("games.dispatch.route_task",)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# One scheduler however many beats run (config/beat.py): the others stand by, and one takes
# over within this many seconds after the holder died (at once when it stopped cleanly).
CELERY_BEAT_SCHEDULER = "config.beat:LockedScheduler"
CELERY_BEAT_LOCK_SECONDS = env_int("CELERY_BEAT_LOCK_SECONDS", 30, minimum=3)
# Other apps add entries: CELERY_BEAT_SCHEDULE["name"] = {"task": ..., "schedule": ...}
CELERY_BEAT_SCHEDULE: dict[str, dict] = {}
# A computer turn whose task has not started this long after the turn began (beyond the pause
# between computer turns), and that no worker is playing, is queued again by the sweep
# (games/turn_locks.py): a worker killed mid-turn keeps a player waiting seconds, not the
# broker's visibility timeout.
GAMES_AI_TURN_START_SECONDS = env_int("GAMES_AI_TURN_START_SECONDS", 4, minimum=1)
GAMES_AI_SWEEP_SECONDS = env_int("GAMES_AI_SWEEP_SECONDS", 2, minimum=1)
CELERY_BEAT_SCHEDULE["games-sweep-ai-turns"] = {
    "task": "games.sweep_ai_turns",
    # re-queues computer turns nobody plays (a lost message, a worker that died)
    "schedule": float(GAMES_AI_SWEEP_SECONDS),
}
CELERY_BEAT_SCHEDULE["puzzles-ensure-daily"] = {
    "task": "puzzles.ensure_daily_puzzles",
    "schedule": 3600.0,  # creates today's and tomorrow's (UTC) Daily Puzzle if missing
}
CELERY_BEAT_SCHEDULE["clocks-sweep-expired-turns"] = {
    "task": "clocks.sweep_expired_turns",
    "schedule": 20.0,  # plays turns past their deadline as timeout passes
}
CELERY_BEAT_SCHEDULE["correspondence-end-vacations"] = {
    "task": "correspondence.end_vacations",
    "schedule": 60.0,  # ends vacations whose time is up: their turn clocks resume
}
CELERY_BEAT_SCHEDULE["social-sweep-ratings"] = {
    "task": "social.sweep_ratings",
    "schedule": 60.0,  # rates finished games whose rating message was lost
}
# Tests and benches shorten the sweeps (NOTIFY_SWEEP_SECONDS) and the ages below.
NOTIFY_SWEEP_SECONDS = env_int("NOTIFY_SWEEP_SECONDS", 20, minimum=1)
CELERY_BEAT_SCHEDULE["notifications-sweep"] = {
    "task": "notifications.sweep",
    # gathered/digest emails that are due, deadline reminders, lost sends
    "schedule": float(NOTIFY_SWEEP_SECONDS),
}
CELERY_BEAT_SCHEDULE["notifications-sweep-outbox"] = {
    "task": "notifications.sweep_outbox",
    "schedule": float(NOTIFY_SWEEP_SECONDS),  # game events whose message was lost
}
CELERY_BEAT_SCHEDULE["notifications-purge-old"] = {
    "task": "notifications.purge_old",
    "schedule": 3600.0,  # claims and outbox rows past NOTIFY_RETENTION_DAYS
}
CELERY_BEAT_SCHEDULE["accounts-sweep"] = {
    "task": "accounts.sweep",
    "schedule": 3600.0,  # expired device tokens; usernames of deleted accounts past the hold
}
CELERY_BEAT_SCHEDULE["games-sweep-analysis"] = {
    "task": "games.sweep_analysis",
    "schedule": 60.0,  # moves whose "% of best" analysis message was lost
}
CELERY_BEAT_SCHEDULE["games-purge-idempotency-records"] = {
    "task": "games.purge_idempotency_records",
    "schedule": 3600.0,  # stored Idempotency-Key responses past IDEMPOTENCY_RETENTION_DAYS
}
CELERY_BEAT_SCHEDULE["games-copy-seat-end-times"] = {
    "task": "games.copy_seat_end_times",
    "schedule": 3600.0,  # seats of ended games without the end time (a deploy's old code)
}
# An outbox event still pending this long after its move lost its message: the sweep takes it.
NOTIFY_OUTBOX_AGE_SECONDS = env_int("NOTIFY_OUTBOX_AGE_SECONDS", 60, minimum=0)
# A claimed send still pending this long lost its message (or its retries): queued again.
NOTIFY_SEND_STALE_SECONDS = env_int("NOTIFY_SEND_STALE_SECONDS", 120, minimum=0)
NOTIFY_RETENTION_DAYS = env_int("NOTIFY_RETENTION_DAYS", 30, minimum=1)
IDEMPOTENCY_RETENTION_DAYS = env_int("IDEMPOTENCY_RETENTION_DAYS", 30, minimum=1)
# Notifications: a player who requested the game this recently is looking at it (no email);
# turn emails within the gather window are held and sent together; digest at most this often.
NOTIFY_SEEN_SECONDS = env_int("NOTIFY_SEEN_SECONDS", 120, minimum=0)
NOTIFY_GATHER_MINUTES = env_int("NOTIFY_GATHER_MINUTES", 5, minimum=0)
NOTIFY_DIGEST_MINUTES = env_int("NOTIFY_DIGEST_MINUTES", 60, minimum=1)
NOTIFY_NUDGE_HOURS = env_int("NOTIFY_NUDGE_HOURS", 24, minimum=1)
# Queue of the notification tasks (empty = Celery's default queue).
NOTIFY_QUEUE = env_str("NOTIFY_QUEUE", "") or None
# Queue of the computer's turns (empty = Celery's default queue).
GAMES_AI_QUEUE = env_str("GAMES_AI_QUEUE", "") or None
# Move analysis ("% of best"): its queue (empty = Celery's default queue); a move whose analysis
# is still missing this many seconds after it was played is queued again by the sweep, which
# looks back this many hours (older games are analysed when their analysis is asked for).
GAMES_ANALYSIS_QUEUE = env_str("GAMES_ANALYSIS_QUEUE", "") or None
GAMES_ANALYSIS_STALE_SECONDS = env_int("GAMES_ANALYSIS_STALE_SECONDS", 60, minimum=0)
GAMES_ANALYSIS_SWEEP_HOURS = env_int("GAMES_ANALYSIS_SWEEP_HOURS", 24, minimum=1)
# Milliseconds between consecutive computer turns (a solo match with several computers), so a
# person can follow the play; 0 queues the next computer turn at once.
GAMES_AI_PAUSE_SECONDS = env_int("GAMES_AI_PAUSE_MS", 1000, minimum=0) / 1000
# Tables with friends: every turn's deadline (seconds; after it the computer takes the seat
# over) and the computer regular dealt into empty seats. The timer task's countdown must stay
# well under the broker's visibility timeout (CELERY_VISIBILITY_TIMEOUT).
TABLES_TURN_SECONDS = env_int("TABLES_TURN_SECONDS", 30, minimum=1)
TABLES_COMPUTER_LEVEL = env_str("TABLES_COMPUTER_LEVEL", "aggressive")

# --- live updates (live/: GET /api/v1/events, Server-Sent Events) ---------------------------
# "redis" (Redis streams + one wake-up channel; any web process serves any worker's events) or
# "db" (a table polled every LIVE_POLL_SECONDS: the embedded default, no Redis needed).
LIVE_BACKEND = env_str("LIVE_BACKEND", "") or ("redis" if REDIS_URL else "db")
if LIVE_BACKEND not in {"redis", "db"}:
    raise ImproperlyConfigured(f"LIVE_BACKEND={LIVE_BACKEND!r} must be redis or db")
if LIVE_BACKEND == "redis" and not REDIS_URL:
    raise ImproperlyConfigured("LIVE_BACKEND=redis needs REDIS_URL")
LIVE_HEARTBEAT_SECONDS = float(env_str("LIVE_HEARTBEAT_SECONDS", "15") or 15)
# Events are kept at least this long for a reconnect's Last-Event-ID (older: one resync event).
LIVE_RETENTION_SECONDS = env_int("LIVE_RETENTION_SECONDS", 900, minimum=600)
LIVE_POLL_SECONDS = float(env_str("LIVE_POLL_SECONDS", "0.5") or 0.5)
# A stream reads at most LIVE_QUEUE_SIZE events from the backend at a time and sends them (nothing
# is buffered per stream); a send blocked for LIVE_QUEUE_WAIT_SECONDS (a client that stopped
# reading) closes the stream: it reconnects with Last-Event-ID and loses nothing.
LIVE_QUEUE_SIZE = env_int("LIVE_QUEUE_SIZE", 256, minimum=1)
LIVE_QUEUE_WAIT_SECONDS = float(env_str("LIVE_QUEUE_WAIT_SECONDS", "10") or 10)
LIVE_MAX_STREAMS_PER_USER = env_int("LIVE_MAX_STREAMS_PER_USER", 5, minimum=1)
# Stream openings and checks of one process that may use the database at once (live/views.py).
LIVE_DB_CONNECTIONS = env_int("LIVE_DB_CONNECTIONS", 10, minimum=1)
CELERY_BEAT_SCHEDULE["live-purge-events"] = {
    "task": "live.purge_events",
    "schedule": 300.0,  # the db backend's events past LIVE_RETENTION_SECONDS
}

# One line per request (logger crazy10s.requests) with its request id; LOG_FORMAT=json writes
# JSON lines. django.request only logs 5xx: its 4xx warnings repeated the request line, and a
# 404 came with a full traceback. Unhandled exceptions are logged once, with the traceback.
LOG_FORMAT = env_str("LOG_FORMAT", "text").strip().lower()
if LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r} must be text or json")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "config.logs.RequestIdFilter"},
        # A database or Redis outage is answered 503 and logged once (config/unavailable.py).
        "quiet_outage": {"()": "config.unavailable.QuietOutage"},
    },
    "formatters": {
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        "json": {"()": "config.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": LOG_FORMAT,
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO").upper()},
    "loggers": {"django.request": {"level": "ERROR", "filters": ["quiet_outage"]}},
}
