"""The social API's input and output (whitelists: nothing but what the player may see)."""

from __future__ import annotations

from rest_framework import serializers

from config.fields import StrictBooleanField, StrictCharField


class ChatInputSerializer(serializers.Serializer):
    # The service trims and checks the length after removing control characters; this only
    # refuses what cannot be a message at all.
    text = StrictCharField(
        max_length=2000, allow_blank=True, trim_whitespace=False,
        help_text="plain text, 1-500 characters (shown as text: links are never HTML)",
    )


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    username = serializers.CharField(allow_null=True)
    name = serializers.CharField(allow_null=True)
    text = serializers.CharField(help_text="plain text: show it as text, never as HTML")
    move_number = serializers.IntegerField(help_text="moves played when it was written")
    created_at = serializers.DateTimeField()
    by_you = serializers.BooleanField()


class ChatSerializer(serializers.Serializer):
    muted = serializers.BooleanField(help_text="you muted this game's chat")
    muted_everywhere = serializers.BooleanField(help_text="you muted all chat (me/social)")
    messages = ChatMessageSerializer(many=True)


class RematchSerializer(serializers.Serializer):
    game = serializers.IntegerField(help_text="the game to play again")
    status = serializers.CharField(help_text="open, accepted, declined, withdrawn or expired")
    offered_by_you = serializers.BooleanField()
    expires_at = serializers.DateTimeField()
    new_game = serializers.IntegerField(allow_null=True, help_text="once accepted")
    streak = serializers.IntegerField(help_text="rematches in a row, once accepted")


class UsernameInputSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150)


class PersonSerializer(serializers.Serializer):
    username = serializers.CharField()
    name = serializers.CharField()
    since = serializers.DateTimeField()


class GameTogetherSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    kind = serializers.CharField()
    your_turn = serializers.BooleanField()
    their_turn = serializers.BooleanField()
    deadline = serializers.DateTimeField(allow_null=True)


class FriendSerializer(PersonSerializer):
    online = serializers.BooleanField(help_text="seen in a game in the last 5 minutes")
    games = GameTogetherSerializer(many=True, help_text="your active games together")


class FriendsSerializer(serializers.Serializer):
    friends = FriendSerializer(many=True)
    incoming = PersonSerializer(many=True, help_text="requests waiting for your answer")
    outgoing = PersonSerializer(many=True, help_text="your requests not yet accepted")


class FriendRequestSerializer(serializers.Serializer):
    status = serializers.CharField(help_text="requested or friends")


class BlockedSerializer(serializers.Serializer):
    username = serializers.CharField(source="blocked.username")
    name = serializers.CharField(source="blocked.public_name")
    since = serializers.DateTimeField(source="created_at")


class SocialSettingsSerializer(serializers.Serializer):
    hide_profile = StrictBooleanField(
        required=False, help_text="only you see your profile (players/{username})"
    )
    mute_all_chat = StrictBooleanField(required=False, help_text="no chat in any game")


class RatingSerializer(serializers.Serializer):
    kind = serializers.CharField()
    rating = serializers.IntegerField()
    deviation = serializers.IntegerField()
    volatility = serializers.FloatField()
    games = serializers.IntegerField()
    provisional = serializers.BooleanField()


class RatingChangeSerializer(serializers.Serializer):
    kind = serializers.CharField()
    game = serializers.IntegerField(source="game_id")
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_after = serializers.FloatField()
    score = serializers.FloatField(help_text="the result Glicko-2 saw (1 win, 0 loss)")
    created_at = serializers.DateTimeField()


class RatingsSerializer(serializers.Serializer):
    ratings = RatingSerializer(many=True)
    history = RatingChangeSerializer(many=True, help_text="newest first (the last 100)")


class BestMoveSerializer(serializers.Serializer):
    score = serializers.IntegerField()
    notation = serializers.CharField()
    game = serializers.IntegerField()


class KindStatsSerializer(serializers.Serializer):
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    average_score = serializers.FloatField(help_text="final score per finished game")
    best_move = BestMoveSerializer(allow_null=True)


class OwnStatsSerializer(serializers.Serializer):
    moves = serializers.IntegerField()
    points_per_move = serializers.FloatField()
    best_move_share = serializers.FloatField(
        allow_null=True,
        help_text="share of your moves that scored as much as the best move available "
        "(finished games; null for kinds without scoring moves or before any)",
    )


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    member_since = serializers.DateTimeField()
    ratings = RatingSerializer(many=True)
    games = serializers.DictField(child=KindStatsSerializer(), help_text="by game kind")
    puzzle_streak = serializers.IntegerField(required=False)
    best_puzzle_streak = serializers.IntegerField(required=False)
    statistics = serializers.DictField(
        child=OwnStatsSerializer(), required=False, help_text="your own profile only, by kind"
    )
    hidden = serializers.BooleanField(required=False, help_text="your own profile only")
