"""Finding servers on the LAN: the TXT record, the fallback to this machine, and mDNS on loopback."""

from __future__ import annotations

import uuid

from setback.client.discover import FoundServer, browse, server_from_record, with_fallback
from setback.link.server_link import Address
from setback.protocol import DEFAULT_PORT, PROTOCOL_VERSION, SERVICE_TYPE
from setback.server.advertise import Advertisement, instance_name, txt_record


def test_txt_record_names_the_server_version_and_port() -> None:
    """What ``setback serve`` announces is what a client reads back."""
    record = txt_record("Friday club", 7500)
    assert record == {"txtvers": "1", "name": "Friday club", "version": PROTOCOL_VERSION, "port": "7500"}
    found = server_from_record(instance_name("Friday club"), dict(record), ["192.0.2.7"], 7500)
    assert found == FoundServer("Friday club", Address("192.0.2.7", 7500), PROTOCOL_VERSION)
    assert found.compatible


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


async def test_an_advertised_server_is_found_over_loopback_mdns() -> None:
    """A real zeroconf responder and browser, both kept to the loopback interface."""
    name = f"test-{uuid.uuid4().hex[:8]}"
    advertisement = await Advertisement.start(name, "127.0.0.1", 7599)
    try:
        found = await browse(1.0, interfaces=["127.0.0.1"])
    finally:
        await advertisement.close()
    assert FoundServer(name, Address("127.0.0.1", 7599), PROTOCOL_VERSION) in found
