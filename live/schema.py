"""OpenAPI for the stream endpoints: they are plain async Django views (DRF's views are sync),
so drf-spectacular cannot see them; this post-processing hook adds them."""

from __future__ import annotations

from typing import Any

from live import event_schema

EVENT_TYPES = list(event_schema.EVENTS)

_DESCRIPTION = (
    "Server-Sent Events (`text/event-stream`). Each event has an `id:`, an `event:` line (its "
    "type) and one `data:` line of JSON holding `type` and the event's fields. Event types: "
    + ", ".join(f"`{t}`" for t in EVENT_TYPES)
    + " (more may be added: ignore unknown types). Reconnect with the `Last-Event-ID` header "
    "(or `?last_event_id=`): events of the last 15 minutes are replayed, older ids get one "
    "`resync` event (reload the games). A `: heartbeat` comment comes every 15 s. "
    "Authentication: `Authorization: Token <key>` (or `Bearer <key>`) or the session cookie. "
    "At most 5 streams per player (429 `too_many_streams`). Each event's JSON is described by "
    "the schema `LiveEvent` (a union told apart by `type`), listed under `x-event-schema`."
)


def _operation(operation_id: str, summary: str, parameters: list[dict]) -> dict[str, Any]:
    error = {"$ref": "#/components/schemas/ErrorEnvelope"}
    return {
        "operationId": operation_id,
        "summary": summary,
        "description": _DESCRIPTION,
        "tags": ["live"],
        "parameters": [
            {"in": "header", "name": "Last-Event-ID", "schema": {"type": "string"},
             "description": "the id of the last event received, to resume"},
            {"in": "query", "name": "last_event_id", "schema": {"type": "string"},
             "description": "the same, for clients that cannot set headers"},
            *parameters,
        ],
        "security": [{"tokenAuth": []}, {"bearerAuth": []}, {"cookieAuth": []}],
        "x-event-schema": {"$ref": "#/components/schemas/LiveEvent"},
        "responses": {
            "200": {
                "description": "the event stream: each `data:` line is a LiveEvent",
                "content": {"text/event-stream": {"schema": {"type": "string"}, "example": (
                    "id: 1733000000000-0\nevent: move\ndata: {\"type\":\"move\",\"game\":12,"
                    "\"move_number\":3,\"notation\":\"g7=5 h7=5\",\"score\":20,"
                    "\"turn\":1,\"your_turn\":true}\n\n")}},
            },
            "401": {"description": "no or bad credentials",
                    "content": {"application/json": {"schema": error}}},
            "429": {"description": "too many streams open",
                    "content": {"application/json": {"schema": error}}},
        },
    }


def add_event_streams(result: dict, **_: Any) -> dict:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    events = event_schema.components()
    taken = sorted(set(events) & set(schemas))
    if taken:  # a name the API's own schemas use: one would silently replace the other
        raise ValueError(f"live event schemas named like other components: {taken}")
    schemas.update(events)
    paths = result.setdefault("paths", {})
    paths["/api/v1/events"] = {
        "get": _operation("events_stream", "Your event stream (all your games)", [])
    }
    game = _operation(
        "game_events_stream", "One game's event stream (players only)",
        [{"in": "path", "name": "game_id", "required": True, "schema": {"type": "integer"}}],
    )
    game["responses"]["403"] = {"description": "not a player of this game",
                                "content": {"application/json": {"schema": {
                                    "$ref": "#/components/schemas/ErrorEnvelope"}}}}
    game["responses"]["404"] = dict(game["responses"]["403"], description="no such game")
    paths["/api/v1/games/{game_id}/events"] = {"get": game}
    return result
