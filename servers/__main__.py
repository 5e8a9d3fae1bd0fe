"""python -m servers --list | python -m servers NAME [--transport stdio|http] [--port N]"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from servers.core.app import build_server
from servers.core.runtime import Runtime
from servers.registry import available, load_domain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m servers", description=__doc__)
    parser.add_argument("name", nargs="?", help="server to run")
    parser.add_argument("--list", action="store_true", help="list servers and tool counts")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address")
    parser.add_argument("--port", type=int, default=8765, help="HTTP port")
    parser.add_argument("--seed", type=int, default=0, help="seed of the default session")
    args = parser.parse_args(argv)
    if args.list:
        total = 0
        for name in available():
            n = len(load_domain(name).tools)
            total += n
            print(f"{name:16s} {n:3d} tools")
        print(f"{len(available())} servers, {total} tools")
        return 0
    if not args.name:
        parser.error("give a server NAME or --list")
    try:
        domain = load_domain(args.name)
    except KeyError as err:
        parser.error(str(err.args[0]))
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    server = build_server(Runtime(domain, default_seed=args.seed))
    if args.transport == "stdio":
        from mcp.server.stdio import stdio_server

        async def serve() -> None:
            async with stdio_server() as (read, write):
                await server.run(read, write, server.create_initialization_options())

        asyncio.run(serve())
    else:
        import uvicorn

        app = server.streamable_http_app(host=args.host)
        uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())
