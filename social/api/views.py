"""Thin HTTP layer of the social features: parse, call a service or selector, render."""

from __future__ import annotations

from collections.abc import Iterable

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.views import APIView

from config.envelope import ErrorEnvelopeSerializer
from config.parsers import JSONParser
from config.throttling import AtomicThrottle
from games import selectors as game_selectors
from games.api.serializers import AnyGameView, render_view
from games.api.views import _game_id
from social import selectors, services
from social.api import serializers as s
from social.services import chat, rematch


def _errors(**described: str) -> dict:
    return {
        int(code[1:]): OpenApiResponse(ErrorEnvelopeSerializer, description=text)
        for code, text in described.items()
    }


class _UserWriteThrottle(AtomicThrottle):
    """Per player, at the view's ``throttle_scope`` rate, for writes only (counted
    atomically in Redis, like the login throttles)."""

    def identities(self, request, view) -> Iterable[tuple[str, str]]:
        if request.method in SAFE_METHODS or request.method == "DELETE":
            return
        yield view.throttle_scope, str(request.user.pk)


class _Base(APIView):
    parser_classes = [JSONParser]


class ChatView(_Base):
    throttle_classes = [_UserWriteThrottle]
    throttle_scope = "chat"

    @extend_schema(
        operation_id="games_chat_list", tags=["social"],
        responses={200: s.ChatSerializer, **_errors(e403="not_a_player", e404="No such game")},
        description="The game's chat as you may see it (oldest first; `move_number` places "
        "each message in the game's history). Messages of players you blocked are left out; "
        "with the chat muted you see only your own.",
    )
    def get(self, request, game_id: int):
        view = chat.read(game_id=_game_id(game_id), user=request.user)
        return Response(s.ChatSerializer(view).data)

    @extend_schema(
        operation_id="games_chat_create", tags=["social"], request=s.ChatInputSerializer,
        responses={
            201: s.ChatMessageSerializer,
            **_errors(e400="invalid (empty or over 500 characters)", e403="not_a_player, "
                      "chat_banned (a moderator muted you)", e404="No such game",
                      e429="throttled (10 messages a minute)"),
        },
        description="Write in the game's chat (plain text, at most 500 characters). It is "
        "streamed to the other players as a `chat` event.",
    )
    def post(self, request, game_id: int):
        data = s.ChatInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        message = chat.post(
            game_id=_game_id(game_id), user=request.user, text=data.validated_data["text"]
        )
        body = chat.message_data(message, request.user.pk)
        return Response(s.ChatMessageSerializer(body).data, status=status.HTTP_201_CREATED)


class ChatMuteView(_Base):
    @extend_schema(operation_id="games_chat_mute", tags=["social"], request=None,
                   responses={204: None, **_errors(e403="not_a_player", e404="No such game")},
                   description="Mute this game's chat (for you).")
    def post(self, request, game_id: int):
        chat.mute(game_id=_game_id(game_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(operation_id="games_chat_unmute", tags=["social"], request=None,
                   responses={204: None, **_errors(e403="not_a_player", e404="No such game")},
                   description="Hear this game's chat again.")
    def delete(self, request, game_id: int):
        chat.unmute(game_id=_game_id(game_id), user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RematchView(_Base):
    throttle_classes = [_UserWriteThrottle]
    throttle_scope = "rematch"

    @extend_schema(
        operation_id="games_rematch", tags=["social"], request=None,
        responses={
            201: s.RematchSerializer, 200: s.RematchSerializer,
            **_errors(e403="not_a_player", e404="No such game",
                      e409="game_not_over, rematch_unavailable (not two people)",
                      e429="throttled (offers per hour)"),
        },
        description="Offer a rematch (201), or accept the other player's open offer (200: "
        "`new_game` is the new game, same settings, the other player starts). Offering or "
        "accepting again answers the same offer and game. Offers expire after 24 hours.",
    )
    def post(self, request, game_id: int):
        receipt = rematch.offer_or_accept(game_id=_game_id(game_id), user=request.user)
        body = s.RematchSerializer(rematch.offer_data(receipt.offer, request.user.pk)).data
        return Response(body, status=201 if receipt.created else 200)

    @extend_schema(
        operation_id="games_rematch_cancel", tags=["social"], request=None,
        responses={200: s.RematchSerializer, **_errors(
            e403="not_a_player", e404="no_rematch_offer (none open) or no such game",
            e409="game_not_over")},
        description="Withdraw your open offer, or decline the other player's.",
    )
    def delete(self, request, game_id: int):
        offer = rematch.withdraw_or_decline(game_id=_game_id(game_id), user=request.user)
        return Response(s.RematchSerializer(rematch.offer_data(offer, request.user.pk)).data)


class FriendsView(_Base):
    throttle_classes = [_UserWriteThrottle]
    throttle_scope = "friend_requests"

    @extend_schema(operation_id="me_friends_list", tags=["social"],
                   responses={200: s.FriendsSerializer})
    def get(self, request):
        return Response(s.FriendsSerializer(services.friends.friends_of(user=request.user)).data)

    @extend_schema(
        operation_id="me_friends_create", tags=["social"], request=s.UsernameInputSerializer,
        responses={201: s.FriendRequestSerializer, 200: s.FriendRequestSerializer,
                   **_errors(e400="invalid, cannot_befriend_yourself",
                             e404="player_not_found", e429="throttled")},
        description="Ask a player to be your friend (201), or accept their request by asking "
        "back (200, status friends).",
    )
    def post(self, request):
        data = s.UsernameInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        receipt = services.friends.request(
            user=request.user, username=data.validated_data["username"]
        )
        body = s.FriendRequestSerializer({"status": receipt.status}).data
        return Response(body, status=201 if receipt.created else 200)


class FriendAcceptView(_Base):
    @extend_schema(operation_id="me_friends_accept", tags=["social"], request=None,
                   responses={200: s.FriendRequestSerializer,
                              **_errors(e404="no_friend_request, player_not_found")})
    def post(self, request, username: str):
        services.friends.accept(user=request.user, username=username)
        return Response(s.FriendRequestSerializer({"status": "friends"}).data)


class FriendDetailView(_Base):
    @extend_schema(operation_id="me_friends_remove", tags=["social"], request=None,
                   responses={204: None, **_errors(e404="not_friends, player_not_found")},
                   description="Remove a friend, withdraw your request or decline theirs.")
    def delete(self, request, username: str):
        services.friends.remove(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class FriendPlayView(_Base):
    @extend_schema(
        operation_id="me_friends_play", tags=["social"], request=None,
        responses={201: AnyGameView, **_errors(
            e403="player_unavailable", e404="not_friends, player_not_found")},
        description="Play again: a new game against this friend with the settings of your "
        "last game together.",
    )
    def post(self, request, username: str):
        game = services.friends.play_again(user=request.user, username=username)
        game, seat = game_selectors.game_for_player(game_id=game.pk, user=request.user)
        view = game_selectors.player_view(game=game, seat_index=seat.index)
        return Response(render_view(view), status=status.HTTP_201_CREATED)


class BlockedListView(_Base):
    @extend_schema(operation_id="me_blocked_list", tags=["social"],
                   responses={200: s.BlockedSerializer(many=True)})
    def get(self, request):
        rows = services.blocking.blocked_list(user=request.user)
        return Response(s.BlockedSerializer(rows, many=True).data)


class BlockView(_Base):
    @extend_schema(
        operation_id="players_block", tags=["social"], request=None,
        responses={201: s.BlockedSerializer, 200: s.BlockedSerializer,
                   **_errors(e400="cannot_block_yourself", e404="player_not_found")},
        description="Block a player: no chat, game requests, table invitations, nudges, "
        "rematch offers or friend requests from them reach you, and random pairing never "
        "pairs you; games already running go on. Ends a friendship between you.",
    )
    def post(self, request, username: str):
        row, created = services.blocking.block(user=request.user, username=username)
        return Response(s.BlockedSerializer(row).data, status=201 if created else 200)

    @extend_schema(operation_id="players_unblock", tags=["social"], request=None,
                   responses={204: None, **_errors(e404="not_blocked, player_not_found")})
    def delete(self, request, username: str):
        services.blocking.unblock(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SocialSettingsView(_Base):
    @extend_schema(operation_id="me_social_retrieve", tags=["social"],
                   responses={200: s.SocialSettingsSerializer})
    def get(self, request):
        row = services.settings.settings_of(request.user.pk)
        return Response(s.SocialSettingsSerializer(row).data)

    @extend_schema(operation_id="me_social_update", tags=["social"],
                   request=s.SocialSettingsSerializer,
                   responses={200: s.SocialSettingsSerializer, **_errors(e400="invalid")},
                   description="Hide your profile, mute chat everywhere.")
    def patch(self, request):
        data = s.SocialSettingsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = services.settings.update(user=request.user, **data.validated_data)
        return Response(s.SocialSettingsSerializer(row).data)


class ProfileView(_Base):
    @extend_schema(operation_id="players_retrieve", tags=["social"],
                   responses={200: s.ProfileSerializer,
                              **_errors(e403="profile_hidden", e404="player_not_found")},
                   description="A player's profile (signed-in players only). Your own adds "
                   "`statistics` and `hidden`.")
    def get(self, request, username: str):
        data = selectors.profile(viewer=request.user, username=username)
        return Response(s.ProfileSerializer(data).data)


class RatingsView(_Base):
    @extend_schema(operation_id="players_ratings", tags=["social"],
                   responses={200: s.RatingsSerializer,
                              **_errors(e403="profile_hidden", e404="player_not_found")},
                   description="A player's ratings (Glicko-2, one per game kind) and history.")
    def get(self, request, username: str):
        user = selectors.visible_player(viewer=request.user, username=username)
        body = {
            "ratings": [selectors.rating_data(r) for r in services.ratings.ratings_of(user.pk)],
            "history": services.ratings.history_of(user.pk),
        }
        return Response(s.RatingsSerializer(body).data)
