"""MCP manager (servers, sessions, routing) and chat formats."""
