"""MCP server: one tool table (tools.py), one JSON-RPC dispatcher (protocol.py), two transports:
stdio (stdio.py, `signet mcp`) and Streamable HTTP (signet_api/routes/mcp.py)."""
