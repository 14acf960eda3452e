"""Game models (seats, private state, move log, clocks). Filled in by the games app."""
