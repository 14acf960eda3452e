"""OpenAPI post-processing: every operation documents the error envelope it can answer with.

Views list their specific errors; this fills in the ones every endpoint shares (bad input,
missing token, unknown object, throttling) so clients and schema checks see the whole contract.
"""

from typing import Any

ERROR_COMPONENT = "ErrorEnvelope"

_ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {"type": "object", "additionalProperties": {}},
            },
            "required": ["code", "message", "details"],
        }
    },
    "required": ["error"],
}

_DESCRIPTIONS = {
    "400": "Invalid input (error.code names the problem)",
    "401": "No token, a bad token, or a suspended account",
    "404": "Not found",
    "405": "Method not allowed",
    "429": "Throttled (error.details.wait)",
}


def add_error_responses(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(ERROR_COMPONENT, _ERROR_SCHEMA)
    ref = {"$ref": f"#/components/schemas/{ERROR_COMPONENT}"}
    for path, operations in result.get("paths", {}).items():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = ["400", "429"]
            if {} not in operation.get("security", [{}]):  # {} marks anonymous access
                codes.append("401")
            if "{" in path:
                codes.append("404")
            responses = operation["responses"]
            for code in codes:
                responses.setdefault(
                    code,
                    {
                        "description": _DESCRIPTIONS[code],
                        "content": {"application/json": {"schema": ref}},
                    },
                )
    return result
