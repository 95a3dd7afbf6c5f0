"""Scrapy settings for the bookshop example project.

Only what differs from Scrapy's defaults; the one line that matters for
scrapy_soup is ``ADDONS``. Every ``SOUP_*`` setting is listed in the
scrapy_soup README; spiders change them in their ``custom_settings``.
"""

BOT_NAME = "bookshop"

SPIDER_MODULES = ["bookshop.spiders"]
NEWSPIDER_MODULE = "bookshop.spiders"

# scrapy_soup: response.soup on every HTML/XML response, and the pipelines
# that make links absolute and clean the HTML fields of items before export.
ADDONS = {"scrapy_soup.Addon": 0}

# Lazy-loaded images keep their real URL in data-src/data-srcset: make those
# absolute too.
SOUP_LINKS_EXTRA_ATTRIBUTES = ["data-src", "data-srcset"]

# Polite defaults (the spiders add a download delay for sites other than the
# bundled one).
ROBOTSTXT_OBEY = True
USER_AGENT = "bookshop (scrapy_soup example project)"
CONCURRENT_REQUESTS_PER_DOMAIN = 8

FEED_EXPORT_ENCODING = "utf-8"
TELNETCONSOLE_ENABLED = False
