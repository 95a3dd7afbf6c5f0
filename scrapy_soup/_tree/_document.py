"""The document level of a soup: bs4's top-level children over lxml's tree.

lxml keeps the doctype in ``docinfo`` and comments around the root as the
root's siblings; bs4 lists all of them as the document's children.
`Document` holds a parsed document's state and rebuilds bs4's list,
emulating what lxml's tree loses: libxml2 invents an HTML 4.0 doctype for a
page without one, and drops the whitespace after ``</html>`` that bs4
keeps.  The `Soup` the user holds (``_soup``) is the Tag API over it.
"""

from __future__ import annotations

import html
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lxml import etree

from . import _view
from ._builder import TreeBuilderInfo, builder_for
from ._identity import remember, wrap
from ._modify import _detach, _index_in, _normalize_arg, _prepare
from ._parse import (
    DOCTYPE_IN_SOURCE,
    DOCUMENT_LEAD,
    END_TAG,
    FIRST_TAG,
    LEADING_NODE,
    LIBXML2_DEFAULT_DOCTYPE,
    TRAILER_TOKEN,
    TRAILER_WINDOW,
    doctype_name,
    html_parser,
    last_html_end,
    trailer_start,
    xml_parser,
)
from ._strings import (
    Comment,
    Doctype,
    NavigableString,
    ProcessingInstruction,
    XMLProcessingInstruction,
)
from ._tag import Tag
from ._text import child_nodes, normalize_text

if TYPE_CHECKING:
    from ._soup import Soup


#: Why a tag cannot be put beside the root, nor the root taken out.
ROOT_ELEMENT_MESSAGE = (
    "lxml keeps exactly one element at the top level of a document: the root "
    "element cannot be taken out and no tag can be put beside it; edit inside "
    "the root element, or use a fragment soup (features='fragment' or "
    "'html.parser')"
)


class Document:
    """A parsed document's state, and its top level as bs4 lists it.

    Every tag and string of a soup points at its document (``_doc``); the
    document does not point back at the `Soup` the user holds, except
    weakly (`soup`).  So a soup nobody holds any more is freed by reference
    counting, at once (`Soup.__del__` then lets go of the wrappers the
    document kept, `release`), while a tag someone still holds keeps its
    document alive, and reaches a soup again through it.
    """

    __slots__ = (
        "__weakref__",
        "_base_url",
        "_builder",
        "_collapses",
        "_decomposed",
        "_el",
        "_facade",
        "_factory",
        "_has_hidden",
        "_kept",
        "_mode",
        "_namespaces",
        "_pending",
        "_root",
        "_segmented",
        "_template_check",
        "_top_doctype",
        "_top_doctype_index",
        "_top_leader",
        "_top_trailer",
        "_truncated",
        "_typed",
        "_verbatim",
        "declared_html_encoding",
        "is_xml",
        "original_encoding",
    )

    _mode: str
    #: Whether the parser's whitespace-only strings (and comments) read
    #: collapsed to "\n" or " " outside ``<pre>``/``<textarea>``, as bs4's
    #: ``endData`` collapses them: every mode but ``"html5"``, where bs4's
    #: html5lib tree builder adds each string as html5lib gives it.
    _collapses: bool
    #: Whether a string takes the class of the string container around it
    #: (`Script` in ``<script>``, ...): bs4's lxml and html.parser builders
    #: (``"html"``, ``"fragment"``); its XML and html5lib builders make
    #: every string a `NavigableString`.
    _typed: bool
    #: The container of a fragment soup's nodes, None for a whole document.
    _el: Any
    #: The soup the user holds (a weak reference), None before there is one.
    _facade: weakref.ref[Soup] | None
    #: The class of that soup, to make another if it is gone (`soup`).
    _factory: type[Soup]
    _builder: TreeBuilderInfo | None
    is_xml: bool
    original_encoding: str | None
    declared_html_encoding: str | None
    _root: Any
    _top_doctype: Doctype | None
    _top_doctype_index: int
    _top_trailer: list[NavigableString | None]
    #: ``(root, source)`` of an adopted tree whose document level (the
    #: ``_top_*`` slots) is not worked out yet; None once it is.
    _pending: tuple[Any, str | None] | None
    #: Strong references to the wrappers made for this document.  The
    #: identity maps are weak, so a wrapper nobody holds would die at once
    #: and the next walk would build it again: holding every wrapper it gave
    #: out, a second walk is only lookups, as in bs4, where every node object
    #: lives as long as the tree.  The entries point back at the document:
    #: `release` breaks that cycle when the user's soup goes.  Keys: an
    #: lxml node for its wrapper, ``(owner, is_tail)`` for a slot's string.
    _kept: dict[Any, Any]
    #: Whether the parser left part of the document out; None: not known
    #: yet (an adopted tree: `Soup.truncated` works it out when read).
    _truncated: bool | None
    _base_url: str | Callable[[], str | None] | None
    #: The namespaces registered on the parsel Selector the soup wraps (the
    #: selector's own dict, so later registrations count): ``tag.selector``
    #: gets them. None for a soup not made from a Selector.
    _namespaces: dict[str, str] | None
    _decomposed: bool
    #: Whether the tree holds a ``<template>`` (CSS selection asks before
    #: each ``select()``): ``(the root asked about, the answer)``; None again
    #: after an edit that could add one (`_select.has_template`).
    _template_check: tuple[Any, bool] | None
    #: The document's children before the root when a stray end tag comes
    #: first (then libxml2 reports the whitespace there): strings and the
    #: doctype, None for the next node lxml kept before the root.  Empty:
    #: lxml's siblings of the root and ``_doctype_index`` say it all.
    _top_leader: list[NavigableString | None]
    #: The view state's flags: `_view` is the only module that sets them.
    #: Text slots ``(element, is_tail)`` an edit wrote, and comment nodes
    #: ``(node, None)`` an edit made: they hold bs4's value as it is, where
    #: text from the parser is read with whitespace-only strings collapsed
    #: (bs4 collapses them once, when it parses).
    _verbatim: set[tuple[Any, bool | None]]
    #: Whether an edit made neighbouring strings in one text slot
    #: (`_view.bind_segments`): the text, search and output paths that
    #: read lxml's slots whole then take the view's strings instead.
    _segmented: bool
    #: Whether a tag of the tree was made ``hidden`` (its wrapper, kept,
    #: says which): output then leaves such tags out (`_output._Renderer`).
    _has_hidden: bool

    @property
    def _beside_lxml(self) -> bool:
        """Whether an edit left what only the soup keeps beside lxml's tree:
        verbatim whitespace, strings kept apart or of a class of their own,
        hidden tags.  lxml's serializer, or a copy of its tree, would lose
        it: output then goes through the soup's renderer, a copy through
        `_view.copy_state`."""
        return bool(self._verbatim) or self._segmented or self._has_hidden

    @property
    def builder(self) -> TreeBuilderInfo | None:
        """The settings of the tree builder this soup stands for (bs4's ``builder``).

        A description of the mode (`TreeBuilderInfo`): ``builder.is_xml``,
        ``string_containers`` and the other settings bs4 users read.  It
        can be replaced (bs4 code sets it to None before pickling).
        """
        try:
            return self._builder
        except AttributeError:  # never set: the mode's
            return builder_for(self._mode)

    @builder.setter
    def builder(self, value: TreeBuilderInfo | None) -> None:
        self._builder = value

    def __init__(
        self,
        mode: str,
        base_url: str | Callable[[], str | None] | None,
        factory: type[Soup],
    ) -> None:
        self._set_mode(mode)
        self._decomposed = False
        self._base_url = base_url
        self._namespaces = None
        self.original_encoding = None
        self._truncated = False
        self.declared_html_encoding = None
        self._pending = None
        self._top_doctype = None
        self._top_doctype_index = 0
        self._top_trailer = []
        self._kept = {}
        self._template_check = None
        self._top_leader = []
        self._verbatim = set()
        self._segmented = False
        self._has_hidden = False
        self._root = None
        self._el = None
        self._facade = None
        self._factory = factory

    def _set_mode(self, mode: str) -> None:
        """Make this a document of ``mode``, with what the mode decides."""
        self._mode = mode
        self.is_xml = mode == "xml"
        self._collapses = mode != "html5"
        self._typed = mode in ("html", "fragment")

    @property
    def soup(self) -> Soup:
        """The `Soup` standing for this document: the user's, or a new one.

        A tag held after its soup was let go reaches a soup again (its
        ``parent`` chain, ``find_parent``): a new `Soup` over the same
        document, with the same state.
        """
        facade = self._facade
        found = facade() if facade is not None else None
        if found is None:
            found = self._factory._of_document(self)
            # Let go of by `release`: the soup's top-level strings are its own.
            for string in self._top_level_strings():
                string._doc = self
        return found

    @property
    def base_url(self) -> str | None:
        """The URL relative links resolve against (None if not known).

        ``Soup(..., base_url=f)`` with a function defers the work of finding
        it (the Scrapy layer's ``<base href>`` lookup walks the whole tree)
        to the first read.
        """
        value = self._base_url
        if callable(value):
            value = self._base_url = value()
        return value

    def _top_level_strings(self) -> list[NavigableString]:
        """The doctype and the strings the document keeps beside the root."""
        found = [x for x in (*self._top_leader, *self._top_trailer) if x is not None]
        if self._top_doctype is not None:
            found.append(self._top_doctype)
        return found

    def release(self) -> None:
        """Let go of what only the soup the user held needed (`Soup.__del__`).

        The wrappers the document kept (`_kept`), deepest first: lxml frees
        an element's proxy by walking up to the nearest ancestor that still
        has one, so freeing them top-down (the collector's order) cost
        O(depth) each, minutes for a 100,000-deep document after a
        ``find_all()``.  Those that hold what the tree does not (a tag made
        ``hidden``, strings an edit keeps apart) stay.  The top-level
        strings stop pointing at the document, so that nothing here points
        back at it: with no tag or string held elsewhere, the document and
        its tree are freed by reference counting, now.  A tag still held
        gets a soup of its own (`soup`): the old one may stand for another
        document now (`Soup.reset`).
        """
        kept = self._kept
        stays: list[tuple[Any, Any]] = []
        while kept:
            key, value = kept.popitem()
            if isinstance(value, Tag):
                if value._hidden:
                    stays.append((key, value))
            elif isinstance(value, NavigableString) and value._seg is not None:
                stays.append((key, value))
        kept.update(reversed(stays))
        for string in self._top_level_strings():
            string._doc = None
        self._facade = None

    def _set_container(self, el: Any) -> None:
        self._set_mode("fragment")
        self._el = el
        facade = self.soup
        facade._el = el
        remember(el, facade)

    def _set_root(self, root: Any, source: str | None, parsed_here: bool) -> None:
        self._root = root
        if root is None or self.is_xml:
            if root is not None:
                self._top_doctype = self._xml_doctype(root)
            return
        if not self._collapses:
            # An html5 mode tree holds its document level (the page's
            # doctype or none, the comments around <html>: `_html5`), and
            # libxml2's rules for the source (`_trailer_from`) do not apply.
            source, parsed_here = None, True
        if not parsed_here:
            # A tree parsed elsewhere (a Scrapy response's): its document
            # level is worked out on first use.  Most spiders only search,
            # and it cost more than the rest of wrapping the tree (the first
            # ``response.soup`` after ``response.css()``: `bench_first_soup.py`).
            self._pending = (root, source)
            return
        self._document_level(root, source, parsed_here)

    def _settle(self) -> None:
        """Work out the document level of an adopted tree (see `_set_root`)."""
        pending = self._pending
        if pending is not None:
            self._pending = None
            self._document_level(pending[0], pending[1], parsed_here=False)

    def _document_level(self, root: Any, source: str | None, parsed_here: bool) -> None:
        """The doctype, and bs4's children before and after the root."""
        # Where the first start tag is: what comes before is the document
        # level (doctype, comments, stray end tags).
        head_end = len(source or "")
        if source is not None:
            first_tag = FIRST_TAG.search(source)
            if first_tag is not None:
                head_end = first_tag.start()
            # (Text before any tag starts the document too: ``a</html>``.)
            lead = DOCUMENT_LEAD.match(source, 0, head_end)
            if lead is not None and lead.end() < head_end:
                head_end = lead.end()
        info = root.getroottree().docinfo
        name, public_id, system_url = (
            doctype_name(info),
            info.public_id,
            info.system_url,
        )
        if parsed_here:
            has_doctype = bool(info.doctype)
        elif source is not None:
            has_doctype = DOCTYPE_IN_SOURCE.search(source, 0, head_end) is not None
            if (
                has_doctype
                and (name, public_id, system_url) == LIBXML2_DEFAULT_DOCTYPE
                and public_id.lower() not in source[:head_end].lower()
            ):
                # The parser (parsel's keeps libxml2's default) dropped the
                # page's doctype after a stray end tag and invented its own:
                # the leader's events give the page's.
                has_doctype = False
        else:
            # No source at hand: only libxml2's invented doctype is dropped.
            has_doctype = (name, public_id, system_url) != LIBXML2_DEFAULT_DOCTYPE
        if has_doctype and info.doctype:
            self._top_doctype = Doctype._of_document(name, public_id, system_url, self)
            if source is not None:
                # Comments (and ``<?...>``, which libxml2 reads as comments)
                # before the doctype stay before it in bs4's list.
                found = DOCTYPE_IN_SOURCE.search(source)
                head = source[: found.start()] if found else ""
                self._top_doctype_index = len(LEADING_NODE.findall(head))
        if source is not None:
            trailer = self._trailer_from(source, head_end)
            # Each None stands for one of the comments lxml kept last after
            # the root; when they are not there, libxml2 put them elsewhere
            # (inside the root, or in a second top-level element).
            nodes = sum(x is None for x in trailer)
            last = list(root.itersiblings())[::-1][:nodes]
            if len(last) == nodes and not any(isinstance(n.tag, str) for n in last):
                self._top_trailer = trailer
            self._top_leader = self._leader_from(source, head_end, root)

    def _leader_from(
        self, source: str, head_end: int, root: Any
    ) -> list[NavigableString | None]:
        """bs4's children before the root, when a stray end tag or a
        character reference comes first.

        After an end tag with nothing open, libxml2 reports the whitespace
        before the root (which it otherwise skips; whitespace written as a
        character reference it always reports) and a doctype its tree
        drops; bs4 keeps both.  The same events, from lxml's target parser
        on the text before the first start tag, say where they go.
        """
        if END_TAG.search(source, 0, head_end) is None and (
            source.find("&", 0, head_end) < 0  # (whitespace by reference)
        ):
            return []
        head = source[:head_end]
        soup = self
        events: list[str | None] = []
        doctypes: list[Doctype] = []  # one object each, as bs4 makes

        class Collector:
            started = False

            def start(self, tag: str, attrib: Any) -> None:
                self.started = True

            def data(self, text: str) -> None:
                if self.started:
                    return
                if events and isinstance(events[-1], str) and events[-1] != "":
                    events[-1] += text  # bs4 joins neighbouring data
                else:
                    events.append(text)

            def comment(self, text: str) -> None:
                if not self.started:
                    events.append(None)

            def pi(self, target: str, data: str | None) -> None:
                if not self.started:
                    events.append(None)

            def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
                if self.started:
                    return
                if soup._top_doctype is None:
                    soup._top_doctype = Doctype._of_document(name, pubid, system, soup)
                doctypes.append(
                    Doctype._of_document(name, pubid, system, soup)
                    if doctypes
                    else soup._top_doctype
                )
                events.append("")  # the doctype's place

            def close(self) -> None:
                return None

        collector: Any = Collector()
        parser = html_parser(None, collector)
        try:
            parser.feed(head)
            parser.close()
        except (etree.XMLSyntaxError, UnicodeEncodeError):
            return []
        preceding = sum(1 for _ in root.itersiblings(preceding=True))
        if events.count(None) != preceding:
            return []  # not the picture lxml's tree gives: keep that one
        leader: list[NavigableString | None] = []
        next_doctype = iter(doctypes)
        for event in events:
            if event is None:
                leader.append(None)
            elif event == "":
                leader.append(next(next_doctype))
            else:
                value = normalize_text(event, None, False)
                leader.append(NavigableString._synthetic(value, soup))
        return leader

    def _xml_doctype(self, root: Any) -> Doctype | None:
        info = root.getroottree().docinfo
        if not info.doctype:
            return None
        return Doctype._of_document(
            doctype_name(info), info.public_id, info.system_url, self
        )

    def _rootless_nodes(
        self, markup: str | bytes, xml: bool = False, encoding: str | None = None
    ) -> list[NavigableString | None]:
        """The comments and PIs of a document without elements (lxml keeps none).

        ``xml``, ``encoding``: read as XML, as `_parse_xml_bytes` read it.
        """
        pi_class = XMLProcessingInstruction if xml else ProcessingInstruction

        found: list[NavigableString | None] = []
        text: list[str] = []  # character data since the last node
        soup = self

        def flush() -> None:
            # Whitespace only (text would have made elements), from character
            # references: literal whitespace there is not reported.
            if text:
                value = normalize_text("".join(text), None, xml)
                found.append(NavigableString._synthetic(value, soup))
                text.clear()

        class Collector:
            def data(self, data: str) -> None:
                text.append(data)

            def comment(self, comment: str) -> None:
                flush()
                value = normalize_text(comment, None, False)
                found.append(Comment._synthetic(value, soup))

            def pi(self, target: str, data: str | None) -> None:
                flush()
                found.append(pi_class._synthetic(f"{target} {data or ''}", soup))

            def doctype(self, name: str, pubid: str | None, system: str | None) -> None:
                flush()
                soup._top_doctype = Doctype._of_document(name, pubid, system, soup)

            def close(self) -> None:
                flush()

        target: Any = Collector()
        parser: Any = xml_parser(encoding, target) if xml else html_parser(None, target)
        parser.feed(markup)
        parser.close()
        return found

    def _trailer_from(self, source: str, head_end: int) -> list[NavigableString | None]:
        """What bs4 keeps after ``</html>``: whitespace strings and comments.

        None stands for the next comment lxml kept as a sibling of the root.
        Anything else after ``</html>`` went into the tree itself, so the
        trailer stops there.
        """
        # Only the end of the page can hold a trailer: scanning the whole
        # text for the last </html> would cost more than wrapping the tree.
        window = len(source) - TRAILER_WINDOW if len(source) > TRAILER_WINDOW else 0
        end = last_html_end(source, window)
        if end is None:
            return []
        end = trailer_start(source, end, window)
        if end.start() < head_end:
            return []  # a stray </html> before the document started
        tail = source[end.end() :]
        items: list[NavigableString | None] = []
        space = ""  # whitespace so far: a stray </html> does not end it
        pos = 0
        while pos < len(tail):
            match = TRAILER_TOKEN.match(tail, pos)
            if match is None:
                break
            pos = match.end()
            if match.group(1) is not None:
                space += match.group(1)
                continue
            if match.group(2) is None:
                continue  # a stray end tag: nothing
            if space:
                items.append(self._collapsed(space))
                space = ""
            items.append(None)
        if space:
            items.append(self._collapsed(space))
        return items

    def _collapsed(self, space: str) -> NavigableString:
        """A whitespace-only string of the trailer (as written: character
        references too), as bs4 collapses it."""
        if "&" in space:
            space = html.unescape(space)
        return NavigableString._synthetic("\n" if "\n" in space else " ", self)

    # -- the document level ---------------------------------------------------------
    # Read through these, which work out an adopted tree's document level first.
    @property
    def _doctype(self) -> Doctype | None:
        if self._pending is not None:
            self._settle()
        return self._top_doctype

    @property
    def _doctype_index(self) -> int:
        if self._pending is not None:
            self._settle()
        return self._top_doctype_index

    @property
    def _trailer(self) -> list[NavigableString | None]:
        if self._pending is not None:
            self._settle()
        return self._top_trailer

    @property
    def _leader(self) -> list[NavigableString | None]:
        if self._pending is not None:
            self._settle()
        return self._top_leader

    def _top_children(self) -> list[Any]:
        if self._el is not None:
            return child_nodes(self._el, self)
        root = self._root
        if root is None:
            orphans = [x for x in self._trailer if x is not None]
            return [self._doctype, *orphans] if self._doctype is not None else orphans
        if root.getparent() is not None:
            return [wrap(root, self)]
        out: list[Any] = [
            wrap(n, self) for n in reversed(list(root.itersiblings(preceding=True)))
        ]
        if self._leader:
            it = iter(out)
            out = [next(it) if x is None else x for x in self._leader]
        elif self._doctype is not None:
            out.insert(min(self._doctype_index, len(out)), self._doctype)
        out.append(wrap(root, self))
        following = [wrap(n, self) for n in root.itersiblings()]
        if self._trailer:
            # The trailer's None stand for the last nodes (checked at build).
            split = len(following) - sum(x is None for x in self._trailer)
            out.extend(following[:split])
            it = iter(following[split:])
            out.extend(next(it) if x is None else x for x in self._trailer)
        else:
            out.extend(following)
        return out

    def _is_top_level(self, el: Any) -> bool:
        root = self._root
        if root is None or self._el is not None:
            return False
        if el is root:
            return True
        if el.getparent() is not None or root.getparent() is not None:
            return False
        # A node taken out of the tree keeps lxml's document (and so its
        # getroottree()): only the root's real siblings are top level.
        return any(n is el for n in root.itersiblings(preceding=True)) or any(
            n is el for n in root.itersiblings()
        )

    def _is_top_level_string(self, string: NavigableString) -> bool:
        return (
            string is self._doctype
            or any(string is x for x in self._trailer)
            or any(string is x for x in self._leader)
        )

    def _top_level_sibling(self, node: Any, delta: int) -> Any:
        children = self._top_children()
        for i, child in enumerate(children):
            if child is node:
                j = i + delta
                return children[j] if 0 <= j < len(children) else None
        return None

    # -- editing the top level -------------------------------------------------
    def _top_level(self) -> tuple[list[Any], list[Any], list[Any]]:
        """The document's children, and its top level made explicit for an edit.

        `_top_leader` and `_top_trailer` become complete: one entry per child
        of the document before (after) the root, a string of the soup's own
        (the doctype, whitespace) or None for the next comment or PI lxml
        keeps beside the root.  `_top_children` reads them back unchanged.
        """
        children = self._top_children()
        r = _index_in(children, wrap(self._root, self))
        assert r is not None  # (the root is always a child of the document)
        self._top_leader = [None if c._el is not None else c for c in children[:r]]
        self._top_trailer = [
            None if c._el is not None else c for c in children[r + 1 :]
        ]
        return children, self._top_leader, self._top_trailer

    @staticmethod
    def _top_level_entry(
        at: int, leader: list[Any], trailer: list[Any]
    ) -> tuple[list[Any], int]:
        """The list (leader or trailer) and index of position ``at`` of the children."""
        return (leader, at) if at <= len(leader) else (trailer, at - len(leader) - 1)

    def _remove_top_level(self, node: Any) -> None:
        """Take a child of the document out (bs4's ``extract`` there).

        Comments and processing instructions are lxml's siblings of the
        root: moved into a scratch element and dropped.  The doctype and the
        whitespace bs4 keeps there are the soup's own strings.  The root
        element cannot go: lxml keeps no document without one.
        """
        if node._el is not None and node._el is self._root:
            raise ValueError(ROOT_ELEMENT_MESSAGE)
        children, leader, trailer = self._top_level()
        at = _index_in(children, node)
        assert at is not None  # (the caller checked it is a child of the document)
        entries, k = self._top_level_entry(at, leader, trailer)
        del entries[k]
        if node is self._top_doctype:
            self._top_doctype = None
        if node._el is not None:  # lxml unlinks a node it moves
            scratch = etree.Element("scratch")
            scratch.append(node._el)
            scratch.remove(node._el)

    def _edit_top_level(self, anchor: Any, args: Any, after: bool) -> list[Any]:
        """``insert_before``/``insert_after`` beside ``anchor``, a child of the document.

        A comment or PI goes beside the root in lxml's tree, a string into
        the soup's own lists.  A tag cannot: lxml's document has one element
        at its top level.
        """
        items = [_normalize_arg(arg) for arg in args]
        if any(isinstance(item, Tag) for item in items):
            raise ValueError(ROOT_ELEMENT_MESSAGE)
        for item in items:
            _detach(item)
            item = _prepare(item, self)
            children, leader, trailer = self._top_level()
            at = _index_in(children, anchor)
            assert at is not None  # (``anchor``'s parent is the document)
            at += after
            entries, k = self._top_level_entry(at, leader, trailer)
            if item._el is None:
                item._doc = self
                entries.insert(k, item)
            else:
                # lxml puts it before the next node of the top level, or
                # after the last one.
                nodes = [
                    (i, c._el) for i, c in enumerate(children) if c._el is not None
                ]
                following = [el for i, el in nodes if i >= at]
                if following:
                    following[0].addprevious(item._el)
                else:
                    nodes[-1][1].addnext(item._el)
                entries.insert(k, None)
                _view.adopt(item, self)
            if after:
                anchor = item
        return items
