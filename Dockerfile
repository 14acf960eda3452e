FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONPATH=/app \
    VAR_DIR=/app/var

WORKDIR /app
COPY . /app
# gettext's msgfmt compiles the translation catalogs (.mo files are not committed).
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*
RUN pip install . && python manage.py compilemessages --ignore .venv --ignore var -v 0 \
    && useradd --create-home app && mkdir -p /app/var && chown -R app /app/var
USER app

EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3"]
