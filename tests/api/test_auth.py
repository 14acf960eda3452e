import pytest

from accounts import services
from accounts.models import Device
from accounts.tokens import digest_of
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register"
TOKEN = "/api/v1/auth/token"
LOGOUT = "/api/v1/auth/logout"
ME = "/api/v1/me"


def register(client, **overrides):
    data = {"username": "bob", "email": "bob@example.test", "password": PASSWORD}
    data.update(overrides)
    return client.post(REGISTER, data, format="json")


class TestRegister:
    def test_creates_user_and_token_that_works(self, api_client):
        response = register(api_client, language="de")
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["user"]["username"] == "bob"
        assert body["user"]["language"] == "de"
        assert "password" not in body["user"]
        api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
        me = api_client.get(ME)
        assert me.status_code == 200
        assert me.json()["username"] == "bob"

    def test_language_defaults_to_english(self, api_client):
        assert register(api_client).json()["user"]["language"] == "en"

    def test_weak_password_is_rejected(self, api_client):
        error = assert_error(register(api_client, password="123"), 400, "invalid")
        assert "password" in error["details"]

    def test_password_like_username_is_rejected(self, api_client):
        error = assert_error(
            register(api_client, username="bobbybobby", password="bobbybobby"), 400, "weak_password"
        )
        assert "password" in error["details"]

    def test_duplicate_username(self, api_client, user_factory):
        user_factory("bob")
        error = assert_error(register(api_client, email="bob2@example.test"), 409, "username_taken")
        assert "username" in error["details"]

    def test_missing_fields(self, api_client):
        error = assert_error(api_client.post(REGISTER, {}, format="json"), 400, "invalid")
        assert {"username", "email", "password"} <= set(error["details"])

    @pytest.mark.parametrize("given", ["pt-BR", "pt_BR", "DE"])
    def test_language_in_any_spelling(self, api_client, given):
        response = register(api_client, language=given)
        assert response.status_code == 201, response.content
        assert response.json()["user"]["language"] == given.lower().replace("_", "-")

    def test_unknown_language(self, api_client):
        error = assert_error(register(api_client, language="xx"), 400, "invalid")
        assert "language" in error["details"]

    def test_throttled(self, api_client):
        for i in range(5):
            register(api_client, username=f"user{i}", email=f"u{i}@example.test")
        error = assert_error(register(api_client, username="late"), 429, "throttled")
        assert error["details"]["wait"] > 0


class TestToken:
    def test_login_returns_token(self, api_client, alice):
        response = api_client.post(
            TOKEN, {"username": "alice", "password": PASSWORD}, format="json"
        )
        assert response.status_code == 200, response.content
        [device] = Device.objects.filter(user=alice)
        assert device.digest == digest_of(response.json()["token"])

    def test_wrong_password(self, api_client, alice):
        response = api_client.post(TOKEN, {"username": "alice", "password": "nope"}, format="json")
        assert_error(response, 401, "invalid_credentials")

    def test_unknown_user(self, api_client, db):
        response = api_client.post(
            TOKEN, {"username": "ghost", "password": PASSWORD}, format="json"
        )
        assert_error(response, 401, "invalid_credentials")

    def test_missing_fields(self, api_client, db):
        assert_error(api_client.post(TOKEN, {}, format="json"), 400, "invalid")

    def test_suspended_user_cannot_log_in(self, api_client, alice):
        alice.is_active = False
        alice.save()
        response = api_client.post(
            TOKEN, {"username": "alice", "password": PASSWORD}, format="json"
        )
        assert_error(response, 403, "account_suspended")

    def test_throttled(self, api_client, alice):
        for _ in range(10):
            api_client.post(TOKEN, {"username": "alice", "password": "x"}, format="json")
        response = api_client.post(
            TOKEN, {"username": "alice", "password": PASSWORD}, format="json"
        )
        assert_error(response, 429, "throttled")


class TestLogout:
    def test_logout_revokes_token(self, alice_client):
        assert alice_client.get(ME).status_code == 200
        assert alice_client.post(LOGOUT).status_code == 204
        assert not Device.objects.filter(digest=digest_of(alice_client.token)).exists()
        assert_error(alice_client.get(ME), 401, "authentication_failed")

    def test_logout_needs_authentication(self, api_client, db):
        assert_error(api_client.post(LOGOUT), 401, "not_authenticated")


class TestSuspension:
    def test_suspended_users_token_is_refused(self, alice, alice_client):
        alice.is_active = False
        alice.save()
        assert_error(alice_client.get(ME), 401, "authentication_failed")

    def test_suspend_service_deletes_tokens(self, alice, alice_client, django_user_model):
        services.suspend_users(queryset=django_user_model.objects.filter(pk=alice.pk))
        alice.refresh_from_db()
        assert not alice.is_active
        assert not Device.objects.filter(user=alice).exists()
        assert_error(alice_client.get(ME), 401, "authentication_failed")

    def test_admin_action_suspends(self, client, alice, alice_client, django_user_model):
        admin = django_user_model.objects.create_superuser("root", "root@example.test", PASSWORD)
        client.force_login(admin)
        response = client.post(
            "/admin/accounts/user/",
            {"action": "suspend_users", "_selected_action": [alice.pk]},
        )
        assert response.status_code == 302
        alice.refresh_from_db()
        assert not alice.is_active
        assert not Device.objects.filter(user=alice).exists()
