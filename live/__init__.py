"""Live updates: one Server-Sent Events stream per player (see live/README.md).

Any app publishes with ``live.publisher.publish(user_id, type, data, game_id=...)`` after its
write commits (or ``publish_on_commit`` inside the transaction)."""
