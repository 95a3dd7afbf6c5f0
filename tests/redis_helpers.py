"""Test support for distributed crawls: a real redis-server, a generated site,
a scrapy-redis spider and crawler processes that run side by side.

As in ``scrapy_helpers`` (whose ideas this copies: that module stays as it
is), each crawl process is this file run as a script with a JSON config: the
real ``CrawlerProcess``, settings and add-on loader, items through a real feed
exporter, stats written to a file the test reads. The difference is that
several of them run at the same time, sharing one Redis.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import scrapy
from local_server import LocalServer, pages_by_path

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent
EXAMPLE_DIR = REPO_DIR / "example_project"


# -- redis-server ---------------------------------------------------------------
def redis_server_path() -> str | None:
    """The ``redis-server`` executable on PATH (``.ci/install-redis.sh`` puts it there)."""
    return shutil.which("redis-server")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def redis_server(executable: str) -> Iterator[str]:
    """Run a throwaway redis-server on 127.0.0.1; yield its ``redis://`` URL.

    No persistence (``--save ""``, ``--appendonly no``), its working directory
    a temporary one, so nothing is left behind. The port is picked free just
    before the start; if another process takes it first, try another.
    """
    import redis

    with tempfile.TemporaryDirectory(prefix="scrapy-soup-redis-") as workdir:
        for _attempt in range(5):
            port = _free_port()
            proc = subprocess.Popen(
                [
                    executable,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    workdir,
                    "--daemonize",
                    "no",
                    "--loglevel",
                    "warning",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            url = f"redis://127.0.0.1:{port}/0"
            client = redis.Redis.from_url(url)
            try:
                deadline = time.monotonic() + 10
                while proc.poll() is None and time.monotonic() < deadline:
                    try:
                        if client.ping():
                            break
                    except redis.ConnectionError:
                        time.sleep(0.05)
                if proc.poll() is not None:
                    continue  # e.g. the port was taken meanwhile: another one
                client.ping()
                yield url
                return
            finally:
                client.close()
                if proc.poll() is None:
                    proc.terminate()
                    try:
                        proc.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
                if proc.stdout is not None:
                    proc.stdout.close()
        raise RuntimeError("redis-server did not start")


# -- the site ----------------------------------------------------------------------
#: Pages whose number is a multiple of this live one directory down
#: (``/site/b/``) and carry ``<base href="../">``: their relative links resolve
#: to ``/site/`` only if ``<base>`` is honoured (``/site/b/pN.html`` is a 404).
BASE_EVERY = 5
#: Links to pages with ``n % SOUP_OFF_EVERY == SOUP_OFF_REMAINDER`` are
#: followed with ``meta={"soup": False}``.
SOUP_OFF_EVERY = 7
SOUP_OFF_REMAINDER = 3


def page_path(n: int) -> str:
    return f"/site/b/p{n}.html" if n % BASE_EVERY == 0 else f"/site/p{n}.html"


def _rel(n: int) -> str:
    """Page ``n``'s link relative to the (effective) base ``/site/``."""
    return page_path(n).removeprefix("/site/")


def soup_off(n: int) -> bool:
    return n % SOUP_OFF_EVERY == SOUP_OFF_REMAINDER


def nav_targets(n: int, size: int) -> list[int]:
    """The pages page ``n`` links to in its ``<nav>`` (the crawl follows these)."""
    return [(n + 1) % size, (n * 7 + 3) % size, (n * 31 + 11) % size]


def see_target(n: int, size: int) -> int:
    """The page the article of page ``n`` links to (not followed)."""
    return (n * 13 + 5) % size


def make_page(n: int, size: int) -> bytes:
    """Page ``n``: relative links in many attributes, event handlers, messy markup."""
    nxt, jump, far = nav_targets(n, size)
    see = see_target(n, size)
    base = '<BASE HREF="../">' if n % BASE_EVERY == 0 else ""
    html = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Page {n} &amp; friends</title>{base}
<link rel=stylesheet href="css/site.css"><script src="js/app.js"></script>
</head>
<body onload="init({n})" class=page>
<nav>
  <a href="{_rel(nxt)}" data-page="{nxt}" class=next onclick="go({nxt})">next</a>
  <a HREF='{_rel(jump)}#top' data-page={jump} ONMOUSEOVER="hover()">jump</a>
  <a href=" ./{_rel(far)} " data-page="{far}" class="far far">far</a>
</nav>
<article id=a{n} ALIGN=center style="background: url(img/bg{n}.png)" onclick='steal("x")'>
  <h1 onmouseover="x()" class=title class=dup>Page {n}</h1>
  <p>Text &amp; more <a href="{_rel(see)}" title="see {see}" onclick="steal()">see {see}</a>
     <a href="javascript:alert(1)">js</a> <a href="#frag">frag</a>
     <a href="mailto:someone@example.com">mail</a>
     <a href="{_rel(see)}?a=1&amp;b=2" target=_blank rel="noopener">query</a></p>
  <img src = "img/p{n}.png" srcset="img/p{n},small.png 1x, img/p{n}-2x.png 2x" alt="pic {n}" onerror="alert(1)" width=10 height="">
  <form action="search?q={n}" onsubmit="return false"><input name=q formaction="go?x={n}" autofocus></form>
  <video poster="img/poster{n}.jpg" src="media/v{n}.mp4" controls></video>
  <blockquote cite="quotes/{n}.html">quoted</blockquote>
  <script>document.write("<b>x</b>")</script><style>p {{ color: red }}</style>
  <iframe src="frame{n}.html" srcdoc="<script>alert(1)</script>"></iframe>
  <div class="summary" data-src="img/lazy{n}.png" onclick="x()">Summary <b>{n}</b>
    <a href="{_rel(nxt)}" style="color:red">next again</a></div>
</article>
<!-- page {n} ends -->
</body></html>
"""
    return html.encode("utf-8")


def make_site(size: int) -> dict[str, bytes]:
    """Every page of a ``size``-page site, by path (all reachable from page 0)."""
    return {page_path(n): make_page(n, size) for n in range(size)}


class SiteServer(LocalServer):
    """The test server (`local_server.LocalServer`) serving a dict of pages.

    ``hits`` counts the requests per path, across every process that crawls.
    """

    def __init__(self, pages: dict[str, bytes]) -> None:
        self.pages = pages
        super().__init__(pages_by_path(pages))


# -- the spider ----------------------------------------------------------------------
def _redis_spider_base() -> type[scrapy.Spider]:
    try:
        from scrapy_redis.spiders import RedisSpider
    except ImportError:  # the test skips; the module must still import
        return scrapy.Spider
    return RedisSpider  # type: ignore[no-any-return]


class SoupRedisSpider(_redis_spider_base()):  # type: ignore[misc]
    """Read start URLs from Redis, yield items with soup values, follow links.

    Items hold a soup ``Tag`` (the article), a list of Tags, a soup string
    (the title) and a ``str`` of HTML (a named HTML field). Followed requests
    carry the ``<a>`` Tag they came from in ``cb_kwargs`` and, for some pages,
    ``meta={"soup": False}``: scrapy-redis pickles both into Redis.
    """

    name = "soup_redis"
    #: Start URLs taken from Redis at a time (default: CONCURRENT_REQUESTS):
    #: one, so that the first process to look does not take them all.
    redis_batch_size = 1
    #: A str field of HTML: the pipelines process it because it is named here.
    custom_settings = {"SOUP_HTML_FIELDS": ["summary"]}

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> Any:
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(
            spider.restart_idle_clock, signal=scrapy.signals.spider_opened
        )
        return spider

    def restart_idle_clock(self) -> None:
        """Count idle time (``MAX_IDLE_TIME_BEFORE_CLOSE``) from the spider's start.

        scrapy-redis 0.9.1 starts that clock when ``scrapy_redis.spiders`` is
        imported (a class attribute): a process that takes longer than the
        limit to open (a loaded machine) closes at its first idle moment,
        before any start URL is pushed.
        """
        self.spider_idle_start_time = int(time.time())

    def make_request_from_data(self, data: bytes) -> scrapy.Request:
        # scrapy-redis's own version makes start requests dont_filter=True:
        # a start page that another page links to would be crawled twice.
        params = json.loads(data)
        return scrapy.Request(params["url"], meta=params.get("meta", {}))

    def parse(self, response: Any, via: Any = None) -> Any:
        from scrapy_soup import SoupHtmlResponse, soup_of
        from scrapy_soup._tree._tag import Tag

        wrapped = isinstance(response, SoupHtmlResponse)
        # soup_of() serves the responses the middleware was told to leave alone.
        soup = response.soup if wrapped else soup_of(response)
        number = int(soup.find("article")["id"].removeprefix("a"))
        # The <a> that led here went through pickle and Redis: still a Tag
        # with its attributes.
        via_ok = via is None or (
            isinstance(via, Tag) and via.name == "a" and via["data-page"] == str(number)
        )
        yield {
            "number": number,
            "url": response.url,
            "wrapped": wrapped,
            "via_ok": via_ok,
            "title": soup.title.string,
            "body": soup.find("article"),
            "links": soup.select("article p a[href]"),
            "summary": response.css("div.summary").get(),
        }
        for a in soup.select("nav a[data-page]"):
            target = int(a["data-page"])
            yield response.follow(
                # A plain response (soup: False) is Scrapy's own class: its
                # follow() takes URLs and Selectors, not soup Tags.
                a if wrapped else a["href"].strip(),
                callback=self.parse,
                meta={"soup": False} if soup_off(target) else {},
                cb_kwargs={"via": a},
            )


# -- crawl processes ----------------------------------------------------------------
def example_settings() -> dict[str, Any]:
    """The settings ``example_project/settings_redis.py`` defines (as Scrapy's
    ``Settings.setmodule`` reads them: its upper-case names)."""
    import importlib

    before = set(sys.modules)
    sys.path.insert(0, str(EXAMPLE_DIR))
    try:
        module = importlib.import_module("settings_redis")
        return {k: getattr(module, k) for k in dir(module) if k.isupper()}
    finally:
        sys.path.remove(str(EXAMPLE_DIR))
        # Other tests import the example project from copies of it: leave no
        # ``bookshop`` of this tree behind for them.
        for name in set(sys.modules) - before:
            if name == "settings_redis" or name.split(".")[0] == "bookshop":
                del sys.modules[name]


def example_site() -> Any:
    """The example project's bundled site, served by its own server (started)."""
    import importlib

    before = set(sys.modules)
    sys.path.insert(0, str(EXAMPLE_DIR))
    try:
        return importlib.import_module("bookshop.localsite").serve_site()
    finally:
        sys.path.remove(str(EXAMPLE_DIR))
        for name in set(sys.modules) - before:  # as in example_settings()
            if name.split(".")[0] == "bookshop":
                del sys.modules[name]


#: Settings every test crawl process starts from (quiet, local).
BASE_SETTINGS: dict[str, Any] = {
    "LOG_LEVEL": "INFO",
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": False,
    "COOKIES_ENABLED": False,
    "RETRY_ENABLED": False,
    "DOWNLOAD_TIMEOUT": 30,
    # A safety net only: processes stop when idle (MAX_IDLE_TIME_BEFORE_CLOSE).
    "CLOSESPIDER_TIMEOUT": 150,
    "SCHEDULER_PERSIST": True,
}

#: Settings the test imposes over the example's.
TEST_OVERRIDES: dict[str, Any] = {
    # The test's spider is not one of the example project's.
    "SPIDER_MODULES": [],
    "NEWSPIDER_MODULE": "",
    # Stop sooner once idle than the example's 10 s (the test's run time),
    # but not before a slower process has opened (see `wait_until_opened`).
    "MAX_IDLE_TIME_BEFORE_CLOSE": 8,
}


@dataclass
class CrawlProcess:
    """One running crawl process and the files it writes."""

    proc: subprocess.Popen[str]
    workdir: Path

    @property
    def items_file(self) -> Path:
        return self.workdir / "items.jsonl"

    @property
    def stats_file(self) -> Path:
        return self.workdir / "stats.json"

    @property
    def log_file(self) -> Path:
        return self.workdir / "crawl.log"


@dataclass
class CrawlOutcome:
    """What one finished crawl process left behind."""

    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    origins_left: int
    warnings: list[str]


def start_crawl(workdir: Path, settings: dict[str, Any]) -> CrawlProcess:
    """Start :class:`SoupRedisSpider` in a new process; return at once."""
    workdir.mkdir(parents=True, exist_ok=True)
    crawl = CrawlProcess(proc=None, workdir=workdir)  # type: ignore[arg-type]
    config = {
        "settings": {
            **BASE_SETTINGS,
            "LOG_FILE": str(crawl.log_file),
            "FEEDS": {
                str(crawl.items_file): {"format": "jsonlines", "encoding": "utf-8"}
            },
            **settings,
            **TEST_OVERRIDES,
        },
        "stats_file": str(crawl.stats_file),
    }
    config_file = workdir / "config.json"
    config_file.write_text(json.dumps(config), encoding="utf-8")
    env = dict(os.environ)
    path = [str(REPO_DIR), str(TESTS_DIR)]
    if env.get("PYTHONPATH"):
        path.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(path)
    crawl.proc = subprocess.Popen(
        [sys.executable, str(Path(__file__)), str(config_file)],
        env=env,
        cwd=str(workdir),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    return crawl


def wait_until_opened(crawls: list[CrawlProcess], timeout: float = 90) -> None:
    """Wait until each crawl's log says its spider is open (or it has ended).

    Work handed out before then goes to whichever process is up first: on a
    loaded machine one process could crawl the whole site before another
    starts.  A crawl that ended is left to `finish_crawls` to report.
    """
    deadline = time.monotonic() + timeout
    for crawl in crawls:
        while crawl.proc.poll() is None:
            log = crawl.log_file
            if log.exists() and "Spider opened" in log.read_text("utf-8", "replace"):
                break
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"{crawl.workdir.name}: no 'Spider opened' in {timeout} s"
                )
            time.sleep(0.05)


def finish_crawls(
    crawls: list[CrawlProcess], timeout: float = 180
) -> list[CrawlOutcome]:
    """Wait for every crawl; each must have finished normally.

    All are waited for before any is checked: none is left running.
    """
    outputs = []
    for crawl in crawls:
        try:
            output, _ = crawl.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            crawl.proc.kill()
            output, _ = crawl.proc.communicate()
        outputs.append(output)
    return [
        _outcome(crawl, output) for crawl, output in zip(crawls, outputs, strict=True)
    ]


def _outcome(crawl: CrawlProcess, output: str) -> CrawlOutcome:
    log = crawl.log_file.read_text(encoding="utf-8") if crawl.log_file.exists() else ""
    assert crawl.proc.returncode == 0, f"crawl failed:\n{output}\n{log[-5000:]}"
    report = json.loads(crawl.stats_file.read_text(encoding="utf-8"))
    items = []
    if crawl.items_file.exists():
        text = crawl.items_file.read_text(encoding="utf-8")
        items = [json.loads(line) for line in text.splitlines() if line.strip()]
    return CrawlOutcome(
        items=items,
        stats=report["stats"],
        log=log + output,
        origins_left=report["origins_left"],
        warnings=report["warnings"],
    )


def _main(config_path: str) -> None:
    from scrapy.crawler import CrawlerProcess

    from scrapy_soup._scrapy._origins import ItemOrigins

    # Warnings scrapy_soup causes are errors, as in pytest. scrapy-redis still
    # uses APIs that Scrapy deprecates (``spider`` arguments): record those
    # instead of failing on them, so that the test can show them.
    warnings.simplefilter("always")
    warnings.filterwarnings("error", module=r"scrapy_soup(\.|$)")
    config = json.loads(Path(config_path).read_text(encoding="utf-8"))
    process = CrawlerProcess(config["settings"])
    crawler = process.create_crawler(SoupRedisSpider)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("error", module=r"scrapy_soup(\.|$)")
        process.crawl(crawler)
        process.start()
    report = {
        "stats": crawler.stats.get_stats() if crawler.stats else {},
        # Entries the item-origin map still holds after the crawl: must be 0.
        "origins_left": len(ItemOrigins.of(crawler)),
        "warnings": sorted(
            {f"{w.category.__name__}: {w.message} ({w.filename})" for w in caught}
        ),
    }
    Path(config["stats_file"]).write_text(
        json.dumps(report, default=str), encoding="utf-8"
    )


if __name__ == "__main__":
    _main(sys.argv[1])
