"""The analysis tasks' wiring: the beat entry of the sweep and the queue of the task."""

from django.conf import settings

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
    assert dispatch.route_task("games.analyse_moves", (), {}, {}) is None  # Celery's default
