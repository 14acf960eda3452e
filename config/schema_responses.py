"""Every answer an operation can give, in the schema: the statuses every endpoint shares (with
the error envelope and their codes) and the response headers, so that a generated client parses
each of them instead of raising on an "unexpected" status.

- Every operation: 400, 429, 500 and 503 (``Retry-After``); with a body 413 and 415; with a
  token 401; with a path parameter 404; every operation 405 (another method on its path).
- Every response: ``X-Request-ID``. A throttled operation's responses: ``RateLimit-Limit``,
  ``RateLimit-Remaining``, ``RateLimit-Reset`` (``config.ratelimit``; present when the request
  was counted). 429 and 503: ``Retry-After``.
- Operation-specific headers: ``ETag`` (a game's view), ``Idempotent-Replayed`` (the two POSTs
  that take an ``Idempotency-Key``).
- An error response a view documents without a body gets the envelope.
"""

from __future__ import annotations

from typing import Any

ERROR_COMPONENT = "ErrorEnvelope"
ERROR_REF = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}

ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "description": "stable: what went wrong"},
                "message": {"type": "string", "description": "the same in your language"},
                "details": {"type": "object", "additionalProperties": {}},
            },
            "required": ["code", "message", "details"],
        }
    },
    "required": ["error"],
}

DESCRIPTIONS = {
    "400": "Invalid input: `invalid` (error.details names the fields), `parse_error` (not "
    "JSON), `unknown_fields` (fields the operation does not take, in error.details.fields), or "
    "a rule of the operation with its own code",
    "401": "`not_authenticated` (no credentials) or `authentication_failed` (a bad or expired "
    "token, a suspended account)",
    "404": "`not_found`",
    "405": "`method_not_allowed`: the path does not take this method",
    "413": "`request_too_large` (error.details.max_bytes)",
    "415": "`unsupported_media_type`: request bodies are JSON (`Content-Type: application/json`)",
    "429": "`throttled` (error.details.wait; `Retry-After` says how many seconds)",
    "500": "`server_error`: a bug on our side (error.details.request_id names it in the logs)",
    "503": "`service_unavailable`: the database, Redis or the broker cannot be reached for a "
    "moment; try again after `Retry-After` seconds",
}

HEADERS = {
    "X-Request-ID": {
        "description": "this request's id (the one sent, if it was sane): it names the request "
        "in the server's logs",
        "schema": {"type": "string"},
    },
    "Retry-After": {
        "description": "seconds to wait before trying again",
        "schema": {"type": "integer", "minimum": 1},
    },
    "RateLimit-Limit": {
        "description": "requests the tightest of this operation's limits allows per window "
        "(present when the request was counted against one)",
        "schema": {"type": "integer"},
    },
    "RateLimit-Remaining": {
        "description": "requests left in that window",
        "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Reset": {
        "description": "seconds until the window frees a request",
        "schema": {"type": "integer", "minimum": 1},
    },
    "ETag": {
        "description": "the view's version: send it back as If-None-Match (304 if unchanged)",
        "schema": {"type": "string"},
    },
    "Idempotent-Replayed": {
        "description": "`true`: the answer stored for this Idempotency-Key, nothing was done again",
        "schema": {"type": "string", "enum": ["true"]},
    },
}

# Operation-specific headers, by (operationId, status).
OPERATION_HEADERS = {
    ("games_retrieve", "200"): ["ETag"],
    ("games_retrieve", "304"): ["ETag"],
    ("games_create", "201"): ["Idempotent-Replayed"],
    ("games_moves_create", "201"): ["Idempotent-Replayed"],
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/headers/{name}"}


def _throttled_operations(generator: Any) -> set[tuple[str, str]]:
    """(path, method) of every operation whose view has a throttle."""
    found = set()
    for path, _regex, method, view in getattr(generator, "endpoints", None) or []:
        view_class = getattr(view, "cls", None)
        if view_class is not None and getattr(view_class, "throttle_classes", None):
            found.add((path, method.lower()))
    return found


def add_responses(result: dict[str, Any], generator: Any = None, **_: Any) -> dict[str, Any]:
    components = result.setdefault("components", {})
    components.setdefault("schemas", {}).setdefault(ERROR_COMPONENT, ERROR_SCHEMA)
    components.setdefault("headers", {}).update(HEADERS)
    throttled = _throttled_operations(generator)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            for code in _shared_codes(path, operation):
                responses.setdefault(code, {"description": DESCRIPTIONS[code]})
            limited = (path, method) in throttled
            for code, response in responses.items():
                _complete(operation.get("operationId", ""), code, response, limited)
    return result


def _shared_codes(path: str, operation: dict[str, Any]) -> list[str]:
    codes = ["400", "405", "429", "500", "503"]
    if "requestBody" in operation:
        codes += ["413", "415"]
    security = operation.get("security", [])
    if security and {} not in security:  # [] or a {} among them: anonymous access
        codes.append("401")
    if "{" in path:
        codes.append("404")
    return codes


def _complete(operation_id: str, code: str, response: dict[str, Any], limited: bool) -> None:
    """The envelope on an error without a body; the headers this answer carries."""
    if code.startswith(("4", "5")):
        response.setdefault("content", {"application/json": {"schema": ERROR_REF}})
    headers = response.setdefault("headers", {})
    names = ["X-Request-ID", *OPERATION_HEADERS.get((operation_id, code), [])]
    if code in ("429", "503"):
        names.append("Retry-After")
    if limited:
        names += ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]
    for name in names:
        headers.setdefault(name, _ref(name))
