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


def txt_record(name: str, port: int) -> dict[str, str]:
    """The TXT record of a server called ``name`` listening on ``port``."""
    return {"txtvers": TXT_VERSION, "name": name, "version": PROTOCOL_VERSION, "port": str(port)}


def instance_name(name: str) -> str:
    """The DNS-SD instance name for a server called ``name``: one label, at most 63 bytes."""
    label = " ".join(name.replace(".", " ").split()) or "setback"
    while len(label.encode()) > 63:
        label = label[:-1]
    return f"{label}.{SERVICE_TYPE}"


def service_info(name: str, addresses: Sequence[str], port: int) -> AsyncServiceInfo:
    """The service a server called ``name`` announces: its instance name, SRV port, A records
    (the IPv4 ``addresses``), this machine's host name and the TXT record."""
    return AsyncServiceInfo(
        SERVICE_TYPE,
        instance_name(name),
        port=port,
        properties=txt_record(name, port),
        addresses=[socket.inet_aton(a) for a in addresses],
        server=f"{socket.gethostname().split('.')[0] or 'setback'}.local.",
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
    """One registered service; :meth:`close` withdraws it (send the goodbye packets)."""

    def __init__(self, zeroconf: AsyncZeroconf, info: AsyncServiceInfo) -> None:
        self.zeroconf = zeroconf
        self.info = info

    @property
    def name(self) -> str:
        """The instance name as registered (zeroconf may have changed it to be unique)."""
        return str(self.info.name)

    @classmethod
    async def start(cls, name: str, host: str, port: int) -> Advertisement:
        """Register the server listening on ``host``:``port``, announced only on that interface
        unless it listens on all; :class:`AdvertiseError` when that cannot be done."""
        try:
            addresses = lan_addresses() if host in ANY_HOST else [socket.gethostbyname(host)]
            interfaces = InterfaceChoice.All if host in ANY_HOST else addresses
            responder = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        except (OSError, zeroconf.Error) as exc:
            raise AdvertiseError(str(exc)) from exc
        info = service_info(name, addresses, port)
        try:
            registered = await responder.async_register_service(info, allow_name_change=True)
            await registered
        except (OSError, zeroconf.Error) as exc:
            await responder.async_close()
            raise AdvertiseError(str(exc)) from exc
        log.info("advertised", service=info.name, addresses=addresses, port=port)
        return cls(responder, info)

    async def close(self) -> None:
        try:
            withdrawn = await self.zeroconf.async_unregister_service(self.info)
            await withdrawn
        finally:
            await self.zeroconf.async_close()
