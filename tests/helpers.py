"""Shared test helpers (import as ``from tests.helpers import ...``)."""

PASSWORD = "s3cret-Pass!"


def assert_error(response, status: int, code: str) -> dict:
    """Assert the response is the error envelope with this status and code; return the error."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert isinstance(body["error"]["details"], dict)
    return body["error"]
