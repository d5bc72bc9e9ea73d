"""Raw JSON-RPC messages for tests that speak MCP below the SDK client (to test the wire itself)."""

from __future__ import annotations

from typing import Any

PROTOCOL_VERSION = "2025-06-18"


def initialize_request(client: str, *, request_id: int = 1) -> dict[str, Any]:
    """An MCP ``initialize`` request from a client called ``client``."""
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "initialize",
        "params": {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": client, "version": "0"},
        },
    }
