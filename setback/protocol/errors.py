"""The stable error codes (spec.md, "Errors"), whose fault each is, and what follows."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """An error's stable code. Fatal codes are followed by the server closing the connection."""

    MALFORMED = "malformed"
    """The line is not a JSON object in UTF-8."""
    UNKNOWN_TYPE = "unknown_type"
    """The object's ``type`` is missing or names no message."""
    INVALID_FIELD = "invalid_field"
    """A field is missing, of the wrong type or out of range; ``path`` names it."""
    LINE_TOO_LONG = "line_too_long"
    """The line exceeds ``max_line_bytes`` (fatal)."""
    VERSION_UNSUPPORTED = "version_unsupported"
    """The hello's major version is not one the server speaks (fatal)."""
    HELLO_REQUIRED = "hello_required"
    """A message other than hello (or ping/pong) came before the hello."""
    ALREADY_GREETED = "already_greeted"
    """A second hello on the same connection."""
    HELLO_TIMEOUT = "hello_timeout"
    """No hello within ``hello_timeout_seconds`` of connecting (fatal)."""
    IDLE_TIMEOUT = "idle_timeout"
    """Nothing received for ``idle_timeout_seconds`` (fatal)."""
    BAD_TOKEN = "bad_token"
    """The hello's token matches no seat (the connection stays, unseated)."""
    BAD_PASSWORD = "bad_password"
    """The server has a password and the hello did not give it (fatal)."""
    SERVER_FULL = "server_full"
    """The server holds its maximum of connections (fatal)."""
    RATE_LIMITED = "rate_limited"
    """Messages came faster than the limit; this one was dropped (fatal if it goes on)."""
    NO_SUCH_TABLE = "no_such_table"
    """No table has that id (or it is private and the invite code is wrong)."""
    BAD_RULES = "bad_rules"
    """The table options are not a valid combination."""
    REFUSED = "refused"
    """Understood but refused (since 1.4): two table options RULES.md refuses together (the
    error's ``options`` names both), or a variant table for a client that announced an older
    version than the variant needs."""
    SEAT_TAKEN = "seat_taken"
    TABLE_FULL = "table_full"
    ALREADY_SEATED = "already_seated"
    """The connection already has a seat or watches a table: leave first."""
    NOT_AT_TABLE = "not_at_table"
    GAME_IN_PROGRESS = "game_in_progress"
    """Seats cannot change while a game is played."""
    UNKNOWN_BOT = "unknown_bot"
    NOT_YOUR_TURN = "not_your_turn"
    """The seat is not the one to act; the standing request, if any, still stands."""
    STALE_REQUEST = "stale_request"
    """The ``request`` is not the seat's pending decision."""
    ILLEGAL_ACTION = "illegal_action"
    """The action is unreadable or not legal now; the request still stands."""
    CHAT_BARRED = "chat_barred"
    """Bots may not chat at this table while a hand is played."""
    BAD_CHAT = "bad_chat"
    """Empty or longer than ``max_chat_chars``."""
    INTERNAL = "internal"
    """The server failed handling the message; it is logged. The table may be marked broken."""


FATAL = frozenset(
    {
        Code.LINE_TOO_LONG,
        Code.VERSION_UNSUPPORTED,
        Code.HELLO_TIMEOUT,
        Code.IDLE_TIMEOUT,
        Code.BAD_PASSWORD,
        Code.SERVER_FULL,
    }
)
