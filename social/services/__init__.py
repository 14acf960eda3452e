"""Every social write (lock, check, persist; events on commit). Modules by concern: ``blocking``,
``chat``, ``rematch``, ``friends``, ``ratings``, ``settings`` (a player's social choices)."""

from social.services import blocking, chat, friends, ratings, rematch, settings

__all__ = ["blocking", "chat", "friends", "ratings", "rematch", "settings"]
