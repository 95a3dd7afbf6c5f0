"""docs/testing.md's recipe, in a fresh interpreter where no crawler was ever built.

The page's examples unit-test a callback that uses ``response.soup``,
``response.follow(tag)`` and ``response.follow_all(tags)`` on a hand-built
``SoupHtmlResponse``. They run here in a new ``python`` process (stdlib
doctest, not pytest), which then checks that no downloader middleware was
ever built, and no Crawler: what the page promises works without
them, not thanks to something an earlier test did in the same process.
"""

from __future__ import annotations

import subprocess
import sys

from scrapy_helpers import REPO_DIR, subprocess_env

PAGE = REPO_DIR / "docs" / "testing.md"

FRESH = """
import doctest
import gc
import sys

flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
result = doctest.testfile(sys.argv[1], module_relative=False, optionflags=flags)
# Importing scrapy_soup's Scrapy names imports the middleware classes; none
# was built, and no Crawler.
from scrapy_soup import SoupDownloaderMiddleware, SoupSpiderMiddleware

built = (SoupDownloaderMiddleware, SoupSpiderMiddleware)
if "scrapy.crawler" in sys.modules:
    from scrapy.crawler import Crawler

    built += (Crawler,)
assert not [o for o in gc.get_objects() if isinstance(o, built)], "something built"
print(result.attempted, result.failed)
"""


def test_the_testing_recipe_runs_where_no_crawler_was_built() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", FRESH, str(PAGE)],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    attempted, failed = map(int, proc.stdout.split()[-2:])
    assert failed == 0, proc.stdout
    # The page's examples: the spider, its test, the XML one, soup_response().
    assert attempted >= 20, proc.stdout
    text = PAGE.read_text(encoding="utf-8")
    for used in ("response.soup", "response.follow(", "response.follow_all("):
        assert used in text
