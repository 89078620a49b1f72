"""What a person's client and a bot both need to talk to a server: the asyncio link
(connect, hello, typed messages, heartbeats, reconnection with the seat token) and the
file of seat tokens kept between runs."""

from setback.link.seat_tokens import SeatTokens
from setback.link.server_link import Address, LinkClosedError, RefusedError, ServerLink, backoff, tls_context

__all__ = ["Address", "LinkClosedError", "RefusedError", "SeatTokens", "ServerLink", "backoff", "tls_context"]
