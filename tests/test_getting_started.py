"""Getting started's "Your own project", done for real as a reader does it.

The commands, the ``ADDONS`` line and the spider are read from
docs/getting-started.md, not copied here: ``python -m http.server`` serves
the example's bundled site (on a free port instead of 8000),
``scrapy startproject`` makes a project, its template's ``ADDONS = {}`` line
is edited, the spider file saved, and ``scrapy crawl books -O items.jsonl``
run; the feed and the ``soup/*`` stats it prints are what the page says.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PAGE = (REPO / "docs" / "getting-started.md").read_text("utf-8")
SECTION = PAGE[PAGE.index("## Your own project") : PAGE.index("## The example project")]


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", SECTION, re.S)


def _command(start: str) -> list[str]:
    """The one command line of the section's console blocks starting so."""
    lines = [line for block in _blocks("console") for line in block.splitlines()]
    (line,) = [line for line in lines if line.startswith(start)]
    return line.split()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The page's server command, on a port the OS picks: its base URL."""
    command = _command("python -m http.server")
    assert command[3] == "8000"
    command[3] = "0"
    server = subprocess.Popen(
        [sys.executable, "-u", *command[1:]],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        match = re.search(r"port (\d+)", server.stdout.readline())
        assert match, "http.server did not say its port"
        yield f"http://127.0.0.1:{match.group(1)}"
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()


def test_a_new_project_crawls_the_bundled_site(site: str, tmp_path: Path) -> None:
    # scrapy startproject bookfinder
    startproject = _command("scrapy startproject")
    name = startproject[2]
    scrapy = [sys.executable, "-m", "scrapy"]
    subprocess.run([*scrapy, *startproject[1:]], cwd=tmp_path, check=True)
    project = tmp_path / name

    # The template's ADDONS line, edited as the page says.
    settings = project / name / "settings.py"
    template = settings.read_text("utf-8")
    assert template.count("\nADDONS = {}\n") == 1, "the template has no ADDONS = {}"
    (addons,) = [b.strip() for b in _blocks("python") if b.startswith("ADDONS")]
    settings.write_text(template.replace("\nADDONS = {}\n", f"\n{addons}\n"), "utf-8")

    # The spider file, with the server's real port.
    (spider,) = [b for b in _blocks("python") if "class BooksSpider" in b]
    assert ">>>" not in spider
    path = re.search(r"Save this spider as `([^`]+)`", SECTION)
    assert path is not None
    spider = spider.replace("http://127.0.0.1:8000", site)
    (project / path.group(1)).write_text(spider, "utf-8")

    # scrapy crawl books -O items.jsonl
    crawl = _command("scrapy crawl")
    proc = subprocess.run(
        [*scrapy, *crawl[1:]],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "ERROR" not in proc.stderr, proc.stderr[-3000:]

    feed = (project / crawl[-1]).read_text("utf-8")
    items = [json.loads(line) for line in feed.splitlines()]
    books = sorted(
        (REPO / "example_project" / "site" / "catalogue" / "books").glob("*.html")
    )
    assert len(items) == len(books) > 5
    for item in items:
        assert item["url"].startswith(site + "/catalogue/books/")
        assert item["title"] and item["price"].startswith("£")
        description = item["description"]
        assert "onclick" not in description and "style=" not in description
        for href in re.findall(r'href="([^"]*)"', description):
            assert href.startswith(site), href

    # The soup/* stats the page shows are the ones Scrapy printed.
    (shown,) = re.findall(
        r"<!-- getting-started-stats[^>]*-->\n```text\n(.*?)```", SECTION, re.S
    )
    printed = dict(re.findall(r"'(soup/\w+)': (\d+)", proc.stderr))
    assert dict(re.findall(r"'(soup/\w+)': (\d+)", shown)) == printed
