"""Every ``pattern`` of the OpenAPI schema is one that validators keep (found by Schemathesis:
the control-character pattern of names and emails held a range of lone surrogates, which
Rust-based validators and Schemathesis cannot compile, so they dropped the whole pattern and
called a name with a BEL or a line feed valid; the API refused it as malformed)."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from schemathesis.specs.openapi.warnings import enforced_pattern

from accounts.validators import (
    NAME_PATTERN,
    NO_CONTROL_CHARACTERS,
    has_control_characters,
    has_invisible_tricks,
)

pytestmark = pytest.mark.django_db


def _patterns(node):
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


def test_every_pattern_compiles_for_strict_validators():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    patterns = set(_patterns(schema))
    assert NAME_PATTERN in patterns  # the display name's (emoji joiners allowed)
    dropped = [p[:60] for p in patterns if enforced_pattern(p) != p]
    assert not dropped, dropped


@pytest.mark.parametrize("text", ["bell\x07", "line\nfeed", "nel\x85", "zw\u200bsp", "ok"])
def test_the_pattern_and_the_validator_agree_on_text(text):
    assert (re.search(NO_CONTROL_CHARACTERS, text) is None) == has_control_characters(text)


@pytest.mark.parametrize("text", [
    "bell\x07", "line\nfeed", "zw\u200bsp", "ok", "", "\U0001f468\u200d\U0001f469",
    "\U0001f3f3\ufe0f\u200d\U0001f308", "a\u200d", "\u200da", "a\u200d\u200db",
    "a\u200d\nb", "\u202ea\u200db",
])
def test_the_name_pattern_and_the_validator_agree_on_text(text):
    assert (re.search(NAME_PATTERN, text) is None) == has_invisible_tricks(text)


def test_the_display_name_has_the_name_pattern():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    patterns = set(_patterns(schema))
    assert NAME_PATTERN in patterns


@pytest.mark.parametrize("address", [
    "0@0.a", "a@b.c-", "a@b.io", "x.y+z@mail.example.com", "a@localhost", "a@[127.0.0.1]",
    "a@b.xn--p1ai", "a@пример.рф", "a@b.c0m", "a@b.com.", "a@[foo]", "a@b.IO",
])
def test_the_schema_and_the_api_agree_on_email_addresses(address):
    """Found by Schemathesis: "0@0.a" is well-formed (format: email) but Django refuses a
    one-letter top-level domain; the schema's pattern now says what the API takes."""
    from django.core.exceptions import ValidationError
    from django.core.validators import validate_email

    schema = SchemaGenerator().get_schema(request=None, public=True)
    email = schema["components"]["schemas"]["RegisterInputRequest"]["properties"]["email"]
    try:
        validate_email(address)
        accepted = True
    except ValidationError:
        accepted = False
    assert (re.search(email["pattern"], address) is not None) == accepted
