"""Web push delivery: the VAPID key (keys), what a push says (messages), posting it (delivery)."""
