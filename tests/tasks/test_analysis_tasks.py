"""The analysis tasks' wiring: the beat entry of the sweep and the queue of the task."""

from django.conf import settings

from config import redis_health
from games import dispatch


def test_the_analysis_sweep_runs_every_minute():
    entry = settings.CELERY_BEAT_SCHEDULE["games-sweep-analysis"]
    assert entry == {"task": "games.sweep_analysis", "schedule": 60.0}


def test_the_analysis_goes_to_its_configured_queue(monkeypatch, settings):
    from celery import current_app

    sent = []
    monkeypatch.setattr(
        current_app.amqp, "send_task_message",
        lambda producer, name, message, **options: sent.append(
            (name, message.headers["argsrepr"], getattr(options.get("queue"), "name",
                                                        options.get("queue")))
        ),
    )
    settings.GAMES_ANALYSIS_QUEUE = "analysis-test"
    assert dispatch.enqueue_analysis(7, 3) is True
    assert dispatch.enqueue_analysis(7, None) is True
    assert sent == [
        ("games.analyse_moves", "(7, 3)", "analysis-test"),
        ("games.analyse_moves", "(7, None)", "analysis-test"),
    ]
    settings.GAMES_ANALYSIS_QUEUE = None
    assert dispatch.route_task("games.analyse_moves", (), {}, {}) == {  # Celery's default queue
        "queue": "celery", "priority": dispatch.BACKGROUND_PRIORITY}


def test_the_analysis_is_not_tried_right_after_the_broker_refused_a_message(monkeypatch):
    """With a hung broker every try costs the move's request a socket timeout: after a refusal
    the analysis message waits for the sweep (``BEST_EFFORT_QUIET_SECONDS``)."""
    from celery import current_app

    tries: list[str] = []

    def refuse(producer, name, message, **options):
        tries.append(name)
        raise ConnectionError("broker hung")

    monkeypatch.setattr(current_app.amqp, "send_task_message", refuse)
    monkeypatch.setattr(dispatch, "_last_refusal", float("-inf"))
    monkeypatch.setattr(dispatch, "_broker_is_redis", lambda: True)  # also on a SQLite run
    assert dispatch.enqueue_event(1) is False  # a move's notification message is refused...
    assert dispatch.enqueue_analysis(7, 3) is False  # ...so its analysis is not even tried
    assert tries == ["notifications.process_event"]
    # Nor is any other message for a few seconds (config/redis_health.py): each has its sweep.
    assert dispatch.enqueue_ai_turn(7, 3) is False
    assert tries == ["notifications.process_event"]
    redis_health.forget()  # those seconds are over: the other messages are tried again...
    assert dispatch.enqueue_ai_turn(7, 3) is False
    assert tries[-1] == "games.play_ai_turn"
    redis_health.forget()
    assert dispatch.enqueue_analysis(7, 3) is False  # ...the analysis only after its own time
    assert tries[-1] == "games.play_ai_turn"
    redis_health.forget()
    monkeypatch.setattr(dispatch, "_last_refusal", float("-inf"))  # the quiet time is over
    assert dispatch.enqueue_analysis(7, 3) is False
    assert tries[-1] == "games.analyse_moves"
