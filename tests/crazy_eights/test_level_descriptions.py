"""The regulars are described honestly (issue 24): each description, in every language, ends
with her measured win rates against a random player and a first-card player, taken from the
file ``python -m games.crazy_eights levelstats --write`` produces, never typed into the
translations."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.crazy_eights import levels, levelstats

LANGUAGES = {
    "en": ("wins {r2}% of two-player matches", "{r4}% at a table of four", "{f2}% and {f4}%",
           "({matches} matches each)"),
    "de": ("{r2} %", "{r4} %", "{f2} %", "{f4} %", "{matches} Partien"),
    "fr": ("{r2} %", "{r4} %", "{f2} %", "{f4} %", "{matches} parties"),
    "pt_BR": ("{r2}%", "{r4}%", "{f2}%", "{f4}%", "{matches} partidas"),
}


def configs(offset: int) -> dict:
    rows = {}
    for n, level in enumerate(levels.LEVELS):
        for m, baseline in enumerate(levelstats.BASELINES):
            for seats in (2, 4):
                rate = (11 + 7 * n + 3 * m + seats + offset) / 100
                rows[f"{level} vs {baseline} at {seats}"] = {
                    "matches": 246, "results": {level: {"win_rate": rate}},
                }
    return {"configurations": rows}


@pytest.fixture
def figures(monkeypatch):
    """Figures no description could contain by chance; the descriptions must follow them."""
    data = configs(0)
    monkeypatch.setattr(levelstats, "_stored", lambda: data)
    return data["configurations"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_each_regulars_description_quotes_her_measured_figures(
    alice, alice_client, figures, language
):
    alice.language = ""
    alice.save(update_fields=["language"])
    response = alice_client.get(
        "/api/v1/games/computer-levels?kind=crazy_eights",
        HTTP_ACCEPT_LANGUAGE=language.replace("_", "-").lower(),
    )
    assert response.status_code == 200
    described = {entry["level"]: entry["description"] for entry in response.json()}
    assert list(described) == list(levels.LEVELS)
    for level, text in described.items():
        def rate(baseline: str, seats: int, level: str = level) -> int:
            row = figures[f"{level} vs {baseline} at {seats}"]["results"][level]
            return round(100 * row["win_rate"])

        expected = {"r2": rate("random", 2), "r4": rate("random", 4), "f2": rate("first", 2),
                    "f4": rate("first", 4), "matches": 246}
        for part in LANGUAGES[language]:
            assert part.format(**expected) in text, (level, text)
        if language != "en":
            assert "Against a player" not in text


def test_a_regular_never_measured_is_described_without_figures(monkeypatch):
    monkeypatch.setattr(levelstats, "_stored", lambda: {"configurations": {}})
    assert levels.description("chaotic") == str(levels.DESCRIPTIONS["chaotic"])


def test_the_committed_figures_are_what_players_read():
    stored = levelstats.load_stats()
    for level in levels.LEVELS:
        row = stored["configurations"][f"{level} vs random at 2"]
        with translation.override("en"):
            text = levels.description(level)
        assert f"wins {round(100 * row['results'][level]['win_rate'])}% of two-player" in text
        assert f"({row['matches']:,} matches each)" in text


def test_the_published_order_and_chaotics_par():
    """The committed figures keep strong > aggressive > cautious > chaotic against each other
    (at a table of four, and each against the next at two seats), and chaotic at least a
    random player's par (50 % at two seats, 25 % at four)."""
    stored = levelstats.load_stats()["configurations"]
    order = ("strong", "aggressive", "cautious", "chaotic")
    table = stored["table of four"]["results"]
    rates = [table[level]["win_rate"] for level in order]
    assert rates == sorted(rates, reverse=True), rates
    for stronger, weaker in zip(order, order[1:], strict=False):
        a, b = sorted((stronger, weaker), key=levels.LEVELS.index)
        pair = stored[f"{a} vs {b} at 2"]["results"]
        assert pair[stronger]["win_rate"] > pair[weaker]["win_rate"], (stronger, weaker)

    def rate(name: str) -> float:
        return float(stored[f"chaotic vs {name}"]["results"]["chaotic"]["win_rate"])

    assert rate("random at 2") >= 0.5 and rate("random at 4") >= 0.25
