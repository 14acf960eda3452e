"""Tic-tac-toe's part of the API: no options, a move is a square, the position is the board."""

from rest_framework import serializers

from config.fields import StrictCharField


class TicTacToeOptionsSerializer(serializers.Serializer):
    """Tic-tac-toe has no options."""


class TicTacToeMoveSerializer(serializers.Serializer):
    square = StrictCharField(max_length=2, help_text="a1 to c3")


class TicTacToePositionSerializer(serializers.Serializer):
    board = serializers.ListField(child=serializers.CharField(), help_text="rows 1 to 3")
    your_mark = serializers.ChoiceField(choices=("X", "O"))


class TicTacToePlayedSerializer(serializers.Serializer):
    square = serializers.CharField(allow_null=True)


class TicTacToePreviewSerializer(serializers.Serializer):
    """A preview only says whether the square is free."""
