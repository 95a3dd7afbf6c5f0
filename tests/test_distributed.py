"""scrapy_soup on a distributed crawl: scrapy-redis, a real redis-server, two
crawler processes at once, then the same crawl in one process.

The crawl processes use ``example_project/settings_redis.py`` (scrapy-redis's
scheduler and duplicate filter, ``RedisPipeline`` at 300 after scrapy_soup's
pipelines, the add-on) and :class:`redis_helpers.SoupRedisSpider`, against a
generated site of :data:`SITE_SIZE` pages. Every request goes through
scrapy-redis's pickle serializer, with soup ``Tag`` objects in ``cb_kwargs``
and ``meta={"soup": False}`` on some of them.

Needs ``redis-server`` (``.ci/install-redis.sh`` installs Debian's package)
and the ``scrapy-redis`` and ``redis`` packages; skips, saying which is
missing, only without them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import redis_helpers as rh
from bs4 import BeautifulSoup

SITE_SIZE = 300
PROCESSES = 2
#: Start URLs pushed to Redis: several, so that every process gets work at once.
START_PAGES = list(range(0, SITE_SIZE, 50))
#: The distributed crawl's own settings. An idle process looks at the shared
#: queue only on the engine's heartbeat (every 5 s): a crawl one process ends
#: in less would be done by that process alone. With this delay a lone process
#: needs at least SITE_SIZE * 0.05 s (15 s: the delay is randomized between
#: half and 1.5 times), so every process joins in, however loaded the machine.
DISTRIBUTED_SETTINGS = {"DOWNLOAD_DELAY": 0.1}

#: Attributes that hold URLs in what the safe cleaning policy keeps.
URL_ATTRIBUTES = ("href", "src", "poster", "cite", "action", "formaction")


def _skip_reason() -> str | None:
    try:
        import redis  # noqa: F401
        import scrapy_redis  # noqa: F401
    except ImportError as exc:
        return f"scrapy-redis and redis are needed ({exc}); pip install '.[test]'"
    if rh.redis_server_path() is None:
        return "redis-server is not installed (.ci/install-redis.sh installs it)"
    return None


#: Every test that needs Redis (all but the egg test at the end).
needs_redis = pytest.mark.skipif(
    _skip_reason() is not None, reason=_skip_reason() or ""
)


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    executable = rh.redis_server_path()
    assert executable is not None
    with rh.redis_server(executable) as url:
        yield url


@pytest.fixture(scope="module")
def site() -> Iterator[rh.SiteServer]:
    with rh.SiteServer(rh.make_site(SITE_SIZE)) as server:
        yield server


def _run(
    tmp: Path,
    site: rh.SiteServer,
    redis_url: str,
    processes: int,
    extra: dict[str, Any] | None = None,
) -> tuple[list[rh.CrawlOutcome], list[str]]:
    """Run ``processes`` crawl processes over an empty Redis (with the
    ``extra`` settings); return their outcomes and the items RedisPipeline
    pushed."""
    import redis

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        client.flushdb()
        site.hits.clear()
        settings = {**rh.example_settings(), "REDIS_URL": redis_url, **(extra or {})}
        crawls = [
            rh.start_crawl(tmp / f"process-{k}", settings) for k in range(processes)
        ]
        # The start URLs go in once every process is up, so that each takes
        # part (RedisSpider reads them when idle).
        rh.wait_until_opened(crawls)
        for n in START_PAGES:
            data: dict[str, Any] = {"url": site.url(rh.page_path(n))}
            if rh.soup_off(n):
                data["meta"] = {"soup": False}
            client.rpush(f"{rh.SoupRedisSpider.name}:start_urls", json.dumps(data))
        outcomes = rh.finish_crawls(crawls)
        key = f"{rh.SoupRedisSpider.name}:items"
        pushed = [str(item) for item in client.lrange(key, 0, -1)]
        return outcomes, pushed
    finally:
        client.close()


@pytest.fixture(scope="module")
def distributed(
    tmp_path_factory: pytest.TempPathFactory, site: rh.SiteServer, redis_url: str
) -> tuple[list[rh.CrawlOutcome], list[str], Counter[str]]:
    outcomes, pushed = _run(
        tmp_path_factory.mktemp("distributed"),
        site,
        redis_url,
        PROCESSES,
        DISTRIBUTED_SETTINGS,
    )
    return outcomes, pushed, Counter(site.hits)


@pytest.fixture(scope="module")
def single(
    tmp_path_factory: pytest.TempPathFactory,
    site: rh.SiteServer,
    redis_url: str,
    distributed: Any,  # after it: the two share the server's hit counter
) -> tuple[list[rh.CrawlOutcome], list[str], Counter[str]]:
    outcomes, pushed = _run(tmp_path_factory.mktemp("single"), site, redis_url, 1)
    return outcomes, pushed, Counter(site.hits)


def _all_items(outcomes: list[rh.CrawlOutcome]) -> list[dict[str, Any]]:
    return [item for outcome in outcomes for item in outcome.items]


def _canonical(item: dict[str, Any]) -> str:
    return json.dumps(item, sort_keys=True)


# -- the distributed crawl --------------------------------------------------------
@needs_redis
def test_every_page_crawled_exactly_once_across_processes(
    distributed: Any, site: rh.SiteServer
) -> None:
    outcomes, _, hits = distributed
    expected = Counter(rh.page_path(n) for n in range(SITE_SIZE))
    # The example settings obey robots.txt: each process asks once (a 404).
    assert hits.pop("/robots.txt") == len(outcomes)
    # The server's view: each page asked for once, nothing else (no 404s).
    assert hits == expected
    # The processes' view: their downloads add up to the site.
    assert sum(o.stats.get("downloader/response_count", 0) for o in outcomes) == (
        SITE_SIZE + len(outcomes)
    )
    # The work was shared: every process crawled pages of its own (beyond
    # its robots.txt) and scraped their items.
    split = [o.stats.get("item_scraped_count", 0) for o in outcomes]
    assert sum(split) == SITE_SIZE
    for outcome in outcomes:
        pages = outcome.stats.get("downloader/response_count", 0) - 1
        assert pages > 0 and outcome.items, (split, outcome.log[-3000:])
    # 3 links a page, 900 requests: the shared duplicate filter let each
    # page into the shared queue once, whichever process found it.
    enqueued = sum(o.stats.get("scheduler/enqueued/redis", 0) for o in outcomes)
    assert enqueued == SITE_SIZE


@needs_redis
def test_every_item_exported_once(distributed: Any, site: rh.SiteServer) -> None:
    outcomes, pushed, _ = distributed
    items = _all_items(outcomes)
    assert sorted(item["number"] for item in items) == list(range(SITE_SIZE))
    for item in items:
        assert item["url"] == site.url(rh.page_path(item["number"]))
        assert item["title"] == f"Page {item['number']} & friends"
        # Requests that asked for no soup got none, and still gave an item.
        assert item["wrapped"] is not rh.soup_off(item["number"])
        # The <a> Tag in cb_kwargs came back from Redis's pickle intact.
        assert item["via_ok"] is True
    # RedisPipeline (order 300, as scrapy-redis documents) pushed the very
    # items the feeds exported: after scrapy_soup's pipelines, all plain JSON.
    assert sorted(_canonical(json.loads(p)) for p in pushed) == sorted(
        _canonical(item) for item in items
    )


def _check_clean_absolute(html: str, base: str, number: int) -> None:
    """The exported HTML: absolute links, none of the dangerous parts."""
    assert "<script" not in html.lower()
    assert "javascript:" not in html.lower()
    soup = BeautifulSoup(html, "html.parser")  # the oracle reads it back
    for tag in soup.find_all(True):
        for name, value in tag.attrs.items():
            assert not name.lower().startswith("on"), (number, tag)
            assert name not in ("style", "srcdoc"), (number, tag)
            if name in URL_ATTRIBUTES and not value.startswith(("#", "mailto:")):
                assert value.startswith(base + "/site/"), (number, name, value)
                # <base href="../"> honoured: nothing under /site/b/ but pages.
                path = urlsplit(value).path
                assert not path.startswith("/site/b/") or re.fullmatch(
                    r"/site/b/p\d+\.html", path
                ), (number, value)
            if name == "srcset":
                for candidate in value.split(", "):
                    assert candidate.startswith(base + "/site/img/"), (number, value)


@needs_redis
def test_items_have_absolute_cleaned_html(
    distributed: Any, site: rh.SiteServer
) -> None:
    outcomes, _, _ = distributed
    for item in _all_items(outcomes):
        number = item["number"]
        see = rh.see_target(number, SITE_SIZE)
        see_url = site.url(rh.page_path(see))
        for field in ("body", "summary"):
            assert isinstance(item[field], str)
            _check_clean_absolute(item[field], site.base, number)
        body = BeautifulSoup(item["body"], "html.parser")
        assert body.find("a", string=f"see {see}")["href"] == see_url
        img = body.find("img")
        assert img["src"] == site.url(f"/site/img/p{number}.png")
        assert img["srcset"] == (
            f"{site.url(f'/site/img/p{number},small.png')} 1x, "
            f"{site.url(f'/site/img/p{number}-2x.png')} 2x"
        )
        assert body.find("iframe") is None and body.find("style") is None
        # A list of Tags: a list of str.
        assert [
            BeautifulSoup(s, "html.parser").a.get("href") for s in item["links"]
        ] == [
            see_url,
            None,  # javascript: removed
            "#frag",
            "mailto:someone@example.com",
            see_url + "?a=1&b=2",
        ]
        # A str field (SOUP_HTML_FIELDS would be needed without soup values;
        # here the origin the spider middleware recorded in that process).
        summary = BeautifulSoup(item["summary"], "html.parser")
        nxt = rh.nav_targets(number, SITE_SIZE)[0]
        assert summary.a["href"] == site.url(rh.page_path(nxt))


@needs_redis
def test_soup_stats_in_every_process(distributed: Any) -> None:
    outcomes, _, _ = distributed
    for outcome in outcomes:
        stats = outcome.stats
        assert stats.get("finish_reason") == "finished"
        assert not stats.get("log_count/ERROR"), outcome.log[-5000:]
        assert stats.get("soup/responses_wrapped", 0) > 0, stats
        assert stats.get("soup/links_absolutized", 0) > 0, stats
        assert stats.get("soup/attributes_removed", 0) > 0, stats
        assert stats.get("soup/elements_removed", 0) > 0, stats
        assert not stats.get("soup/fields_failed"), outcome.log[-5000:]
        assert stats.get("item_scraped_count", 0) > 0, stats
        # Each process's item-origin map emptied as its items left.
        assert outcome.origins_left == 0
    # The responses given a soup add up to the pages that did not opt out,
    # plus each process's robots.txt (a text/html 404).
    wrapped = sum(o.stats["soup/responses_wrapped"] for o in outcomes)
    pages = sum(not rh.soup_off(n) for n in range(SITE_SIZE))
    assert wrapped == pages + len(outcomes)


@needs_redis
def test_no_pickling_or_serialization_error(distributed: Any) -> None:
    outcomes, _, _ = distributed
    for outcome in outcomes:
        for needle in ("Traceback", "PicklingError", "not JSON serializable"):
            assert needle not in outcome.log, outcome.log[-5000:]
        assert not outcome.stats.get("item_dropped_count"), outcome.stats
        # No warning from scrapy_soup (those are errors in the crawl process).
        assert not [w for w in outcome.warnings if "scrapy_soup" in w], outcome.warnings


# -- one process, same result -------------------------------------------------------
@needs_redis
def test_single_process_gives_the_same_items(distributed: Any, single: Any) -> None:
    many, many_pushed, _ = distributed
    one, one_pushed, hits = single
    assert hits.pop("/robots.txt") == 1
    assert hits == Counter(rh.page_path(n) for n in range(SITE_SIZE))
    assert len(one) == 1
    assert sorted(map(_canonical, _all_items(one))) == sorted(
        map(_canonical, _all_items(many))
    )
    assert len(one_pushed) == SITE_SIZE
    assert sorted(_canonical(json.loads(p)) for p in one_pushed) == sorted(
        _canonical(json.loads(p)) for p in many_pushed
    )


# -- RedisPipeline at its documented order, after scrapy_soup's pipelines -----------
def test_redis_pipeline_order_in_example_settings() -> None:
    from scrapy_soup._scrapy.addon import COMPONENTS

    settings = rh.example_settings()
    pipelines = settings["ITEM_PIPELINES"]
    assert pipelines["scrapy_redis.pipelines.RedisPipeline"] == 300
    ours = [order for name, _, order in COMPONENTS if name == "ITEM_PIPELINES"]
    assert max(ours) < 300
    assert settings["SCHEDULER_PERSIST"] is True
    assert settings["ADDONS"] == {"scrapy_soup.Addon": 0}


@needs_redis
def test_redis_serializer_rejects_soup_tags_but_not_their_str() -> None:
    """What RedisPipeline would meet before scrapy_soup's pipelines ran."""
    from scrapy_redis.pipelines import default_serialize

    from scrapy_soup import BeautifulSoup as Soup

    soup = Soup('<p><a href="x">x</a></p>')
    with pytest.raises(TypeError):
        default_serialize({"body": soup.p})
    assert json.loads(default_serialize({"body": str(soup.p)})) == {
        "body": '<p><a href="x">x</a></p>'
    }


@needs_redis
def test_install_script_is_idempotent_when_redis_is_there() -> None:
    script = rh.REPO_DIR / ".ci" / "install-redis.sh"
    bash = shutil.which("bash")
    assert bash is not None
    proc = subprocess.run(
        [bash, str(script)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0
    assert "Redis server" in proc.stdout


# -- Scrapyd: the plugin inside a project's egg -------------------------------------
EGG_SPIDER = """
import scrapy
import scrapy_soup


class EggSpider(scrapy.Spider):
    name = "egg"

    def __init__(self, start_url, **kwargs):
        super().__init__(start_urls=[start_url], **kwargs)

    def parse(self, response):
        yield {
            "url": response.url,
            "soup_from": scrapy_soup.__file__,
            "body": response.soup.find("article"),
        }
"""

EGG_SETTINGS = """
SPIDER_MODULES = ["eggproject.spiders"]
ADDONS = {"scrapy_soup.Addon": 0}
ROBOTSTXT_OBEY = False
TELNETCONSOLE_ENABLED = False
"""


def test_scrapy_soup_runs_from_a_zipped_egg(tmp_path: Path) -> None:
    """As ``scrapyd-deploy --include-dependencies`` ships it: scrapy_soup
    inside the project's zipped egg, imported from there by ``scrapy crawl``."""
    egg = tmp_path / "project-1.0-py3.egg"
    package = rh.REPO_DIR / "scrapy_soup"
    with zipfile.ZipFile(egg, "w") as zf:
        for file in sorted(package.rglob("*")):
            if file.is_file() and "__pycache__" not in file.parts:
                zf.write(file, file.relative_to(rh.REPO_DIR).as_posix())
        zf.writestr("eggproject/__init__.py", "")
        zf.writestr("eggproject/settings.py", EGG_SETTINGS)
        zf.writestr("eggproject/spiders/__init__.py", "")
        zf.writestr("eggproject/spiders/egg.py", EGG_SPIDER)
    env = dict(os.environ)
    env.update(PYTHONPATH=str(egg), SCRAPY_SETTINGS_MODULE="eggproject.settings")
    with rh.SiteServer(rh.make_site(10)) as site:
        start = site.url(rh.page_path(0))  # /site/b/p0.html, <base href="../">
        command = [sys.executable, "-m", "scrapy", "crawl", "egg"]
        command += ["-a", f"start_url={start}", "-O", "items.jsonl"]
        proc = subprocess.run(
            command,
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "log_count/ERROR" not in proc.stderr, proc.stderr[-5000:]
    assert "'soup/responses_wrapped': 1," in proc.stderr
    lines = (tmp_path / "items.jsonl").read_text(encoding="utf-8").splitlines()
    [item] = [json.loads(line) for line in lines]
    # Imported from the egg, not from the checkout or site-packages.
    assert item["soup_from"] == str(egg / "scrapy_soup" / "__init__.py")
    body = BeautifulSoup(item["body"], "html.parser")
    assert body.find("a", string="see 5")["href"] == site.url(rh.page_path(5))
    assert not [n for t in body.find_all(True) for n in t.attrs if n.startswith("on")]


# -- the example project's own spider through Redis ---------------------------------
@needs_redis
def test_example_project_spider_through_redis_gives_the_same_items(
    tmp_path: Path, redis_url: str
) -> None:
    """``SCRAPY_SETTINGS_MODULE=settings_redis scrapy crawl bookstore`` in two
    processes exports what the project's own settings export in one."""
    import redis

    site = rh.example_site()  # the project's own server of its bundled site
    client = redis.Redis.from_url(redis_url)
    try:
        client.flushdb()
        start = site.url
        env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}

        def crawl(feed: Path, **extra_env: str) -> subprocess.Popen[str]:
            command = [sys.executable, "-m", "scrapy", "crawl", "bookstore"]
            command += ["-a", f"start_url={start}", "-O", str(feed)]
            return subprocess.Popen(
                command,
                cwd=rh.EXAMPLE_DIR,
                env={**env, **extra_env},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )

        redis_env = {"SCRAPY_SETTINGS_MODULE": "settings_redis", "REDIS_URL": redis_url}
        procs = [crawl(tmp_path / f"redis-{k}.jsonl", **redis_env) for k in range(2)]
        procs.append(crawl(tmp_path / "plain.jsonl"))
        outputs = [proc.communicate(timeout=120)[0] for proc in procs]
    finally:
        client.close()
        site.stop()
    for proc, output in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, output[-5000:]

    def items(*feeds: str) -> list[str]:
        return sorted(
            _canonical(json.loads(line))
            for feed in feeds
            for line in (tmp_path / feed).read_text(encoding="utf-8").splitlines()
        )

    plain = items("plain.jsonl")
    assert len(plain) > 20
    assert items("redis-0.jsonl", "redis-1.jsonl") == plain
