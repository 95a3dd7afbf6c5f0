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


# -- every list setting read one way ---------------------------------------------
LIST_FORMS = [
    "data-src data-srcset",
    "data-src,data-srcset",
    "DATA-SRC, Data-Srcset",
    '["data-src", "DATA-SRCSET"]',
    ["Data-Src", "data-srcset"],
    ("data-src", "data-srcset"),
]


@pytest.mark.parametrize("value", LIST_FORMS, ids=repr)
def test_every_list_form_gives_the_same_lowercased_attribute_names(
    value: object,
) -> None:
    config = Config.from_settings(Settings({"SOUP_LINKS_EXTRA_ATTRIBUTES": value}))
    assert config.links_extra_attributes == ("data-src", "data-srcset")


def test_field_names_split_the_same_way_and_keep_their_case() -> None:
    for value in ("Body summary", "Body,summary", "Body, summary", ["Body", "summary"]):
        config = Config.from_settings(Settings({"SOUP_HTML_FIELDS": value}))
        assert config.html_fields == ("Body", "summary")


@pytest.mark.parametrize("name", ["SOUP_CLEAN_URL_SCHEMES", "SOUP_CLEAN_ALLOWED_TAGS"])
def test_an_empty_string_that_would_drop_everything_is_an_error(name: str) -> None:
    with pytest.raises(SettingsError) as info:
        Config.from_settings(Settings({name: " "}))
    assert "explicit empty list" in str(info.value)
    assert "expected" not in str(info.value)
    # Said explicitly, it is what the user means.
    for explicit in ([], "[]"):
        Config.from_settings(Settings({name: explicit}))


def test_a_field_in_two_formats_says_what_is_wrong_not_the_kind() -> None:
    settings = Settings({"SOUP_TEXT_FIELDS": "a", "SOUP_MARKDOWN_FIELDS": ["a"]})
    with pytest.raises(SettingsError) as info:
        Config.from_settings(settings)
    message = str(info.value)
    assert "both name a" in message
    assert "expected list of str" not in message


@pytest.mark.parametrize(
    ("name", "suggestion"),
    [
        ("SOUPHTML_FIELDS", "SOUP_HTML_FIELDS"),
        ("soup_html_fields", "SOUP_HTML_FIELDS"),
        ("SOUP_HTML_FIELD", "SOUP_HTML_FIELDS"),
        ("Soup-Clean-Policy", "SOUP_CLEAN_POLICY"),
        ("SOUP_WHATEVER", None),
    ],
)
def test_misspelt_names_are_found_without_case_or_separators(
    caplog: pytest.LogCaptureFixture, name: str, suggestion: str | None
) -> None:
    from scrapy_helpers import make_crawler

    from scrapy_soup._scrapy._checks import crawler_config

    with caplog.at_level("WARNING", logger="scrapy_soup"):
        crawler_config(make_crawler(settings={name: "x"}))
    said = [r.getMessage() for r in caplog.records if r.name.startswith("scrapy_soup")]
    if suggestion is None:
        assert said == [
            f"Unknown setting {name} (ignored): scrapy_soup reads no such setting"
        ]
    else:
        assert said == [f"Unknown setting {name} (ignored): did you mean {suggestion}?"]


def test_a_setting_of_another_plugin_is_not_ours(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from scrapy_soup._scrapy._checks import _squeezed, _warn_unknown

    assert _squeezed("soup_html-Fields") == "SOUPHTMLFIELDS"
    with caplog.at_level("WARNING", logger="scrapy_soup"):
        _warn_unknown(Settings({"SOUPLESS_MODE": 1, "SOUP_HTML_FIELDS": "a"}))
    assert caplog.records == []


@pytest.mark.parametrize(
    ("missing", "had", "hint"),
    [
        ("contnet", ["content", "title"], "did you mean 'content'?"),
        ("article_md", ["title", "url"], "items had none close to it"),
        ("lead_text", ["title", "url"], "items had none close to it"),
    ],
)
def test_the_field_suggestion_at_close_is_offered_only_when_close(
    caplog: pytest.LogCaptureFixture, missing: str, had: list[str], hint: str
) -> None:
    from scrapy_helpers import make_crawler

    from scrapy_soup._scrapy._fields_seen import FieldsSeen

    crawler = make_crawler(settings={"SOUP_HTML_FIELDS": [missing]})
    config = Config.from_settings(crawler.settings)
    seen = FieldsSeen(crawler, config)
    seen.add(dict.fromkeys(had, "x"))
    with caplog.at_level("WARNING", logger="scrapy_soup"):
        seen._report()
    [message] = [r.getMessage() for r in caplog.records]
    assert message.startswith(f"SOUP_HTML_FIELDS names the field {missing!r}")
    assert hint in message
