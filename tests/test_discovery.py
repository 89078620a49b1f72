"""Finding servers on the LAN: the service a server announces and what a client reads of it, the
fallback to this machine (none of which needs multicast), and one real mDNS round trip on a
loopback that has multicast (in a network namespace of its own: see conftest.py)."""

from __future__ import annotations

import errno
import uuid

import pytest
from zeroconf.asyncio import AsyncZeroconf

from setback.client import discover
from setback.client.discover import FoundServer, browse, server_from_info, server_from_record, with_fallback
from setback.link.server_link import Address
from setback.protocol import DEFAULT_PORT, PROTOCOL_VERSION, SERVICE_TYPE
from setback.server.advertise import Advertisement, instance_name, service_info, txt_record

BROWSE_SECONDS = 2.5
"""How long the mDNS round trips browse: a second past the newly started responder's wait."""


def test_txt_record_names_the_server_version_and_port() -> None:
    """What ``setback serve`` announces is what a client reads back."""
    record = txt_record("Friday club", 7500)
    assert record == {"txtvers": "1", "name": "Friday club", "version": PROTOCOL_VERSION, "port": "7500"}
    found = server_from_record(instance_name("Friday club"), dict(record), ["192.0.2.7"], 7500)
    assert found == FoundServer("Friday club", Address("192.0.2.7", 7500), PROTOCOL_VERSION)
    assert found.compatible


def test_the_announced_service_reads_back_as_the_server() -> None:
    """The records ``setback serve`` registers (SRV, A, TXT) are the server a client lists."""
    info = service_info("Friday club", ["192.0.2.7", "198.51.100.3"], 7500)
    assert info.type == SERVICE_TYPE and info.name == instance_name("Friday club")
    assert info.port == 7500 and info.parsed_addresses() == ["192.0.2.7", "198.51.100.3"]
    assert info.server is not None and info.server.endswith(".local.")
    assert info.decoded_properties == txt_record("Friday club", 7500)
    assert server_from_info(info) == FoundServer("Friday club", Address("192.0.2.7", 7500), PROTOCOL_VERSION)


async def test_browsing_where_mdns_cannot_start_finds_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """No multicast socket can be had (no such device, say): an empty list, no error."""

    def no_device(**options: object) -> AsyncZeroconf:
        raise OSError(errno.ENODEV, "No such device")

    monkeypatch.setattr(discover, "AsyncZeroconf", no_device)
    assert await browse(0.1, interfaces=["198.51.100.77"]) == []


def test_record_without_txt_uses_the_instance_and_srv_port() -> None:
    found = server_from_record("den." + SERVICE_TYPE, {}, ["192.0.2.8"], 7411)
    assert found == FoundServer("den", Address("192.0.2.8", 7411), None)


def test_unusable_records_are_skipped_and_other_majors_flagged() -> None:
    assert server_from_record("x." + SERVICE_TYPE, {"port": "7411"}, [], None) is None
    assert server_from_record("x." + SERVICE_TYPE, {}, ["192.0.2.9"], None) is None
    future = server_from_record("x." + SERVICE_TYPE, {"version": "2.0"}, ["192.0.2.9"], 7411)
    assert future is not None and not future.compatible
    assert "not compatible" in future.label()


def test_instance_names_are_one_dns_label() -> None:
    assert instance_name("pitch.example") == "pitch example." + SERVICE_TYPE
    assert instance_name("   ") == "setback." + SERVICE_TYPE
    assert len(instance_name("ü" * 100).removesuffix("." + SERVICE_TYPE).encode()) <= 63


def test_this_computer_is_always_offered() -> None:
    local = FoundServer("this computer", Address("127.0.0.1", DEFAULT_PORT))
    assert with_fallback([]) == [local]
    lan = [FoundServer("zed", Address("192.0.2.1", 7411)), FoundServer("Ann's", Address("192.0.2.2", 7411))]
    assert [s.name for s in with_fallback(lan)] == ["Ann's", "zed", "this computer"]
    served_here = FoundServer("club", Address("127.0.0.1", DEFAULT_PORT), "1.0")
    assert with_fallback([served_here]) == [served_here]


@pytest.mark.multicast_loopback
async def test_an_advertised_server_is_found_over_loopback_mdns() -> None:
    """A real zeroconf responder and browser, both kept to the loopback interface. The browse
    lasts :data:`BROWSE_SECONDS`: a responder multicasts a record at most once a second (RFC 6762,
    section 6), and this one has just announced its own."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    advertisement = await Advertisement.start(name, "127.0.0.1", 7599)
    try:
        found = await browse(BROWSE_SECONDS, interfaces=["127.0.0.1"])
    finally:
        await advertisement.close()
    assert FoundServer(name, Address("127.0.0.1", 7599), PROTOCOL_VERSION) in found
