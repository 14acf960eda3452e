"""Input and output serializers of the games API (``inputs``: request bodies; ``outputs``:
the generic envelopes around each kind's own serializers). Output serializers are whitelists:
a view is rendered through them, so a key the engine or a selector might add never reaches a
player unless it is declared."""

from config.envelope import ErrorEnvelopeSerializer
from games.api.inputs import (
    CreateGameInputSerializer,
    GameListQuerySerializer,
    KindQuerySerializer,
    create_input,
    create_input_for,
    move_of,
    older_create_inputs,
    read_notation_body,
    submit_move_input,
)
from games.api.outputs import (
    KIND_NAMES,
    LEVELS,
    MOVE_KINDS,
    OUTCOMES,
    AnyGameView,
    AnyHowToPlay,
    AnyMoveHistory,
    AnyMovePlayed,
    AnyPreview,
    ComputerLevelSerializer,
    GameAnalysisSerializer,
    GamePageSerializer,
    HintSerializer,
    render_history,
    render_how_to_play,
    render_move_played,
    render_preview,
    render_summaries,
    render_summary,
    render_view,
)

__all__ = [
    "KIND_NAMES", "LEVELS", "MOVE_KINDS", "OUTCOMES",
    "AnyGameView", "AnyHowToPlay", "AnyMoveHistory", "AnyMovePlayed", "AnyPreview",
    "ComputerLevelSerializer", "CreateGameInputSerializer", "ErrorEnvelopeSerializer",
    "GameAnalysisSerializer", "GameListQuerySerializer", "GamePageSerializer", "HintSerializer",
    "KindQuerySerializer", "create_input", "create_input_for", "move_of", "older_create_inputs",
    "render_history", "render_how_to_play", "render_move_played", "render_preview",
    "read_notation_body", "render_summaries", "render_summary", "render_view",
    "submit_move_input",
]
