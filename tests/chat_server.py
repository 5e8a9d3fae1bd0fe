"""A local OpenAI-compatible /chat/completions server for tests (127.0.0.1, ephemeral port):
subclasses say what the assistant answers; the request plumbing lives here once."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatHandler(BaseHTTPRequestHandler):
    """POST -> `reply(path, body, headers)`'s message dict as the one choice."""

    def reply(self, path: str, body: dict, headers: dict) -> dict:
        raise NotImplementedError

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        message = self.reply(self.path, body, dict(self.headers))
        out = json.dumps({"choices": [{"message": {"role": "assistant", **message}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass


def serve(handler: type[ChatHandler]) -> tuple[ThreadingHTTPServer, str]:
    """Start `handler` on a free port in a daemon thread; (server, base URL)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
