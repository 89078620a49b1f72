"""The Python client link: hello, typed messages, pings answered, the seat taken back after a drop."""

from __future__ import annotations

import pytest
from wire import running_server

from setback.link.server_link import Address, LinkClosedError, RefusedError, ServerLink
from setback.protocol import DEFAULT_PORT
from setback.protocol.messages import Act, CreateTable, Decide, EventMessage, GameWonEvent, Join, Snapshot, WireRules


def test_addresses_parse() -> None:
    assert Address.parse("pitch.local") == Address("pitch.local", DEFAULT_PORT)
    assert Address.parse("10.0.0.5:9000") == Address("10.0.0.5", 9000)
    assert Address.parse("[::1]:7000") == Address("::1", 7000)
    assert str(Address("h", 1)) == "h:1"


async def test_link_plays_a_game_and_reconnects_mid_game() -> None:
    async with running_server(heartbeat=0.2, idle_timeout=5) as server:
        link = ServerLink(Address("127.0.0.1", server.port), "linker", kind="bot")
        welcome = await link.connect()
        assert welcome.token == link.token
        await link.send(CreateTable(id=1, rules=WireRules(players=2), bots=["random"]))
        await link.send(Join(id=2, table="t1", ready=True))
        decisions = 0
        dropped = False
        while True:
            message = await link.receive()
            if isinstance(message, Decide):
                decisions += 1
                if decisions == 3 and not dropped:
                    dropped = True
                    await link.close()
                    await link.reconnect()
                    assert link.table == "t1" and link.seat == 1
                    continue
                await link.send(Act(request=message.request, action=message.view.legal[0]))
            elif isinstance(message, Snapshot):
                assert message.view.seat == 1
            elif isinstance(message, EventMessage) and isinstance(message.event, GameWonEvent):
                break
        assert dropped and decisions > 3
        await link.close()


async def test_link_reports_refusals_and_closes() -> None:
    async with running_server(password="secret") as server:
        link = ServerLink(Address("127.0.0.1", server.port), "guest")
        with pytest.raises(RefusedError) as refused:
            await link.connect()
        assert refused.value.error.code == "bad_password"
        await link.close()
        ok = ServerLink(Address("127.0.0.1", server.port), "member", password="secret")
        await ok.connect()
        await server.stop()
        with pytest.raises(LinkClosedError, match="shutting down"):
            await ok.receive()


async def test_link_skips_what_a_newer_server_may_send() -> None:
    """Unknown message types and event kinds (a newer minor version) are skipped, not fatal."""
    import asyncio

    async def newer_server(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readline()
        writer.write(b'{"type":"welcome","version":"1.7","server":"s","player":"p","token":"t",'
                     b'"limits":{"max_line_bytes":1,"max_messages_per_second":1,"message_burst":1,'
                     b'"hello_timeout_seconds":1,"idle_timeout_seconds":1,"heartbeat_seconds":1,'
                     b'"reconnect_grace_seconds":1,"max_chat_chars":1,"max_name_chars":1},'
                     b'"capabilities":[],"bots":[],"new_field":1}\n')
        writer.write(b'{"type":"weather","sky":"clear"}\n')
        writer.write(b'{"type":"event","table":"t1","event":{"kind":"fireworks"}}\n')
        writer.write(b'{"type":"ok","id":5}\n')
        await writer.drain()
        await reader.readline()
        writer.close()
        await writer.wait_closed()

    listener = await asyncio.start_server(newer_server, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    link = ServerLink(Address("127.0.0.1", port), "old")
    await link.connect()
    message = await link.receive()
    assert type(message).__name__ == "Ok" and message.id == 5  # type: ignore[union-attr]
    await link.close()
    listener.close()
    await listener.wait_closed()
