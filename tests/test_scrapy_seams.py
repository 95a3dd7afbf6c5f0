"""The seams where a user's setup is slightly off: real ``scrapy crawl`` runs.

A misspelt ``SOUP_*`` name is warned once with the closest known one; a
wrong value stops the crawl before its first request with one ERROR line
(no traceback); ``SOUP_ENABLED = False`` makes a spider run as if the plugin
were not installed; a field setting naming a field no item had is reported
at close. Each test runs a real project with ``python -m scrapy crawl``
against the local HTTP server.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import corpus_pages
from scrapy_helpers import TESTS_DIR, Page, PageServer, subprocess_env

from scrapy_soup._scrapy._checks import INVALID_SETTINGS_REASON

#: The README's example: a field that must not be exported as it came.
CONTENT = '<p onclick="x()">hi <a href="rel/page">rel</a><script>alert(1)</script></p>'

SPIDER = f"""
import scrapy

CONTENT = {CONTENT!r}


class S(scrapy.Spider):
    name = "s"

    def __init__(self, url="", **kwargs):
        super().__init__(**kwargs)
        self.start_urls = [url]

    def parse(self, response):
        yield {{"content": CONTENT, "title": response.css("title::text").get()}}
"""

SETTINGS = """
BOT_NAME = "seams"
SPIDER_MODULES = ["seams.spiders"]
ADDONS = {"scrapy_soup.Addon": 0}
TELNETCONSOLE_ENABLED = False
ROBOTSTXT_OBEY = False
LOG_LEVEL = "DEBUG"
"""


@pytest.fixture(scope="module")
def server() -> Iterator[PageServer]:
    page = b"<html><head><title>T</title></head><body><p>page</p></body></html>"
    with PageServer({"/page.html": Page(page)}) as srv:
        yield srv


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    (root / "scrapy.cfg").write_text("[settings]\ndefault = seams.settings\n")
    package = root / "seams"
    (package / "spiders").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text(SETTINGS)
    (package / "spiders" / "__init__.py").write_text("")
    (package / "spiders" / "s.py").write_text(SPIDER)
    return root


class Crawl:
    def __init__(self, proc: subprocess.CompletedProcess[str], feed: Path) -> None:
        self.rc = proc.returncode
        self.output = proc.stdout + proc.stderr
        self.items = [
            json.loads(line)
            for line in (feed.read_text("utf-8") if feed.exists() else "").splitlines()
        ]

    def lines(self, level: str) -> list[str]:
        return [line for line in self.output.splitlines() if f"] {level}: " in line]

    def stat(self, name: str) -> str | None:
        match = re.search(rf"'{re.escape(name)}': ([^,\n}}]+)", self.output)
        return None if match is None else match.group(1).strip("'")


def scrapy_crawl(
    project: Path, server: PageServer, *settings: str, existing: str | None = None
) -> Crawl:
    """``scrapy crawl -O items.jsonl``; ``existing``: that file's earlier content."""
    feed = project / "items.jsonl"
    feed.unlink(missing_ok=True)
    if existing is not None:
        feed.write_text(existing, "utf-8")
    command = [sys.executable, "-m", "scrapy", "crawl", "s", "-O", str(feed)]
    command += ["-a", f"url={server.url('/page.html')}"]
    for setting in settings:
        command += ["-s", setting]
    proc = subprocess.run(
        command,
        cwd=project,
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    return Crawl(proc, feed)


def test_the_setup_is_right(project: Path, server: PageServer) -> None:
    """The reference run: no warning, the field cleaned."""
    crawl = scrapy_crawl(project, server, "SOUP_HTML_FIELDS=content")
    assert crawl.rc == 0, crawl.output[-3000:]
    assert crawl.lines("WARNING") == crawl.lines("ERROR") == []
    link = server.url("/rel/page")
    assert crawl.items == [
        {"content": f'<p>hi <a href="{link}">rel</a></p>', "title": "T"}
    ]


#: A misspelt name, and the known one it is taken for.
MISSPELT = {
    "SOUP_HTML_FEILDS=content": "SOUP_HTML_FIELDS",
    "SOUP_CLEAN_POLCY=strict": "SOUP_CLEAN_POLICY",
    "SOUP_ENABLD=0": "SOUP_ENABLED",
}

#: A wrong value, and what its error says is expected.
WRONG = {
    "SOUP_CLEAN_ALLOW_RELATIVE_URLS=nope": "expected bool",
    'SOUP_LINKS_EXTRA_ATTRIBUTES={"a":1}': "expected list of str",
    'SOUP_CLEAN_ALLOWED_ATTRIBUTES={"a":1}': "expected dict of str to list",
    'SOUP_HTML_FIELDS=["content", 2]': "2 is not a string",
    "SOUP_HTML_FIELDS=[content": "not valid JSON",
    "SOUP_CLEAN_POLICY=strct": 'expected "safe", "strict", "epub"',
    "SOUP_ENABLED=nope": "expected bool",
}


@pytest.mark.parametrize(("setting", "suggestion"), MISSPELT.items())
def test_an_unknown_setting_is_warned_with_the_closest_name(
    project: Path, server: PageServer, setting: str, suggestion: str
) -> None:
    crawl = scrapy_crawl(project, server, setting)
    name = setting.partition("=")[0]
    assert crawl.rc == 0, crawl.output[-3000:]
    warnings = crawl.lines("WARNING")
    assert len(warnings) == 1, crawl.output[-3000:]
    assert warnings[0].endswith(
        f"Unknown setting {name} (ignored): did you mean {suggestion}?"
    )
    assert crawl.lines("ERROR") == []
    assert crawl.stat("finish_reason") == "finished"
    assert len(crawl.items) == 1


@pytest.mark.parametrize(("setting", "expected"), WRONG.items())
def test_a_wrong_value_stops_the_crawl_with_one_error_line(
    project: Path, server: PageServer, setting: str, expected: str
) -> None:
    crawl = scrapy_crawl(project, server, setting)
    name, _, value = setting.partition("=")
    errors = crawl.lines("ERROR")
    assert len(errors) == 1, crawl.output[-3000:]
    assert f"Invalid setting {name}={value!r}" in errors[0]
    assert expected in errors[0]
    assert "Traceback" not in crawl.output
    assert "exception was never retrieved" not in crawl.output
    # Stopped before its first request: nothing downloaded, nothing exported.
    assert crawl.stat("finish_reason") == INVALID_SETTINGS_REASON
    assert crawl.stat("downloader/request_count") is None
    assert crawl.items == []
    # As for every spider Scrapy closes with a reason (see docs/scrapy.md).
    assert crawl.rc == 0


def test_a_wrong_value_keeps_an_existing_overwritten_feed(
    project: Path, server: PageServer
) -> None:
    earlier = '{"content": "from an earlier run"}\n' * 100
    crawl = scrapy_crawl(project, server, "SOUP_CLEAN_POLICY=strct", existing=earlier)
    assert len(crawl.lines("ERROR")) == 1, crawl.output[-3000:]
    assert "Traceback" not in crawl.output
    assert crawl.stat("finish_reason") == INVALID_SETTINGS_REASON
    # "Nothing is downloaded or exported": the -O file is as it was.
    assert (project / "items.jsonl").read_text("utf-8") == earlier


def test_json_lists_and_dicts_from_the_command_line(
    project: Path, server: PageServer
) -> None:
    crawl = scrapy_crawl(
        project,
        server,
        'SOUP_HTML_FIELDS=["content"]',
        'SOUP_CLEAN_ALLOWED_ATTRIBUTES=["href"]',
        "SOUP_CLEAN_ALLOW_RELATIVE_URLS=true",
    )
    assert crawl.rc == 0, crawl.output[-3000:]
    assert crawl.lines("ERROR") == crawl.lines("WARNING") == []
    # The JSON list is a list of names: href is kept (absolute), not dropped.
    link = server.url("/rel/page")
    assert crawl.items[0]["content"] == f'<p>hi <a href="{link}">rel</a></p>'


def test_a_field_setting_naming_no_items_field_is_reported_at_close(
    project: Path, server: PageServer
) -> None:
    crawl = scrapy_crawl(project, server, "SOUP_HTML_FIELDS=contnet,title")
    assert crawl.rc == 0, crawl.output[-3000:]
    warnings = crawl.lines("WARNING")
    assert len(warnings) == 1, crawl.output[-3000:]
    assert warnings[0].endswith(
        "SOUP_HTML_FIELDS names the field 'contnet', which no item had; "
        "did you mean 'content'? (a field items had)"
    )
    # The warning says why the field went out as it came.
    assert crawl.items[0]["content"] == CONTENT


# -- SOUP_ENABLED: one process, two spiders --------------------------------------
def _run_spiders(mode: str, out: Path, urls: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [sys.executable, str(TESTS_DIR / "seams_spiders.py"), mode, str(out), *urls],
        env=subprocess_env(),
        cwd=out,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-5000:]


@pytest.fixture(scope="module")
def two_spiders(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    pages = corpus_pages()[:6]
    assert pages, "no corpus pages"
    with PageServer({}) as srv:
        urls = [srv.url(f"/corpus/{p.name}") for p in pages]
        out = tmp_path_factory.mktemp("two_spiders")
        _run_spiders("both", out / "both", urls)
        _run_spiders("plain", out / "plain", urls)
        yield out


def _feed(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_bytes().splitlines()]


def test_a_disabled_spider_runs_as_without_the_plugin(two_spiders: Path) -> None:
    both, plain = two_spiders / "both", two_spiders / "plain"
    feed = (both / "plain_pages.jsonl").read_bytes()
    assert feed == (plain / "plain_pages.jsonl").read_bytes()
    items = [json.loads(line) for line in feed.splitlines()]
    assert len(items) == 6
    assert {item["class"] for item in items} == {"HtmlResponse"}
    stats = json.loads((both / "plain_pages.stats.json").read_text("utf-8"))
    assert [k for k in stats if k.startswith("soup/")] == []
    assert stats["item_scraped_count"] == 6
    assert not stats.get("log_count/WARNING") and not stats.get("log_count/ERROR")


def test_the_other_spider_in_the_same_process_is_cleaned(two_spiders: Path) -> None:
    from scrapy_soup.markup.clean import clean
    from scrapy_soup.markup.links import absolutize_links

    both = two_spiders / "both"
    raw = _feed(both / "plain_pages.jsonl")
    done = _feed(both / "clean_pages.jsonl")
    assert len(done) == len(raw) == 6
    for before, after in zip(raw, done, strict=True):
        assert after["class"] == "SoupHtmlResponse"
        assert after["content"] == clean(
            absolutize_links(before["content"], after["url"])
        )
        assert "<script" not in after["content"] and "onclick" not in after["content"]
        assert 'href="rel/page"' not in after["content"]
    stats = json.loads((both / "clean_pages.stats.json").read_text("utf-8"))
    assert stats["soup/responses_wrapped"] == 6
    assert stats["soup/links_absolutized"] >= 6
    assert stats["soup/elements_removed"] >= 6


def test_a_disabled_spiders_responses_have_no_soup(two_spiders: Path) -> None:
    apis = _feed(two_spiders / "both" / "plain_pages.api.jsonl")
    assert len(apis) == 6
    assert apis == _feed(two_spiders / "plain" / "plain_pages.api.jsonl")
    assert apis == [{"soup": False}] * 6
