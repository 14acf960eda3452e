# Pinned base image: rebuilds do not change Python or Debian under us.
FROM python:3.11.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app \
    VAR_DIR=/app/var

# gettext's msgfmt compiles the translation catalogs (.mo files are not committed).
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 app

WORKDIR /app

# Dependencies first, from the lock alone (exact versions, every file checked against its hash;
# `make lock` writes it from pyproject.toml): this layer is reused until the lock changes, however
# often the code does. The code itself runs from /app (PYTHONPATH), not installed.
COPY requirements/base.txt /app/requirements/base.txt
RUN pip install --require-hashes -r /app/requirements/base.txt

COPY . /app
# Build-time steps only read the code (DEBUG=true: no production secret exists at build time).
# collectstatic writes the compressed, hashed files WhiteNoise serves from /app/var/static.
RUN DEBUG=true python manage.py compilemessages --ignore .venv --ignore var -v 0 \
    && DEBUG=true python manage.py collectstatic --noinput -v 0 \
    && mkdir -p /app/var && chown -R app:app /app/var

USER app

EXPOSE 8000
# The same image runs web, worker, beat and migrate: each compose service has its own
# healthcheck (the web one is `python scripts/healthcheck.py`, GET /healthz).
# ASGI (uvicorn workers under gunicorn, config/gunicorn.py): the live event streams are async
# views; the rest of the API runs as before.
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.asgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
