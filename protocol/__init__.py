"""The wire protocol: msgspec message types, framing and the JSON Schema (see spec.md)."""
