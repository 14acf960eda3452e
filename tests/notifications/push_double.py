"""A push service on loopback that checks what the server sends as a real one would (RFC 8030,
8291, 8292), and a browser's side of a subscription.

``BrowserSubscription`` makes the keys a browser makes when it subscribes: an ECDH P-256 key
pair (its public point is ``keys.p256dh``) and a 16-byte auth secret (``keys.auth``). The
double's endpoint for it is ``http://127.0.0.1:PORT/push/TOKEN``.

For every POST the double verifies the VAPID header (``Authorization: vapid t=JWT, k=KEY``):
``k`` is the application server's public key, the JWT is ES256-signed by it, ``aud`` is the
endpoint's origin, ``exp`` is in the future and within 24 h, ``sub`` is a mailto: or https:
contact; it decrypts the ``aes128gcm`` body with the subscription's private key and auth
secret, and records TTL, Urgency and Topic. A request that fails a check is answered 400/401
and recorded in ``rejected`` (tests assert it stays empty). What it answers is scripted per
token: a list of status codes (``answer``), or ``hang`` (it holds the request, answering
nothing, for that many seconds).
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class BrowserSubscription:
    """The browser's half of a push subscription."""

    def __init__(self, double: PushServiceDouble, token: str | None = None):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth_secret = os.urandom(16)
        self.token = token or b64url(os.urandom(9))
        self.endpoint = f"{double.origin}/push/{self.token}"
        double.subscriptions[self.token] = self

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)

    def as_json(self) -> dict[str, Any]:
        """What ``PushSubscription.toJSON()`` gives."""
        return {"endpoint": self.endpoint, "expirationTime": None,
                "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass
class Received:
    token: str
    payload: dict[str, Any]
    ttl: int
    urgency: str | None
    topic: str | None
    claims: dict[str, Any]
    status: int
    host: str | None = None  # the Host header
    at: float = field(default_factory=time.monotonic)
    wall: float = field(default_factory=time.time)  # to compare with another process's stamp


class PushServiceDouble:
    def __init__(self, server_public_key: str, port: int = 0, name: str = "127.0.0.1"):
        """``name``: the host name of its endpoints (and of the VAPID ``aud`` it expects); it
        listens on 127.0.0.1 whatever the name."""
        self.server_public_key = server_public_key
        self.subscriptions: dict[str, BrowserSubscription] = {}
        self.received: list[Received] = []
        self.rejected: list[str] = []
        self.answers: dict[str, list[int]] = {}
        self.retry_after: dict[str, str] = {}
        self.hang: dict[str, float] = {}
        self.attempts: dict[str, int] = {}
        self.arrived = threading.Condition()
        double = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                double._handle(self)

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.origin = f"http://{name}:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self, token: str | None = None) -> BrowserSubscription:
        return BrowserSubscription(self, token)

    def wait_for(self, count: int, timeout: float = 20.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        with self.arrived:
            while len(self.received) < count and time.monotonic() < deadline:
                self.arrived.wait(deadline - time.monotonic())
            return list(self.received)

    # --- the checks of a real push service ------------------------------------------------------
    def _verify_vapid(self, authorization: str, origin: str) -> dict[str, Any]:
        scheme, _, params = authorization.partition(" ")
        if scheme.lower() != "vapid":
            raise ValueError(f"not a vapid Authorization: {scheme!r}")
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        if fields.get("k") != self.server_public_key:
            raise ValueError("k is not the application server's public key")
        header_b64, claims_b64, signature_b64 = fields["t"].split(".")
        header = json.loads(unb64url(header_b64))
        if header.get("alg") != "ES256":
            raise ValueError(f"alg {header.get('alg')!r}")
        signature = unb64url(signature_b64)
        if len(signature) != 64:
            raise ValueError("an ES256 signature is r || s, 64 bytes")
        der = encode_dss_signature(int.from_bytes(signature[:32], "big"),
                                   int.from_bytes(signature[32:], "big"))
        public = ec.EllipticCurvePublicKey.from_encoded_point(
            ec.SECP256R1(), unb64url(self.server_public_key))
        public.verify(der, f"{header_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        claims = json.loads(unb64url(claims_b64))
        if claims.get("aud") != origin:
            raise ValueError(f"aud {claims.get('aud')!r} is not {origin!r}")
        now = time.time()
        if not now < int(claims["exp"]) <= now + 24 * 3600:
            raise ValueError(f"exp {claims['exp']} is not within 24 h")
        if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
            raise ValueError(f"sub {claims.get('sub')!r}")
        return claims

    def _handle(self, request: BaseHTTPRequestHandler) -> None:
        token = request.path.rsplit("/", 1)[-1]
        body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        subscription = self.subscriptions.get(token)
        self.attempts[token] = self.attempts.get(token, 0) + 1
        if token in self.hang:
            time.sleep(self.hang[token])
            return  # the connection closes with no answer
        if subscription is None:
            return self._answer(request, 404)
        try:
            claims = self._verify_vapid(request.headers.get("Authorization", ""), self.origin)
        except (ValueError, KeyError, InvalidSignature) as exc:
            self.rejected.append(f"vapid: {exc!r}")
            return self._answer(request, 401)
        try:
            if request.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError(f"Content-Encoding {request.headers.get('Content-Encoding')}")
            plain = http_ece.decrypt(body, private_key=subscription.private_key,
                                     auth_secret=subscription.auth_secret, version="aes128gcm")
            payload = json.loads(plain)
            ttl = int(request.headers["TTL"])
        except Exception as exc:
            self.rejected.append(f"body: {exc!r}")
            return self._answer(request, 400)
        scripted = self.answers.get(token)
        status = scripted.pop(0) if scripted else 201
        with self.arrived:
            self.received.append(Received(
                token, payload, ttl, request.headers.get("Urgency"),
                request.headers.get("Topic"), claims, status, request.headers.get("Host")))
            self.arrived.notify_all()
        extra = {"Retry-After": self.retry_after[token]} if token in self.retry_after else {}
        self._answer(request, status, extra)

    @staticmethod
    def _answer(request: BaseHTTPRequestHandler, status: int,
                headers: dict[str, str] | None = None) -> None:
        request.send_response(status)
        for name, value in (headers or {}).items():
            request.send_header(name, value)
        if status == 201:
            request.send_header("Location", "/message/1")
        request.send_header("Content-Length", "0")
        request.end_headers()

    @property
    def accepted(self) -> list[Received]:
        return [r for r in self.received if r.status in (201, 202)]
