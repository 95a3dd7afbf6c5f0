"""The bookshop project on a distributed crawl: scrapy-redis plus scrapy_soup.

Every process started with these settings shares one request queue and one
duplicate filter in Redis, so N processes (on one machine or many) crawl each
page once between them. scrapy_soup needs nothing shared: each process runs
its own middlewares and pipelines (see ``docs/distributed.md``).

Run, from ``example_project/``, in as many terminals as you like::

    python -m pip install scrapy-redis
    python -m http.server 8000 -d site &          # the site, one server for all
    REDIS_URL=redis://127.0.0.1:6379/0 SCRAPY_SETTINGS_MODULE=settings_redis \\
        scrapy crawl bookstore -a start_url=http://127.0.0.1:8000/ -O items-$$.jsonl

``tests/test_distributed.py`` runs these settings against a real
``redis-server`` with two processes.
"""

from __future__ import annotations

import os

# The project's own settings, unchanged; among them the one scrapy_soup needs,
# ADDONS = {"scrapy_soup.Addon": 0}: nothing else changes for a distributed crawl.
from bookshop.settings import *  # noqa: F403

# -- scrapy-redis: one queue and one duplicate filter for every process ----------
SCHEDULER = "scrapy_redis.scheduler.Scheduler"
DUPEFILTER_CLASS = "scrapy_redis.dupefilter.RFPDupeFilter"
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
# Required with more than one process: without it, the first process to finish
# deletes the shared queue and duplicate filter (scrapy-redis flushes them when
# a spider closes), and the others then crawl pages again. Delete the keys
# yourself when the whole crawl is over (``<spider>:requests``,
# ``<spider>:dupefilter``).
SCHEDULER_PERSIST = True
# A RedisSpider keeps waiting for start URLs; stop after this many idle seconds.
MAX_IDLE_TIME_BEFORE_CLOSE = 10

# -- items into Redis too, at the order scrapy-redis documents ------------------
# RedisPipeline JSON-encodes each item (ScrapyJSONEncoder). Items are plain
# data from the callback on (SoupSpiderMiddleware turns soup Tags into str),
# and scrapy_soup's pipelines (100, 110) run before 300: Redis gets absolute,
# clean HTML.
ITEM_PIPELINES = {"scrapy_redis.pipelines.RedisPipeline": 300}
