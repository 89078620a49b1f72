"""Finding Setback servers on the LAN (spec.md, "Discovery"), with localhost as the fallback.

:func:`browse` listens for mDNS / DNS-SD announcements of :data:`SERVICE_TYPE` for a moment
and resolves each one; :func:`server_from_record` reads one service's TXT record;
:func:`with_fallback` puts this machine's default port on the list, so a person always has
somewhere to go.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import structlog
import zeroconf
from zeroconf import DNSQuestionType, InterfaceChoice, IPVersion, ServiceInfo, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from setback.link.server_link import Address
from setback.protocol import DEFAULT_PORT, MAJOR, SERVICE_TYPE

log = structlog.get_logger("setback.discover")

LOCALHOST = "127.0.0.1"

ASK = DNSQuestionType.QM
"""Questions ask for answers by multicast, never by unicast ("QU"): on a machine where another
mDNS responder is bound to port 5353 too (a ``setback serve`` there, Avahi), a unicast answer
reaches only one of the sockets on that port, often not ours (RFC 6762, section 15.1)."""


@dataclass(frozen=True)
class FoundServer:
    """A server a client can offer: its name, where it listens and the protocol it speaks."""

    name: str
    address: Address
    version: str | None = None
    """The protocol version from the TXT record; None when unknown (the fallback)."""

    @property
    def compatible(self) -> bool:
        """Whether this client can speak to it (same major version, or not known)."""
        return self.version is None or self.version.partition(".")[0] == str(MAJOR)

    def label(self) -> str:
        """One line for a list: name, address, and the version when it does not fit."""
        text = f"{self.name}  ({self.address})"
        return text if self.compatible else f"{text}  protocol {self.version}: not compatible"


def server_from_record(
    instance: str, properties: Mapping[str, str | None], addresses: Sequence[str], port: int | None
) -> FoundServer | None:
    """The server a resolved service describes; None when it gives no address or port."""
    txt_port = properties.get("port")
    if txt_port is not None and txt_port.isdigit():
        port = int(txt_port)
    if not addresses or port is None or not 0 < port < 65536:
        return None
    name = properties.get("name") or instance.removesuffix("." + SERVICE_TYPE)
    return FoundServer(name=name, address=Address(addresses[0], port), version=properties.get("version"))


def with_fallback(found: Sequence[FoundServer]) -> list[FoundServer]:
    """The servers found, sorted by name, then this machine's default port unless it was found."""
    local = Address(LOCALHOST, DEFAULT_PORT)
    servers = sorted(found, key=lambda s: (s.name.lower(), str(s.address)))
    if all(s.address != local for s in servers):
        servers.append(FoundServer("this computer", local))
    return servers


async def browse(seconds: float = 1.5, interfaces: Sequence[str] | None = None) -> list[FoundServer]:
    """The servers that announce themselves within ``seconds`` (an empty list if mDNS fails).

    ``interfaces`` limits the search to those addresses' interfaces (all by default).
    """
    names: set[str] = set()

    def seen(zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        if state_change is not ServiceStateChange.Removed:
            names.add(name)

    try:
        finder = AsyncZeroconf(
            interfaces=list(interfaces) if interfaces else InterfaceChoice.All, ip_version=IPVersion.V4Only
        )
    except (OSError, zeroconf.Error) as exc:
        log.info("browse_failed", error=str(exc))
        return []
    try:
        browser = AsyncServiceBrowser(finder.zeroconf, SERVICE_TYPE, handlers=[seen], question_type=ASK)
        await asyncio.sleep(seconds)
        await browser.async_cancel()
        resolved = await asyncio.gather(*(_resolve(finder, name) for name in sorted(names)))
        return [server for server in resolved if server is not None]
    except (OSError, zeroconf.Error) as exc:
        log.info("browse_failed", error=str(exc))
        return []
    finally:
        with contextlib.suppress(OSError, zeroconf.Error):
            await finder.async_close()


def server_from_info(info: ServiceInfo) -> FoundServer | None:
    """The server a resolved service describes, as :func:`server_from_record` reads it."""
    properties = dict(info.decoded_properties)
    return server_from_record(info.name, properties, info.parsed_addresses(IPVersion.V4Only), info.port)


async def _resolve(finder: AsyncZeroconf, name: str) -> FoundServer | None:
    info = AsyncServiceInfo(SERVICE_TYPE, name)
    if not await info.async_request(finder.zeroconf, 1500, question_type=ASK):
        return None
    return server_from_info(info)
