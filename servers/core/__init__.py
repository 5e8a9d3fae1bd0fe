"""The stateful-server core: schemas, state with undo, world, sessions, MCP wiring."""
