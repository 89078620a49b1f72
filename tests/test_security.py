"""TLS, private tables, slow-loris and connection floods."""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from pathlib import Path

import trustme
from test_server_errors import greeted
from wire import RawClient, play_until_over, running_server

from setback.link.server_link import Address, ServerLink, tls_context
from setback.protocol import PROTOCOL_VERSION, Code
from setback.protocol.messages import Act, CreateTable, Decide, EventMessage, GameWonEvent, Join, WireRules


async def test_tls_server_and_client(tmp_path: Path) -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1", "localhost")
    cert_file, key_file, ca_file = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    certificate.private_key_pem.write_to_path(str(key_file))
    certificate.cert_chain_pems[0].write_to_path(str(cert_file))
    authority.cert_pem.write_to_path(str(ca_file))
    async with running_server(tls_cert=str(cert_file), tls_key=str(key_file)) as server:
        link = ServerLink(Address("127.0.0.1", server.port), "secure", kind="bot", tls=tls_context(str(ca_file)))
        await link.connect()
        await link.send(CreateTable(id=1, rules=WireRules(players=2, target=7), bots=["random"]))
        await link.send(Join(id=2, table="t1", ready=True))
        while True:
            message = await link.receive()
            if isinstance(message, Decide):
                await link.send(Act(request=message.request, action=message.view.legal[0]))
            elif isinstance(message, EventMessage) and isinstance(message.event, GameWonEvent):
                break
        await link.close()
        # an untrusting client refuses the server's certificate
        doubter = ServerLink(Address("127.0.0.1", server.port), "doubter", tls=tls_context())
        with contextlib.suppress(Exception):
            await doubter.connect()
            raise AssertionError("a certificate from an unknown authority was accepted")
        await doubter.close()
        # a plain-text client gets nothing it can read, and the server goes on
        plain = await RawClient.connect(server.port)
        await plain.send(type="hello", version="1.0", name="plain")
        with contextlib.suppress(ConnectionError, TimeoutError, ValueError):
            await plain.read(timeout=2)
        await plain.close()
        again = ServerLink(Address("127.0.0.1", server.port), "again", tls=tls_context(verify=False))
        assert (await again.connect()).version == PROTOCOL_VERSION
        await again.close()
    assert isinstance(tls_context(str(ca_file)), ssl.SSLContext)


async def test_private_table_needs_its_invite_code() -> None:
    async with running_server() as server:
        host = await greeted(server.port, "host")
        await host.send(type="create_table", id=1, rules={"players": 2}, private=True)
        created = (await host.expect("table", id=1))["table"]
        invite = created["invite"]
        assert invite and created["private"]
        stranger = await greeted(server.port, "stranger")
        await stranger.send(type="list_tables", id=2)
        listed = (await stranger.expect("tables", id=2))["tables"][0]
        assert listed["private"] and listed["invite"] is None
        for message in ({"type": "join"}, {"type": "spectate"}):
            await stranger.send(**message, id=3, table=created["table"])
            assert (await stranger.expect("error", id=3))["code"] == Code.NO_SUCH_TABLE
            await stranger.send(**message, id=4, table=created["table"], invite="guess")
            assert (await stranger.expect("error", id=4))["code"] == Code.NO_SUCH_TABLE
        await stranger.send(type="join", id=5, table=created["table"], invite=invite)
        await stranger.expect("joined", id=5)
        await host.close()
        await stranger.close()


async def test_slow_loris_trickling_bytes_is_dropped_as_idle() -> None:
    async with running_server(idle_timeout=1.0, heartbeat=0.4) as server:
        loris = await greeted(server.port, "loris")
        async with asyncio.timeout(10):
            while True:
                with contextlib.suppress(ConnectionError):
                    await loris.send_raw(b"{")  # never a whole line
                try:
                    message = await loris.read(timeout=0.2)
                except TimeoutError:
                    continue
                except ConnectionError:
                    break
                if message["type"] == "error":
                    assert message["code"] == Code.IDLE_TIMEOUT
                    break
        await loris.close()


async def test_silent_connections_before_hello_are_dropped() -> None:
    async with running_server(hello_timeout=0.5) as server:
        idle = [await RawClient.connect(server.port) for _ in range(20)]
        for client in idle:
            assert (await client.expect("error", timeout=5))["code"] == Code.HELLO_TIMEOUT
            assert await client.closed()
        await asyncio.sleep(0.1)
        assert not server.connections


async def test_connection_flood_is_capped_and_a_game_goes_on() -> None:
    async with running_server(max_connections=30) as server:
        player = await greeted(server.port, "player")
        await player.send(type="create_table", id=1, rules={"players": 2, "target": 7}, bots=["random"], seed=2)
        await player.expect("table", id=1)
        await player.send(type="join", id=2, table="t1", ready=True)

        async def flood() -> int:
            refused = 0
            floods = []
            for _ in range(80):
                try:
                    floods.append(await RawClient.connect(server.port))
                except OSError:
                    refused += 1

            async def refusal(client: RawClient) -> bool:
                try:
                    return bool((await client.read(timeout=0.5)).get("code") == Code.SERVER_FULL)
                except (TimeoutError, ConnectionError):
                    return False
                finally:
                    await client.close()

            return refused + sum(await asyncio.gather(*(refusal(c) for c in floods)))

        final, refused = await asyncio.gather(play_until_over(player), flood())
        assert refused >= 50
        assert final["event"]["outcome"]["winner"] in {0, 1}
        assert len(server.connections) <= 30
        await player.close()


def test_play_takes_tls_options(tmp_path: Path) -> None:
    """`setback play HOST --tls-ca CA` speaks TLS; TLS without a HOST is refused in plain words."""
    import pytest

    from setback.cli import build_parser
    from setback.commands.play import play_options
    from setback.engine import Rules

    authority = trustme.CA()
    ca_file = tmp_path / "ca.pem"
    authority.cert_pem.write_to_path(str(ca_file))
    args = build_parser().parse_args(["play", "club.local:7411", "--tls-ca", str(ca_file), "--name", "ann"])
    options = play_options(args, Rules())
    assert isinstance(options.tls, ssl.SSLContext) and options.tls.verify_mode == ssl.CERT_REQUIRED
    plain = play_options(build_parser().parse_args(["play", "club.local", "--name", "ann"]), Rules())
    assert plain.tls is None
    with pytest.raises(ValueError, match="HOST"):
        play_options(build_parser().parse_args(["play", "--bots", "3", "--tls", "--name", "ann"]), Rules())
