"""Right and wrong uses of the bridges' typed API (checked by mypy, never run)."""

from __future__ import annotations

import parsel
from lxml import etree
from typing_extensions import assert_type

from scrapy_soup import (
    Metadata,
    ResultSet,
    Soup,
    Tag,
    main_content,
    metadata,
    soup_of,
    to_markdown,
    to_text,
)

soup = Soup("<div><p>x</p></div>")
div = soup.find("div")
assert isinstance(div, Tag)
assert_type(div.selector, parsel.Selector)
assert_type(soup.selector, parsel.Selector)
assert_type(soup_of(div.selector.css("p")), ResultSet[Tag])
assert_type(Soup(div.selector), Soup)
assert_type(Soup(etree.fromstring("<p/>")), Soup)

div.selector = parsel.Selector(text="<p/>")  # type: ignore[misc]
Soup(div.selector).find_all(1.5)  # type: ignore[call-overload]

assert_type(to_markdown("<p>x</p>", "https://example.com/"), str)
assert_type(to_markdown(div, policy="strict"), str)
assert_type(to_text(soup), str)
assert_type(to_text(etree.fromstring("<p/>")), str)
to_text(b"<p>x</p>")  # type: ignore[arg-type]
to_markdown(div.selector)  # type: ignore[arg-type]

# Main content and metadata.
assert_type(main_content(soup), Soup | None)
assert_type(main_content(b"<p>x</p>", favor="recall"), Soup | None)
assert_type(soup.main_content(), Soup | None)
assert_type(metadata(soup), Metadata)
assert_type(metadata(soup).authors, tuple[str, ...])
main_content(soup, favor="most")  # type: ignore[arg-type]
metadata(soup).title = "x"  # type: ignore[misc]
