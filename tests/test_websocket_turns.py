"""A WebSocket peer that hands the server many frames at once is parsed a piece a turn of the
loop, so that it cannot keep the server from its other peers (issue 29: a ping flood held a
TCP player's answer for 2-4 s)."""

from __future__ import annotations

import asyncio

from sockets import UPGRADE, Socket
from websockets.frames import Frame, Opcode

from setback.server.app import Server
from setback.server.config import ServerConfig
from setback.web.site import Site
from setback.web.transport import FEED_BYTES, WebPeer


async def test_a_flood_of_frames_is_parsed_a_piece_a_turn_with_its_reading_paused() -> None:
    """Five times :data:`FEED_BYTES` of pings in one read: a piece is parsed at once and the
    socket's reading paused; what was scheduled meanwhile runs before the rest is parsed; once
    all of it is (every ping answered), reading resumes."""
    server = Server(ServerConfig(host="127.0.0.1", port=0, max_messages_per_second=10**6, message_burst=10**6))
    peer, socket = WebPeer(server, Site(tls=False)), Socket()
    peer.connection_made(socket)
    peer.data_received(UPGRADE)
    ping = Frame(Opcode.PING, b"p" * 100).serialize(mask=True)
    pings = 5 * FEED_BYTES // len(ping)
    pong = Frame(Opcode.PONG, b"p" * 100).serialize(mask=False)

    peer.data_received(ping * pings)
    first = socket.written.count(pong)
    assert socket.paused and 0 < first <= FEED_BYTES // len(ping) + 1
    seen_between: list[int] = []
    asyncio.get_running_loop().call_soon(lambda: seen_between.append(socket.written.count(pong)))
    for _ in range(20):  # (the rest takes 4 turns)
        await asyncio.sleep(0)
    assert socket.pauses == 1 and socket.resumed
    assert socket.written.count(pong) == pings
    assert first <= seen_between[0] < pings, "the rest was parsed before anything else ran"
    await server.stop()


async def test_what_waits_to_be_parsed_counts_as_the_peers() -> None:
    """The bytes handed over and not parsed yet are the peer's: the server counts them."""
    server = Server(ServerConfig(host="127.0.0.1", port=0, max_messages_per_second=10**6, message_burst=10**6))
    peer, socket = WebPeer(server, Site(tls=False)), Socket()
    peer.connection_made(socket)
    peer.data_received(UPGRADE)
    assert peer.connection is not None
    ping = Frame(Opcode.PING, b"").serialize(mask=True)
    peer.data_received(ping * (4 * FEED_BYTES // len(ping)))
    assert peer.connection.input_held >= 2 * FEED_BYTES
    for _ in range(20):
        await asyncio.sleep(0)
    assert peer.connection.input_held < FEED_BYTES
    await server.stop()
