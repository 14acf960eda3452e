"""Names of the schema's per-kind enums: each kind's single ``kind`` value and its computer
levels get a component named after the kind (``Crazy10sKindEnum``, ``CrazyEightsLevelEnum``),
and each move ``type`` one named after it (``PassTypeEnum``), instead of drf-spectacular's
hashed fallbacks. Added to ``ENUM_NAME_OVERRIDES`` when the games
app is ready (the kinds are known only then)."""

from __future__ import annotations

from django.conf import settings

from config.unions import TaggedUnion
from games import kinds


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def kind_enum_names() -> dict[str, list[tuple[object, object]]]:
    """Each name with its choices as (value, label) pairs, as drf-spectacular takes them."""
    names: dict[str, tuple[object, ...]] = {}
    for kind in kinds.all_kinds():
        names[f"{_camel(kind.name)}KindEnum"] = (kind.name,)
        names[f"{_camel(kind.name)}LevelEnum"] = kind.levels
        names.update(kind.schema_enums)
        if issubclass(kind.move_input, TaggedUnion):  # a move's "type": one name per value
            for tag in kind.move_input.variants:
                names[f"{_camel(tag)}TypeEnum"] = (tag,)
    return {name: [(choice, choice) for choice in choices] for name, choices in names.items()}


def install() -> None:
    overrides = settings.SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})
    for name, choices in kind_enum_names().items():
        overrides.setdefault(name, choices)
