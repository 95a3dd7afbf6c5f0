"""Reading the SOUP_* settings in one place."""

from __future__ import annotations

from scrapy.settings import Settings

from scrapy_soup._scrapy._config import DEFAULTS, Config


def test_defaults_when_nothing_is_set() -> None:
    config = Config.from_settings(Settings())
    assert config == Config()
    assert config.clean_policy == DEFAULTS["SOUP_CLEAN_POLICY"]
    assert config.html_fields == tuple(DEFAULTS["SOUP_HTML_FIELDS"])


def test_command_line_strings_are_parsed() -> None:
    # ``scrapy crawl -s NAME=VALUE`` gives strings.
    settings = Settings(
        {
            "SOUP_HTML_FIELDS": "body,summary",
            "SOUP_SNIFF_HTML": "True",
            "SOUP_DROP_FAILED_ITEMS": "1",
            "SOUP_LINKS_EXTRA_ATTRIBUTES": "data-src,data-srcset",
            "SOUP_URL_FIELD": "",
        }
    )
    config = Config.from_settings(settings)
    assert config.html_fields == ("body", "summary")
    assert config.sniff_html is True
    assert config.drop_failed_items is True
    assert config.links_extra_attributes == ("data-src", "data-srcset")
    assert config.url_field is None


def test_clean_options_are_collected_without_the_preset() -> None:
    settings = Settings(
        {
            "SOUP_CLEAN_POLICY": "epub",
            "SOUP_CLEAN_DROP_ATTRIBUTES": "align",
            "SOUP_CLEAN_KEEP_COMMENTS": None,
            "OTHER": 1,
        }
    )
    config = Config.from_settings(settings)
    assert config.clean_policy == "epub"
    assert config.clean_options == {"SOUP_CLEAN_DROP_ATTRIBUTES": "align"}
