"""Beat task: end the vacations whose time is up (their games' clocks resume)."""

from celery import shared_task

from games.correspondence import services

END_VACATIONS = "correspondence.end_vacations"


@shared_task(name=END_VACATIONS)
def end_vacations() -> int:
    return services.end_expired()
