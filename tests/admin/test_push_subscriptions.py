"""Staff see a user's push subscriptions (service host, created, last success, failures) and
never their keys or endpoint."""

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from games.notifications.models import PushSubscription
from games.notifications.services import push
from tests.notifications.push_double import BrowserSubscription, PushServiceDouble

pytestmark = pytest.mark.django_db


def test_the_admin_lists_subscriptions_without_keys(user_factory, alice, bob):
    double = PushServiceDouble("unused")
    try:
        browser = BrowserSubscription(double)
        push.subscribe(user=alice, endpoint="https://fcm.googleapis.com/fcm/send/secret-path",
                       p256dh=browser.p256dh, auth=browser.auth)
        push.subscribe(user=bob, endpoint="https://updates.push.services.mozilla.com/wpush/v2/x",
                       p256dh=browser.p256dh, auth=browser.auth)
    finally:
        double.close()
    PushSubscription.objects.filter(user=alice).update(failures=3)
    staff = user_factory("staffer", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(
        content_type__app_label="notifications", codename="view_pushsubscription"))
    client = Client()
    client.force_login(staff)
    url = reverse("admin:notifications_pushsubscription_changelist")
    page = client.get(url, {"q": "alice"}).content.decode()
    assert "fcm.googleapis.com" in page and "alice" in page
    assert "mozilla" not in page  # only alice's, searched by username
    row = PushSubscription.objects.get(user=alice)
    detail = client.get(reverse("admin:notifications_pushsubscription_change", args=[row.pk]))
    assert detail.status_code == 200
    for page in (client.get(url).content.decode(), detail.content.decode()):
        assert browser.p256dh not in page and browser.auth not in page
        assert "secret-path" not in page
    assert ">3<" in client.get(url, {"q": "alice"}).content.decode()  # failures
    # A player who is not staff sees nothing of it.
    player = Client()
    player.force_login(alice)
    assert player.get(url).status_code == 302
    # Nor can a filter spell them out through the changelist's counts.
    for lookup in ("auth__startswith", "p256dh__startswith", "endpoint__startswith",
                   "session_key__startswith", "auth"):
        refused = client.get(url, {lookup: browser.auth[:1]})
        assert refused.status_code == 400, lookup
    assert client.get(url, {"failures": "3"}).status_code == 200  # its own figures filter
