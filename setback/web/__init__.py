"""The browser table: the page's own files over HTTP and the protocol over a WebSocket.

``setback serve`` serves the page (``static/``: HTML, CSS and a few ES modules, nothing
built, nothing fetched from elsewhere) and its socket on one port, :data:`DEFAULT_WEB_PORT`.
The socket is a shell around the server's :class:`~setback.server.connection.Connection`:
one JSON message a text frame, read and answered exactly as a line over TCP (spec.md,
"WebSocket transport"). This part uses the server and the protocol; only the command line
composes it with a running server.
"""

from setback.protocol import DEFAULT_WEB_PORT
from setback.web.site import SOCKET_PATH, Site, page_urls
from setback.web.transport import WebListener

__all__ = ["DEFAULT_WEB_PORT", "SOCKET_PATH", "Site", "WebListener", "page_urls"]
