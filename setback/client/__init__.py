"""The reference text client, and the plain-text telling of a game."""
