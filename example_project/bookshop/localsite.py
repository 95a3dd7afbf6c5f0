"""Serve the bundled website (``example_project/site``) over HTTP on 127.0.0.1.

A small stdlib server, run in a daemon thread on a port the OS picks, so that
a crawl of the example site needs no network and no second terminal. It
behaves like a plain static web server (directory URLs end in ``/`` and serve
``index.html``; ``name.html.gz`` is sent as ``name.html`` with
``Content-Encoding: gzip``, as nginx's ``gzip_static`` does) and writes the
server's own origin into ``sitemap.xml`` and ``robots.txt``, which need
absolute URLs.
"""

from __future__ import annotations

import posixpath
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

__all__ = ["SITE_DIR", "LocalSite", "serve_site"]

#: The bundled website.
SITE_DIR = Path(__file__).resolve().parent.parent / "site"

#: The origin written in ``sitemap.xml`` and ``robots.txt``; replaced by the
#: server's own origin when served (so ``python -m http.server 8000`` in
#: ``site/`` serves correct files too).
PLACEHOLDER_ORIGIN = b"http://127.0.0.1:8000"

# No charset for HTML on purpose: each page declares its own in a <meta>, and
# two of them are not UTF-8 (the crawler must read the declaration).
CONTENT_TYPES = {
    ".html": "text/html",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".png": "image/png",
}


class _Handler(BaseHTTPRequestHandler):
    server_version = "PaperLantern/1.0"
    protocol_version = "HTTP/1.1"
    site: LocalSite  # set on the subclass made per server

    def do_GET(self) -> None:
        self._respond(send_body=True)

    def do_HEAD(self) -> None:
        self._respond(send_body=False)

    def _respond(self, *, send_body: bool) -> None:
        path = unquote(urlsplit(self.path).path)
        self.site.hits.append(path)
        status, headers, body = self.site.resolve(path)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the crawl's own log says what was fetched


class LocalSite:
    """The bundled site served in a background thread; ``url`` is its home page."""

    def __init__(self, directory: Path = SITE_DIR, host: str = "127.0.0.1") -> None:
        self.directory = directory.resolve()
        #: Every path requested, in order (tests check that each page came once).
        self.hits: list[str] = []
        handler = type("Handler", (_Handler,), {"site": self})
        self._httpd = ThreadingHTTPServer((host, 0), handler)
        self._httpd.daemon_threads = True
        bound_host, port = self._httpd.server_address[:2]
        self.origin = f"http://{bound_host!s}:{port}"
        self.url = self.origin + "/"
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, name="example-site", daemon=True
        )

    def start(self) -> LocalSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread.is_alive():
            self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> LocalSite:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def resolve(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """The status, headers and body answering a GET of ``path``."""
        normalized = posixpath.normpath(path)
        if ".." in path.split("/") or not normalized.startswith("/"):
            return self._not_found()
        file = self.directory / normalized.lstrip("/")
        if file.is_dir():
            if not path.endswith("/"):
                return 301, {"Location": path + "/"}, b""
            file = file / "index.html"
        headers: dict[str, str] = {}
        if not file.is_file():
            packed = file.with_name(file.name + ".gz")
            if not packed.is_file():
                return self._not_found()
            headers["Content-Encoding"] = "gzip"
            body = packed.read_bytes()
        else:
            body = file.read_bytes()
        headers["Content-Type"] = CONTENT_TYPES.get(
            file.suffix, "application/octet-stream"
        )
        if file.suffix in (".xml", ".txt"):
            body = body.replace(PLACEHOLDER_ORIGIN, self.origin.encode("ascii"))
        return 200, headers, body

    def _not_found(self) -> tuple[int, dict[str, str], bytes]:
        body = b"<!DOCTYPE html><title>Not found</title><h1>404: no such page</h1>"
        return 404, {"Content-Type": "text/html; charset=utf-8"}, body


def serve_site(directory: Path = SITE_DIR) -> LocalSite:
    """Start serving ``directory`` on 127.0.0.1 (a free port); stop it with ``stop()``."""
    return LocalSite(directory).start()
