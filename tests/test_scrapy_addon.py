"""The add-on: what ADDONS = {"scrapy_soup.Addon": 0} turns on, and what it leaves."""

from __future__ import annotations

from typing import Any

import pytest
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object
from scrapy_helpers import make_crawler

from scrapy_soup._scrapy import (
    AbsoluteLinksPipeline,
    Addon,
    CleanHtmlPipeline,
    SoupDownloaderMiddleware,
    SoupSpiderMiddleware,
)
from scrapy_soup._scrapy._config import DEFAULTS, Config
from scrapy_soup._scrapy.addon import COMPONENTS
from scrapy_soup.markup.clean import STRICT_POLICY

ADDON = {"ADDONS": {"scrapy_soup.Addon": 0}}
# Disabling works with the public name and with the full module path.
DM = "scrapy_soup.SoupDownloaderMiddleware"
SM = "scrapy_soup._scrapy.middlewares.SoupSpiderMiddleware"
LINKS = "scrapy_soup.AbsoluteLinksPipeline"
CLEAN = "scrapy_soup._scrapy.pipelines.CleanHtmlPipeline"


def _enabled(settings: Any, name: str) -> dict[type, int]:
    """Components of ``name`` as Scrapy will build them, class -> order."""
    merged = settings.getwithbase(name)
    out = {}
    for key in build_component_list(merged):
        cls = load_object(key)
        out[cls] = merged[key]
    return out


def test_addon_enables_every_component_at_its_order() -> None:
    settings = make_crawler(settings=ADDON).settings
    for name, component, order in COMPONENTS:
        assert _enabled(settings, name)[component] == order
    # The downloader middleware's process_response must run after HTTP
    # compression and cache (higher orders), which make new responses.
    dms = _enabled(settings, "DOWNLOADER_MIDDLEWARES")
    by_name = {cls.__name__: order for cls, order in dms.items()}
    assert by_name["SoupDownloaderMiddleware"] < by_name["HttpCompressionMiddleware"]
    assert by_name["SoupDownloaderMiddleware"] < by_name["HttpCacheMiddleware"]


def test_addon_sets_defaults_with_addon_priority() -> None:
    settings = make_crawler(settings=ADDON).settings
    for key, value in DEFAULTS.items():
        assert settings[key] == value
        assert settings.getpriority(key) == 15  # SETTINGS_PRIORITIES["addon"]


@pytest.mark.parametrize(
    ("setting", "path", "component"),
    [
        ("DOWNLOADER_MIDDLEWARES", DM, SoupDownloaderMiddleware),
        ("SPIDER_MIDDLEWARES", SM, SoupSpiderMiddleware),
        ("ITEM_PIPELINES", LINKS, AbsoluteLinksPipeline),
        ("ITEM_PIPELINES", CLEAN, CleanHtmlPipeline),
    ],
)
def test_user_none_disables_a_component(
    setting: str, path: str, component: type
) -> None:
    settings = make_crawler(settings={**ADDON, setting: {path: None}}).settings
    assert component not in _enabled(settings, setting)
    # ...and only that one.
    for name, other, order in COMPONENTS:
        if other is not component:
            assert _enabled(settings, name)[other] == order


def test_user_order_is_kept_whether_given_as_path_or_class() -> None:
    settings = make_crawler(
        settings={
            **ADDON,
            "DOWNLOADER_MIDDLEWARES": {DM: 44},
            "ITEM_PIPELINES": {AbsoluteLinksPipeline: 800},
        }
    ).settings
    assert _enabled(settings, "DOWNLOADER_MIDDLEWARES")[SoupDownloaderMiddleware] == 44
    pipelines = _enabled(settings, "ITEM_PIPELINES")
    assert pipelines[AbsoluteLinksPipeline] == 800
    assert pipelines[CleanHtmlPipeline] == 110


def test_user_soup_settings_win_over_addon_defaults() -> None:
    settings = make_crawler(
        settings={
            **ADDON,
            "SOUP_HTML_FIELDS": ["body"],
            "SOUP_CLEAN_POLICY": "strict",
        }
    ).settings
    config = Config.from_settings(settings)
    assert config.html_fields == ("body",)
    assert config.policy == STRICT_POLICY


def test_spider_custom_settings_win_over_addon() -> None:
    import scrapy

    class Spider(scrapy.Spider):
        name = "s"
        custom_settings = {
            "ITEM_PIPELINES": {CLEAN: None},
            "SOUP_URL_FIELD": "source_url",
        }

    settings = make_crawler(Spider, settings=ADDON).settings
    assert CleanHtmlPipeline not in _enabled(settings, "ITEM_PIPELINES")
    assert Config.from_settings(settings).url_field == "source_url"


def test_addon_keeps_other_components() -> None:
    addon = Addon()
    from scrapy.settings import Settings

    other = "scrapy.pipelines.images.ImagesPipeline"
    settings = Settings({"ITEM_PIPELINES": {other: 300}}, priority="project")
    addon.update_settings(settings)
    pipelines = settings.getdict("ITEM_PIPELINES")
    assert pipelines[other] == 300
    assert pipelines[AbsoluteLinksPipeline] == 100
    # Adding a component is not setting the setting: its priority stays.
    assert settings.getpriority("ITEM_PIPELINES") == 20


def test_addon_uses_scrapys_helper_so_a_broken_path_fails_as_in_scrapy() -> None:
    # BaseSettings.setdefault_in_component_priority_dict() loads every entry
    # (it is how an entry given as a path is recognized): a path that does
    # not import fails there, as it would when Scrapy builds the pipelines.
    from scrapy.settings import Settings

    settings = Settings({"ITEM_PIPELINES": {"no.such.Pipeline": 300}})
    with pytest.raises(ImportError, match="no"):
        Addon().update_settings(settings)


def test_pipelines_run_before_a_user_pipeline_at_300() -> None:
    # 300: Scrapy's project template and scrapy-redis's RedisPipeline.
    settings = make_crawler(
        settings={
            **ADDON,
            "ITEM_PIPELINES": {"scrapy_redis.pipelines.RedisPipeline": 300},
        }
    ).settings
    from scrapy.utils.conf import build_component_list

    order = build_component_list(settings.getwithbase("ITEM_PIPELINES"))
    assert order.index(AbsoluteLinksPipeline) < order.index(CleanHtmlPipeline)
    assert order.index(CleanHtmlPipeline) < order.index(
        "scrapy_redis.pipelines.RedisPipeline"
    )
