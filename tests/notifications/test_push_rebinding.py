"""DNS rebinding: a push endpoint's name that answers a public address to the check right
before a push and a loopback one a moment later still never gets a connection inside. The
push connects to the address the check approved (``pinned``), with the name kept for the
``Host`` header, TLS's SNI and the certificate check.

Here DNS is ``socket.getaddrinfo`` itself (what the check and urllib3 both ask), answering
from a script per name, and the network is urllib3's ``create_connection``: it records the
address each connection actually goes to and routes the push service's public address to the
push-service double on loopback (nothing leaves the machine). With the check and the
connection each asking DNS (the gap this closes), the second answer, loopback, is where the
connection goes.
"""

from __future__ import annotations

import datetime
import logging
import socket
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import requests
import urllib3.util.connection

from games.notifications.models import PushDelivery, PushStatus, PushSubscription
from games.notifications.push import delivery, pinned
from games.notifications.push.keys import application_key
from games.notifications.services import push
from tests.notifications.push_double import PushServiceDouble
from tests.notifications.test_push_delivery import _process_turn

pytestmark = pytest.mark.django_db

NAME = "push.example.test"
PUBLIC = "93.184.216.34"  # the push service's address in the scripted DNS (never connected to)


class Network:
    """Scripted DNS for ``NAME`` (each lookup takes the next answer; the last one stays) and
    a record of the addresses connected to."""

    def __init__(self, monkeypatch) -> None:
        self.answers: list[str] = []
        self.lookups = 0
        self.connected: list[tuple[str, int]] = []
        real_lookup = socket.getaddrinfo
        real_connect = urllib3.util.connection.create_connection

        def lookup(host, port, *args, **kwargs):
            if host == NAME:
                self.lookups += 1
                host = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
            elif host != PUBLIC:
                # A literal address resolves without asking DNS; any other name: none here.
                try:
                    socket.inet_pton(socket.AF_INET6 if ":" in host else socket.AF_INET, host)
                except (OSError, TypeError) as exc:
                    raise socket.gaierror(socket.EAI_NONAME, "no such name") from exc
            return real_lookup(host, port, *args, **kwargs)

        def connect(address, *args, **kwargs):
            host, port = address
            reached = socket.getaddrinfo(host, port, 0, socket.SOCK_STREAM)[0][4][0]
            self.connected.append((reached, port))
            if reached != PUBLIC:
                raise ConnectionRefusedError(f"the test's network goes nowhere but {PUBLIC}")
            return real_connect(("127.0.0.1", port), *args, **kwargs)  # the route to it

        monkeypatch.setattr(socket, "getaddrinfo", lookup)
        monkeypatch.setattr(urllib3.util.connection, "create_connection", connect)


@pytest.fixture
def network(monkeypatch):
    return Network(monkeypatch)


@pytest.fixture
def named_double():
    key = application_key()
    assert key is not None
    double = PushServiceDouble(key.public_key, name=NAME)
    yield double
    double.close()
    assert not double.rejected, double.rejected


def _turn_push(network, named_double, human_game, alice, bob, play, queued_pushes, settings):
    """Bob's subscription to the double under ``NAME``, a turn push claimed, production's
    rules from then on. (Stored under development's rules: production takes only https://,
    and the double speaks plain HTTP; the check at subscription is tested elsewhere.)"""
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True
    network.answers = [PUBLIC]
    browser = named_double.subscribe()
    push.subscribe(user=bob, endpoint=browser.endpoint, p256dh=browser.p256dh, auth=browser.auth)
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    (pk,) = queued_pushes
    network.lookups = 0
    return pk, browser


def test_a_name_rebinding_to_loopback_after_the_check_is_still_posted_to_the_checked_address(
    network, named_double, human_game, alice, bob, play, queued_pushes, queued_sends, settings
):
    pk, browser = _turn_push(network, named_double, human_game, alice, bob, play,
                             queued_pushes, settings)
    port = named_double.server.server_address[1]
    network.answers = [PUBLIC, "127.0.0.1"]  # the check hears public, a second lookup loopback
    assert delivery.deliver_push(delivery_id=pk) == PushStatus.SENT
    assert network.connected == [(PUBLIC, port)]
    assert network.lookups == 1
    (received,) = named_double.received  # decrypted and its VAPID aud checked as the name's
    assert received.token == browser.token and received.payload["type"] == "turn"
    assert received.host == f"{NAME}:{port}"


def test_a_name_resolving_to_loopback_at_send_time_gets_no_connection(
    network, named_double, human_game, alice, bob, play, queued_pushes, queued_sends, settings,
    caplog,
):
    pk, _browser = _turn_push(network, named_double, human_game, alice, bob, play,
                              queued_pushes, settings)
    subscription_id = PushSubscription.objects.get().pk
    network.answers = ["127.0.0.1"]
    with caplog.at_level(logging.WARNING, logger=delivery.__name__):
        assert delivery.deliver_push(delivery_id=pk) == PushStatus.FAILED
    assert network.connected == [] and named_double.received == []
    assert network.lookups == 1
    row = PushDelivery.objects.get(pk=pk)
    assert row.status == PushStatus.FAILED and "private address" in row.last_error
    assert not PushSubscription.objects.exists()
    assert (f"push subscription {subscription_id} now resolves to a private address: deleted, "
            f"push {pk} not sent") in caplog.text


def test_the_development_path_still_posts_to_the_loopback_double(
    push_double, subscribe_device, human_game, alice, bob, play, queued_pushes, queued_sends,
    settings, monkeypatch,
):
    """``PUSH_ALLOW_PRIVATE_ENDPOINTS`` (development, tests): no check, no pinning."""
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True
    monkeypatch.setattr(pinned, "session", lambda address: pytest.fail("pinned"))
    subscribe_device(bob, push_double)
    play(human_game, alice, "g7=5 h7=5")
    _process_turn(1)
    (pk,) = queued_pushes
    assert delivery.deliver_push(delivery_id=pk) == PushStatus.SENT
    assert len(push_double.received) == 1


# --- the pinned session over TLS ------------------------------------------------------------
def _certificate(tmp_path, name: str):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = tmp_path / "cert.pem", tmp_path / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture
def tls_server(tmp_path):
    """An HTTPS server on 127.0.0.1 with a certificate for ``NAME``; records the SNI and the
    Host header of each request."""
    cert, key = _certificate(tmp_path, NAME)
    seen: list[tuple[str | None, str | None]] = []
    sni: list[str | None] = []

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            seen.append((sni[-1] if sni else None, self.headers.get("Host")))
            self.send_response(204)
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda sock, name, ctx: sni.append(name)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], cert, seen
    server.shutdown()
    server.server_close()


def test_the_pinned_session_speaks_tls_to_the_name_at_the_pinned_address(tls_server):
    port, cert, seen = tls_server
    with pinned.session("127.0.0.1") as session:
        session.verify = str(cert)
        # The name does not resolve at all here: only the pinned address is connected to.
        answer = session.get(f"https://{NAME}:{port}/", timeout=5)
        assert answer.status_code == 204
        assert seen == [(NAME, f"{NAME}:{port}")]
        # The certificate is checked against the URL's name, not the address.
        with pytest.raises(requests.exceptions.SSLError):
            session.get(f"https://other.example.test:{port}/", timeout=5)
