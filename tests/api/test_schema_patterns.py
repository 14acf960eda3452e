"""Every ``pattern`` of the OpenAPI schema is one that validators keep (found by Schemathesis:
the control-character pattern of names and emails held a range of lone surrogates, which
Rust-based validators and Schemathesis cannot compile, so they dropped the whole pattern and
called a name with a BEL or a line feed valid; the API refused it as malformed)."""

import re

import pytest
from drf_spectacular.generators import SchemaGenerator
from schemathesis.specs.openapi.warnings import enforced_pattern

from accounts.validators import NO_CONTROL_CHARACTERS, has_control_characters

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
    assert NO_CONTROL_CHARACTERS in patterns
    dropped = [p[:60] for p in patterns if enforced_pattern(p) != p]
    assert not dropped, dropped


@pytest.mark.parametrize("text", ["bell\x07", "line\nfeed", "nel\x85", "zw\u200bsp", "ok"])
def test_the_pattern_and_the_validator_agree_on_text(text):
    assert (re.search(NO_CONTROL_CHARACTERS, text) is None) == has_control_characters(text)
