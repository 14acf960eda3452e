"""Chat in a game (a Crazy Eights table's match included).

A message is stored with the game (``move_number`` places it in the game's history) and
streamed live, after commit, to every person seated in the game except those who blocked the
author (silently: the author is never told), who muted this game, or who muted chat
everywhere. Text is plain text: the API returns it as a JSON string and clients must show it
as text (links are never turned into HTML). Chat never goes into emails.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ApiError
from games import errors as game_errors
from games.models import Game, Seat
from games.moderation.models import ModerationAction
from games.notifications.services import push
from live.publisher import publish
from social import blocks, errors
from social.models import Block, ChatMessage, ChatMute, SocialSettings

if TYPE_CHECKING:
    from accounts.models import User

MAX_LENGTH = 500
# GET answers the latest messages only (at 10 a minute a game's chat could grow long).
HISTORY_LIMIT = 500


def _seats(game_id: int) -> list[Seat]:
    return list(Seat.objects.filter(game_id=game_id).select_related("user").order_by("index"))


def _my_seat(game_id: int, user: User) -> tuple[Game, Seat]:
    game = Game.objects.defer("state").filter(pk=game_id).first()
    if game is None:
        raise game_errors.game_not_found()
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise game_errors.not_a_player()
    return game, seat


def clean_text(text: str) -> str:
    """The message as stored: trimmed; no control characters but line breaks and tabs."""
    text = "".join(c for c in text if c in "\n\t" or (ord(c) >= 32 and ord(c) != 127))
    text = text.strip()
    if not text:
        raise errors.empty_message()
    if len(text) > MAX_LENGTH:
        raise ApiError(
            "invalid",
            _("A chat message has at most %(count)s characters.") % {"count": MAX_LENGTH},
            details={"text": [f"at most {MAX_LENGTH} characters"]},
        )
    return text


def message_data(message: ChatMessage, viewer_id: int) -> dict[str, Any]:
    author = message.author
    return {
        "id": message.pk,
        "game": message.game_id,
        "seat": message.seat,
        "username": author.username if author is not None else None,
        "name": author.public_name if author is not None else None,
        "text": message.text,
        "move_number": message.move_number,
        "created_at": message.created_at,
        "by_you": message.author_id == viewer_id,
    }


def _muted_game(user_id: int, game_id: int) -> bool:
    return ChatMute.objects.filter(user_id=user_id, game_id=game_id).exists()


def _muted_everywhere(user_id: int) -> bool:
    return SocialSettings.objects.filter(user_id=user_id, mute_all_chat=True).exists()


def recipients(message: ChatMessage) -> list[int]:
    """Who gets the message live: the author, and every other person of the game who did not
    block the author and does not mute this game's chat or all chat."""
    author = message.author_id
    if author is None:  # the author's account is gone (SET_NULL): nobody to send it for
        return []
    people = {s.user_id for s in _seats(message.game_id) if s.user_id is not None}
    others = people - {author}
    blocked_by = blocks.blockers_of(author)
    muted = set(
        ChatMute.objects.filter(game_id=message.game_id, user_id__in=others).values_list(
            "user_id", flat=True
        )
    ) | set(
        SocialSettings.objects.filter(user_id__in=others, mute_all_chat=True).values_list(
            "user_id", flat=True
        )
    )
    return sorted({author} | (others - blocked_by - muted))


def _publish(message_id: int) -> None:
    message = ChatMessage.objects.select_related("author").filter(pk=message_id).first()
    if message is None or message.removed_at is not None:
        return
    readers = recipients(message)
    for user_id in readers:
        data = message_data(message, user_id)
        data["created_at"] = message.created_at.isoformat()
        publish(user_id, "chat", data, game_id=message.game_id)
    # A push says who wrote, never what (notifications do not read the chat).
    author = message.author
    if author is not None:
        push.chat(game_id=message.game_id, message_id=message.pk,
                  author_name=author.public_name,
                  user_ids=[uid for uid in readers if uid != author.pk])


def post(*, game_id: int, user: User, text: str, now: datetime | None = None) -> ChatMessage:
    """Write a message in the game (the view throttles it: 10 a minute per player)."""
    now = now or timezone.now()
    text = clean_text(text)
    with transaction.atomic():
        game, seat = _my_seat(game_id, user)
        banned = SocialSettings.objects.filter(user=user, chat_banned_until__gt=now).first()
        if banned is not None:
            assert banned.chat_banned_until is not None  # filtered on it
            raise errors.chat_banned(banned.chat_banned_until)
        message = ChatMessage.objects.create(
            game=game, author=user, seat=seat.index, move_number=game.move_number, text=text
        )
        transaction.on_commit(lambda: _publish(message.pk))
        return message


@dataclass
class ChatView:
    muted: bool
    muted_everywhere: bool
    messages: list[dict[str, Any]]


def read(*, game_id: int, user: User) -> ChatView:
    """The game's chat as ``user`` may see it (the latest ``HISTORY_LIMIT`` messages, oldest
    first): removed messages and those of players they blocked left out; with the game (or
    all chat) muted, only their own messages."""
    _my_seat(game_id, user)
    muted = _muted_game(user.pk, game_id)
    everywhere = _muted_everywhere(user.pk)
    qs = ChatMessage.objects.filter(game_id=game_id, removed_at__isnull=True).select_related(
        "author"
    )
    if muted or everywhere:
        qs = qs.filter(author=user)
    else:
        qs = qs.exclude(author_id__in=Block.objects.filter(blocker=user).values(
            "blocked_id"
        ))
    latest = list(qs.order_by("-id")[:HISTORY_LIMIT])[::-1]
    return ChatView(muted, everywhere, [message_data(m, user.pk) for m in latest])


def mute(*, game_id: int, user: User) -> None:
    game, _seat = _my_seat(game_id, user)
    ChatMute.objects.get_or_create(user=user, game=game)


def unmute(*, game_id: int, user: User) -> None:
    _my_seat(game_id, user)
    ChatMute.objects.filter(user=user, game_id=game_id).delete()


# --- moderation (the admin's actions; each one recorded in the moderation log) -------------
def remove_message(*, moderator: User, message_id: int, reason: str = "") -> ModerationAction:
    """Hide a message from the players; the row and its text stay for the record."""
    with transaction.atomic():
        message = ChatMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise ApiError("not_found", _("No such chat message."), status=404)
        if message.removed_at is None:
            message.removed_at = timezone.now()
            message.removed_by = moderator
            message.save(update_fields=["removed_at", "removed_by"])
        return ModerationAction.objects.create(
            moderator=moderator,
            action=ModerationAction.Action.REMOVE_CHAT_MESSAGE,
            game_id=message.game_id,
            target_user_id=message.author_id,
            reason=reason,
            details={"message_id": message.pk, "text": message.text},
        )


def ban_from_chat(
    *, moderator: User, user_id: int, duration: timedelta, reason: str = ""
) -> ModerationAction:
    """No chat from this player for ``duration`` (from now)."""
    until = timezone.now() + duration
    with transaction.atomic():
        row, _ = SocialSettings.objects.select_for_update().get_or_create(user_id=user_id)
        row.chat_banned_until = until
        row.save(update_fields=["chat_banned_until"])
        return ModerationAction.objects.create(
            moderator=moderator,
            action=ModerationAction.Action.MUTE_CHAT,
            target_user_id=user_id,
            reason=reason,
            details={"until": until.isoformat(), "hours": duration.total_seconds() / 3600},
        )
