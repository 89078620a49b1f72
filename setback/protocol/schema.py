"""The JSON Schema of every message, generated from the msgspec types.

A copy is checked in as ``setback/protocol/schema.json``; a test keeps the two equal.
Regenerate it with ``setback schema > setback/protocol/schema.json``.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from setback.protocol.codec import PROTOCOL_VERSION
from setback.protocol.messages import ClientMessage, ServerMessage


def schema() -> dict[str, Any]:
    """One document: the client-to-server and server-to-client unions and their definitions."""
    (client, server), definitions = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"Setback protocol {PROTOCOL_VERSION}",
        "description": "One JSON object per line; see spec.md. clientMessage: client to server; "
        "serverMessage: server to client.",
        "$defs": {**definitions, "clientMessage": client, "serverMessage": server},
        "oneOf": [{"$ref": "#/$defs/clientMessage"}, {"$ref": "#/$defs/serverMessage"}],
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"
