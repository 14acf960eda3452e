"""Email verification: the link on sign-up and on a new address, its refusals, the resend, and
the one gate that keeps game emails from unverified addresses."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts.models import User
from games import services as game_services
from games.notifications.models import SentNotification, Status
from tests.accounts.conftest import SITE, link_token, register
from tests.helpers import assert_error

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

VERIFY = "/api/v1/auth/email/verify"
RESEND = "/api/v1/auth/email/resend"
ME = "/api/v1/me"


def _signed_up(api_client, inbox, **extra):
    response = register(api_client, **extra)
    assert response.status_code == 201, response.content
    api_client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    [mail] = inbox.wait_for("account-verify_email:")
    return response.json()["user"], mail


def test_sign_up_sends_a_link_that_verifies_the_address(api_client, inbox):
    user, mail = _signed_up(api_client, inbox, language="de")
    assert user["email_verified"] is False
    assert mail.to == ["dora@example.test"]
    subject = " ".join(str(mail.message["Subject"]).split())  # unfolded
    assert subject == "Bestätige deine E-Mail-Adresse für Crazy10s Online"
    assert f"{SITE}/account/verify-email?token=" in mail.part("text/plain")
    assert "E-Mail-Adresse bestätigen" in mail.part("text/html")
    assert api_client.get(ME).json()["email_verified"] is False

    response = api_client.post(VERIFY, {"token": link_token(mail, "/account/verify-email")},
                               format="json")
    assert response.status_code == 200, response.content
    assert response.json()["email_verified"] is True
    assert api_client.get(ME).json()["email_verified"] is True


def _unverified(api_client, inbox):
    _, mail = _signed_up(api_client, inbox)
    return link_token(mail, "/account/verify-email")


def test_a_used_link_is_refused(api_client, inbox):
    token = _unverified(api_client, inbox)
    assert api_client.post(VERIFY, {"token": token}, format="json").status_code == 200
    assert_error(api_client.post(VERIFY, {"token": token}, format="json"), 400, "link_used")
    assert User.objects.get(username="dora").email_verified is True


def test_an_expired_link_is_refused_and_changes_nothing(api_client, inbox):
    token = _unverified(api_client, inbox)
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        assert_error(api_client.post(VERIFY, {"token": token}, format="json"), 400,
                     "link_expired")
    assert User.objects.get(username="dora").email_verified is False
    with time_machine.travel(timezone.now() + timedelta(days=2, hours=23)):  # still valid
        assert api_client.post(VERIFY, {"token": token}, format="json").status_code == 200


@pytest.mark.parametrize("mangle", [
    lambda t: t[:-2] + ("AA" if not t.endswith("AA") else "BB"),  # the signature
    lambda t: "x" + t,  # the payload
    lambda t: "not-a-token",
    lambda t: "",
])
def test_a_tampered_link_is_refused_and_changes_nothing(api_client, inbox, mangle):
    token = _unverified(api_client, inbox)
    response = api_client.post(VERIFY, {"token": mangle(token)}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"link_invalid", "invalid"}
    assert User.objects.get(username="dora").email_verified is False


def test_a_reset_link_does_not_verify(api_client, inbox):
    _unverified(api_client, inbox)
    api_client.post("/api/v1/auth/password/reset", {"email": "dora@example.test"},
                    format="json")
    [reset] = inbox.wait_for("account-reset_password:")
    token = link_token(reset, "/account/reset-password")
    assert_error(api_client.post(VERIFY, {"token": token}, format="json"), 400, "link_invalid")
    assert User.objects.get(username="dora").email_verified is False


def test_a_new_address_is_unverified_and_gets_its_own_link(api_client, inbox):
    old = _unverified(api_client, inbox)
    assert api_client.post(VERIFY, {"token": old}, format="json").status_code == 200
    response = api_client.patch(ME, {"email": "dora@new.example"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["email_verified"] is False
    mails = inbox.wait_for("account-verify_email:", count=2)
    assert mails[1].to == ["dora@new.example"]
    # The first link was for the old address: it cannot verify the new one.
    assert_error(api_client.post(VERIFY, {"token": old}, format="json"), 400, "link_used")
    assert User.objects.get(username="dora").email_verified is False
    new = link_token(mails[1], "/account/verify-email")
    assert api_client.post(VERIFY, {"token": new}, format="json").json()["email_verified"]
    # Same address in another case: nothing to verify again.
    api_client.patch(ME, {"email": "Dora@new.example", "display_name": "D"}, format="json")
    assert User.objects.get(username="dora").email_verified is True


def test_resend_is_throttled_and_refused_once_verified(api_client, inbox, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "email_resend": "2/hour",
        },
    }
    token = _unverified(api_client, inbox)
    assert api_client.post(RESEND).status_code == 202
    assert api_client.post(RESEND).status_code == 202
    assert_error(api_client.post(RESEND), 429, "throttled")
    assert len(inbox.wait_for("account-verify_email:", count=3)) == 3
    # Each link works (the address did not change) until one is used.
    assert api_client.post(VERIFY, {"token": token}, format="json").status_code == 200
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("accounts.api.throttles.UserThrottle.allow_request", lambda *a: True)
        assert_error(api_client.post(RESEND), 409, "already_verified")
    assert len(inbox.matching("account-verify_email:")) == 3


def test_no_game_email_reaches_an_unverified_address(
    inbox, alice, user_factory, fixed_seed, ai_queue
):
    """The one gate (games.notifications.services.sending.may_receive): a turn email and a
    table invitation are claimed but not sent until the address is verified."""
    from games.tables import services as tables

    erin = user_factory("erin", email_verified=False)
    game = game_services.create_game(user=alice, opponent={"username": "erin"})
    game_services.submit_move(game_id=game.pk, user=alice, move="g7=5 h7=5",
                              expected_move_number=0)
    table = tables.create_table(user=alice, options={"target": 100, "rules": {}})
    tables.invite(user=alice, code=table.code, username="erin")

    started = SentNotification.objects.get(key__startswith=f"started:{game.pk}:", user=erin)
    turn = SentNotification.objects.get(key__startswith=f"turn:{game.pk}:1:")
    invite = SentNotification.objects.get(kind="invite", user=erin)
    assert {started.status, turn.status, invite.status} == {Status.UNVERIFIED}
    assert not [m for m in inbox.messages if "erin@example.test" in m.to]

    erin.email_verified = True
    erin.save()
    game_services.submit_move(game_id=game.pk, user=erin, move="pass", expected_move_number=1)
    game_services.submit_move(game_id=game.pk, user=alice, move="pass", expected_move_number=2)
    [turn3] = inbox.wait_for(f"turn:{game.pk}:3:")
    assert turn3.to == ["erin@example.test"]


def test_make_run_may_mail_unverified_addresses(inbox, alice, user_factory, fixed_seed,
                                                ai_queue, settings):
    """ACCOUNT_REQUIRE_VERIFIED_EMAIL=false (scripts/run_dev.sh: emails go to the console)."""
    settings.ACCOUNT_REQUIRE_VERIFIED_EMAIL = False
    user_factory("erin", email_verified=False)
    game = game_services.create_game(user=alice, opponent={"username": "erin"})
    [started] = inbox.wait_for(f"started:{game.pk}:")
    assert started.to == ["erin@example.test"]
