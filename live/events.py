"""The event value every backend stores and every stream writes (SSE wire format)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    id: str  # opaque to clients: they send it back as Last-Event-ID
    type: str
    data: dict[str, Any]
    game_id: int | None = None

    def encode(self) -> bytes:
        payload = json.dumps({"type": self.type, **self.data}, separators=(",", ":"),
                             default=str)
        return f"id: {self.id}\nevent: {self.type}\ndata: {payload}\n\n".encode()


def encode_stored(type_: str, data: dict[str, Any], game_id: int | None) -> str:
    return json.dumps({"t": type_, "d": data, "g": game_id}, separators=(",", ":"), default=str)


def decode_stored(event_id: str, raw: str | bytes) -> Event:
    obj = json.loads(raw)
    return Event(id=event_id, type=obj["t"], data=obj["d"], game_id=obj.get("g"))
