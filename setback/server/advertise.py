"""Announcing a running server on the LAN with mDNS / DNS-SD (spec.md, "Discovery").

``setback serve`` registers one service of type :data:`SERVICE_TYPE` for as long as it
listens; ``setback play`` browses for it. The TXT record (:func:`txt_record`) carries the
server's name, the protocol version and the port, so a client can list servers before it
connects to any.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence

import ifaddr
import structlog
import zeroconf
from zeroconf import InterfaceChoice, IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from setback.protocol import PROTOCOL_VERSION, SERVICE_TYPE

log = structlog.get_logger("setback.advertise")

TXT_VERSION = "1"
"""The version of the TXT record's layout (its ``txtvers`` key)."""

ANY_HOST = frozenset({"", "0.0.0.0", "::"})
"""Listening addresses that mean every interface."""


WEB_SERVICE_TYPES = {False: "_http._tcp.local.", True: "_https._tcp.local."}
"""The DNS-SD service types of the browser table's page, over HTTP and over HTTPS (RFC 6763)."""


def txt_record(name: str, port: int, web_port: int | None = None) -> dict[str, str]:
    """The TXT record of a server called ``name`` listening on ``port`` (and serving the
    browser table on ``web_port``)."""
    record = {"txtvers": TXT_VERSION, "name": name, "version": PROTOCOL_VERSION, "port": str(port)}
    if web_port is not None:
        record["web"] = str(web_port)
    return record


def instance_name(name: str) -> str:
    """The DNS-SD instance name for a server called ``name``: one label, at most 63 bytes."""
    label = " ".join(name.replace(".", " ").split()) or "setback"
    while len(label.encode()) > 63:
        label = label[:-1]
    return f"{label}.{SERVICE_TYPE}"


def mdns_host() -> str:
    """This machine's name on the LAN as mDNS announces it (``NAME.local``)."""
    return f"{socket.gethostname().split('.')[0] or 'setback'}.local"


def service_info(name: str, addresses: Sequence[str], port: int, web_port: int | None = None) -> AsyncServiceInfo:
    """The service a server called ``name`` announces: its instance name, SRV port, A records
    (the IPv4 ``addresses``), this machine's host name and the TXT record."""
    return AsyncServiceInfo(
        SERVICE_TYPE,
        instance_name(name),
        port=port,
        properties=txt_record(name, port, web_port),
        addresses=[socket.inet_aton(a) for a in addresses],
        server=f"{mdns_host()}.",
    )


def page_info(name: str, addresses: Sequence[str], web_port: int, tls: bool) -> AsyncServiceInfo:
    """The browser table's page as a web service of its own (``_http._tcp``, or ``_https._tcp``
    with ``tls``), so that a phone's or a browser's service browser lists it."""
    kind = WEB_SERVICE_TYPES[tls]
    return AsyncServiceInfo(
        kind, instance_name(name).replace(SERVICE_TYPE, kind), port=web_port, properties={"path": "/"},
        addresses=[socket.inet_aton(a) for a in addresses],
        server=f"{mdns_host()}.",
    )


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses, loopback last (it only helps clients on this machine)."""
    found = {
        str(ip.ip)
        for adapter in ifaddr.get_adapters()
        for ip in adapter.ips
        if isinstance(ip.ip, str)
    }
    return sorted(found, key=lambda a: (ipaddress.ip_address(a).is_loopback, a))


class AdvertiseError(Exception):
    """The service could not be announced (no multicast, a bad address, ...)."""


class Advertisement:
    """The registered services (the server's, and its browser table's page when it serves
    one); :meth:`close` withdraws them (sends the goodbye packets)."""

    def __init__(self, zeroconf: AsyncZeroconf, info: AsyncServiceInfo, page: AsyncServiceInfo | None = None) -> None:
        self.zeroconf = zeroconf
        self.info = info
        self.page = page

    @property
    def name(self) -> str:
        """The instance name as registered (zeroconf may have changed it to be unique)."""
        return str(self.info.name)

    @classmethod
    async def start(
        cls, name: str, host: str, port: int, web_port: int | None = None, web_tls: bool = False,
    ) -> Advertisement:
        """Register the server listening on ``host``:``port``, announced only on that interface
        unless it listens on all, and its browser table's page on ``web_port`` (served over
        HTTPS with ``web_tls``); :class:`AdvertiseError` when that cannot be done."""
        try:
            addresses = lan_addresses() if host in ANY_HOST else [socket.gethostbyname(host)]
            interfaces = InterfaceChoice.All if host in ANY_HOST else addresses
            responder = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        except (OSError, zeroconf.Error) as exc:
            raise AdvertiseError(str(exc)) from exc
        info = service_info(name, addresses, port, web_port)
        page = page_info(name, addresses, web_port, web_tls) if web_port is not None else None
        try:
            for service in (info, page):
                if service is not None:
                    await (await responder.async_register_service(service, allow_name_change=True))
        except (OSError, zeroconf.Error) as exc:
            await responder.async_close()
            raise AdvertiseError(str(exc)) from exc
        log.info("advertised", service=info.name, addresses=addresses, port=port, web_port=web_port)
        return cls(responder, info, page)

    async def close(self) -> None:
        try:
            for service in (self.info, self.page):
                if service is not None:
                    await (await self.zeroconf.async_unregister_service(service))
        finally:
            await self.zeroconf.async_close()
