"""A request body may carry only the fields its operation takes: anything else is refused with
``400 unknown_fields`` naming them, before anything changes (issue 30: ``{"turn_days": 14}``
created a game with the default clock and said nothing).

One mechanism, for every endpoint, old or new, without anything to add to a serializer or view:

- The API's parser (``config.parsers``) hands views a body whose JSON objects are
  ``ClientObject``s: data as a client sent it.
- ``install()`` (``config.apps``) makes every DRF ``Serializer`` refuse, in such data, a key that
  is not one of its writable fields — at every level (a nested serializer, each item of a list
  of them) — when it reads the data (``to_internal_value``; a subclass's own checks that run
  before it, such as PATCH me's ``password_not_here``, keep their say). Data that does not come
  from a client body (query parameters, the web's forms, a service calling a serializer) is
  not concerned.
- An endpoint that takes no body (``extend_schema(request=None)``, or none declared: the
  schema shows none) refuses any field sent to it, checked as DRF starts the view
  (``APIView.initial``, after authentication, permissions and throttles).

A serializer that really takes free-form keys declares ``accepts_unknown_fields = True``.
The OpenAPI schema says the same (``additionalProperties: false`` on request objects,
``config.schema.close_request_objects``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import ngettext
from rest_framework import exceptions, serializers
from rest_framework.permissions import SAFE_METHODS

from config.errors import ApiError

if TYPE_CHECKING:
    from rest_framework.views import APIView

CODE = "unknown_fields"


class ClientObject(dict):
    """A JSON object exactly as a client sent it in a request body."""


def from_client(data: Any) -> bool:
    return isinstance(data, ClientObject)


def mark_json(value: Any) -> Any:
    """``value`` (parsed JSON) with every object a ``ClientObject``, without recursion (the
    parser has already refused bodies nested deeper than it allows)."""
    root: list[Any] = [value]
    stack: list[tuple[Any, Any]] = [(root, 0)]
    while stack:
        container, key = stack.pop()
        item = container[key]
        if isinstance(item, dict):
            item = container[key] = ClientObject(item)
            stack.extend((item, k) for k in item)
        elif isinstance(item, list):
            stack.extend((item, i) for i in range(len(item)))
    return root[0]



def unknown_fields(names: list[str]) -> ApiError:
    message = ngettext(
        "This request does not take the field %(fields)s.",
        "This request does not take the fields %(fields)s.",
        len(names),
    ) % {"fields": ", ".join(names)}
    return ApiError(CODE, message, status=400, details={"fields": names})


def _path(serializer: serializers.BaseSerializer, key: str) -> str:
    """``key`` with the names of the serializers around it (``opponent.user``; an item of a
    list of objects: ``tiles.wild``)."""
    names = [key]
    node: Any = serializer
    while node is not None and node.parent is not None:
        if node.field_name:
            names.append(node.field_name)
        node = node.parent
    return ".".join(reversed(names))


def refuse_unknown_fields(serializer: serializers.Serializer, data: Any) -> None:
    if not from_client(data) or getattr(serializer, "accepts_unknown_fields", False):
        return
    writable = {field.field_name for field in serializer._writable_fields}
    unknown = sorted(str(key) for key in data if key not in writable)
    if unknown:
        raise unknown_fields([_path(serializer, key) for key in unknown])


_TAKES_NO_BODY: dict[tuple[type, str], bool] = {}


def takes_no_body(view: APIView, method: str) -> bool:
    """The view's handler for ``method`` documents no request body: the schema's word
    (``extend_schema(request=...)``, as drf-spectacular reads it), once per view and method."""
    if method in SAFE_METHODS or method.lower() not in view.http_method_names:
        return False
    if getattr(view, method.lower(), None) is None:
        return False  # DRF answers 405 for a method the view does not have
    key = (type(view), method)
    if key not in _TAKES_NO_BODY:
        _TAKES_NO_BODY[key] = _request_serializer(view, method) is None
    return _TAKES_NO_BODY[key]


def _request_serializer(view: APIView, method: str) -> Any:
    from drf_spectacular.drainage import GENERATOR_STATS

    handler = getattr(view, method.lower(), None)
    schema_class = getattr(handler, "kwargs", {}).get("schema")
    if schema_class is None:
        return None  # no annotation: an APIView documents no body
    schema = schema_class()
    schema.view, schema.method = view, method
    with GENERATOR_STATS.silence():  # "unable to guess serializer" is the answer, not an error
        return schema.get_request_serializer()


def refuse_a_body_where_none_is_taken(view: APIView, request) -> None:
    if not takes_no_body(view, request.method) or not _has_body(request):
        return
    try:
        data = request.data
    except (exceptions.ParseError, exceptions.UnsupportedMediaType):
        return  # not fields anybody could read: ignored, as the view ignores any body
    if isinstance(data, Mapping) and data:
        raise unknown_fields(sorted(str(key) for key in data))


def _has_body(request) -> bool:
    meta = request.META
    return bool(meta.get("CONTENT_LENGTH") not in (None, "", "0") or meta.get(
        "HTTP_TRANSFER_ENCODING"
    ))


def install() -> None:
    """Hook both checks into DRF (once; idempotent)."""
    # Here, not at the top: DRF's views module loads the parsers, which load this module.
    from rest_framework.views import APIView

    if getattr(serializers.Serializer.to_internal_value, "_refuses_unknown_fields", False):
        return
    to_internal_value = serializers.Serializer.to_internal_value
    initial = APIView.initial

    def checked_to_internal_value(self, data):
        refuse_unknown_fields(self, data)
        return to_internal_value(self, data)

    def checked_initial(self, request, *args, **kwargs):
        initial(self, request, *args, **kwargs)
        refuse_a_body_where_none_is_taken(self, request)

    checked_to_internal_value._refuses_unknown_fields = True  # type: ignore[attr-defined]
    # Patched in on purpose (the module's docstring): mypy refuses assigning to a method.
    serializers.Serializer.to_internal_value = checked_to_internal_value  # type: ignore[method-assign]
    APIView.initial = checked_initial  # type: ignore[method-assign]
