"""Reports: filed through the API (once per reporter, target and day), worked through in the
admin's queue (in progress, warn by email, suspend, dismiss), each step in the moderation log."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import Device
from games import services as game_services
from games.moderation.models import ModerationAction, Report
from tests.helpers import PASSWORD, assert_error

REPORTS = "/api/v1/reports"


def report(client, **body):
    body.setdefault("reason", "abuse")
    body.setdefault("text", "rude in every game")
    return client.post(REPORTS, body, format="json")


@pytest.mark.django_db
class TestFiling:
    def test_report_a_player(self, alice_client, bob, alice):
        response = report(alice_client, player="bob")
        assert response.status_code == 201, response.content
        body = response.json()
        assert (body["player"], body["game"], body["reason"], body["status"]) == (
            "bob", None, "abuse", "open",
        )
        stored = Report.objects.get()
        assert (stored.reporter, stored.player, stored.text) == (alice, bob, "rude in every game")

    def test_once_a_day_per_target(self, alice_client, bob, carol):
        assert report(alice_client, player="bob").status_code == 201
        assert_error(report(alice_client, player="bob", reason="cheating"), 409,
                     "already_reported")
        assert Report.objects.count() == 1
        assert report(alice_client, player="carol").status_code == 201  # another target
        with time_machine.travel(timezone.now() + timedelta(days=1)):
            assert report(alice_client, player="bob").status_code == 201
        assert Report.objects.count() == 3

    def test_report_a_game_names_the_opponent(self, alice_client, human_game, bob):
        response = report(alice_client, game=human_game.pk, reason="stalling", text="")
        assert response.status_code == 201, response.content
        assert response.json()["player"] == "bob"
        assert_error(report(alice_client, game=human_game.pk), 409, "already_reported")

    @pytest.mark.parametrize("body,status,code", [
        ({"player": "alice"}, 400, "cannot_report_yourself"),
        ({"player": "ghost"}, 404, "player_not_found"),
        ({"game": 999999}, 404, "not_found"),
        ({}, 400, "invalid"),
        ({"player": "bob", "game": 1}, 400, "invalid"),
        ({"player": "bob", "reason": "boring"}, 400, "invalid"),
        ({"player": "bob", "text": "x" * 2001}, 400, "invalid"),
    ])
    def test_bad_reports_change_nothing(self, alice_client, bob, body, status, code):
        assert_error(report(alice_client, **body), status, code)
        assert not Report.objects.exists()

    def test_only_a_player_of_the_game_reports_it(self, human_game, carol_client):
        assert_error(report(carol_client, game=human_game.pk), 403, "not_a_player")
        assert not Report.objects.exists()

    def test_the_schema_documents_the_403(self):
        from drf_spectacular.generators import SchemaGenerator

        schema = SchemaGenerator().get_schema(request=None, public=True)
        answers = schema["paths"]["/api/v1/reports"]["post"]["responses"]
        assert "not_a_player" in answers["403"]["description"]
        assert answers["403"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/ErrorEnvelope"
        )
        assert not Report.objects.exists()

    def test_a_game_against_the_computer_has_nobody_to_report(self, alice, alice_client,
                                                              ai_queue):
        game = game_services.create_game(user=alice, opponent={"ai": "casual"})
        assert_error(report(alice_client, game=game.pk), 400, "cannot_report_yourself")
        assert not Report.objects.exists()


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("mod", "mod@example.test", PASSWORD)


@pytest.fixture
def admin_client(client, moderator):
    client.force_login(moderator)
    return client


def _act(admin_client, action, report_ids):
    return admin_client.post(
        "/admin/moderation/report/", {"action": action, "_selected_action": report_ids}
    )


@pytest.mark.django_db
def test_the_queue_lists_open_reports(admin_client, alice_client, bob):
    report(alice_client, player="bob")
    filed = Report.objects.get()
    link = f"/admin/moderation/report/{filed.pk}/change/".encode()
    page = admin_client.get("/admin/moderation/report/?status__exact=open")
    assert page.status_code == 200 and link in page.content
    done = admin_client.get("/admin/moderation/report/?status__exact=done")
    assert done.status_code == 200 and link not in done.content
    detail = admin_client.get(link.decode())
    assert detail.status_code == 200 and b"rude in every game" in detail.content


@pytest.mark.django_db
def test_take_then_dismiss(admin_client, alice_client, bob, moderator):
    report(alice_client, player="bob")
    filed = Report.objects.get()
    assert _act(admin_client, "take_reports", [filed.pk]).status_code == 302
    filed.refresh_from_db()
    assert (filed.status, filed.handled_by) == ("in_progress", moderator)
    assert _act(admin_client, "dismiss_reports", [filed.pk]).status_code == 302
    filed.refresh_from_db()
    assert (filed.status, filed.resolution) == ("done", "dismissed")
    logged = list(ModerationAction.objects.filter(report=filed).order_by("pk"))
    assert [a.action for a in logged] == ["take_report", "dismiss_report"]
    assert all(a.moderator == moderator and a.target_user == bob for a in logged)
    bob.refresh_from_db()
    assert bob.is_active


@pytest.mark.django_db
def test_suspend_from_a_report(admin_client, alice_client, bob, bob_client):
    report(alice_client, player="bob")
    filed = Report.objects.get()
    assert _act(admin_client, "suspend_players", [filed.pk]).status_code == 302
    bob.refresh_from_db()
    filed.refresh_from_db()
    assert not bob.is_active and (filed.status, filed.resolution) == ("done", "suspended")
    assert not Device.objects.filter(user=bob).exists()
    action = ModerationAction.objects.get(report=filed)
    assert (action.action, action.target_user) == ("suspend_user", bob)
    assert_error(bob_client.get("/api/v1/me"), 401, "authentication_failed")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_warn_by_email_in_the_players_language(inbox, admin_client, alice_client, bob):
    bob.language = "fr"
    bob.save()
    report(alice_client, player="bob")
    filed = Report.objects.get()
    assert _act(admin_client, "warn_players", [filed.pk]).status_code == 302
    [mail] = inbox.wait_for("account-warning:")
    assert mail.to == ["bob@example.test"]
    assert "modérateur" in mail.part("text/plain") and "<p>" in mail.part("text/html")
    filed.refresh_from_db()
    assert (filed.status, filed.resolution) == ("done", "warned")
    assert ModerationAction.objects.get(report=filed).action == "warn_user"


@pytest.mark.django_db
def test_a_game_report_without_one_opponent_cannot_warn(admin_client, moderator, alice, ai_queue):
    game = game_services.create_game(user=alice, opponent={"ai": "casual"})
    filed = Report.objects.create(reporter=alice, game=game, reason="other",
                                  day=timezone.now().date())
    response = _act(admin_client, "warn_players", [filed.pk])
    assert response.status_code == 302
    filed.refresh_from_db()
    assert filed.status == "open" and not ModerationAction.objects.exists()
