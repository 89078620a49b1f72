"""The reference text client: the lobby and the table in a terminal (Textual)."""
