"""The scrapy_soup example project: a Scrapy project that uses ``response.soup``.

The Scrapy project itself is the ``bookshop`` package beside this file (with
``scrapy.cfg``, as ``scrapy startproject`` lays it out); ``site/`` is the small
bookstore website its spiders crawl by default; ``python -m example_project``
serves that site on 127.0.0.1 and runs the main crawl. See ``README.md``.
"""

from __future__ import annotations

from pathlib import Path

#: The directory holding ``scrapy.cfg`` and the ``bookshop`` package.
PROJECT_DIR = Path(__file__).resolve().parent
