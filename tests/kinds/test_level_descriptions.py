"""The computer levels are described honestly (issue 16): each description, in every language,
ends with the level's measured win rate and average score against greedy, taken from the data
file the benchmark writes (engine/level_stats.json), never typed into the translations."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from games import kinds
from games.crazy10s import levels, levelstats

LANGUAGES = {
    "en": ("wins {win}% of games", "{avg} points on average", "({games} games measured)"),
    "de": ("gewinnt er {win} % der Partien", "{avg} Punkte", "über {games} Partien"),
    "fr": ("il gagne {win} % des parties", "{avg} points en moyenne", "sur {games} parties"),
    "pt_BR": ("vence {win}% das partidas", "{avg} pontos", "em {games} partidas"),
}


@pytest.fixture
def figures(tmp_path, monkeypatch):
    """A data file of the benchmark's shape with figures no description could contain by
    chance; the descriptions must follow it."""
    stored = levelstats.load_stats()
    for offset, row in enumerate(stored["levels"].values()):
        row.update(win_rate=0.1234 + offset / 10, average_score=321.4 + offset, games=246)
    path = tmp_path / "level_stats.json"
    path.write_text(json.dumps(stored))
    monkeypatch.setattr(levelstats, "_stored", lambda: levelstats.load_stats(path))
    return stored["levels"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_levels_description_quotes_its_measured_figures(
    alice, alice_client, figures, language
):
    alice.language = ""  # nothing saved: Accept-Language decides
    alice.save(update_fields=["language"])
    response = alice_client.get(
        "/api/v1/games/computer-levels", HTTP_ACCEPT_LANGUAGE=language.replace("_", "-").lower()
    )
    assert response.status_code == 200
    described = {entry["level"]: entry["description"] for entry in response.json()}
    assert list(described) == list(kinds.get("crazy10s").levels)
    for level, text in described.items():
        row = figures[level]
        expected = {
            "win": round(100 * row["win_rate"]),
            "avg": round(row["average_score"]),
            "games": row["games"],
        }
        for part in LANGUAGES[language]:
            assert part.format(**expected) in text, (level, text)
        if language != "en":
            assert "Against a player" not in text  # translated, not English


def test_a_level_never_measured_is_described_without_figures(monkeypatch):
    monkeypatch.setattr(levelstats, "_stored", lambda: {"opponent": "greedy", "levels": {}})
    assert levels.description("casual") == str(levels.DESCRIPTIONS["casual"])
    assert levels.measured_strength("casual") == ""


def test_the_committed_figures_are_what_players_read():
    """The descriptions read the file bench/players.py --write produces, as it is committed."""
    for level in kinds.get("crazy10s").levels:
        row = levelstats.load_stats()["levels"][level]
        with translation.override("en"):
            text = levels.description(level)
        assert f"wins {round(100 * row['win_rate'])}% of games" in text
        assert f"({row['games']:,} games measured)" in text  # English groups thousands
