"""bs4's ``tag.css`` and ``select()``: compiled selectors run as XPath.

`_css` translates a selector; here it is compiled once per mode (cached),
run on a tag's scope, and its results made the view's `Tag` objects in
document order, as soupsieve returns them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cssselect import SelectorError as _CSSSelectorError
from cssselect import SelectorSyntaxError as _CSSSyntaxError
from cssselect import parse as _parse_css
from lxml import etree

from . import _groups, _strainer
from ._cache import LRU
from ._css import SelectorError, SelectorSyntaxError, SoupSieveTranslator
from ._identity import wrap_all
from ._xpath import NS

if TYPE_CHECKING:
    from ._document import Document
    from ._strainer import ResultSet
    from ._tag import Tag


class CompiledSelector:
    """One selector group compiled for a mode: XPath steps plus extension functions."""

    __slots__ = ("_xpaths", "extensions", "namespaces", "parts", "selector")

    def __init__(
        self,
        selector: str,
        parts: list[tuple[str, str | None]],
        extensions: dict[Any, Any],
        namespaces: dict[str, str],
    ) -> None:
        self.selector = selector
        #: one (node test, condition) per selector of the group
        self.parts = parts
        self.extensions = extensions
        self.namespaces = namespaces
        #: Compiled by form of use and part (a few per selector in practice).
        self._xpaths = LRU(256)

    def _union(self, axis: str, world: str, part: int | None = None) -> str:
        # The world test after the condition: it walks the ancestors, and
        # few candidates pass the condition.
        parts = self.parts if part is None else self.parts[part : part + 1]
        steps = [
            f"{axis}::{test}" + (f"[{cond}]" if cond else "") + world
            for test, cond in parts
        ]
        return " | ".join(steps)

    def run(self, form: str, world: bool, context: Any, **variables: Any) -> list[Any]:
        """`xpath` ``form`` run on ``context``; a group's selectors one by one.

        A group's union is merged by `merge_group` (libxml2's own merge of
        large node-sets is quadratic, and ``(a | b | c)[1]`` merges ``a | b``
        in full) for the forms that collect every match or the first.
        """
        if len(self.parts) == 1 or form in ("match", "closest"):
            return self.xpath(form, world)(context, **variables)  # type: ignore[no-any-return]
        results = [
            self.xpath(form, world, i)(context, **variables)
            for i in range(len(self.parts))
        ]
        if form.startswith("first"):
            # The first of each selector's first: libxml2 sorts these few.
            return _groups.merge_group(context, results, None, False)[:1]
        names = [test for test, _ in self.parts]
        return _groups.merge_group(
            context, results, None if "*" in names else names, form == "filter"
        )

    def xpath(self, form: str, world: bool = False, part: int | None = None) -> Any:
        """The compiled XPath for a form of use.

        Forms: "select" (descendants), "select_self" (descendants and self:
        a document's root element), "first"/"first_self" (the first of
        those), "match" (a boolean), "closest", "filter" (children).  With
        ``world``, nodes inside ``<template>`` contents other than the
        scope's are left out (``$tk``/``$scope`` variables).  A group is a
        union of one step per selector (document order, no duplicates);
        ``part`` gives the step of one selector of the group alone.
        """
        key = (form, world, part)
        found = self._xpaths.get(key)
        if found is None:
            found = self._compile(form, world, part)
            self._xpaths.put(key, found)
        return found

    def _compile(self, form: str, world: bool, part: int | None) -> Any:
        """`xpath` compiled (not yet kept)."""
        in_world = "[count(ancestor::template) = $tk]" if world else ""
        if form in ("select", "first"):
            expr = self._union("descendant", in_world, part)
        elif form in ("select_self", "first_self"):
            expr = self._union("descendant-or-self", in_world, part)
        elif form == "match":
            expr = f"boolean({self._union('self', in_world)})"
        elif form == "closest":
            if world:
                in_world = (
                    "[count(. | $scope) = 1 or count(ancestor-or-self::template) = $tk]"
                )
            # The nearest: first on the reverse axis, last in document order.
            expr = self._union("ancestor-or-self", in_world)
            expr = f"{expr}[1]" if len(self.parts) == 1 else f"({expr})[last()]"
        else:  # filter
            expr = self._union("child", in_world, part)
        if form.startswith("first"):
            # One step: the first on its axis, where libxml2 stops (the
            # bracketed form collects every match first).  A union of steps
            # is in document order only as a whole.
            one = part is not None or len(self.parts) == 1
            expr = f"{expr}[1]" if one else f"({expr})[1]"
        namespaces = dict(self.namespaces)
        namespaces["ss"] = NS
        try:
            compiled = etree.XPath(
                expr,
                namespaces=namespaces,
                extensions=self.extensions or None,
                smart_strings=False,
            )
        except etree.XPathError as exc:
            raise SelectorError(
                f"cannot use the CSS selector {self.selector!r}: {exc}"
            ) from exc
        return compiled


def compile_selector(
    selector: str | CompiledSelector,
    mode: str,
    templates: bool,
    namespaces: dict[str, str] | None = None,
) -> CompiledSelector:
    """Parse and translate a selector (cached); `SelectorError` when cssselect cannot.

    A `CompiledSelector` (``soup.css.compile()``) is taken again by its text,
    for this mode: the cache holds it, and it keeps its namespaces.
    """
    if not namespaces and type(selector) is str:
        return _compile(selector, mode, templates, ())
    if isinstance(selector, CompiledSelector):
        if namespaces is None:
            namespaces = selector.namespaces
        selector = selector.selector
    if not isinstance(selector, str):
        raise TypeError(f"a CSS selector must be a str, not {type(selector).__name__}")
    ns = {k: v for k, v in (namespaces or {}).items() if k and isinstance(v, str)}
    return _compile(selector, mode, templates, tuple(sorted(ns.items())))


@functools.lru_cache(maxsize=512)
def _compile(
    selector: str, mode: str, templates: bool, namespaces: tuple[tuple[str, str], ...]
) -> CompiledSelector:
    """`compile_selector` of a str, once per (selector, mode, namespaces)."""
    translator = SoupSieveTranslator(mode, templates)
    try:
        parsed = _parse_css(selector)
    except _CSSSyntaxError as exc:
        raise SelectorSyntaxError(
            f"cssselect cannot handle the CSS selector {selector!r}: {exc}"
        ) from exc
    except _CSSSelectorError as exc:
        raise SelectorError(
            f"cssselect cannot handle the CSS selector {selector!r}: {exc}"
        ) from exc
    try:
        parts = [translator.selector_parts(sel) for sel in parsed]
    except _CSSSelectorError as exc:
        raise SelectorError(
            f"cssselect cannot handle the CSS selector {selector!r}: {exc}"
        ) from exc
    if not parts:
        raise SelectorError(
            f"cssselect cannot handle the CSS selector {selector!r}: it is empty"
        )
    return CompiledSelector(
        selector, parts, dict(translator.extensions), dict(namespaces)
    )


#: Whether the document holds a ``<template>`` (then the expressions keep to
#: template worlds).  libxml2 answers this about twice as fast as lxml's
#: ``iter("template")``, which walks the whole tree whenever the word is in
#: the document's dictionary (most pages).
_HAS_TEMPLATE = etree.XPath("boolean(/descendant::template)")


def has_template(doc: Any, context: Any) -> bool:
    """`_HAS_TEMPLATE` for ``context``, remembered on its soup until an edit.

    Without a ``<template>`` (most pages) the question walks the whole tree,
    which made every ``select()`` cost a walk, however small its answer
    (``row.select_one("td")`` for each row of a table).  An edit through the
    soup that could add one (a tag put in, a tag renamed) makes the soup
    forget the answer.  An element put into the tree with lxml's own API, or
    through another soup over the same tree, is not seen (parsel has no such
    API).
    """
    if doc is None:  # a tag outside any soup: nowhere to remember
        return bool(_HAS_TEMPLATE(context))
    root = context.getroottree().getroot()
    known = doc._template_check
    if known is not None and known[0] is root:
        return known[1]  # type: ignore[no-any-return]
    found = bool(_HAS_TEMPLATE(context))
    doc._template_check = (root, found)
    return found


class CSS:
    """CSS selection scoped to one tag (bs4's ``tag.css``), run as XPath.

    Results are `Tag` objects in document order, as soupsieve returns them.
    ``flags`` and extra keyword arguments (soupsieve options) are accepted
    and ignored.
    """

    def __init__(self, tag: Tag, api: Any = None) -> None:
        self.tag = tag
        self.api = api

    # -- scope ------------------------------------------------------------------
    def _scope(self) -> tuple[Any, bool, Any]:
        """(context element, is the document's root element included, its Document)."""
        tag = self.tag
        doc = tag._doc
        el = tag._el
        if el is None:  # a document soup: its root element is a descendant
            return getattr(tag, "_root", None), True, doc
        return el, False, doc

    def _mode(self, doc: Document | None) -> str:
        return doc._mode if doc is not None else "html"

    def _compiled(
        self, select: str | CompiledSelector, namespaces: Any, context: Any
    ) -> tuple[CompiledSelector, bool]:
        doc = self.tag._doc  # (`_scope`'s third)
        mode = self._mode(doc)
        templates = False
        if mode != "xml" and context is not None:
            templates = has_template(doc, context)
        if namespaces is None:
            namespaces = getattr(self.tag, "_namespaces", None)
        return compile_selector(select, mode, templates, namespaces), templates

    @staticmethod
    def _tk(el: Any, include_self: bool) -> int:
        count = sum(1 for _ in el.iterancestors("template"))
        if include_self and el.tag == "template":
            count += 1
        return count

    def _wrap(self, nodes: list[Any]) -> list[Tag]:
        return wrap_all(nodes, self.tag._doc)

    def _run_select(
        self, select: str | CompiledSelector, namespaces: Any, first: bool
    ) -> list[Any]:
        context, with_self, _doc = self._scope()
        if context is None:
            return []
        compiled, templates = self._compiled(select, namespaces, context)
        form = ("first" if first else "select") + ("_self" if with_self else "")
        run = compiled.run
        if not with_self:
            tk = self._tk(context, True)
            return run(form, templates, context, tk=tk, scope=context)
        # A document: its root element, and any top-level element libxml2
        # put after a stray </html>, each searched with its subtree.
        found: list[Any] = []
        for top in (context, *context.itersiblings()):
            if isinstance(top.tag, str):
                found.extend(run(form, templates, top, tk=0, scope=top))
                if first and found:
                    break
        return found

    # -- bs4's CSS API -------------------------------------------------------------
    def escape(self, ident: str) -> str:
        """Escape a CSS identifier (soupsieve's ``escape``, the CSSOM algorithm)."""
        return escape(ident)

    def compile(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        flags: int = 0,
        **kwargs: Any,
    ) -> CompiledSelector:
        """Translate a selector now; raises `SelectorError` if cssselect cannot."""
        context = self._scope()[0]
        return self._compiled(select, namespaces, context)[0]

    def select_one(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        flags: int = 0,
        **kwargs: Any,
    ) -> Tag | None:
        """The first tag below this one that matches, or None."""
        found = self._run_select(select, namespaces, first=True)
        return self._wrap(found)[0] if found else None

    def select(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        limit: int | None = 0,
        flags: int = 0,
        **kwargs: Any,
    ) -> ResultSet[Tag]:
        """Every tag below this one that matches, in document order (``limit`` < 1: all)."""
        found = self._run_select(select, namespaces, first=limit == 1)
        if limit is not None and limit > 0:
            found = found[:limit]
        return _strainer.ResultSet(None, self._wrap(found))

    def iselect(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        limit: int | None = 0,
        flags: int = 0,
        **kwargs: Any,
    ) -> Iterator[Tag]:
        """`select` as a generator (bs4's ``iselect``)."""
        yield from self.select(select, namespaces, limit, flags, **kwargs)

    def match(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        flags: int = 0,
        **kwargs: Any,
    ) -> bool:
        """Whether this tag matches the selector (a document never does)."""
        el = self.tag._el
        compiled, templates = self._compiled(select, namespaces, el)
        if el is None:
            return False
        xpath = compiled.xpath("match", templates)
        return bool(xpath(el, tk=self._tk(el, False), scope=el))

    def closest(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        flags: int = 0,
        **kwargs: Any,
    ) -> Tag | None:
        """The nearest of this tag and its ancestors that matches, or None."""
        el = self.tag._el
        compiled, templates = self._compiled(select, namespaces, el)
        if el is None:
            return None
        doc = self._scope()[2]
        xpath = compiled.xpath("closest", templates)
        found = xpath(el, tk=self._tk(el, False), scope=el)
        container = doc._el if doc is not None and doc._el is not el else None
        found = [n for n in found if n is not container]
        return self._wrap(found)[0] if found else None

    def filter(
        self,
        select: str | CompiledSelector,
        namespaces: dict[str, str] | None = None,
        flags: int = 0,
        **kwargs: Any,
    ) -> ResultSet[Tag]:
        """This tag's child tags that match."""
        context, with_self, _doc = self._scope()
        if context is None:
            return _strainer.ResultSet(None, [])
        compiled, templates = self._compiled(select, namespaces, context)
        if with_self:  # a document's only child tag is its root element
            xpath = compiled.xpath("match", templates)
            ok = xpath(context, tk=0, scope=context)
            return _strainer.ResultSet(None, self._wrap([context]) if ok else [])
        tk = self._tk(context, True)
        found = compiled.run("filter", templates, context, tk=tk, scope=context)
        return _strainer.ResultSet(None, self._wrap(found))


def escape(ident: str) -> str:
    """Serialize a CSS identifier (CSSOM ``serialize an identifier``, as soupsieve's ``escape``)."""
    out: list[str] = []
    length = len(ident)
    start_dash = length > 0 and ident[0] == "-"
    if length == 1 and start_dash:
        return "\\" + ident
    for index, ch in enumerate(ident):
        code = ord(ch)
        if code == 0:
            out.append("\ufffd")
        elif (
            (0x01 <= code <= 0x1F)
            or code == 0x7F
            or ((index == 0 or (start_dash and index == 1)) and 0x30 <= code <= 0x39)
        ):
            out.append(f"\\{code:x} ")
        elif (
            code in (0x2D, 0x5F)
            or code >= 0x80
            or 0x30 <= code <= 0x39
            or 0x41 <= code <= 0x5A
            or 0x61 <= code <= 0x7A
        ):
            out.append(ch)
        else:
            out.append("\\" + ch)
    return "".join(out)
