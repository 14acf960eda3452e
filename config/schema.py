"""The OpenAPI schema says what the API validates.

- ``AutoSchema`` adds to request strings what DRF's ``CharField`` enforces beyond its length:
  no NUL character, and (when blank is not allowed) something left after trimming whitespace;
  and to lists of objects (``many=True``) their length limits.
- ``close_request_objects`` says that a request object takes only its own properties
  (``additionalProperties: false``), as the API enforces (``config.unknown_fields``).
- ``add_links`` names, as OpenAPI links, where an answer leads (the game a POST games made, the
  table a POST tables opened): clients may follow them, and Schemathesis's stateful run does.
- ``config.schema_responses.add_responses`` documents the statuses every operation shares
  (with the error envelope) and the response headers; views list their specific errors.
"""

import json
from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular import openapi
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.plumbing import ResolvedComponent, build_bearer_security_scheme_object
from rest_framework import serializers

from config.fields import NewPasswordField, password_rules
from config.text import (
    NAME_PATTERN,
    NO_CONTROL_CHARACTERS,
    REFUSED_CLASS,
    refuse_control_characters,
    refuse_invisible_tricks,
)

# Characters str.strip() removes (Python's whitespace), spelled out: JSON Schema regex dialects
# disagree on what \s covers.
_WHITESPACE = r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NO_NUL = r"^[^\x00]*$"
NOT_BLANK = rf"^[^\x00]*[^\x00{_WHITESPACE}][^\x00]*$"
# How Django's EmailValidator ends an address, beyond what ``format: email`` says (found by
# Schemathesis: "0@0.a" is a well-formed address, refused as invalid): a top-level domain of 2
# to 63 letters (any script) and inner hyphens, or punycode (xn--), "localhost", or an IP
# address literal in brackets. (The letters' range skips the surrogates: see REFUSED_CLASS.)
_LETTER = r"A-Za-z\u00a1-\ud7ff\ue000-\uffff"
EMAIL_END = (
    rf"(?:\.(?:[{_LETTER}][{_LETTER}-]{{0,61}}[{_LETTER}]|[Xx][Nn]--[A-Za-z0-9]{{1,59}})"
    r"|@localhost|@\[[A-Fa-f0-9:.]+\])$"
)


class AutoSchema(openapi.AutoSchema):
    # Methods whose body is described. DELETE too when a view declares one (``DELETE me``
    # takes {"password"}); drf-spectacular leaves DELETE bodies out otherwise.
    def _get_request_body(self, direction="request"):
        if self.method == "DELETE" and self.get_request_serializer() is not None:
            self.method = "POST"  # the body logic of an unsafe method
            try:
                return super()._get_request_body(direction)
            finally:
                self.method = "DELETE"
        return super()._get_request_body(direction)

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction != "request":
            return schema
        if isinstance(field, serializers.ListSerializer):  # many=True: its length limits
            least = field.min_length or (None if field.allow_empty else 1)
            limits = {"minItems": least, "maxItems": field.max_length}
            return {**schema, **{k: v for k, v in limits.items() if v is not None}}
        if not isinstance(field, serializers.CharField):
            return schema
        if isinstance(field, NewPasswordField):
            return {**schema, **password_rules()}
        if isinstance(field, serializers.EmailField) and schema.get("format") == "email":
            chars = f"[^{REFUSED_CLASS}]" if refuse_control_characters in field.validators else "."
            return {**schema, "pattern": f"^{chars}*{EMAIL_END}"}
        if refuse_control_characters in field.validators:
            return {**schema, "pattern": NO_CONTROL_CHARACTERS}
        if refuse_invisible_tricks in field.validators:
            return {**schema, "pattern": NAME_PATTERN}
        if schema.get("type") != "string" or {"pattern", "enum", "format"} & schema.keys():
            return schema  # a field with its own pattern or format says more already
        if any(isinstance(v, RegexValidator) for v in field.validators):
            return schema  # drf-spectacular adds the validator's pattern next
        blank_refused = field.trim_whitespace and not field.allow_blank
        return {**schema, "pattern": NOT_BLANK if blank_refused else NO_NUL}


class CrossFieldRules(OpenApiSerializerExtension):
    """The request schema of a serializer whose ``validate()`` enforces a rule across fields
    ("one of these keys", "a digit unless it is a wild"): a ``oneOf`` (exclusive) or ``anyOf``
    of whole objects, one per way of filling the form, each its own component
    (``<name>Input<Key>Request``, after the key it requires). Subclasses name ``target_class``,
    ``rules`` (``{"oneOf" | "anyOf": [{"required": [...], "properties": {...}}, ...]}``: what
    each way requires, and how it narrows its properties) and ``properties`` (narrowed in every
    way).

    Generators type whole objects only: "properties + oneOf of required" became, in
    openapi-python-client, one class per branch holding that branch's keys alone (a tile
    without its square) or an untyped ``Any``, and openapi-typescript dropped the rule.
    In a ``oneOf`` a way leaves out the keys that the others require (a seat is
    ``{"you": true}`` or ``{"computer": ...}``, never both); in an ``anyOf`` it keeps them
    (a wild may name the digit it stands for)."""

    rules: dict = {}
    properties: dict = {}

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        if direction != "request":
            return schema
        properties = {
            name: _narrowed(prop, self.properties.get(name, {}))
            for name, prop in schema["properties"].items()
        }
        (keyword, ways), = self.rules.items()
        name = auto_schema._get_serializer_name(self.target, direction).removesuffix("Request")
        refs = []
        for way in ways:
            others = {key for other in ways if other is not way for key in other["required"]}
            left_out = others - set(way["required"]) if keyword == "oneOf" else set()
            keep = set(properties) - left_out
            narrowing = way.get("properties", {})
            shape: dict[str, Any] = {
                "type": "object",
                "properties": {
                    key: _narrowed(prop, narrowing.get(key, {}))
                    for key, prop in properties.items() if key in keep
                },
                "required": sorted({*schema.get("required", []), *way["required"]}),
                "additionalProperties": False,
            }
            if schema.get("description"):
                shape["description"] = schema["description"]
            label = "".join(part.capitalize() for part in way["required"][0].split("_"))
            component = ResolvedComponent(
                name=f"{name}{label}Request", type=ResolvedComponent.SCHEMA,
                object=f"{name}{label}", schema=shape,
            )
            auto_schema.registry.register_on_missing(component)
            refs.append(component.ref)
        union: dict[str, Any] = {keyword: refs}
        if schema.get("description"):
            union["description"] = schema["description"]
        return union


def _narrowed(prop: dict[str, Any], narrowing: dict[str, Any]) -> dict[str, Any]:
    """``prop`` with ``narrowing``'s keywords; a default the narrowed values exclude goes."""
    if "enum" in narrowing or "type" in narrowing:
        prop = {k: v for k, v in prop.items() if k != "default"}
    return {**prop, **narrowing}


class DeviceTokenScheme(OpenApiAuthenticationExtension):
    """``Authorization: Token <key>`` or ``Bearer <key>``: a device token (accounts.tokens,
    django-rest-knox). Two schemes, either one will do: ``tokenAuth`` (the name DRF's token
    scheme had, so clients generated from the schema keep it) and ``bearerAuth`` (HTTP bearer,
    what generators set up by default)."""

    target_class = "accounts.authentication.LanguageTokenAuthentication"
    name = ["tokenAuth", "bearerAuth"]

    def get_security_requirement(self, auto_schema):
        return [{name: []} for name in self.name]  # either scheme, not both

    def get_security_definition(self, auto_schema):
        return [
            build_bearer_security_scheme_object(header_name="Authorization",
                                                token_prefix="Token"),
            {"type": "http", "scheme": "bearer",
             "description": "the same device token as tokenAuth, after Bearer"},
        ]


class LanguageSessionScheme(SessionScheme):
    """The session cookie, as for DRF's SessionAuthentication (which the class extends)."""

    target_class = "accounts.authentication.LanguageSessionAuthentication"

def _asks_for_something(branch: dict[str, Any], schemas: dict[str, Any]) -> bool:
    """Does this ``oneOf`` branch (inline, or a ``$ref`` to a component, as the per-kind forms
    of ``POST /games`` are) require a property?"""
    if branch.get("required"):
        return True
    ref = branch.get("$ref", "")
    if ref:
        return _asks_for_something(schemas.get(ref.rsplit("/", 1)[-1], {}), schemas)
    alternatives = branch.get("oneOf", []) or branch.get("anyOf", [])
    return bool(alternatives) and all(_asks_for_something(b, schemas) for b in alternatives)


def require_bodies_that_need_a_property(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A body whose schema asks for one of several properties (``oneOf`` of ``required``, as
    ``{"move": ...}`` or ``{"tiles": ...}``) cannot be left out: mark the request body required
    (drf-spectacular only looks at the properties that are required on their own)."""
    schemas = result.get("components", {}).get("schemas", {})
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body or body.get("required"):
                continue
            for media in body.get("content", {}).values():
                if _asks_for_something(media.get("schema", {}), schemas):
                    body["required"] = True
    return result


def _request_objects(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every object schema a request body holds (the body, a nested object, each item of a
    list of them, each way of a ``oneOf``/``anyOf``), each component once."""
    schemas = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    found: list[dict[str, Any]] = []

    def walk(schema: Any) -> None:
        if not isinstance(schema, dict):
            return
        ref = schema.get("$ref", "")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                seen.add(name)
                walk(schemas.get(name))
            return
        for keyword in ("oneOf", "anyOf", "allOf"):
            for branch in schema.get(keyword, []):
                nested = any(k in branch for k in ("oneOf", "anyOf", "allOf"))
                if "$ref" in branch or branch.get("type") == "object" or nested:
                    walk(branch)
        if schema.get("type") == "object" and "properties" in schema:
            found.append(schema)
            for prop in schema["properties"].values():
                walk(prop)
        if schema.get("type") == "array":
            walk(schema.get("items"))

    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for media in (body or {}).get("content", {}).values():
                walk(media.get("schema"))
    return found


def close_request_objects(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """Every object a request body holds takes no property beyond its own:
    ``additionalProperties: false``, as the API refuses any other field (``400
    unknown_fields``)."""
    for schema in _request_objects(result):
        schema.setdefault("additionalProperties", False)
    return result


def request_defaults_in_words(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """A request property the client may leave out says its default in its description, not
    with ``default``: openapi-typescript (7, by default) makes every property that has a
    ``default`` required in the components it types, so a TypeScript client had to send
    ``wild`` with every tile and ``rated`` and ``turn_hours`` with every new game. (Request
    components are their own, ``…Request``: answers keep their defaults.)"""
    for schema in _request_objects(result):
        required = set(schema.get("required", []))
        for name, prop in schema["properties"].items():
            if name in required or not isinstance(prop, dict) or "default" not in prop:
                continue
            default = json.dumps(prop.pop("default"))
            words = prop.get("description", "").rstrip()
            prop["description"] = f"{words}{chr(10) * 2 if words else ''}Default: {default}."
    return result


def anonymous_operations_without_security(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """An operation anyone may call (register, log in, reset a password) says so with
    ``security: []``. drf-spectacular writes ``[{}]`` (one requirement, empty), which means the
    same in OpenAPI, but generators read "a requirement": openapi-python-client then asks for an
    ``AuthenticatedClient`` (a token) to register or to log in."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and operation.get("security") == [{}]:
                operation["security"] = []
    return result


# Unions whose members may describe one and the same value: a history entry of a move that
# every kind has (a resignation, a pass) fits every kind's entry.
OVERLAPPING_UNIONS = ("AnyMoveHistoryEntry",)


def overlapping_unions_as_any_of(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """``anyOf`` for the unions in ``OVERLAPPING_UNIONS``: ``oneOf`` (what drf-spectacular
    writes for a union without a discriminator) would make an entry that fits two kinds'
    shapes invalid. The client knows the game's kind from the game."""
    schemas = result.get("components", {}).get("schemas", {})
    for name in OVERLAPPING_UNIONS:
        union = schemas.get(name)
        if isinstance(union, dict) and "oneOf" in union:
            union["anyOf"] = union.pop("oneOf")
    return result


# What can be done with a game, a table or a player once an answer names it.
GAME_OPERATIONS = (
    "games_retrieve", "games_moves_list", "games_moves_create", "games_preview", "games_resign",
    "games_cancel", "games_hint", "games_how_to_play", "games_analysis", "games_chat_list",
    "games_chat_create", "games_rematch", "games_rematch_cancel", "games_nudge",
)
TABLE_OPERATIONS = (
    "tables_retrieve", "tables_join", "tables_leave", "tables_deal", "tables_back",
    "tables_invite",
)
FRIEND_OPERATIONS = (
    "me_friends_accept", "me_friends_play", "me_friends_remove", "players_retrieve",
    "players_block",
)
GAME_ID = "$response.body#/id"
LINKS: dict[tuple[str, str], dict[str, dict[str, str]]] = {
    ("games_create", "201"): {op: {"game_id": GAME_ID} for op in GAME_OPERATIONS},
    ("games_retrieve", "200"): {op: {"game_id": GAME_ID} for op in GAME_OPERATIONS},
    ("games_resign", "200"): {op: {"game_id": GAME_ID} for op in GAME_OPERATIONS},
    ("games_cancel", "200"): {op: {"game_id": GAME_ID} for op in GAME_OPERATIONS},
    ("games_moves_create", "201"): {
        op: {"game_id": "$response.body#/game/id"} for op in GAME_OPERATIONS
    },
    ("me_friends_play", "201"): {op: {"game_id": GAME_ID} for op in GAME_OPERATIONS},
    ("tables_create", "201"): {op: {"code": "$response.body#/code"} for op in TABLE_OPERATIONS},
    ("tables_join", "200"): {op: {"code": "$response.body#/code"} for op in TABLE_OPERATIONS},
    ("tables_deal", "200"): {
        "games_retrieve": {"game_id": "$response.body#/game_id"},
        "games_resign": {"game_id": "$response.body#/game_id"},
        "tables_leave": {"code": "$response.body#/code"},
    },
    ("me_friends_create", "201"): {
        op: {"username": "$request.body#/username"} for op in FRIEND_OPERATIONS
    },
}


def add_links(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """``LINKS`` as each answer's ``links`` (an answer or a target not in the schema is left
    out, so a renamed operation drops its links instead of breaking the schema)."""
    operations = {
        op["operationId"]: op
        for methods in result.get("paths", {}).values()
        for op in methods.values()
        if isinstance(op, dict) and "operationId" in op
    }
    for (source, status), targets in LINKS.items():
        response = operations.get(source, {}).get("responses", {}).get(status)
        if response is None:
            continue
        links = response.setdefault("links", {})
        for target, parameters in targets.items():
            if target in operations:
                links[target] = {"operationId": target, "parameters": dict(parameters)}
    return result
