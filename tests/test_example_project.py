"""The example project, end to end: its crawls, its feed, the README's commands.

Every crawl runs in a subprocess exactly as a user runs it
(``python -m example_project`` from the repository root, ``scrapy crawl``
in ``example_project/``); the expectations below are written by hand from
the bundled site's pages, not computed by scrapy_soup. The feed's HTML is
read back with lxml, not with the soup under test. On the repository's
corpus of real pages (``-a start_url=``), bs4 is the oracle.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import lxml.etree
import lxml.html
import pytest
from bs4 import BeautifulSoup
from conftest import corpus_pages
from scrapy_helpers import Page, PageServer

REPO_DIR = Path(__file__).resolve().parent.parent
PROJECT_DIR = REPO_DIR / "example_project"

#: Every HTML page of the bundled site (one item each, crawled once).
SITE_PAGES = {
    "/",
    "/about.html",
    "/contact.html",
    "/blog/",
    "/blog/posts/a-letter-to-our-readers.html",
    "/blog/posts/a-winter-in-krakow.html",
    "/blog/posts/how-we-price-second-hand-books.html",
    "/blog/posts/notes-from-the-stockroom.html",
    "/blog/posts/opening-the-shop.html",
    "/blog/posts/the-reading-lamp-project.html",
    "/catalogue/",
    "/catalogue/page-2.html",
    "/catalogue/category/fiction.html",
    "/catalogue/category/history.html",
    "/catalogue/category/poetry.html",
    "/catalogue/books/a-short-history-of-lamps.html",
    "/catalogue/books/ledger-of-small-hours.html",
    "/catalogue/books/north-of-nowhere.html",
    "/catalogue/books/paper-moons.html",
    "/catalogue/books/river-of-glass.html",
    "/catalogue/books/songs-for-the-ferry.html",
    "/catalogue/books/the-cartographers-cat.html",
    "/catalogue/books/the-clockmakers-daughter.html",
    "/catalogue/books/the-long-catalogue.html",
    "/catalogue/books/the-printers-war.html",
    "/catalogue/books/the-salt-road.html",
}
IMAGES = {"/img/cover.png", "/img/cover@2x.png", "/img/lantern.png"}
#: The blog posts in sitemap order: the chapters spider numbers them so.
POST_TITLES = [
    "Opening the shop",
    "A winter in Kraków",
    "How we price second-hand books",
    "Notes from the stockroom",
    "The reading lamp project",
    "A letter to our readers",
]
HTML_FIELDS = {"book": "description", "post": "body", "page": "content"}
#: Attributes that hold one URL, and those that hold a srcset.
URL_ATTRIBUTES = ("href", "src", "poster", "cite", "action", "formaction", "data")
SRCSET_ATTRIBUTES = ("srcset", "data-srcset")
#: What a cleaned link may start with, once made absolute.
ABSOLUTE = re.compile(r"^(https?://|mailto:|tel:|#)")


def run(
    args: list[str], cwd: Path, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    result = subprocess.run(
        args,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, (
        f"{args} failed ({result.returncode}):\n{result.stdout}\n{result.stderr[-5000:]}"
    )
    return result


def read_feed(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def fragment(html: str) -> Any:
    return lxml.html.fragment_fromstring(html, create_parent="div")


def srcset_urls(value: str) -> list[str]:
    # Candidates are "URL [descriptor]" separated by ", " (the bundled site
    # has no commas inside its image URLs).
    return [part.split()[0] for part in value.split(", ") if part.strip()]


def assert_clean_and_absolute(html: str, where: str) -> None:
    """No script, no event handler, no javascript:, every URL absolute."""
    root = fragment(html)
    assert not root.xpath(".//script | .//style | .//iframe"), where
    for el in root.iter(lxml.etree.Element):
        for name, value in el.attrib.items():
            assert not name.lower().startswith("on"), (where, name, value)
            assert "javascript:" not in value.lower().replace(" ", ""), (where, name)
            if name in URL_ATTRIBUTES:
                # data: stays only in images (lazy-loading placeholders).
                inline_image = el.tag == "img" and value.startswith("data:image/")
                assert inline_image or ABSOLUTE.match(value), (where, el.tag, name)
            if name in SRCSET_ATTRIBUTES:
                for url in srcset_urls(value):
                    assert ABSOLUTE.match(url), (where, el.tag, name, value)


# -- the main job ------------------------------------------------------------
@pytest.fixture(scope="module")
def main_job(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, list[dict[str, Any]]]:
    """``python -m example_project`` as the README runs it: its output and feed."""
    feed = tmp_path_factory.mktemp("main") / "items.jsonl"
    result = run([sys.executable, "-m", "example_project", "-o", str(feed)], REPO_DIR)
    return result.stdout, read_feed(feed)


def by_path(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {urlsplit(item["url"]).path: item for item in items}


def test_main_job_crawls_every_page_once(
    main_job: tuple[str, list[dict[str, Any]]],
) -> None:
    _, items = main_job
    html_items = [i for i in items if i["type"] != "image"]
    paths = [urlsplit(i["url"]).path for i in html_items]
    assert sorted(paths) == sorted(SITE_PAGES)  # each page once, no other
    assert {urlsplit(i["url"]).path for i in items if i["type"] == "image"} == IMAGES
    kinds = [i["type"] for i in items]
    assert (kinds.count("book"), kinds.count("post"), kinds.count("page")) == (11, 6, 9)
    # Every URL points at the one local server.
    assert len({urlsplit(i["url"]).netloc for i in items}) == 1


def test_main_job_summary(main_job: tuple[str, list[dict[str, Any]]]) -> None:
    stdout, items = main_job
    assert "Serving the bundled site" in stdout
    summary = stdout.strip().splitlines()
    assert summary[-3].startswith(f"bookstore: {len(items)} items (11 book, 3 image")
    # robots.txt + 26 pages + sitemap.xml + 3 images
    assert f"from {1 + len(SITE_PAGES) + 1 + len(IMAGES)} pages" in summary[-3]
    assert "soup/responses_wrapped" in summary[-2]
    assert "soup/links_absolutized" in summary[-2]
    assert "soup/attributes_removed" in summary[-2]
    assert summary[-1].strip() == "finish_reason finished"


def test_main_job_html_fields_are_clean_and_absolute(
    main_job: tuple[str, list[dict[str, Any]]],
) -> None:
    _, items = main_job
    for item in items:
        field = HTML_FIELDS.get(item["type"])
        if field is None:
            continue
        html = item[field]
        assert isinstance(html, str) and html.startswith("<"), item["url"]
        assert_clean_and_absolute(html, item["url"])
        # The safe policy drops presentational and tracking attributes.
        for attribute in ("align", "style", "class", "data-tracking", "onclick"):
            assert f" {attribute}=" not in html, (item["url"], attribute)


def test_main_job_book_items(main_job: tuple[str, list[dict[str, Any]]]) -> None:
    _, items = main_job
    books = by_path(items)
    salt = books["/catalogue/books/the-salt-road.html"]
    origin = "http://" + urlsplit(salt["url"]).netloc
    assert salt["type"] == "book"
    assert salt["title"] == "The Salt Road"
    assert salt["author"] == "Mara Ellison"
    assert salt["price"] == "£12.99"
    assert salt["in_stock"] is True
    assert salt["rating"] == "Four"
    assert salt["category"] == "Fiction"
    assert salt["tags"] == ["fiction", "new"]
    assert salt["isbn"] == "9780000000011"
    assert salt["pages"] == 312
    assert salt["cover"] == f"{origin}/img/cover.png"
    assert salt["summary"].startswith("A caravan of traders crosses a desert")
    assert "track(" not in salt["summary"]  # script text is not text
    description = fragment(salt["description"])
    img = description.xpath(".//img")[0]
    assert img.get("src") == f"{origin}/img/cover.png"
    assert (
        img.get("srcset") == f"{origin}/img/cover.png 1x, {origin}/img/cover@2x.png 2x"
    )
    assert img.get("alt") == "Cover of The Salt Road"
    hrefs = [a.get("href") for a in description.xpath(".//a")]
    assert f"{origin}/catalogue/category/fiction.html" in hrefs
    assert f"{origin}/contact.html?book=the-salt-road" in hrefs
    # javascript:addToBasket(1) is gone, the link text stays.
    assert "Add to basket" in salt["description"]
    assert None in hrefs
    clock = books["/catalogue/books/the-clockmakers-daughter.html"]
    assert clock["in_stock"] is False
    assert clock["tags"] == ["fiction", "second-hand"]
    # Served gzip-compressed (Content-Encoding: gzip), read like the others.
    long = books["/catalogue/books/the-long-catalogue.html"]
    assert (long["title"], long["price"], long["pages"]) == (
        "The Long Catalogue",
        "£25.50",
        612,
    )


def test_main_job_pages_and_posts(main_job: tuple[str, list[dict[str, Any]]]) -> None:
    _, items = main_job
    pages = by_path(items)
    origin = "http://" + urlsplit(pages["/"]["url"]).netloc
    # windows-1252, declared in a <meta http-equiv> only.
    about = pages["/about.html"]
    assert about["headings"] == ["About us", "History"]
    assert "“Paper Lantern” started as a market stall — two" in about["content"]
    assert "€6 or £5" in about["content"]
    # iso-8859-1, declared in <meta charset>; złoty was an entity.
    krakow = pages["/blog/posts/a-winter-in-krakow.html"]
    assert krakow["title"] == "A winter in Kraków"
    assert "café receipts, naïve maps" in krakow["body"]
    assert "złoty" in krakow["body"]
    # <base href="/blog/posts/">: links resolve against it, not the page URL.
    blog = fragment(pages["/blog/"]["content"])
    post_links = {a.get("href") for a in blog.xpath(".//ol//a")}
    assert post_links == {
        f"{origin}/blog/posts/{p.rsplit('/', 1)[1]}"
        for p in SITE_PAGES
        if p.startswith("/blog/posts/")
    }
    # The unclosed-tag page: recovered as lxml (and bs4) recover it.
    stockroom = pages["/blog/posts/notes-from-the-stockroom.html"]
    assert stockroom["author"] == "Ben Lantern"
    assert "Three umbrellas" in stockroom["body"]
    assert f'href="{origin}/blog/posts/opening-the-shop.html"' in stockroom["body"]
    # Lazy images: data: placeholder kept for images, data-src made absolute
    # (then dropped by the safe policy, which does not allow data-*).
    pricing = pages["/blog/posts/how-we-price-second-hand-books.html"]
    assert "data:image/gif;base64," in pricing["body"]
    assert "<form" not in pricing["body"]  # unwrapped: forms are not content
    letter = pages["/blog/posts/a-letter-to-our-readers.html"]
    assert "mailto:hello@paper-lantern.test" in letter["body"]
    assert "tel:+441234567890" in letter["body"]
    assert "vbscript:" not in letter["body"].lower()
    assert "<object" not in letter["body"]
    images = [i for i in items if i["type"] == "image"]
    assert {i["content_type"] for i in images} == {"image/png"}
    assert all(i["size"] > 60 for i in images)


# -- a real site: -a start_url on the corpus pages ------------------------------
#: Pages with a book's or a post's <article> and none of the parts the spider
#: reads from them, and a malformed link: each part gives an empty field.
BARE_PAGES = {
    "/bare/book.html": '<article class="book"><a href="http://[oops/">?</a></article>',
    "/bare/post.html": '<article class="post"><time>today</time></article>',
}
BARE_BOOK = {
    "title": None,
    "author": None,
    "price": None,
    "in_stock": False,
    "rating": None,
    "category": None,
    "tags": [],
    "isbn": None,
    "pages": None,
    "cover": None,
    "summary": "",
    "description": None,
}
BARE_POST = {"title": None, "author": None, "published": None, "words": 0, "body": None}
HEADINGS = re.compile(r"^h[1-6]$")


@pytest.fixture(scope="module")
def real_pages_job(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[str, list[dict[str, Any]], dict[str, Path], PageServer]:
    """``python -m example_project -a start_url=...`` on the corpus, served here.

    The start page links every corpus page (and the bare pages);
    ``max_pages`` stops the crawl there, as it stops it on a real site (the
    corpus pages' own relative links would be 404s here).
    """
    corpus = {f"/corpus/{page.name}": page for page in corpus_pages()}
    paths = [*corpus, *BARE_PAGES]
    index = "".join(f'<li><a href="{path}">{path}</a>' for path in paths)
    pages = {"/": Page(f"<ul>{index}</ul>".encode())}
    pages |= {path: Page(html.encode()) for path, html in BARE_PAGES.items()}
    feed = tmp_path_factory.mktemp("real") / "items.jsonl"
    with PageServer(pages) as server:
        command = [sys.executable, "-m", "example_project", "-o", str(feed)]
        command += ["-a", f"start_url={server.url('/')}"]
        command += ["-a", f"max_pages={1 + len(paths)}", "-L", "INFO"]
        result = run(command, REPO_DIR)  # exit status 0: no error logged
    return result.stdout + result.stderr, read_feed(feed), corpus, server


def test_real_pages_crawl_without_errors(
    real_pages_job: tuple[str, list[dict[str, Any]], dict[str, Path], PageServer],
) -> None:
    log, items, corpus, server = real_pages_job
    for needle in ("Traceback", "ERROR", "Spider error", "spider_exceptions"):
        assert needle not in log, log[-5000:]
    assert "finish_reason finished" in log
    # Every page asked for once (robots.txt: a 404), nothing else.
    assert dict(server.hits) == {"/robots.txt": 1, "/": 1} | {
        path: 1 for path in [*corpus, *BARE_PAGES]
    }
    # One item a page, the start page included.
    paths = sorted(urlsplit(item["url"]).path for item in items)
    assert paths == sorted(["/", *corpus, *BARE_PAGES])


def test_real_pages_items_match_bs4(
    real_pages_job: tuple[str, list[dict[str, Any]], dict[str, Path], PageServer],
) -> None:
    _, items, corpus, _ = real_pages_job
    found = by_path(items)
    for path, file in corpus.items():
        item = found[path]
        soup = BeautifulSoup(file.read_bytes(), "lxml", from_encoding="utf-8")
        if soup.find("article", class_="book"):
            assert item["type"] == "book", path
        elif post := soup.find("article", class_="post"):
            assert item["type"] == "post", path
            heading = post.find(HEADINGS)
            assert item["title"] == (
                heading.get_text(" ", strip=True) if heading else None
            ), path
        else:
            assert item["type"] == "page", path
            assert item["title"] == (
                soup.title.get_text(strip=True) if soup.title else None
            ), path
            assert item["headings"] == [
                h.get_text(" ", strip=True) for h in soup.find_all(HEADINGS)
            ], path
            assert item["links"] == len(soup.find_all("a", href=True)), path
            assert item["content"] is None or isinstance(item["content"], str), path
    kinds = Counter(found[path]["type"] for path in corpus)
    assert kinds["page"] > 60 and kinds["post"] >= 1, kinds


def test_real_pages_missing_parts_give_empty_fields(
    real_pages_job: tuple[str, list[dict[str, Any]], dict[str, Path], PageServer],
) -> None:
    _, items, _, _ = real_pages_job
    found = by_path(items)
    book = found["/bare/book.html"]
    assert book["type"] == "book"
    assert {k: book[k] for k in BARE_BOOK} == BARE_BOOK
    post = found["/bare/post.html"]
    assert post["type"] == "post"
    assert {k: post[k] for k in BARE_POST} == BARE_POST


# -- scrapy crawl / list / check in the project directory -------------------
def test_scrapy_list_and_check() -> None:
    listed = run([sys.executable, "-m", "scrapy", "list"], PROJECT_DIR)
    assert listed.stdout.split() == ["bookstore", "chapters"]
    run([sys.executable, "-m", "scrapy", "check"], PROJECT_DIR)


def test_chapters_spider_epub_policy(tmp_path: Path) -> None:
    """``scrapy crawl chapters``: the spider serves the site itself."""
    feed = tmp_path / "chapters.jsonl"
    run(
        [sys.executable, "-m", "scrapy", "crawl", "chapters", "-O", str(feed)],
        PROJECT_DIR,
    )
    chapters = sorted(read_feed(feed), key=lambda c: c["number"])
    assert [c["number"] for c in chapters] == [1, 2, 3, 4, 5, 6]
    assert [c["title"] for c in chapters] == POST_TITLES
    for chapter in chapters:
        where = chapter["url"]
        body = fragment(chapter["body"])
        article = body[0]
        assert article.tag == "article"
        assert article.get("id") == f"chapter-{chapter['number']}"
        heading = article.xpath("./h1")
        assert [h.text_content() for h in heading] == [
            f"Chapter {chapter['number']}: {chapter['title']}"
        ]
        assert chapter["blocks"][0] == "h1"
        assert "nav" not in chapter["blocks"]
        assert_clean_and_absolute(chapter["body"], where)
        # The EPUB policy: no align anywhere, <img> reset to four attributes.
        assert not body.xpath(".//*[@align]"), where
        for img in body.xpath(".//img"):
            assert set(img.attrib) <= {"src", "alt", "width", "height"}, where
        # The spider's own edits: no class left, <b> renamed <strong>.
        assert not body.xpath(".//*[@class] | .//b"), where
        assert not body.xpath(".//nav | .//form | .//p[@class='meta']"), where
    stockroom = chapters[3]
    assert "<strong>unopened first editions" in stockroom["body"]
    assert stockroom["words"] > 30
    # Unlike the safe policy, the EPUB one keeps other attributes.
    opening = fragment(chapters[0]["body"])
    assert opening.xpath(".//img/@title") == []  # reset, though * allows it
    assert opening.xpath(".//blockquote/@cite") == [
        "https://example.org/speeches/opening"
    ]


# -- the bundled site's server ------------------------------------------------
def test_local_site_serves_like_a_static_server() -> None:
    sys.path.insert(0, str(PROJECT_DIR))
    try:
        from bookshop.localsite import serve_site  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(PROJECT_DIR))

    site = serve_site()
    try:
        request = urllib.request.Request(site.url + "robots.txt")
        with urllib.request.urlopen(request) as response:
            assert f"Sitemap: {site.origin}/sitemap.xml" in response.read().decode()
        with urllib.request.urlopen(site.url + "catalogue") as response:
            # Redirected to the directory URL, then its index.html.
            assert response.url == site.url + "catalogue/"
            assert b"<h1>All books</h1>" in response.read()
        with urllib.request.urlopen(
            site.url + "catalogue/books/the-long-catalogue.html"
        ) as response:
            assert response.headers["Content-Encoding"] == "gzip"
            assert response.read()[:2] == b"\x1f\x8b"
        for missing in ("nope.html", "../pyproject.toml", "%2e%2e/README.md"):
            with pytest.raises(urllib.error.HTTPError) as error:
                urllib.request.urlopen(site.url + missing)
            assert error.value.code == 404
            error.value.close()  # it holds the socket
    finally:
        site.stop()


# -- the README's two command lines in a fresh virtual environment ----------
def readme_commands() -> tuple[str, str]:
    """The README's quick-start line (main job) and its install-and-test line."""
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    lines = [
        line.strip()
        for block in re.findall(r"```console\n(.*?)```", readme, re.S)
        for line in block.splitlines()
        if line.strip().startswith("python -m pip install")
    ]
    main = [line for line in lines if "example_project" in line]
    tests = [line for line in lines if "pytest" in line]
    assert main, "README.md has no console line installing and running example_project"
    assert tests, "README.md has no console line installing and running pytest"
    return main[0], tests[0]


IGNORED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "*.egg-info",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
    "build",
    "dist",
    "items.jsonl",
)


# A venv and a pip install of every dependency (a minute or more): .ci/run's
# slow pass, not the README's default run.
@pytest.mark.slow
@pytest.mark.network
@pytest.mark.skipif(
    os.environ.get("SCRAPY_SOUP_FRESH_VENV") == "1",
    reason="already inside the fresh-venv run (it would start itself again)",
)
def test_readme_commands_in_a_fresh_venv(tmp_path: Path) -> None:
    """Run the README's two lines as given: a copy of the tree, a new venv.

    pip's own cache is kept (it is not part of the environment under test),
    so CI downloads the dependencies once.
    """
    main_command, test_command = readme_commands()
    clone = tmp_path / REPO_DIR.name
    shutil.copytree(REPO_DIR, clone, ignore=IGNORED)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = {
        k: v
        for k, v in os.environ.items()
        if k
        not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "SCRAPY_SETTINGS_MODULE")
    }
    env.update(
        PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}",
        VIRTUAL_ENV=str(venv),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        SCRAPY_SOUP_FRESH_VENV="1",
    )
    for command in (main_command, test_command):
        run_env = env
        if command is test_command:
            # The line runs as given; the suite it starts is narrowed to two
            # modules (one of the soup, one of the Scrapy layer): CI runs the
            # whole suite once already, and twice would double its time.
            run_env = {
                **env,
                "PYTEST_ADDOPTS": "tests/test_tree.py tests/test_scrapy_addon.py",
            }
        result = subprocess.run(
            command,
            shell=True,
            cwd=clone,
            env=run_env,
            capture_output=True,
            text=True,
            timeout=1800,
            check=False,
        )
        assert result.returncode == 0, (
            f"{command!r} failed ({result.returncode}):\n"
            f"{result.stdout[-5000:]}\n{result.stderr[-5000:]}"
        )
        if command is main_command:
            assert "finish_reason finished" in result.stdout
            items = read_feed(clone / "items.jsonl")
            assert len(items) == len(SITE_PAGES) + len(IMAGES)
