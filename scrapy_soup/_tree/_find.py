"""bs4's find_* methods and CSS selection, typed as bs4 4.13+ types them.

The public search API of tags and strings: each method turns its arguments
into the engine's call (`._search.SearchMixin._find_all`, `._select.CSS`).  The
overloads give the type a caller gets, as bs4's do: a search with only a
``string=`` filter finds strings, any other finds tags.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

from . import _select
from ._search import SearchMixin

if TYPE_CHECKING:
    from ._node import PageElement
    from ._select import CSS, CompiledSelector
    from ._strainer import (
        FindMethodAttrs,
        FindMethodName,
        ResultSet,
        StrainableAttribute,
        StrainableString,
    )
    from ._strings import NavigableString
    from ._tag import Tag


class FindMixin(SearchMixin):
    """bs4's search methods, shared by tags and strings."""

    __slots__ = ()

    # -- bs4's Tag search methods ------------------------------------------------------
    @overload
    def find_all(
        self,
        name: None = None,
        attrs: None = None,
        recursive: bool = True,
        *,
        string: StrainableString,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[NavigableString]: ...
    @overload
    def find_all(
        self,
        name: None = None,
        attrs: None = None,
        recursive: bool = True,
        string: None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all(
        self,
        name: None,
        attrs: FindMethodAttrs,
        recursive: bool = True,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        recursive: bool = True,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        recursive: bool = True,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    def find_all(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        recursive: bool = True,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag] | ResultSet[NavigableString] | ResultSet[PageElement]:
        """Tags (or strings) below this tag that match (bs4's ``find_all``)."""
        direction = "descendants" if recursive else "children"
        return self._find_all(direction, name, attrs, string, limit, kwargs)

    __call__ = find_all

    @overload
    def find(
        self,
        name: None = None,
        attrs: None = None,
        recursive: bool = True,
        *,
        string: StrainableString,
        **kwargs: StrainableAttribute,
    ) -> NavigableString | None: ...
    @overload
    def find(
        self,
        name: None = None,
        attrs: None = None,
        recursive: bool = True,
        string: None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find(
        self,
        name: None,
        attrs: FindMethodAttrs,
        recursive: bool = True,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        recursive: bool = True,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        recursive: bool = True,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    def find(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        recursive: bool = True,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> PageElement | None:
        """The first tag (or string) below this tag that matches, or None (bs4's ``find``)."""
        if (
            attrs is None
            and string is None
            and not kwargs
            and recursive
            and isinstance(name, str)
            and name
        ):
            found: PageElement | Literal[False] | None = self._find_by_name(name)
            if found is not False:
                return found
        # (The overloads cannot see which of them a filter held in a union
        # takes; the call is the same either way.)
        find_all: Callable[..., Sequence[PageElement]] = self.find_all
        results = find_all(name, attrs, recursive, string, 1, **kwargs)
        return results[0] if results else None

    # -- bs4's PageElement search methods ----------------------------------------------
    @overload
    def find_next(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        **kwargs: StrainableAttribute,
    ) -> NavigableString | None: ...
    @overload
    def find_next(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    def find_next(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> PageElement | None:
        """The first matching node after this one in document order (bs4's ``find_next``)."""
        return self._find_one(self.find_all_next, name, attrs, string, **kwargs)

    @overload
    def find_all_next(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[NavigableString]: ...
    @overload
    def find_all_next(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_next(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_next(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_next(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    def find_all_next(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag] | ResultSet[NavigableString] | ResultSet[PageElement]:
        """Matching nodes after this one in document order (bs4's ``find_all_next``)."""
        return self._find_all("next", name, attrs, string, limit, kwargs)

    @overload
    def find_next_sibling(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        **kwargs: StrainableAttribute,
    ) -> NavigableString | None: ...
    @overload
    def find_next_sibling(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next_sibling(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next_sibling(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_next_sibling(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    def find_next_sibling(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> PageElement | None:
        """The first matching later sibling (bs4's ``find_next_sibling``)."""
        return self._find_one(self.find_next_siblings, name, attrs, string, **kwargs)

    @overload
    def find_next_siblings(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[NavigableString]: ...
    @overload
    def find_next_siblings(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_next_siblings(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_next_siblings(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_next_siblings(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    def find_next_siblings(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag] | ResultSet[NavigableString] | ResultSet[PageElement]:
        """Matching later siblings, nearest first (bs4's ``find_next_siblings``)."""
        return self._find_all("next_siblings", name, attrs, string, limit, kwargs)

    @overload
    def find_previous(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        **kwargs: StrainableAttribute,
    ) -> NavigableString | None: ...
    @overload
    def find_previous(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    def find_previous(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> PageElement | None:
        """The nearest matching node before this one (bs4's ``find_previous``)."""
        return self._find_one(self.find_all_previous, name, attrs, string, **kwargs)

    @overload
    def find_all_previous(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[NavigableString]: ...
    @overload
    def find_all_previous(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_previous(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_previous(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_all_previous(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    def find_all_previous(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag] | ResultSet[NavigableString] | ResultSet[PageElement]:
        """Matching nodes before this one, nearest first (bs4's ``find_all_previous``)."""
        return self._find_all("previous", name, attrs, string, limit, kwargs)

    @overload
    def find_previous_sibling(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        **kwargs: StrainableAttribute,
    ) -> NavigableString | None: ...
    @overload
    def find_previous_sibling(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous_sibling(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous_sibling(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    @overload
    def find_previous_sibling(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None: ...
    def find_previous_sibling(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        **kwargs: StrainableAttribute,
    ) -> PageElement | None:
        """The nearest matching earlier sibling (bs4's ``find_previous_sibling``)."""
        return self._find_one(
            self.find_previous_siblings, name, attrs, string, **kwargs
        )

    @overload
    def find_previous_siblings(
        self,
        name: None = None,
        attrs: None = None,
        *,
        string: StrainableString,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[NavigableString]: ...
    @overload
    def find_previous_siblings(
        self,
        name: None = None,
        attrs: None = None,
        string: None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_previous_siblings(
        self,
        name: None,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_previous_siblings(
        self,
        name: None = None,
        *,
        attrs: FindMethodAttrs,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    @overload
    def find_previous_siblings(
        self,
        name: FindMethodName,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]: ...
    def find_previous_siblings(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        string: StrainableString | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag] | ResultSet[NavigableString] | ResultSet[PageElement]:
        """Matching earlier siblings, nearest first (bs4's ``find_previous_siblings``)."""
        return self._find_all("previous_siblings", name, attrs, string, limit, kwargs)

    def find_parent(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        **kwargs: StrainableAttribute,
    ) -> Tag | None:
        """The nearest matching enclosing tag (bs4's ``find_parent``)."""
        results = self.find_parents(name, attrs, 1, **kwargs)
        return results[0] if results else None

    def find_parents(
        self,
        name: FindMethodName | None = None,
        attrs: FindMethodAttrs | None = None,
        limit: int | None = None,
        **kwargs: StrainableAttribute,
    ) -> ResultSet[Tag]:
        """Matching enclosing tags, innermost first, the soup last (bs4's ``find_parents``)."""
        return self._find_all("parents", name, attrs, None, limit, kwargs)

    # -- CSS -------------------------------------------------------------------------------
    @property
    def css(self) -> CSS:
        """bs4's CSS interface for this tag: ``select``, ``match``, ``closest``, ..."""
        return _select.CSS(self)  # type: ignore[arg-type]

    def select(
        self,
        selector: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        limit: int | None = 0,
        **kwargs: Any,
    ) -> ResultSet[Tag]:
        """Tags below this one matching a CSS selector, in document order (bs4's ``select``)."""
        return self.css.select(selector, namespaces, limit, **kwargs)

    def select_one(
        self,
        selector: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        **kwargs: Any,
    ) -> Tag | None:
        """The first tag below this one matching a CSS selector (bs4's ``select_one``)."""
        return self.css.select_one(selector, namespaces, **kwargs)


__all__ = ["FindMixin"]
