"""Test support for the Scrapy layer: a local HTTP server and real crawls.

Why subprocesses: a Twisted reactor can be started only once per process, and
a crawl that fails half-way can leave it in a state the next test cannot use.
Every crawl therefore runs in a fresh ``python`` process (this file run as a
script) through the real ``CrawlerProcess``, the real settings machinery and
the real add-on loader, exactly as ``scrapy crawl`` would; it writes its
items (through a real feed exporter), its stats and its log to files that the
test then reads. The HTTP server runs in a thread of the pytest process, on
127.0.0.1 and a port the OS picks.

Each crawl process is forked from a process that has imported Scrapy, the
plugin and bs4 once (`_Forker`, one per pytest process) but has never
installed a reactor or crawled: the child is as fresh as a new interpreter
for the crawl, without paying Scrapy's import (about 1.5 CPU-seconds) again
for each of the suite's crawls. ``SCRAPY_SOUP_TEST_FORK=0`` (or a platform
without ``os.fork``) starts a new interpreter per crawl instead.

Spiders used by the tests are defined here so that the crawl process can
import them by name.
"""

from __future__ import annotations

import atexit
import contextlib
import gzip
import json
import os
import selectors
import signal
import subprocess
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import scrapy
from conftest import CORPUS
from local_server import LocalServer, Reply

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent
#: The test corpus's pages (found by conftest, the one place that knows where).
CORPUS_DIR = CORPUS / "pages"

# A 1x1 transparent PNG.
PNG_BYTES = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


# -- the HTTP server ---------------------------------------------------------
@dataclass
class Page:
    """One resource the test server answers with."""

    body: bytes = b""
    content_type: str | None = "text/html; charset=utf-8"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    #: "gzip", "deflate" or "br": sent compressed with Content-Encoding.
    encoding: str | None = None


def _compress(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.compress(body)
    if encoding == "deflate":
        return zlib.compress(body)
    if encoding == "br":
        import brotli

        return bytes(brotli.compress(body))
    raise ValueError(encoding)


class PageServer(LocalServer):
    """The test server (`local_server.LocalServer`) serving a dict of `Page`s.

    ``/corpus/<file>`` serves the test corpus pages as UTF-8 HTML. ``hits``
    counts requests per path (the HTTP cache tests check the second run sends
    none). ``{base}`` in a header value becomes the server's base URL.
    """

    def __init__(self, pages: dict[str, Page]) -> None:
        self.pages = pages
        super().__init__(self._reply)

    def _reply(self, target: str) -> Reply:
        page = self.page(target.split("?", 1)[0])
        body = page.body
        headers = []
        if page.encoding is not None:
            body = _compress(body, page.encoding)
        if page.content_type is not None:
            headers.append(("Content-Type", page.content_type))
        if page.encoding is not None:
            headers.append(("Content-Encoding", page.encoding))
        headers += [
            (k, v.replace("{base}", self.base)) for k, v in page.headers.items()
        ]
        return Reply(body, page.status, headers)

    def page(self, path: str) -> Page:
        if path in self.pages:
            return self.pages[path]
        if path.startswith("/corpus/"):
            name = path.removeprefix("/corpus/")
            file = CORPUS_DIR / name
            if "/" not in name and file.is_file():
                return Page(file.read_bytes())
        return Page(b"<html><body>not found</body></html>", status=404)


# -- crawlers in this process (settings and signals only, no crawl) -------------
def make_crawler(
    spidercls: type[scrapy.Spider] | None = None, settings: dict[str, Any] | None = None
) -> Any:
    """A configured Crawler (settings, add-ons, signals, stats) that never crawls.

    ``scrapy.utils.test.get_crawler`` needs an installed reactor before Scrapy
    2.14; installing the default one is harmless here since nothing runs it.
    """
    from scrapy.utils.reactor import install_reactor, is_reactor_installed
    from scrapy.utils.test import get_crawler

    if not is_reactor_installed() and scrapy.version_info < (2, 14):
        install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
    return get_crawler(spidercls, settings)


# -- crawls in a subprocess -----------------------------------------------------
@dataclass
class CrawlResult:
    """What one crawl left behind."""

    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    origins_left: int
    returncode: int

    def probes(self) -> dict[str, dict[str, Any]]:
        """Probe items by the path of their URL."""
        out: dict[str, dict[str, Any]] = {}
        for item in self.items:
            if "probe_url" in item:
                path = "/" + item["probe_url"].split("/", 3)[3]
                out[path] = item
        return out


#: Settings every test crawl starts from (quiet, local, deterministic).
BASE_SETTINGS: dict[str, Any] = {
    "LOG_LEVEL": "DEBUG",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "COOKIES_ENABLED": False,
    "CONCURRENT_REQUESTS": 8,
    "RETRY_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 30,
    "CLOSESPIDER_TIMEOUT": 120,
}

#: As the README says to enable it: the public, lazily imported names.
ADDON_SETTINGS: dict[str, Any] = {"ADDONS": {"scrapy_soup.Addon": 0}}

MANUAL_SETTINGS: dict[str, Any] = {
    "DOWNLOADER_MIDDLEWARES": {"scrapy_soup.SoupDownloaderMiddleware": 45},
    "SPIDER_MIDDLEWARES": {"scrapy_soup.SoupSpiderMiddleware": 30},
    "ITEM_PIPELINES": {
        "scrapy_soup.AbsoluteLinksPipeline": 100,
        "scrapy_soup.CleanHtmlPipeline": 110,
    },
}


def subprocess_env() -> dict[str, str]:
    """The environment of a crawl process: this repository and tests/ importable."""
    env = dict(os.environ)
    path = [str(REPO_DIR), str(TESTS_DIR)]
    if env.get("PYTHONPATH"):
        path.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(path)
    # Warnings raised in the crawl are errors there too, but for the ones
    # pyproject.toml's filterwarnings lets through (as in pytest).
    env["PYTHONWARNINGS"] = ",".join(["error", *THIRD_PARTY_WARNINGS])
    return env


#: Warnings of other projects' code, ignored in crawls as in pytest
#: (pyproject.toml, filterwarnings): Scrapy (2.19 and earlier) passes
#: ``default_encoding`` and ``auto_detect_fun`` to w3lib's
#: ``html_to_unicode``, which w3lib 2.6 deprecates.
THIRD_PARTY_WARNINGS = (
    "ignore:The default_encoding and auto_detect_fun parameters:DeprecationWarning",
)


def run_crawl(
    tmp_path: Path,
    spider: str,
    settings: dict[str, Any],
    feed_format: str = "jsonlines",
    allow_errors: bool = False,
    **spider_kwargs: Any,
) -> CrawlResult:
    """Run spider class ``spider`` (defined in this module) in a new process.

    The crawl must finish normally and, unless ``allow_errors``, log no error.
    """
    tmp_path.mkdir(parents=True, exist_ok=True)
    items_file = tmp_path / f"items.{feed_format}"
    stats_file = tmp_path / "stats.json"
    log_file = tmp_path / "crawl.log"
    for f in (items_file, stats_file, log_file):
        f.unlink(missing_ok=True)
    config = {
        "spider": spider,
        "settings": {
            **BASE_SETTINGS,
            "LOG_FILE": str(log_file),
            "FEEDS": {str(items_file): {"format": feed_format, "encoding": "utf-8"}},
            **settings,
        },
        "spider_kwargs": spider_kwargs,
        "stats_file": str(stats_file),
    }
    config_file = tmp_path / "config.json"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    proc = _crawl_process(config_file, tmp_path)
    log = log_file.read_text(encoding="utf-8") if log_file.exists() else ""
    assert proc.returncode == 0, f"crawl failed:\n{proc.stderr}\n{log[-5000:]}"
    report = json.loads(stats_file.read_text(encoding="utf-8"))
    stats = report["stats"]
    assert stats.get("finish_reason") == "finished", log[-5000:]
    if not allow_errors:
        assert not stats.get("log_count/ERROR"), log[-5000:]
    items: list[dict[str, Any]] = []
    if feed_format == "jsonlines" and items_file.exists():
        text = items_file.read_text(encoding="utf-8")
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    return CrawlResult(
        items=items,
        stats=report["stats"],
        log=log + proc.stderr,
        origins_left=report["origins_left"],
        returncode=proc.returncode,
    )


#: Seconds a crawl may take before it is killed (and its test fails).
CRAWL_TIMEOUT = 300
#: Modules the forking process imports once: what every crawl imports.
PRELOAD = (
    "scrapy",
    "scrapy.crawler",
    "scrapy.http",
    "scrapy.utils.reactor",
    "scrapy_soup._scrapy.addon",
    "scrapy_soup._scrapy.middlewares",
    "scrapy_soup._scrapy.pipelines",
    "bs4",
)


@dataclass
class _Finished:
    returncode: int
    stderr: str


def _crawl_process(config_file: Path, cwd: Path) -> _Finished:
    """Run ``_main(config_file)`` in a new process, in ``cwd``."""
    env = subprocess_env()
    if os.environ.get("SCRAPY_SOUP_TEST_FORK", "1") == "0" or not hasattr(os, "fork"):
        proc = subprocess.run(
            [sys.executable, str(Path(__file__)), str(config_file)],
            env=env,
            cwd=str(cwd),
            capture_output=True,
            text=True,
            timeout=CRAWL_TIMEOUT,
        )
        return _Finished(proc.returncode, proc.stderr)
    return _Forker.get(env["PYTHONWARNINGS"]).crawl(config_file, cwd, env)


class _Forker:
    """A process that imported `PRELOAD` and forks one child per crawl.

    It reads one request per line (JSON: config, cwd, env) and answers with
    the child's pid, then its return code. The child takes the request's
    environment and ``PYTHONPATH`` (as a new interpreter would put it on
    ``sys.path``), changes to ``cwd``, writes its output to files there and
    runs `_main`. The forking process starts no thread and no reactor.
    """

    _running: dict[str, _Forker] = {}

    @classmethod
    def get(cls, warnings: str) -> _Forker:
        forker = cls._running.get(warnings)
        if forker is None or forker.proc.poll() is not None:
            forker = cls._running[warnings] = cls()
            atexit.register(forker.close)
        return forker

    def close(self) -> None:
        """End the forking process (it ends at the end of its input)."""
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.proc.wait(timeout=60)

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__)), "--fork-crawls"],
            env=subprocess_env(),
            cwd=str(REPO_DIR),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def _answer(self, deadline: float | None) -> str:
        assert self.proc.stdout is not None
        if deadline is not None:
            with selectors.DefaultSelector() as selector:
                selector.register(self.proc.stdout, selectors.EVENT_READ)
                if not selector.select(max(0.0, deadline - _now())):
                    raise TimeoutError
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the forking crawl process ended")
        return line

    def crawl(self, config_file: Path, cwd: Path, env: dict[str, str]) -> _Finished:
        assert self.proc.stdin is not None
        request = {"config": str(config_file), "cwd": str(cwd), "env": env}
        self.proc.stdin.write(json.dumps(request) + "\n")
        pid = int(self._answer(None))
        try:
            returncode = int(self._answer(_now() + CRAWL_TIMEOUT))
        except TimeoutError:
            os.kill(pid, signal.SIGKILL)
            int(self._answer(None))
            raise subprocess.TimeoutExpired(str(config_file), CRAWL_TIMEOUT) from None
        stderr = (cwd / "crawl.stderr").read_text(encoding="utf-8", errors="replace")
        return _Finished(returncode, stderr)


def _now() -> float:
    import time

    return time.monotonic()


def _python_path(env: dict[str, str]) -> list[str]:
    return [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]


def _preload_scrapy_components() -> None:
    """Import the classes Scrapy's default settings name (middlewares,
    extensions, download handlers, exporters, queues...), as every crawl
    does: about 300 modules, 0.7 CPU-seconds of each crawl's 0.9 (aiohttp,
    tldextract, requests...). The reactor may not be imported meanwhile (it
    installs the default one): a module that imports it (Scrapy 2.13's FTP
    handler does) fails here and is left out, as is one that fails for any
    other reason; the crawl that needs it imports it itself, as a new
    interpreter would.
    """
    import importlib.abc
    import importlib.machinery

    from scrapy.settings import default_settings
    from scrapy.utils.misc import load_object

    class NoReactor(importlib.abc.MetaPathFinder):
        def find_spec(
            self, fullname: str, path: Any, target: Any = None
        ) -> importlib.machinery.ModuleSpec | None:
            if fullname == "twisted.internet.reactor":
                raise ImportError("no reactor in the forking process")
            return None

    paths = []
    for name in dir(default_settings):
        value = getattr(default_settings, name)
        if isinstance(value, str):
            paths.append(value)
        elif isinstance(value, dict):
            paths += [*value, *value.values()]
    blocker = NoReactor()
    sys.meta_path.insert(0, blocker)
    try:
        for path in paths:
            if isinstance(path, str) and path.startswith("scrapy.") and "." in path[7:]:
                with contextlib.suppress(Exception):  # a crawl meets it again
                    load_object(path)
    finally:
        sys.meta_path.remove(blocker)


def _serve_forks() -> None:
    """The forking process's loop (see `_Forker`)."""
    import importlib
    import threading
    import traceback

    # Answers go to the real stdout; anything printed goes to stderr.
    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    for module in PRELOAD:
        importlib.import_module(module)
    _preload_scrapy_components()
    # A reactor or a thread would be copied into every crawl: none may exist.
    assert "twisted.internet.reactor" not in sys.modules
    assert threading.active_count() == 1
    # Where a new interpreter puts PYTHONPATH: after the script's folder.
    first_entries = len(_python_path(dict(os.environ)))
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the crawl
            code = 1
            try:
                answers.close()
                cwd = request["cwd"]
                os.chdir(cwd)
                for fd, name in ((1, "crawl.stdout"), (2, "crawl.stderr")):
                    out = os.open(
                        os.path.join(cwd, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                    )
                    os.dup2(out, fd)
                    os.close(out)
                null = os.open(os.devnull, os.O_RDONLY)
                os.dup2(null, 0)
                os.close(null)
                os.environ.clear()
                os.environ.update(request["env"])
                python_path = _python_path(request["env"])
                sys.path[1 : 1 + first_entries] = python_path
                _main(request["config"])
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        answers.write(f"{pid}\n")
        _, status = os.waitpid(pid, 0)
        answers.write(f"{os.waitstatus_to_exitcode(status)}\n")


def _main(config_path: str) -> None:
    from scrapy.crawler import CrawlerProcess

    from scrapy_soup._scrapy._origins import ItemOrigins

    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    # "module:Class" names a spider defined in another test module.
    module_name, _, spider_name = config["spider"].rpartition(":")
    if module_name:
        import importlib

        spidercls = getattr(importlib.import_module(module_name), spider_name)
    else:
        spidercls = globals()[spider_name]
    process = CrawlerProcess(config["settings"])
    crawler = process.create_crawler(spidercls)
    process.crawl(crawler, **config["spider_kwargs"])
    process.start()
    report = {
        "stats": crawler.stats.get_stats() if crawler.stats else {},
        # Entries the item-origin map still holds after the crawl: must be 0.
        "origins_left": len(ItemOrigins.of(crawler)),
    }
    Path(config["stats_file"]).write_text(
        json.dumps(report, default=str), encoding="utf-8"
    )


# -- spiders ------------------------------------------------------------------
def bs4_queries(markup: str, features: str) -> dict[str, Any]:
    from bs4 import BeautifulSoup

    return soup_queries(BeautifulSoup(markup, features))


def soup_queries(soup: Any) -> dict[str, Any]:
    """The same questions, asked of our soup and of bs4's."""
    title = soup.find("title")
    return {
        "title": title.get_text() if title is not None else None,
        "hrefs": [a["href"] for a in soup.find_all("a", href=True)],
        "ids": [t["id"] for t in soup.find_all(id=True)],
        "tag_count": len(soup.find_all(True)),
        "p_count": len(soup.select("p")),
        "img_srcs": [img.get("src") for img in soup.select("img[src]")],
    }


class ProbeSpider(scrapy.Spider):
    """Yield, for each start URL, what the response looked like to a callback."""

    name = "probe"
    #: Ask for the soup at all (False: only look at the response class).
    use_soup = True
    compare_bs4 = True

    async def start(self) -> Any:
        for url in self.start_urls:
            yield scrapy.Request(url, dont_filter=True, meta=dict(self.request_meta))

    request_meta: dict[str, Any] = {}

    def parse(self, response: Any) -> Any:
        from scrapy.exceptions import NotSupported

        from scrapy_soup._scrapy import SoupResponse, soup_of

        probe: dict[str, Any] = {
            # The URL asked for, before any redirect.
            "probe_url": response.meta.get("redirect_urls", [response.request.url])[0],
            "response_url": response.url,
            "cls": type(response).__name__,
            "flags": response.flags,
            # Handed on with a soup by the middleware.
            "wrapped": isinstance(response, SoupResponse),
            # Only those have one: Scrapy's classes are left as they are.
            "has_soup": hasattr(type(response), "soup"),
            "cached": "cached" in response.flags,
        }
        if not self.use_soup:
            yield probe
            return
        try:
            soup = soup_of(response)
        except NotSupported as exc:
            probe["soup_of_error"] = f"{type(exc).__name__}: {exc}"
            yield probe
            return
        probe["is_xml"] = soup.is_xml
        probe["base_url"] = soup.base_url
        # Without the downloader middleware a response has no .soup at all.
        probe["same_soup"] = (
            isinstance(response, SoupResponse)
            and soup is response.soup
            and soup is soup_of(response)
        )
        probe["a_count"] = len(soup.find_all("a"))
        if self.compare_bs4:
            features = "xml" if soup.is_xml else "lxml"
            probe["ours"] = soup_queries(soup)
            probe["bs4"] = bs4_queries(response.text, features)
        yield probe


class BlindSoupSpider(scrapy.Spider):
    """Ask every response for ``.soup`` without a try, as a spider for HTML does.

    Each callback first yields an item that must survive whatever ``.soup``
    then raises, then one with the page title.
    """

    name = "blind_soup"

    async def start(self) -> Any:
        for url in self.start_urls:
            yield scrapy.Request(url, dont_filter=True)

    def parse(self, response: Any) -> Any:
        yield {"url": response.url}
        title = response.soup.find("title")
        yield {"url": response.url, "title": title.get_text() if title else None}


class FollowSpider(scrapy.Spider):
    """Follow links given as soup Tags, with response.follow and follow_all."""

    name = "follow"

    def parse(self, response: Any) -> Any:
        soup = response.soup
        yield {"page": response.url, "title": soup.title.string if soup.title else None}
        first = soup.find("a", class_="first")
        if first is not None:
            yield response.follow(first, callback=self.parse)
        yield from response.follow_all(soup.select("a.many, img.many, span.many"))


class ItemSpider(scrapy.Spider):
    """Yield items whose HTML fields hold str, soup Tags and lists of them.

    ``item_kind`` picks the item type: dict, scrapy.Item, dataclass or attrs.
    """

    name = "items"
    item_kind = "dict"
    selector = "article"

    def parse(self, response: Any) -> Any:
        html = response.css(self.selector).get()
        values = {
            "page": response.url,
            "html": html,
            "tag": response.soup.select_one(self.selector),
            "tags": response.soup.select(self.selector + " p"),
            "text": "AT&T, not markup",
            "count": 3,
        }
        yield make_item(self.item_kind, values)
        # The response's tree must not have been changed by the pipelines:
        # a second look after the item has been processed, in the next item.
        yield response.follow(
            response.url,
            callback=self.check_untouched,
            dont_filter=True,
            cb_kwargs={"html": html, "original": response},
        )

    def check_untouched(self, response: Any, html: str, original: Any) -> Any:
        yield {
            "page": response.url,
            "untouched": original.css(self.selector).get() == html,
        }


class HtmlItem(scrapy.Item):
    page = scrapy.Field()
    html = scrapy.Field(html=True)
    tag = scrapy.Field()
    tags = scrapy.Field()
    text = scrapy.Field()
    count = scrapy.Field()
    source_url = scrapy.Field()


def make_item(kind: str, values: dict[str, Any]) -> Any:
    """Build an item of ``kind`` from ``values``."""
    if kind == "dict":
        return dict(values)
    if kind == "scrapy":
        return HtmlItem(**values)
    if kind == "dataclass":
        return _dataclass_item(**values)
    if kind == "attrs":
        return _attrs_item(**values)
    raise ValueError(kind)


def _make_dataclass() -> Any:
    import dataclasses

    @dataclasses.dataclass
    class DataclassItem:
        page: str
        html: str | None = dataclasses.field(default=None, metadata={"html": True})
        tag: Any = None
        tags: Any = None
        text: str = ""
        count: int = 0

    return DataclassItem


def _make_attrs() -> Any:
    import attrs

    @attrs.define
    class AttrsItem:
        page: str
        html: str | None = attrs.field(default=None, metadata={"html": True})
        tag: Any = None
        tags: Any = None
        text: str = ""
        count: int = 0

    return AttrsItem


_dataclass_item = _make_dataclass()
_attrs_item = _make_attrs()


def iter_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


if __name__ == "__main__":
    if sys.argv[1] == "--fork-crawls":
        _serve_forks()
    else:
        _main(sys.argv[1])
