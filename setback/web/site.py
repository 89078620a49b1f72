"""The page's files, and what every answer over HTTP promises: only the page's own files
(a strict Content-Security-Policy), a socket only for pages of its own origin, and the
evening's records (:mod:`setback.web.records`) as JSON."""

from __future__ import annotations

import email.utils
import http
import socket
import urllib.parse
from dataclasses import dataclass
from importlib import resources

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from setback.web.records import RECORDS_PATH, Records

SOCKET_PATH = "/ws"
"""Where the page (or any WebSocket client) opens its socket."""

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
}
"""The kinds of file the page is made of; a file of any other kind is not served."""

PAGES = {"/evening": "/evening.html", "/replay": "/replay.html", "/screen": "/screen.html"}
"""The evening's pages by the short addresses people share: the evening (games and
leaderboard), a finished game's replay (``/replay?game=ID``), the big screen."""

POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The page loads its own files and nothing else, runs no inline script or style, opens a
socket to its own server only, and may not be framed by another site."""

HEADERS = (
    ("Content-Security-Policy", POLICY),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
    ("Cache-Control", "no-cache"),
    ("Connection", "close"),
)
"""Sent with every file (the page is small: it is fetched again rather than kept stale
after the server is upgraded)."""


@dataclass(frozen=True)
class File:
    body: bytes
    content_type: str


def _read_static() -> dict[str, File]:
    """Every file of ``static/`` by the path it is served at; ``/`` is ``index.html``."""
    files: dict[str, File] = {}
    folder = resources.files("setback.web") / "static"
    for entry in folder.iterdir():
        kind = CONTENT_TYPES.get("." + entry.name.rpartition(".")[2])
        if entry.is_file() and kind is not None:
            files["/" + entry.name] = File(entry.read_bytes(), kind)
    files["/"] = files["/index.html"]
    return files


def own_hosts(host: str, name: str) -> frozenset[str]:
    """The host names a page of this server is opened at, lower case: the address it listens
    on (each of this machine's, and ``localhost``, when it listens on all of them; ``localhost``
    too when it listens on loopback), this machine's name and its mDNS name (``NAME.local``),
    and the server's own ``--name``."""
    from setback.server.advertise import ANY_HOST, lan_addresses, mdns_host

    hosts = {*lan_addresses(), "localhost", "127.0.0.1"} if host in ANY_HOST else {host.strip("[]")}
    if host in {"127.0.0.1", "::1", "localhost"}:
        hosts.add("localhost")
    hosts.update({socket.gethostname(), mdns_host(), name})
    return frozenset(h.lower() for h in hosts if h)


def same_origin(origin: str, hosts: frozenset[str], port: int, tls: bool) -> bool:
    """Whether ``origin`` is a page of this server: its scheme, one of its ``hosts`` (never
    whatever the request's ``Host`` says, which a rebound DNS name controls) and its ``port``."""
    scheme = "https" if tls else "http"
    try:
        parts = urllib.parse.urlsplit(origin)
        origin_port = parts.port or (443 if tls else 80)
    except ValueError:
        return False
    return parts.scheme == scheme and (parts.hostname or "") in hosts and origin_port == port and (
        origin.lower() == f"{scheme}://{parts.netloc.lower()}"  # nothing after the port: an origin
    )


class Site:
    """The answers to HTTP requests: the page's files, and whether a socket may open."""

    def __init__(
        self, tls: bool, hosts: frozenset[str] = frozenset(), port: int = 0, records: Records | None = None,
    ) -> None:
        self.tls = tls
        self.hosts = hosts
        """The host names a page of this server comes from (:func:`own_hosts`)."""
        self.port = port
        """The port it is served on."""
        self.files = _read_static()
        self.records = records

    @property
    def size(self) -> int:
        """The bytes of every file of the page."""
        return sum(len(f.body) for path, f in self.files.items() if path != "/")

    def answer(self, request: Request) -> Response | None:
        """The response to ``request``; None lets a socket at :data:`SOCKET_PATH` open.

        A browser always says where the page that opens a socket came from (``Origin``):
        a page of another site is refused, so it cannot drive the seat of a guest who has
        this table open, even under a DNS name rebound to this server (its ``Origin`` and
        ``Host`` agree, but name no host of the server's own). A client that is no browser
        sends no ``Origin`` and may connect, as it may over TCP. Only GET and HEAD are
        answered (405 otherwise); HEAD as GET without the body.
        """
        path = request.path.partition("?")[0]
        method = request.method
        if method not in ("GET", "HEAD") or (path == SOCKET_PATH and method != "GET"):
            answer = plain(http.HTTPStatus.METHOD_NOT_ALLOWED, "the page's files are for GET and HEAD only\n")
            answer.headers["Allow"] = "GET" if path == SOCKET_PATH else "GET, HEAD"
            return answer
        if path == SOCKET_PATH:
            origins = request.headers.get_all("Origin")
            if origins and (len(origins) > 1 or not same_origin(origins[0], self.hosts, self.port, self.tls)):
                return plain(http.HTTPStatus.FORBIDDEN, "only the page this server serves may open its socket\n")
            return None
        if path.startswith(RECORDS_PATH) and self.records is not None:
            found = self.records.answer(path, request.path.partition("?")[2])
            answer = response(found.status, found.body, "application/json")
        else:
            file = self.files.get(PAGES.get(path, path))
            answer = plain(http.HTTPStatus.NOT_FOUND, "no such file\n") if file is None else response(
                http.HTTPStatus.OK, file.body, file.content_type
            )
        if method == "HEAD":  # the headers of the GET (its Content-Length too), no body
            answer = Response(answer.status_code, answer.reason_phrase, answer.headers, b"")
        return answer


def plain(status: http.HTTPStatus, text: str) -> Response:
    """An answer of a few words, with every header an answer carries (:data:`HEADERS`)."""
    return response(status, text.encode(), "text/plain; charset=utf-8")


def response(status: http.HTTPStatus, body: bytes, content_type: str) -> Response:
    """An answer with every header an answer carries (:data:`HEADERS`)."""
    headers = Headers([
        ("Date", email.utils.formatdate(usegmt=True)),
        ("Content-Type", content_type),
        ("Content-Length", str(len(body))),
        *HEADERS,
    ])
    return Response(status.value, status.phrase, headers, body)


def page_urls(host: str, port: int, tls: bool) -> list[str]:
    """The addresses a guest opens the page at: one for each of this machine's addresses when
    the server listens on all of them (loopback last), else the one it listens on."""
    from setback.server.advertise import ANY_HOST, lan_addresses

    scheme = "https" if tls else "http"
    hosts = lan_addresses() if host in ANY_HOST else [host]
    return [f"{scheme}://{f'[{h}]' if ':' in h else h}:{port}/" for h in hosts or ["127.0.0.1"]]
