"""gunicorn's settings for the web processes (README, "Production"; the Dockerfile's CMD):

    gunicorn -c config/gunicorn.py config.asgi:application --bind 0.0.0.0:8000 --workers 3

Workers are uvicorn's (ASGI: the live event streams are async views) without uvicorn's own
X-Forwarded-For handling (``NUM_PROXIES`` is the one knob: config/proxies.py). On SIGTERM the
streams end at once with a ``reconnect`` event (live/shutdown.py) and the other requests get up
to ``graceful_timeout`` seconds; docker-compose.yml's ``stop_grace_period`` for web is longer.
"""

worker_class = "config.server.UvicornWorker"
logger_class = "config.server.GunicornLogger"
graceful_timeout = 10
# Belt and braces: nothing in gunicorn itself believes a forwarded header either.
forwarded_allow_ips = ""
