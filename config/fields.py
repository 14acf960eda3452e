"""Serializer fields whose validation is exactly what the OpenAPI schema says.

DRF reads 0 as the string "0", "72" as the integer 72 and 1, "yes" or "on" as true, although
the schema says ``type: string`` / ``integer`` / ``boolean``; a client relying on that would
break on any stricter server, and the schema checks (schemathesis) rightly report it. In JSON
these fields take only their own type. A form (multipart or urlencoded) carries only text, so
there DRF's reading of the text stays (booleans as "true"/"false", as the schema spells them).
"""

from __future__ import annotations

from django.contrib.auth import password_validation
from django.db import models
from rest_framework import serializers
from rest_framework.utils import html

# How a form (multipart or urlencoded) spells a boolean: the schema's JSON literals.
_FORM_BOOLEANS = {"true": True, "false": False}


def _from_form(field: serializers.Field) -> bool:
    return html.is_html_input(getattr(field.root, "initial_data", None))


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean; in a form, where every value is text, the strings "true" and "false"."""

    def to_internal_value(self, data):
        if isinstance(data, bool):
            return data
        if isinstance(data, str) and _from_form(self) and data in _FORM_BOOLEANS:
            return _FORM_BOOLEANS[data]
        self.fail("invalid", input=data)


class StrictCharField(serializers.CharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictEmailField(serializers.EmailField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    def to_internal_value(self, data):
        if (isinstance(data, bool) or not isinstance(data, int)) and not _from_form(self):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """A choice of the choice's own JSON type (72, not "72"; "crazy10s", not a number)."""

    def to_internal_value(self, data):
        if not _from_form(self) and not any(
            type(data) is type(choice) for choice in self.choices
        ):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class StrictModelSerializer(serializers.ModelSerializer):
    """Model fields as strict fields: the JSON type the schema gives them, nothing else."""

    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.BooleanField: StrictBooleanField,
        models.CharField: StrictCharField,
        models.TextField: StrictCharField,
        models.EmailField: StrictEmailField,
        models.IntegerField: StrictIntegerField,
        models.PositiveIntegerField: StrictIntegerField,
        models.PositiveSmallIntegerField: StrictIntegerField,
        models.SmallIntegerField: StrictIntegerField,
    }
    serializer_choice_field = StrictChoiceField


class NewPasswordField(StrictCharField):
    """A password an account is created with. The serializer checks it with Django's
    ``validate_password`` (it needs the username and email); ``password_rules`` gives the part
    of those rules a schema can state, so that the schema does not promise what is refused."""

    def __init__(self, **kwargs):
        kwargs.setdefault("write_only", True)
        kwargs.setdefault("trim_whitespace", False)
        kwargs.setdefault("style", {"input_type": "password"})
        rules = password_rules()
        kwargs.setdefault("min_length", rules.get("minLength"))
        super().__init__(**kwargs)
        if "pattern" in rules:
            # What the schema states is refused here as a shape error ("invalid"); the rules it
            # cannot state (too common, too like the username) are the serializer's.
            self.validators.append(_not_entirely_numeric)


def _not_entirely_numeric(value: str) -> None:
    password_validation.NumericPasswordValidator().validate(value)


def password_rules() -> dict:
    """JSON Schema keywords for AUTH_PASSWORD_VALIDATORS' length and all-digits rules."""
    rules: dict = {}
    for validator in password_validation.get_default_password_validators():
        if isinstance(validator, password_validation.MinimumLengthValidator):
            rules["minLength"] = max(rules.get("minLength", 1), validator.min_length)
        elif isinstance(validator, password_validation.NumericPasswordValidator):
            # No NUL (as for every string), and at least one character that is not a digit.
            rules["pattern"] = r"^[^\x00]*[^0-9\x00][^\x00]*$"
    return rules
