"""Names of the schema's per-kind enums: each kind's single ``kind`` value and its computer
levels get a component named after the kind (``Crazy10sKindEnum``, ``CrazyEightsLevelEnum``)
instead of drf-spectacular's hashed fallbacks. Added to ``ENUM_NAME_OVERRIDES`` when the games
app is ready (the kinds are known only then)."""

from __future__ import annotations

from django.conf import settings

from games import kinds


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def kind_enum_names() -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for kind in kinds.all_kinds():
        names[f"{_camel(kind.name)}KindEnum"] = [kind.name]
        names[f"{_camel(kind.name)}LevelEnum"] = list(kind.levels)
    return names


def install() -> None:
    overrides = settings.SPECTACULAR_SETTINGS.setdefault("ENUM_NAME_OVERRIDES", {})
    for name, choices in kind_enum_names().items():
        overrides.setdefault(name, choices)
