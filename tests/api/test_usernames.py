"""One name per reader: usernames unique without case and look-alikes, emails without case;
names that reach email headers hold no control characters."""

from __future__ import annotations

import importlib

import pytest
from django.contrib.auth import get_user_model

from accounts import services, usernames
from config.errors import ApiError
from tests.helpers import PASSWORD, assert_error

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register"
TOKEN = "/api/v1/auth/token"
ME = "/api/v1/me"
User = get_user_model()


def register(client, username="newbie", email=None, **extra):
    data = {"username": username, "email": email or "newbie@example.test", "password": PASSWORD}
    return client.post(REGISTER, {**data, **extra}, format="json")


def test_a_name_in_another_case_is_taken(api_client, user_factory):
    user_factory("p22")
    error = assert_error(register(api_client, "P22"), 409, "username_taken")
    assert error["details"]["username"] == ["A user with that username already exists."]
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "look_alike",
    [
        "р22",  # Cyrillic р
        "p２２",  # fullwidth digits
        "Ρ22",  # Greek capital rho
        "jürgen",  # not a look-alike, but not ASCII either
    ],
)
def test_new_usernames_are_ascii(api_client, user_factory, look_alike):
    """New names take ASCII letters, digits and @.+-_ only (what the schema's pattern says),
    which leaves no room for script look-alikes; display names take any script."""
    user_factory("p22")
    error = assert_error(register(api_client, look_alike), 400, "invalid")
    assert set(error["details"]) == {"username"}
    assert User.objects.count() == 1


@pytest.mark.parametrize(("existing", "new"), [("paul", "pau1"), ("bob0", "bobo"), ("lim", "1irn")])
def test_digit_and_letter_look_alikes_are_taken(api_client, user_factory, existing, new):
    user_factory(existing)
    assert_error(register(api_client, new), 409, "username_taken")


def test_different_names_are_free(api_client, user_factory):
    user_factory("p22")
    assert register(api_client, "p23").status_code == 201


def test_email_is_unique_without_case(api_client, user_factory):
    user_factory("bob", email="bob@example.test")
    error = assert_error(register(api_client, email="BOB@Example.TEST"), 409, "email_taken")
    assert error["details"]["email"] == ["A user with that email already exists."]


def test_changing_email_to_anothers_in_other_case_is_refused(make_client, user_factory):
    user_factory("bob", email="bob@example.test")
    carol = user_factory("carol", email="carol@example.test")
    client = make_client(carol)
    error = assert_error(client.patch(ME, {"email": "Bob@example.test"}, format="json"), 409,
                         "email_taken")
    assert "email" in error["details"]
    carol.refresh_from_db()
    assert carol.email == "carol@example.test"
    # One's own address in another case is fine.
    assert client.patch(ME, {"email": "CAROL@example.test"}, format="json").status_code == 200


def test_the_database_refuses_a_look_alike_that_raced_the_check(user_factory):
    user_factory("p22")
    with pytest.raises(ApiError) as raised:
        services.register_user(username="р22", email="x@example.test", password=PASSWORD)
    assert raised.value.details == {"username": ["A user with that username already exists."]}


def test_login_by_username_in_any_case(api_client, user_factory):
    user_factory("Alice")
    for spelling in ("Alice", "alice", "ALICE"):
        response = api_client.post(TOKEN, {"username": spelling, "password": PASSWORD},
                                   format="json")
        assert response.status_code == 200, spelling


def test_login_with_a_look_alike_is_not_the_account(api_client, user_factory):
    user_factory("alice")
    response = api_client.post(TOKEN, {"username": "аlice", "password": PASSWORD}, format="json")
    assert_error(response, 401, "invalid_credentials")


def test_migration_reports_existing_duplicates_and_leaves_them(user_factory, capsys):
    kept = user_factory("p22", email="p22@example.test")
    upper = user_factory("upper", email="other@example.test")
    cyrillic = user_factory("cyrillic", email="third@example.test")
    same_email = user_factory("fourth", email="fourth@example.test")
    # Accounts made before canonical names existed (update() skips the model's save).
    User.objects.filter(pk=upper.pk).update(username="P22")
    User.objects.filter(pk=cyrillic.pk).update(username="р22")
    User.objects.filter(pk=same_email.pk).update(email="P22@Example.test")
    User.objects.update(username_skeleton=None, email_canonical=None, username_canonical="")
    before = list(User.objects.order_by("pk").values_list("pk", "username", "email"))

    migration = importlib.import_module(
        "accounts.migrations.0004_username_canonical_unsubscribe_key"
    )
    duplicates = migration.report_duplicates(User)

    assert [(d.field, d.pk, d.kept_pk) for d in duplicates] == [
        ("username", upper.pk, kept.pk),
        ("username", cyrillic.pk, kept.pk),
        ("email", same_email.pk, kept.pk),
    ]
    printed = capsys.readouterr().out
    assert f"username of user {upper.pk} ('P22') collides with user {kept.pk} ('p22')" in printed
    assert printed.count("duplicate left as it is") == 3
    # Nothing merged, renamed or deleted; the oldest of a group holds the key.
    assert list(User.objects.order_by("pk").values_list("pk", "username", "email")) == before
    keys = dict(User.objects.values_list("pk", "username_skeleton"))
    assert keys[kept.pk] == "p22" and keys[upper.pk] is None and keys[cyrillic.pk] is None
    assert User.objects.get(pk=same_email.pk).email_canonical is None
    assert User.objects.get(pk=upper.pk).username_canonical == "p22"
    assert len(set(User.objects.values_list("unsubscribe_key", flat=True))) == 4


def test_skeleton():
    assert usernames.skeleton("P22") == usernames.skeleton("р22") == "p22"
    assert usernames.skeleton("Paul") == usernames.skeleton("pau1") == usernames.skeleton("PAUI")
    assert usernames.skeleton("modern") == usernames.skeleton("modem")
    assert usernames.skeleton("bob") != usernames.skeleton("rob")


# Inside the text: DRF trims leading and trailing whitespace (CR, LF, U+2028) before validating.
CONTROL = [
    "Eve\r\nBcc: all@example.test", "E\nve", "Eve\x00", "Eve\x07", "Eve\u202egnp", "E\u200bve"
]


@pytest.mark.parametrize("value", CONTROL)
def test_display_name_with_control_characters_is_refused(alice_client, alice, value):
    response = alice_client.patch(ME, {"display_name": value}, format="json")
    error = assert_error(response, 400, "invalid")
    assert "display_name" in error["details"]
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


# Joiners only inside a sequence: not at an end, not twice in a row, and no other invisible
# character beside them.
CONTROL_WITH_JOINERS = [
    "Eve\u200d", "\u200dEve", "E\u200d\u200dve", "\U0001f468\u200d\u200b\U0001f469",
    "\U0001f469\u200d\n\U0001f4bb", "\u202e\U0001f469\u200d\U0001f4bb",
]


@pytest.mark.parametrize("value", CONTROL_WITH_JOINERS)
def test_a_joiner_outside_an_emoji_sequence_is_refused(alice_client, alice, value):
    response = alice_client.patch(ME, {"display_name": value}, format="json")
    error = assert_error(response, 400, "invalid")
    assert "display_name" in error["details"]
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


@pytest.mark.parametrize("value", [
    "Ana \U0001f3f3\ufe0f\u200d\U0001f308",             # rainbow flag
    "\U0001f468\u200d\U0001f469\u200d\U0001f467 family",  # family
    "\U0001f469\U0001f3fd\u200d\U0001f4bb Dev",            # woman technologist, skin tone
])
def test_emoji_joined_by_a_zero_width_joiner_are_a_name(alice_client, alice, value):
    response = alice_client.patch(ME, {"display_name": value}, format="json")
    assert response.status_code == 200, response.content
    alice.refresh_from_db()
    assert alice.display_name == value


def test_display_names_have_a_maximum_length(alice_client, alice):
    from accounts.validators import DISPLAY_NAME_MAX_LENGTH

    response = alice_client.patch(
        ME, {"display_name": "x" * (DISPLAY_NAME_MAX_LENGTH + 1)}, format="json")
    error = assert_error(response, 400, "invalid")
    assert "display_name" in error["details"]
    alice.refresh_from_db()
    assert alice.display_name == "Alice"
    response = alice_client.patch(ME, {"display_name": "x" * DISPLAY_NAME_MAX_LENGTH},
                                  format="json")
    assert response.status_code == 200, response.content


def test_display_name_with_unicode_letters_is_fine(alice_client):
    response = alice_client.patch(ME, {"display_name": "Zoë Ünal ☺"}, format="json")
    assert response.status_code == 200, response.content


@pytest.mark.parametrize("field", ["username", "email"])
@pytest.mark.parametrize("bad", ["\r\nBcc: all@example.test\r\n", "\n", "\u2028", "\u202e"])
def test_register_refuses_control_characters(api_client, field, bad):
    value = {"username": "new{}bie", "email": "new{}bie@example.test"}[field].format(bad)
    error = assert_error(register(api_client, **{field: value}), 400, "invalid")
    assert field in error["details"]
    assert not User.objects.exists()


@pytest.mark.parametrize("bad", ["\r\nBcc: all@example.test\r\n", "\u2028"])
def test_me_refuses_email_with_control_characters(alice_client, alice, bad):
    response = alice_client.patch(ME, {"email": f"alice{bad}@example.test"}, format="json")
    assert_error(response, 400, "invalid")
    alice.refresh_from_db()
    assert alice.email == "alice@example.test"


def test_admin_form_refuses_a_look_alike(client, user_factory):
    user_factory("p22")
    admin = User.objects.create_superuser("root", "root@example.test", PASSWORD)
    client.force_login(admin)
    response = client.post(
        "/admin/accounts/user/add/",
        {"username": "Р22", "password1": PASSWORD, "password2": PASSWORD,
         "email": "other@example.test", "language": "en"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "A user with that username already exists." in response.content.decode()
    assert not User.objects.filter(username="Р22").exists()
