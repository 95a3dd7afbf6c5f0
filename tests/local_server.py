"""The one local HTTP server of the tests and the benchmarks.

A threaded stdlib server on 127.0.0.1 and a port the OS picks, answering
every GET with what a ``respond(path)`` function returns. The Scrapy tests
(``scrapy_helpers.PageServer``), the distributed-crawl tests
(``redis_helpers.SiteServer``), the hostile-document tests and the
benchmarks' corpus server are thin wrappers over it (the example project
keeps its own, ``bookshop.localsite``, as a user would). Standard library
only, so the benchmarks can import it without the test dependencies.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar


@dataclass
class Reply:
    """What the server sends back for one GET."""

    body: bytes = b""
    status: int = 200
    #: Sent as given, in order; ``Content-Length`` is added.
    headers: list[tuple[str, str]] = field(default_factory=list)


_S = TypeVar("_S", bound="LocalServer")

NOT_FOUND = Reply(
    b"<html><body>not found</body></html>",
    404,
    [("Content-Type", "text/html; charset=utf-8")],
)


class LocalServer:
    """Serve ``respond(path)`` on 127.0.0.1:0 (``path`` is the request target).

    A POST is answered by ``respond_post(path, body)`` (404 without one).

    ``hits`` counts requests per path (query string left out) and
    ``requests`` lists every request target in order, across all the
    processes that fetch from it. ``with LocalServer(...) as server`` serves
    from a background thread; ``serve_forever()`` serves in this one.
    ``nodelay`` sets TCP_NODELAY on the connections (see the handler).
    """

    def __init__(
        self,
        respond: Callable[[str], Reply],
        nodelay: bool = False,
        respond_post: Callable[[str, bytes], Reply] | None = None,
    ) -> None:
        self.respond = respond
        #: Answers a POST (target, body): fake JSON APIs (Splash, Zyte API).
        self.respond_post = respond_post
        self.hits: Counter[str] = Counter()
        self.requests: list[str] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in separate writes: without TCP_NODELAY,
            # Nagle + delayed ACK stall every response ~40 ms. The benchmarks
            # turn it on; the tests keep what their servers always did (the
            # distributed crawl shares its pages between processes in time).
            disable_nagle_algorithm = nodelay

            def do_GET(self) -> None:
                self._reply(server.respond(self.path))

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if server.respond_post is None:
                    self._reply(NOT_FOUND)
                else:
                    self._reply(server.respond_post(self.path, body))

            def _reply(self, reply: Reply) -> None:
                with server._lock:
                    server.requests.append(self.path)
                    server.hits[self.path.split("?", 1)[0]] += 1
                self.send_response(reply.status)
                for name, value in reply.headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test and benchmark output clean

        #: The stdlib server itself (``server_address``, ``shutdown``).
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        host, port = self.httpd.server_address[:2]
        self.port = int(port)
        self.base = f"http://{host!s}:{port}"
        self._thread: threading.Thread | None = None

    def url(self, path: str) -> str:
        return self.base + path

    def start(self: _S) -> _S:
        """Serve from a daemon thread."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def close(self) -> None:
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join(timeout=10)
            self._thread = None
        self.httpd.server_close()

    def __enter__(self: _S) -> _S:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def pages_by_path(
    pages: dict[str, bytes], content_type: str = "text/html; charset=utf-8"
) -> Callable[[str], Reply]:
    """A ``respond`` for a fixed site: the body of each path, else 404."""

    def respond(target: str) -> Reply:
        body = pages.get(target.split("?", 1)[0])
        if body is None:
            return NOT_FOUND
        return Reply(body, headers=[("Content-Type", content_type)])

    return respond
