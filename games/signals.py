"""Signals the games app sends after a write commits (receivers live in other apps).

All are sent with ``sender=Game`` from ``transaction.on_commit``, so a receiver sees the
committed rows and may do slow work (queue an email task) without holding the game lock.

- ``game_started(game_id)``: both seats are filled and the first turn begins.
- ``turn_started(game_id, seat_index, move_number)``: ``seat_index`` is to move; ``move_number``
  moves have been played so far (pass it back as ``expected_move_number``).
- ``game_finished(game_id)``: the game ended (rack emptied, scoreless turns, resignation).

``recording(event, **kwargs)`` is sent *inside* the write's transaction, once for each of the
signals above (``event``) that the write will send after commit, with that signal's arguments:
a receiver may write rows that must commit or roll back with the write (the notifications
outbox), so that an event survives a lost Celery message or a crash between the commit and the
after-commit work.
"""

from django.dispatch import Signal

game_started = Signal()
turn_started = Signal()
game_finished = Signal()
recording = Signal()

# Sent inside the write's transaction (like ``recording``) with ``sender=Table``:
# ``table_invitation(table_id, code, user_id, host_id)`` — ``user_id`` was invited to the table
# by ``host_id``; the notifications app claims the email in the same transaction.
table_invitation = Signal()

# Sent after commit with ``sender=Table``: ``table_changed(table_id, event, user_id)`` — a person
# joined, left or came back, or the host dealt (``event``: joined, left, back, dealt).
table_changed = Signal()
# Sent after commit with ``sender=Game``: ``seat_taken_over(game_id, seat_index)`` — the turn's
# deadline passed and the computer now plays that person's seat until they are back.
seat_taken_over = Signal()

# Sent after commit with ``sender=Game`` by the move analysis (games/services/analysis.py):
# ``move_analysed(game_id, move_number)`` — the move's best score and notation are stored;
# ``analysis_ready(game_id)`` — a game that is over has every move analysed.
move_analysed = Signal()
analysis_ready = Signal()
