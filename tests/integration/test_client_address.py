"""NUM_PROXIES is the one knob at every layer, checked against the real servers the README
starts: with 0, a made-up X-Forwarded-For escapes the login throttle under neither `make run`
(uvicorn) nor the production command (gunicorn + uvicorn workers); with 1, behind a proxy that
appends the peer address, the address the proxy saw is the client's, for the throttle and in
the server's own access log."""

import shutil

import pytest

from tests.integration.servers import (
    ForwardingProxy,
    client_from,
    json_lines,
    start_gunicorn,
    wrong_logins,
)
from tests.integration.workers import worker_database_url

THROTTLED = [401] * 10 + [429]  # THROTTLE_LOGIN: 10 a minute per client address


def made_up(i: int) -> str:
    return f"203.0.113.{i + 1}"


@pytest.mark.embedded
def test_make_run_does_not_believe_a_made_up_forwarded_for(embedded_service):
    """From 127.0.0.1, which uvicorn by default trusts to tell the client's address (a proxy on
    the same host that passes the client's header on)."""
    port, log_path = embedded_service
    try:
        with client_from("127.0.0.1") as client:
            codes = wrong_logins(client, f"http://127.0.0.1:{port}", 11, forwarded=made_up)
        assert codes == THROTTLED
    finally:
        # The embedded service's throttle counts live in its file cache: the walkthrough logs
        # in from this address too.
        shutil.rmtree(log_path.parent / "var" / "cache", ignore_errors=True)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_gunicorn_does_not_believe_a_made_up_forwarded_for(gunicorn_server):
    with client_from("127.0.0.1") as client:
        codes = wrong_logins(client, gunicorn_server.base, 11, forwarded=made_up)
        assert codes == THROTTLED
    with client_from("127.0.0.7") as other:  # another address has its own budget
        assert wrong_logins(other, gunicorn_server.base, 1, forwarded=made_up) == [401]
    access = [e["message"] for e in json_lines(gunicorn_server.log())
              if e["logger"] == "uvicorn.access" and "/api/v1/auth/token" in e["message"]]
    assert access and all(line.startswith(("127.0.0.1:", "127.0.0.7:")) for line in access)
    assert not any("203.0.113." in line for line in access)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_behind_one_proxy_the_address_it_saw_counts():
    server = start_gunicorn(db_url=worker_database_url(), access_log=True,
                            extra_env={"NUM_PROXIES": "1"})
    proxy = ForwardingProxy(server.base)
    try:
        # The client's own X-Forwarded-For stays to the left of what the proxy appends.
        with client_from("127.0.0.2") as client:
            assert wrong_logins(client, proxy.base, 11, forwarded=made_up) == THROTTLED
        with client_from("127.0.0.3") as neighbour:  # another client behind the same proxy
            assert wrong_logins(neighbour, proxy.base, 1) == [401]
    finally:
        proxy.close()
        server.stop()
    access = [e["message"] for e in json_lines(server.log()) if e["logger"] == "uvicorn.access"
              and "/api/v1/auth/token" in e["message"]]
    assert len(access) == 12
    assert sum(line.startswith("127.0.0.2:") for line in access) == 11
    assert sum(line.startswith("127.0.0.3:") for line in access) == 1
    server.remove_log()
