"""What a hostile peer found it could break (issue 23), each over a real loopback socket:
the server's memory, its tables, the hello's version, the table info and the rate limit."""

from __future__ import annotations

import asyncio
import contextlib

from test_server_errors import greeted
from wire import RawClient, running_server

from setback.server.app import Server


def connected(server: Server, name: str) -> bool:
    return any(c.name == name for c in server.connections)


async def hog_unread_output(server: Server, hog: RawClient, name: str, asks: int) -> None:
    """``hog``, greeted as ``name``, asks for ``asks`` table lists and reads none, until the
    server cuts it."""
    hog.writer.transport.pause_reading()  # type: ignore[attr-defined]
    with contextlib.suppress(ConnectionError):  # the server resets the connection it cuts
        for i in range(asks):
            await hog.send(type="list_tables", id=i)
            if not connected(server, name):
                return
            await asyncio.sleep(0)


async def test_unread_output_past_the_servers_budget_cuts_the_biggest_holder() -> None:
    """Each connection may leave far more unread than the server's budget for all of them
    together: once the sum is past the budget, the connection holding the most unread output
    is dropped, and one holding less, and a player who reads, are still served."""
    quick = {"message_burst": 10**6, "max_messages_per_second": 10**6, "max_tables_awaiting_maker": 40}
    async with running_server(max_write_buffer=1024**3, max_unread_output=1024**2, **quick) as server:
        maker = await greeted(server.port, "maker")
        for i in range(40):
            await maker.send(type="create_table", id=i, name=f"a table with a long name, number {i:3}",
                             rules={"players": 7})
            await maker.expect("table", id=i)
        nibbler = await greeted(server.port, "nibbler")
        nibbler.writer.transport.pause_reading()  # type: ignore[attr-defined]
        for i in range(5):
            await nibbler.send(type="list_tables", id=i)
        hog = await greeted(server.port, "hog")
        await hog_unread_output(server, hog, "hog", 3000)  # each reply lists 40 tables of 7 seats: ~40 KB
        await asyncio.sleep(0.2)
        assert not connected(server, "hog"), "the biggest holder of unread output is cut"
        assert connected(server, "nibbler")
        nibbler.writer.transport.resume_reading()  # type: ignore[attr-defined]
        for i in range(5):
            await nibbler.expect("tables", id=i)
        for client in (maker, nibbler):
            await client.send(type="ping", id="p", nonce=1)
            await client.expect("pong", id="p")
        for client in (maker, nibbler, hog):
            await client.close()
