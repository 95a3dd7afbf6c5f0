"""Reading the SOUP_* settings in one place."""

from __future__ import annotations

from scrapy.settings import Settings

from scrapy_soup._scrapy._config import DEFAULTS, Config
from scrapy_soup.markup.clean import EPUB_POLICY, POLICIES


def test_defaults_when_nothing_is_set() -> None:
    config = Config.from_settings(Settings())
    assert config == Config()
    assert config.policy == POLICIES[str(DEFAULTS["SOUP_CLEAN_POLICY"])]
    assert config.html_fields == ()
    assert config.enabled is True


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


def test_clean_settings_change_the_preset() -> None:
    settings = Settings(
        {
            "SOUP_CLEAN_POLICY": "epub",
            "SOUP_CLEAN_DROP_ATTRIBUTES": "align",
            "SOUP_CLEAN_KEEP_COMMENTS": None,
            "OTHER": 1,
        }
    )
    config = Config.from_settings(settings)
    assert config.policy == EPUB_POLICY
    settings = Settings({"SOUP_CLEAN_POLICY": "epub", "SOUP_CLEAN_KEEP_COMMENTS": "1"})
    assert Config.from_settings(settings).policy == EPUB_POLICY.replace(
        keep_comments=True
    )
