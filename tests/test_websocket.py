"""The browser table's transport: the page's files over HTTP, and the protocol over a WebSocket.

The protocol's own cases (the handshake, every error code, the limits) run over the
WebSocket in test_server_errors.py; these are what only a WebSocket, or the page, has.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import trustme
import websockets
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri
from wire import RawClient, WsClient, running_server, running_web_server, small_window, web_port

from setback.cli import build_parser
from setback.commands.common import rules_from
from setback.commands.play import play_options, players_default, quick_game_url
from setback.commands.serve import print_invitation
from setback.protocol import Code
from setback.server import advertise
from setback.web import SOCKET_PATH, WebListener, page_urls
from setback.web.site import POLICY

STATIC = Path(__file__).resolve().parent.parent / "setback" / "web" / "static"


def fetch(url: str, context: ssl.SSLContext | None = None) -> tuple[int, dict[str, str], bytes]:
    """GET ``url``: the status, the headers and the body (a refusal too)."""
    try:
        with urllib.request.urlopen(url, timeout=10, context=context) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


async def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(fetch, f"http://127.0.0.1:{port}{path}")


async def test_the_page_and_each_of_its_files_are_served_with_a_strict_policy() -> None:
    """Every file of the page, and nothing else: each with its type, the Content-Security-Policy
    and the headers that keep other sites from framing or sniffing it."""
    async with running_web_server() as server:
        port = web_port(server)
        status, headers, body = await get(port, "/")
        assert status == 200 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert b'<script type="module" src="main.js">' in body and b"<script>" not in body
        assert headers["Content-Security-Policy"] == POLICY
        assert "script-src 'self'" in POLICY and "unsafe" not in POLICY and "frame-ancestors 'none'" in POLICY
        assert headers["X-Content-Type-Options"] == "nosniff"
        for file in sorted(STATIC.iterdir()):
            status, headers, body = await get(port, f"/{file.name}")
            assert (status, body) == (200, file.read_bytes()), file.name
            assert headers["Content-Security-Policy"] == POLICY
        assert (await get(port, "/main.js"))[1]["Content-Type"] == "text/javascript; charset=utf-8"
        for missing in ("/nothing.js", "/../setup.py", "/static/main.js", "/%2e%2e/pyproject.toml"):
            assert (await get(port, missing))[0] == 404, missing


async def test_a_page_of_another_origin_may_not_open_the_socket() -> None:
    """A site elsewhere in the guest's browser cannot drive the guest's seat: the socket opens
    for the page's own origin, and for clients that are no browser (no Origin), only."""
    async with running_web_server() as server:
        port = web_port(server)
        for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", f"https://127.0.0.1:{port}", "null"):
            with pytest.raises(InvalidStatus) as refused:
                await WsClient.connect(port, origin=origin)
            assert refused.value.response.status_code == 403, origin
        welcomed: tuple[str | None, ...] = (f"http://127.0.0.1:{port}", None)
        for allowed in welcomed:
            client = await WsClient.connect(port, origin=allowed)
            assert (await client.hello("welcome"))["player"] == "welcome"
            await client.close()


async def upgrade_status(port: int, host: str, origin: str) -> int:
    """The status of a WebSocket upgrade asked for with these ``Host`` and ``Origin`` headers,
    as a browser at a page of that origin sends it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET {SOCKET_PATH} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
        .encode()
    )
    status = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    with contextlib.suppress(OSError):
        await writer.wait_closed()
    return int(status.split()[1])


async def test_a_page_under_a_rebound_dns_name_may_not_open_the_socket() -> None:
    """DNS rebinding: a page of evil.example whose name now points at this server says so in
    ``Origin`` (and ``Host``); the socket is refused (403), since the server compares
    ``Origin`` with its own hosts, not with ``Host``. Its own names are pages of its own: its
    address, ``localhost``, its ``--name``, its mDNS name."""
    async with running_web_server(name="clubhouse") as server:
        port = web_port(server)
        for host, origin in ((f"evil.example:{port}", f"http://evil.example:{port}"),
                             (f"127.0.0.1:{port}", f"http://evil.example:{port}"),
                             (f"clubhouse.evil.example:{port}", f"http://clubhouse.evil.example:{port}")):
            assert await upgrade_status(port, host, origin) == 403, (host, origin)
        for own in ("127.0.0.1", "localhost", "clubhouse", "CLUBHOUSE", advertise.mdns_host()):
            assert await upgrade_status(port, f"{own}:{port}", f"http://{own}:{port}") == 101, own


async def test_a_flood_of_websocket_pings_is_a_flood() -> None:
    """A WebSocket ping is answered by the transport itself, yet it pays the rate limit as a
    message does: a flood of them is told ``rate_limited`` and closed (ten peers pinging as
    fast as they could took the server from 113 MB to 2.5 GB)."""
    async with running_web_server(message_burst=20, max_messages_per_second=5, flood_close_after=100) as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("pinger")
        for i in range(300):
            await client.websocket.ping(b"%d" % i)
        assert await client.closed()
        assert [m["fatal"] for m in client.received if m.get("code") == Code.RATE_LIMITED][-1:] == [True]


class DeafSocket:
    """A WebSocket spoken frame by frame (``websockets``' sans-I/O client) over a TCP socket
    with a small receive buffer: a peer that can stop reading, and then see every frame it
    was sent, control frames included."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, protocol: ClientProtocol) -> None:
        self.reader, self.writer, self.protocol = reader, writer, protocol

    @classmethod
    async def open(cls, port: int) -> DeafSocket:
        reader, writer = await small_window(port)
        protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{SOCKET_PATH}"), max_size=2**22)
        deaf = cls(reader, writer, protocol)
        protocol.send_request(protocol.connect())
        deaf.flush()
        while protocol.state is State.CONNECTING:
            protocol.receive_data(await reader.read(65536))
        assert protocol.handshake_exc is None
        return deaf

    def flush(self) -> None:
        self.writer.write(b"".join(self.protocol.data_to_send()))

    def send(self, **message: Any) -> None:
        self.protocol.send_text(json.dumps(message).encode())
        self.flush()

    def ping(self, payload: bytes) -> None:
        self.protocol.send_ping(payload)
        self.flush()

    async def frames(self) -> list[Frame]:
        """The frames that have come since last asked (waiting for at least one)."""
        while not (frames := [e for e in self.protocol.events_received() if isinstance(e, Frame)]):
            self.protocol.receive_data(await asyncio.wait_for(self.reader.read(2**20), 10))
        return frames


async def test_a_peer_that_does_not_read_gets_only_its_latest_pong() -> None:
    """While a WebSocket peer does not read, the pongs to its pings are not piled up for it:
    the one answering its latest ping waits (RFC 6455 lets the latest alone be answered),
    and comes first when it reads again, then what waited for it."""
    quick = {"message_burst": 10**6, "max_messages_per_second": 10**6, "max_tables_awaiting_maker": 40}
    async with running_web_server(max_write_buffer=64 * 1024**2, max_unread_output=256 * 1024**2, **quick) as server:
        maker = await RawClient.connect(server.port)
        await maker.hello("maker")
        for i in range(40):
            await maker.send(type="create_table", id=i, name=f"a table with a long name, number {i:3}",
                             rules={"players": 7})
            await maker.expect("table", id=i)
        deaf = await DeafSocket.open(web_port(server))
        deaf.send(type="hello", version="1.3", name="deaf")
        assert any(b'"welcome"' in f.data for f in await deaf.frames())
        deaf.writer.transport.pause_reading()  # type: ignore[attr-defined]
        peer = next(c for c in server.connections if c.name == "deaf")

        async def turn(i: int) -> None:  # what the server answered so far is written out
            await maker.send(type="ping", id=f"turn {i}", nonce=i)
            await maker.expect("pong", id=f"turn {i}")

        for i in range(2000):  # until the socket is full and the replies wait in the backlog
            deaf.send(type="list_tables", id=i)
            await turn(i)
            assert peer.transport is not None
            if peer.held > peer.transport.get_write_buffer_size() + 1024**2:
                break
        for i in range(50):
            deaf.ping(b"ping %d" % i)
        deaf.send(type="ping", id="last", nonce=4242)
        await turn(-1)
        deaf.writer.transport.resume_reading()  # type: ignore[attr-defined]
        pongs: list[bytes] = []
        while True:
            frames = await deaf.frames()
            pongs += [bytes(f.data) for f in frames if f.opcode is Opcode.PONG]
            if any(b'"nonce":4242' in f.data for f in frames):
                break
        assert pongs == [b"ping 49"]
        deaf.writer.close()
        await maker.close()


async def test_a_binary_frame_is_malformed_and_the_connection_stays() -> None:
    async with running_web_server() as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("binary")
        await client.send_binary(b'{"type": "ping", "id": 1}')
        error = await client.expect("error")
        assert (error["code"], error["fatal"]) == (Code.MALFORMED, False) and "text frame" in error["message"]
        await client.send(type="ping", id=2, nonce=2)
        assert (await client.expect("pong"))["id"] == 2
        await client.close()


async def test_a_message_past_four_times_the_limit_is_refused_unread() -> None:
    """A message longer than four lines' limit is refused by the WebSocket layer before it is
    read whole: close code 1009 (RFC 6455), no message; the server forgets the connection."""
    async with running_web_server(max_line_bytes=1024) as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("rude")
        await client.websocket.send(b"x" * 5000, text=True)
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(client.websocket.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        await asyncio.sleep(0.1)
        assert not server.connections


async def test_a_message_in_fragments_is_one_message() -> None:
    async with running_web_server() as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("fragments")
        await client.websocket.send([b'{"type": "ping", ', b'"id": 7, "nonce": 7}'], text=True)
        assert (await client.expect("pong"))["id"] == 7
        await client.close()


async def test_a_flood_of_empty_frames_is_a_flood() -> None:
    """Empty frames are ignored, as blank lines are, and counted as they are."""
    async with running_web_server(flood_close_after=300) as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("empty")
        await client.send_raw(b"\n" * 2000)
        assert await client.closed()
        assert any(m.get("code") == Code.RATE_LIMITED and m.get("fatal") for m in client.received)


async def test_a_seat_taken_over_tcp_is_taken_back_over_the_websocket() -> None:
    """The token holds the seat whatever the transport: a player who drops comes back over the
    other one to the same seat, the game as it stands and the decision pending."""
    async with running_web_server() as server:
        tcp = await RawClient.connect(server.port)
        welcome = await tcp.hello("ann", kind="human")
        await tcp.send(type="create_table", id=1, rules={"players": 2}, bots=["random"], seed=5)
        table = (await tcp.expect("table", id=1))["table"]["table"]
        await tcp.send(type="join", id=2, table=table, ready=True)
        joined = await tcp.expect("joined", id=2)
        decide = await tcp.expect("decide")
        await tcp.close()
        back = await WsClient.connect(web_port(server))
        await back.send(type="hello", id="h", version="1.2", name="ann", kind="human", token=welcome["token"])
        assert (await back.expect("welcome", id="h"))["token"] == welcome["token"]
        assert (await back.expect("joined"))["seat"] == joined["seat"]
        snapshot = await back.expect("snapshot")
        again = await back.expect("decide")
        assert again["request"] == decide["request"] and again["view"]["hand"] == decide["view"]["hand"]
        assert snapshot["view"]["hand"] == decide["view"]["hand"]
        await back.send(type="act", request=again["request"], action=again["view"]["legal"][0])
        assert (await back.expect("event"))["event"]["kind"] in {"passed", "bid"}
        await back.close()


async def test_a_stopping_server_says_goodbye_over_the_websocket_and_stops_soon() -> None:
    async with running_web_server() as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("stayer")
        stopping = asyncio.ensure_future(server.stop())
        assert (await client.expect("goodbye"))["reason"]
        assert await client.closed()
        await asyncio.wait_for(stopping, 5)
        with pytest.raises(OSError):
            await WsClient.connect(web_port(server))


async def test_the_page_and_its_socket_speak_tls_with_the_servers_certificate(tmp_path: Path) -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1")
    cert_file, key_file = tmp_path / "cert.pem", tmp_path / "key.pem"
    certificate.private_key_pem.write_to_path(str(key_file))
    certificate.cert_chain_pems[0].write_to_path(str(cert_file))
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    async with running_server(tls_cert=str(cert_file), tls_key=str(key_file)) as server:
        listener = await WebListener.start(server, "127.0.0.1", 0)
        assert listener.site.tls
        status, headers, _ = await asyncio.to_thread(fetch, f"https://127.0.0.1:{listener.port}/", client_context)
        assert status == 200 and headers["Content-Security-Policy"] == POLICY
        async with websockets.connect(
            f"wss://127.0.0.1:{listener.port}{SOCKET_PATH}", ssl=client_context,
            origin=f"https://127.0.0.1:{listener.port}",  # type: ignore[arg-type]
        ) as websocket:
            await websocket.send('{"type":"hello","version":"1.2","name":"secure"}')
            assert '"welcome"' in str(await websocket.recv())
        with pytest.raises(OSError):  # TLS only
            await asyncio.to_thread(fetch, f"http://127.0.0.1:{listener.port}/")


def test_the_pages_address_is_each_of_the_machines_when_it_listens_on_all(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advertise, "lan_addresses", lambda: ["192.0.2.7", "127.0.0.1"])
    assert page_urls("0.0.0.0", 7412, tls=False) == ["http://192.0.2.7:7412/", "http://127.0.0.1:7412/"]
    assert page_urls("127.0.0.1", 8000, tls=True) == ["https://127.0.0.1:8000/"]
    assert page_urls("::1", 7412, tls=False) == ["http://[::1]:7412/"]


def test_serve_prints_the_address_and_a_qr_code_of_it(capsys: pytest.CaptureFixture[str]) -> None:
    print_invitation(["http://192.0.2.7:7412/", "http://127.0.0.1:7412/"], qr=True, out=sys.stdout)
    printed = capsys.readouterr().out
    assert printed.splitlines()[0] == "The browser table: http://192.0.2.7:7412/"
    assert "also: http://127.0.0.1:7412/" in printed and "█" in printed and "camera" in printed
    print_invitation(["http://192.0.2.7:7412/"], qr=False, out=sys.stdout)
    assert "█" not in capsys.readouterr().out


def test_play_web_puts_the_table_to_make_in_the_address() -> None:
    """``setback play --bots 3 --web``: the page reads its table from the fragment (never a
    seed: ``--seed`` with ``--web`` is refused, saying why)."""
    args = build_parser().parse_args(["play", "--bots", "3", "--web", "--name", "ann & <b>", "--clock", "30",
                                      "--level", "beginner,strong,beginner"])
    options = play_options(args, rules_from(args, players_default(args)))
    assert options.plan is not None
    url = quick_game_url("http://127.0.0.1:5000/", options.name, options.plan)
    page, _, fragment = url.partition("#")
    wanted: dict[str, Any] = dict(urllib.parse.parse_qsl(fragment))
    assert page == "http://127.0.0.1:5000/"
    assert wanted["name"] == "ann & <b>" and wanted["bots"] == "3" and wanted["clock"] == "30"
    assert wanted["level"] == "beginner,strong,beginner"
    assert json.loads(wanted["rules"])["players"] == 4
    for elsewhere in (["play", "127.0.0.1:7411", "--web"], ["play", "--web"]):
        with pytest.raises(ValueError, match="--web plays a game on this computer"):
            play_options(build_parser().parse_args(elsewhere), rules_from(args, 4))
    seeded = build_parser().parse_args(["play", "--bots", "1", "--web", "--seed", "42"])
    with pytest.raises(ValueError, match="--seed is not for --web: a link to the browser table may choose the rules"):
        play_options(seeded, rules_from(seeded, players_default(seeded)))


async def raw_http(port: int, request: bytes) -> bytes:
    """Send ``request`` as it is and read the answer until the server closes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    await writer.wait_closed()
    return answer


async def test_head_has_no_body_and_other_methods_get_405_with_every_header() -> None:
    """HEAD answers the GET's headers and no body; DELETE and OPTIONS are 405 with ``Allow``,
    not the page; the refusals carry the page's security headers as every answer does."""
    async with running_web_server() as server:
        port = web_port(server)
        head = await raw_http(port, b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        top, _, body = head.partition(b"\r\n\r\n")
        assert top.startswith(b"HTTP/1.1 200") and body == b""
        assert b"Content-Length: 0" not in top
        for method in (b"DELETE", b"OPTIONS"):
            answer = await raw_http(port, method + b" / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert answer.startswith(b"HTTP/1.1 405"), answer[:40]
            assert b"Allow: GET, HEAD" in answer and b"<html" not in answer.lower()
            assert b"Content-Security-Policy" in answer and b"X-Content-Type-Options: nosniff" in answer


async def test_a_request_whose_headers_pass_16_kib_is_431_with_every_header() -> None:
    async with running_web_server() as server:
        headers = b"".join(b"X-Pad-%d: %s\r\n" % (n, b"a" * 1000) for n in range(20))
        answer = await raw_http(web_port(server), b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 431"), answer[:40]
        assert b"Content-Security-Policy" in answer and b"Referrer-Policy: no-referrer" in answer


async def test_two_pipelined_gets_get_one_answer_and_a_clean_close() -> None:
    async with running_web_server() as server:
        get_ = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        answer = await raw_http(web_port(server), get_ + get_)
        assert answer.count(b"HTTP/1.1 200") == 1


async def test_a_message_in_more_than_128_frames_is_refused_with_1009() -> None:
    """Fragments are bounded by count, empty ones too, not only by their bytes."""
    async with running_web_server() as server:
        client = await WsClient.connect(web_port(server))
        await client.hello("hoarder")
        pieces = [b""] * 200 + [b'{"type": "ping", "id": 1, "nonce": 1}']
        with pytest.raises(ConnectionClosed) as closed:
            await client.websocket.send(pieces, text=True)
            await asyncio.wait_for(client.websocket.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_a_text_frame_that_is_not_utf8_closes_with_1007_and_tcp_calls_it_malformed() -> None:
    """Invalid UTF-8 is malformed even inside a field the server ignores (RFC 6455: close 1007)."""
    async with running_web_server() as server:
        tcp = await RawClient.connect(server.port)
        await tcp.send(type="hello", version="1.3", name="bytes", kind="bot")
        await tcp.expect("welcome")
        await tcp.send_raw(b'{"type": "ping", "nonce": 1, "x": "\xff"}\n')
        error = await tcp.expect("error")
        assert error["code"] == Code.MALFORMED
        await tcp.close()
        client = await WsClient.connect(web_port(server))
        await client.hello("bytes")
        payload = b'{"type": "ping", "x": "\xff"}'
        client.websocket.transport.write(bytes([0x81, 0x80 | len(payload)]) + bytes(4) + payload)  # masked by zeros
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(client.websocket.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
