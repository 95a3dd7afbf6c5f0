"""Reading the SOUP_* settings in one place."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from scrapy_soup._scrapy._config import DEFAULTS, Config, SettingsError
from scrapy_soup._scrapy._settings import SETTINGS_BY_NAME
from scrapy_soup.markup.clean import (
    EPUB_POLICY,
    POLICIES,
    STRICT_POLICY,
    AttributeMap,
    CleanPolicy,
)


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


# -- values checked against their declared kind ----------------------------------
BOOL_VALUES = [True, False, 0, 1, 2, "0", "1", "True", "true", "False", "false"]
BOOL_VALUES += ["yes", "no", "nope", "TRUE", "", "1.5", 1.5, [], None]


@pytest.mark.parametrize("value", BOOL_VALUES, ids=repr)
def test_a_bool_is_what_scrapys_getbool_takes(value: object) -> None:
    """Scrapy's own getbool() is the oracle: same result, or both refuse."""
    settings = Settings({"SOUP_SNIFF_HTML": value})
    try:
        expected: object = settings.getbool("SOUP_SNIFF_HTML")
    except (ValueError, TypeError):
        expected = SettingsError
    if value is None:
        expected = False  # not set: the declared default
    try:
        got: object = Config.from_settings(settings).sniff_html
    except SettingsError as exc:
        assert "SOUP_SNIFF_HTML" in str(exc) and "expected bool" in str(exc)
        got = SettingsError
    assert got == expected


@pytest.mark.parametrize(
    "value", ["a,b", "a, b ,", "a", "", ["a", "b"], ("a",), {"a"}], ids=repr
)
def test_a_list_is_what_scrapys_getlist_takes(value: object) -> None:
    settings = Settings({"SOUP_HTML_FIELDS": value})
    expected = tuple(
        v.strip() for v in settings.getlist("SOUP_HTML_FIELDS") if v.strip()
    )
    assert Config.from_settings(settings).html_fields == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ('["a", "b"]', ("a", "b")),
        (' ["a"] ', ("a",)),
        ("[]", ()),
    ],
)
def test_a_json_list_from_the_command_line_is_a_list(
    value: str, expected: tuple[str, ...]
) -> None:
    settings = Settings({"SOUP_LINKS_EXTRA_ATTRIBUTES": value})
    assert Config.from_settings(settings).links_extra_attributes == expected


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("SOUP_HTML_FIELDS", '{"a": 1}'),
        ("SOUP_HTML_FIELDS", "[1]"),
        ("SOUP_HTML_FIELDS", 5),
        ("SOUP_HTML_FIELDS", ["a", None]),
        ("SOUP_CLEAN_ALLOWED_ATTRIBUTES", '{"a": 1}'),
        ("SOUP_CLEAN_ALLOWED_ATTRIBUTES", {"a": [1]}),
        ("SOUP_CLEAN_ALLOWED_ATTRIBUTES", {1: ["href"]}),
        ("SOUP_CLEAN_ALLOWED_ATTRIBUTES", '{"a": '),
        ("SOUP_CLEAN_POLICY", "unsafe"),
        ("SOUP_CLEAN_POLICY", 3),
        ("SOUP_URL_FIELD", 3),
        ("SOUP_CLEAN_ALLOWED_TAGS", {"p": "x"}),
    ],
)
def test_a_wrong_value_names_setting_value_and_form(name: str, value: object) -> None:
    with pytest.raises(SettingsError) as info:
        Config.from_settings(Settings({name: value}))
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(f"Invalid setting {name}={value!r}")
    assert f"expected {SETTINGS_BY_NAME[name].kind}" in message


def test_attribute_maps_and_tags_in_every_form() -> None:
    def policy(**settings: object) -> CleanPolicy:
        return Config.from_settings(Settings(settings)).policy

    href = AttributeMap({"*": ["href"]})
    assert policy(SOUP_CLEAN_ALLOWED_ATTRIBUTES='["href"]').allowed_attributes == href
    assert policy(SOUP_CLEAN_ALLOWED_ATTRIBUTES="href").allowed_attributes == href
    assert policy(SOUP_CLEAN_ALLOWED_ATTRIBUTES=["href"]).allowed_attributes == href
    a_href = AttributeMap({"a": ["href", "title"]})
    for value in (
        '{"a": ["href", "title"]}',
        {"a": "href title"},
        {"a": ("href", "title")},
    ):
        assert policy(SOUP_CLEAN_ALLOWED_ATTRIBUTES=value).allowed_attributes == a_href
    assert policy(SOUP_CLEAN_ALLOWED_TAGS="*").allowed_tags is None
    assert policy(SOUP_CLEAN_ALLOWED_TAGS='["*"]').allowed_tags is None
    assert policy(SOUP_CLEAN_ALLOWED_TAGS="p a").allowed_tags == {"p", "a"}
    assert policy(SOUP_CLEAN_POLICY=" Strict ") == STRICT_POLICY
    assert policy(SOUP_CLEAN_POLICY=EPUB_POLICY) == EPUB_POLICY


def test_a_disabled_crawler_is_not_checked(caplog: pytest.LogCaptureFixture) -> None:
    """SOUP_ENABLED=False: no component, no log line, whatever else is set."""
    from scrapy.exceptions import NotConfigured
    from scrapy_helpers import make_crawler

    from scrapy_soup._scrapy._checks import crawler_config

    settings = {"SOUP_ENABLED": False, "SOUP_HTML_FIELDS": 5, "SOUP_HTML_FEILDS": 1}
    crawler = make_crawler(settings=settings)
    with caplog.at_level("DEBUG"), pytest.raises(NotConfigured) as info:
        crawler_config(crawler)
    assert info.value.args == ()
    assert [r for r in caplog.records if r.name.startswith("scrapy_soup")] == []
    settings["SOUP_ENABLED"] = True
    with caplog.at_level("DEBUG"), pytest.raises(NotConfigured):
        crawler_config(make_crawler(settings=settings))
    ours = [r for r in caplog.records if r.name.startswith("scrapy_soup")]
    assert [r.levelname for r in ours] == ["WARNING", "ERROR"]
