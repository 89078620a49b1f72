"""The wire protocol (spec.md): msgspec message types, error codes, framing, conversions."""

from setback.protocol.codec import (
    DEFAULT_PORT,
    DEFAULT_WEB_PORT,
    MAJOR,
    MAX_LINE_BYTES,
    MAX_SERVER_LINE_BYTES,
    PROTOCOL_VERSION,
    SERVICE_TYPE,
    LineBuffer,
    ProtocolError,
    decode_client,
    decode_server,
    encode,
    request_id,
)
from setback.protocol.errors import FATAL, Code

__all__ = [
    "DEFAULT_PORT", "DEFAULT_WEB_PORT", "FATAL", "MAJOR", "MAX_LINE_BYTES", "MAX_SERVER_LINE_BYTES",
    "PROTOCOL_VERSION", "SERVICE_TYPE",
    "Code", "LineBuffer", "ProtocolError", "decode_client", "decode_server", "encode",
    "request_id",
]
