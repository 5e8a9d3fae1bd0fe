"""The error contract: every failure a caller can cause is a ToolError with a message that says
what was wrong and what is valid. The MCP layer turns it into a result with isError=true."""


class ToolError(Exception):
    """A call that cannot be carried out; `kind` classifies it for rewards and logs."""

    kind = "execution_error"


class SchemaError(ToolError):
    """Arguments that do not fit the tool's schema (missing, wrong type, bad enum, range)."""

    kind = "schema_error"


class UnknownToolError(ToolError):
    kind = "unknown_tool"


class SessionError(ToolError):
    """An unknown or closed session id, or a bad control request."""

    kind = "session_error"


class NotFound(ToolError):
    """A nonexistent id; the message names the id and where valid ids come from."""
