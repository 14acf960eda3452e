"""Settings refuse bad environment values loudly (checked in a fresh interpreter)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLEAN = {
    k: v
    for k, v in os.environ.items()
    if k
    not in {
        "DEBUG",
        "SECRET_KEY",
        "DATABASE_URL",
        "REDIS_URL",
        "CACHE_REDIS_URL",
        "EMAIL_PORT",
        "EMAIL_HOST",
        "EMAIL_BACKEND",
        "SITE_BASE_URL",
        "EMAIL_USE_TLS",
        "PUZZLE_SECRET",
        "SECURE_SSL_REDIRECT",
        "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE",
        "SECURE_HSTS_SECONDS",
        "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD",
        "SECURE_PROXY_SSL_HEADER",
        "CORS_ALLOWED_ORIGINS",
    }
}
STRONG_KEY = "pr0duction-" + "x7Q" * 20
STRONG_PUZZLE_SECRET = "pr0duction-puzzles-" + "m4W" * 15


def load_settings(**env: str) -> subprocess.CompletedProcess:
    code = (
        "import django, json; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'debug': s.DEBUG, 'engine': s.DATABASES['default']['ENGINE'], "
        "'broker': s.CELERY_BROKER_URL, 'cache': s.CACHES['default']['BACKEND'], "
        "'email': s.EMAIL_BACKEND}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**CLEAN, "DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": STRONG_KEY,
             "PUZZLE_SECRET": STRONG_PUZZLE_SECRET, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_debug_is_off_by_default():
    result = load_settings()
    assert result.returncode == 0, result.stderr
    assert '"debug": false' in result.stdout


def test_defaults_are_embedded():
    result = load_settings(DEBUG="true")
    assert result.returncode == 0, result.stderr
    assert '"engine": "django.db.backends.sqlite3"' in result.stdout
    assert '"broker": "filesystem://"' in result.stdout
    assert "console.EmailBackend" in result.stdout
    assert "FileBasedCache" in result.stdout


def test_redis_and_smtp_when_configured():
    result = load_settings(
        REDIS_URL="redis://127.0.0.1:6379/9",
        EMAIL_HOST="mail.test",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/x",
    )
    assert result.returncode == 0, result.stderr
    assert "redis://127.0.0.1:6379/9" in result.stdout
    assert "RedisCache" in result.stdout
    assert "smtp.EmailBackend" in result.stdout
    assert "postgresql" in result.stdout


@pytest.mark.parametrize(
    "env,needle",
    [
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DEBUG": "false", "SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": ""}, "SECRET_KEY must be set"),
        ({"SECURE_HSTS_SECONDS": "a year", "DEBUG": "true"}, "SECURE_HSTS_SECONDS"),
        ({"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto: https", "DEBUG": "true"},
         "SECURE_PROXY_SSL_HEADER"),
        ({"CORS_ALLOWED_ORIGINS": "https://app.example/path", "DEBUG": "true"},
         "CORS_ALLOWED_ORIGINS"),
        ({"EMAIL_PORT": "twenty-five"}, "EMAIL_PORT"),
        ({"EMAIL_USE_TLS": "sometimes"}, "EMAIL_USE_TLS"),
        ({"DATABASE_URL": "nonsense://x"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://example.test"}, "REDIS_URL"),
        ({"SITE_BASE_URL": "example.test"}, "SITE_BASE_URL"),
    ],
)
def test_bad_values_fail_loudly(env, needle):
    result = load_settings(**env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert needle in result.stderr


def test_production_with_secret_key_loads():
    result = load_settings(DEBUG="false", SECRET_KEY=STRONG_KEY)
    assert result.returncode == 0, result.stderr
    assert '"debug": false' in result.stdout


@pytest.mark.parametrize(
    "key",
    [
        "django-insecure-dev-only-key-do-not-use-in-production",  # the development key
        "change-me-to-a-long-random-string",  # docker-compose's old placeholder
        "django-insecure-0123456789abcdefghijklmnopqrstuvwxyz",  # startproject's kind
    ],
)
def test_production_refuses_a_published_secret_key(key):
    result = load_settings(SECRET_KEY=key)
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is a published default" in result.stderr


def test_production_refuses_a_published_puzzle_secret():
    result = load_settings(
        SECRET_KEY=STRONG_KEY, PUZZLE_SECRET="django-insecure-dev-only-key-do-not-use-in-production"
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured: PUZZLE_SECRET is a published default" in result.stderr


@pytest.mark.parametrize(
    ("env", "needle"),
    [
        ({"SECRET_KEY": "k" * 10 + "abcdefghij" * 3}, "SECRET_KEY is too weak (40 characters)"),
        ({"SECRET_KEY": "ab" * 30}, "SECRET_KEY is too weak"),  # long, but two characters
        ({"PUZZLE_SECRET": ""}, "PUZZLE_SECRET must be set when DEBUG is off"),
        ({"PUZZLE_SECRET": "short-puzzle-secret"}, "PUZZLE_SECRET is too weak"),
        ({"PUZZLE_SECRET": STRONG_KEY}, "PUZZLE_SECRET must differ from SECRET_KEY"),
    ],
)
def test_production_refuses_a_weak_or_missing_secret(env, needle):
    """No key generated per start, no puzzle secret borrowed from SECRET_KEY: both are set once
    (README, "Production") and the process refuses to start otherwise."""
    result = load_settings(**env)
    assert result.returncode != 0
    assert f"ImproperlyConfigured: {needle}" in result.stderr


def test_debug_keeps_the_development_key():
    code = "import django; django.setup(); from django.conf import settings as s; " \
        "print(s.SECRET_KEY, s.PUZZLE_SECRET == s.SECRET_KEY, s.SECURE_SSL_REDIRECT)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**CLEAN, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django-insecure-dev-only-key-do-not-use-in-production", "True", "False"
    ]
