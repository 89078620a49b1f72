"""The asyncio LAN game server (``setback serve``)."""
