"""The document node, `Soup` (alias `BeautifulSoup`): building a soup.

From text or bytes (parsed here, with bs4's encoding detection), from a
file, or from a tree already parsed (a Scrapy response's parsel tree: no
second parse).  `DocumentNode` is the Tag API of a whole document over
its state, a `_document.Document`, which the tags and strings point at.
"""

from __future__ import annotations

import copy
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from typing import IO, TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from lxml import etree

from . import _deep
from ._builder import TreeBuilderInfo, warn_if_xml
from ._classes import classes, extensions
from ._document import Document
from ._encodings import decode_excluding
from ._fragment_scan import fragment_container
from ._html5 import parse_html5_document
from ._identity import Ref, _ref, remember, wrap
from ._node import PageElement
from ._parse import (
    ATTRIBUTE_REDEFINED,
    FEATURES,
    REPORTED_ERRORS,
    RESOURCE_LIMIT,
    UNDECLARED_ENTITY,
    TruncatedDocumentWarning,
    drop_repeated_attributes,
    html_parser,
    mode_for,
    replace_surrogate_references,
    utf8,
    xml_parser,
)
from ._parse_only import strain
from ._strainer import ResultSet
from ._strings import (
    NavigableString,
)
from ._tag import Tag
from ._text import iter_descendants
from ._xml_entities import expand_internal_entities, replace_entity_references

if TYPE_CHECKING:
    from typing import TypeAlias

    import parsel
    from typing_extensions import Self

    from ._attrs import AttributeValueList, AttrsView
    from ._strainer import ElementFilter

    #: What a soup is built from: text, bytes (the encoding detected as bs4
    #: does), a file, or a tree already parsed (no second parse).
    Markup: TypeAlias = (
        str
        | bytes
        | IO[str]
        | IO[bytes]
        | etree._Element
        | etree._ElementTree
        | parsel.Selector
        | parsel.SelectorList[Any]
    )


_T = TypeVar("_T")


class _OfDocument(Generic[_T]):
    """An attribute of the soup that is its `Document`'s, read and set there."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, soup: None, owner: type) -> _OfDocument[_T]: ...
    @overload
    def __get__(self, soup: DocumentNode, owner: type) -> _T: ...
    def __get__(self, soup: DocumentNode | None, owner: type) -> _T | _OfDocument[_T]:
        if soup is None:
            return self
        return getattr(soup._doc, self.name)  # type: ignore[no-any-return]

    def __set__(self, soup: DocumentNode, value: _T) -> None:
        setattr(soup._doc, self.name, value)


class DocumentNode(Tag):
    """A tag standing for a whole document: the Tag API over its `Document`."""

    __slots__ = ()

    ROOT_TAG_NAME: ClassVar[str] = "[document]"

    _doc: Document

    # -- the document's state, read and set through the soup ------------------
    #: Whether the document is XML (bs4's ``is_xml``; it may be set).
    is_xml = _OfDocument[bool]()
    #: The encoding the bytes were decoded from (None for text).
    original_encoding = _OfDocument[str | None]()
    #: The encoding a ``<meta>`` of the page declares (bs4's).
    declared_html_encoding = _OfDocument[str | None]()
    #: The settings of the tree builder this soup stands for (bs4's ``builder``).
    builder = _OfDocument[TreeBuilderInfo | None]()
    #: The document's mode: ``"html"``, ``"xml"``, ``"fragment"`` or ``"html5"``.
    _mode = _OfDocument[str]()
    #: The document's root element (None for a fragment or an empty document).
    _root = _OfDocument[Any]()

    @property  # (a class attribute on Tag)
    def _decomposed(self) -> bool:  # type: ignore[override]
        return self._doc._decomposed

    # -- Tag API on the document node ---------------------------------------------
    @property
    def name(self) -> str:
        """Always ``"[document]"``."""
        return self.ROOT_TAG_NAME

    @name.setter
    def name(self, value: str) -> None:
        raise AttributeError("The document node cannot be renamed.")

    # (A plain dict where Tag's is a view: an override mypy flags.)
    @property  # type: ignore[override]
    def attrs(self) -> AttrsView | dict[str, str | AttributeValueList]:
        """The document node has no attributes (a fragment's: its container's)."""
        if self._el is not None:
            return super().attrs
        return {}

    @attrs.setter
    def attrs(self, value: Mapping[str, object] | None) -> None:
        raise AttributeError("The document node cannot have attributes.")

    @property
    def prefix(self) -> str | None:
        """None: the document node has no prefix."""
        return None

    @property
    def namespace(self) -> str | None:
        """None: the document node has no namespace."""
        return None

    @property
    def parent(self) -> Tag | None:
        """None: the document has no parent."""
        return None

    @property
    def next_sibling(self) -> PageElement | None:
        """None."""
        return None

    @property
    def next_element(self) -> PageElement | None:
        """None: bs4 never links the document node into the element chain."""
        return None

    @property
    def previous_sibling(self) -> PageElement | None:
        """None."""
        return None

    @property
    def can_be_empty_element(self) -> bool:
        """False in HTML (as bs4's document node), True in XML."""
        return self.is_xml

    @property
    def is_empty_element(self) -> bool:
        """Whether the document is empty and may print as an empty element."""
        return self.is_xml and not self._contents_list()

    @property
    def sourceline(self) -> int | None:
        """None."""
        return None

    @sourceline.setter
    def sourceline(self, value: int | None) -> None:
        raise AttributeError("a document has no source line")

    def _contents_list(self) -> list[PageElement]:
        if self._el is not None:
            return super()._contents_list()
        return self._doc._top_children()

    @property
    def contents(self) -> list[PageElement]:
        """The top-level nodes: doctype, comments, the root element, ..."""
        return self._contents_list()

    @property
    def children(self) -> Iterator[PageElement]:
        """An iterator over `contents`."""
        return iter(self._contents_list())

    @property
    def descendants(self) -> Iterator[PageElement]:
        """Every node of the document, in document order."""
        if self._el is not None:
            return iter_descendants(self._el, self._doc)
        # The nodes go from each part's iterator to the caller through
        # `chain`, in C: a generator yielding from the walks resumed once
        # more per node.
        return chain.from_iterable(self._document_parts())

    def _document_parts(self) -> Iterator[Iterable[PageElement]]:
        for child in self._doc._top_children():
            yield (child,)
            if isinstance(child, Tag):
                yield iter_descendants(child._el, self._doc)

    def __len__(self) -> int:
        return len(self._contents_list())

    # (Type checkers see the inherited signatures, with their overloads.)
    if not TYPE_CHECKING:

        def find_all_next(self, *args: Any, **kwargs: Any) -> Any:
            """Nothing: bs4 never links the document node into the element chain."""
            return ResultSet(None, [])

        def find_next(self, *args: Any, **kwargs: Any) -> Any:
            """None: bs4 never links the document node into the element chain."""
            return None

        findAllNext = find_all_next
        findNext = find_next

    def _set_string(self, value: str) -> None:
        if self._el is not None:
            super()._set_string(value)
            return
        raise NotImplementedError(
            "cannot replace the whole document with a string: use a fragment soup"
        )


class Soup(DocumentNode):
    """A parsed document: bs4's ``BeautifulSoup``, as a view over lxml.

    >>> soup = Soup("<p>foo bar</p><p>baz<p>yet another graf</p>")
    >>> soup.body.contents
    [<p>foo bar</p>, <p>baz</p>, <p>yet another graf</p>]
    >>> Soup("<b class='boldest'>x</b>").b["class"]
    ['boldest']
    """

    __slots__ = ()

    @overload
    def __new__(  # type: ignore[misc]
        cls, markup: parsel.SelectorList[Any], *args: Any, **kwargs: Any
    ) -> ResultSet[Tag]: ...
    @overload
    def __new__(cls, markup: Markup = "", *args: Any, **kwargs: Any) -> Self: ...
    def __new__(cls, markup: object = "", *args: Any, **kwargs: Any) -> Any:
        """A parsel ``SelectorList`` gives its elements' Tags, not a new soup.

        ``Soup(response.css("p"))`` is a `ResultSet` of the Tags
        ``response.soup.find_all("p")`` gives: those of the soup already
        made over the same tree (`tags_of_selectors`).  (pyright reads the
        overloads; mypy reads ``__init__`` and types the call as a `Soup`:
        typed code can call ``soup_of(selector_list)``, typed precisely.)
        """
        if isinstance(markup, list) and hasattr(markup, "xpath"):
            return tags_of_selectors(markup)
        return super().__new__(cls)

    def __init__(
        self,
        markup: Markup = "",
        features: str | Sequence[str] | None = None,
        builder: object = None,
        parse_only: ElementFilter | None = None,
        from_encoding: str | None = None,
        exclude_encodings: Iterable[str] | None = None,
        element_classes: dict[type[PageElement], type[PageElement]] | None = None,
        *,
        base_url: str | Callable[[], str | None] | None = None,
        **kwargs: Any,
    ) -> None:
        if builder is not None and features is None and isinstance(builder, str):
            features = builder
        if parse_only is not None and parse_only.excludes_everything:
            warnings.warn(
                f"The given value for parse_only will exclude everything: {parse_only}",
                UserWarning,
                stacklevel=3,  # bs4's (it points at the caller's caller)
            )
        # bs4 hands other keywords to its builder; lxml's takes huge_tree,
        # which is how libxml2 is always run here.
        kwargs.pop("huge_tree", None)
        if kwargs:
            raise TypeError(
                f"__init__() got unexpected keyword argument(s): {', '.join(kwargs)}"
            )
        # The usual spellings in one look-up (a first .soup is ~10 us in all).
        mode = FEATURES.get(features) if type(features) is str else None
        doc = Document(
            mode if mode is not None else mode_for(features), base_url, type(self)
        )
        self._doc = doc
        self._el = None
        self._hidden = True
        doc._facade = weakref.ref(self)
        if not isinstance(markup, (str, bytes)) and hasattr(markup, "read"):
            markup = markup.read()
        if doc._mode != "xml" and isinstance(markup, (str, bytes)):
            warn_if_xml(markup, doc._mode)
        if exclude_encodings and isinstance(markup, bytes) and not doc.is_xml:
            text, encoding = decode_excluding(markup, from_encoding, exclude_encodings)
            self._parse(text, None)
            doc.original_encoding = encoding
        elif isinstance(markup, (str, bytes)):
            self._parse(markup, from_encoding)
        else:
            self._adopt(markup)
        _register(doc)
        if parse_only is not None:
            strain(self, parse_only)

    @classmethod
    def _of_document(cls, doc: Document) -> Soup:
        """A new soup over ``doc``, whose soup was let go (`Document.soup`)."""
        soup = cls.__new__(cls)
        soup._doc = doc
        soup._el = doc._el
        soup._hidden = True
        doc._facade = weakref.ref(soup)
        if doc._el is not None:
            remember(doc._el, soup)
        return soup

    # -- building ---------------------------------------------------------------
    def _parse(self, markup: str | bytes, from_encoding: str | None) -> None:
        doc = self._doc
        if isinstance(markup, bytes):
            if doc.is_xml:
                self._parse_xml_bytes(markup, from_encoding)
                return
            from w3lib.encoding import html_to_unicode

            header = f"text/html; charset={from_encoding}" if from_encoding else None
            encoding, markup = html_to_unicode(header, markup)
            doc.original_encoding = encoding
        elif (
            markup
            and markup[0] == "\N{BYTE ORDER MARK}"
            and doc._mode not in ("fragment", "html5")
        ):
            # libxml2 and bs4's lxml builder drop a leading BOM; bs4's
            # html.parser (the fragment mode's model) and html5lib keep it
            # as text (which starts the body there).
            markup = markup[1:]
        markup, data = utf8(markup)
        if doc.is_xml:
            # Text is decoded already: its declaration's encoding (say
            # euc-jp) no longer applies, as bs4 ignores it for a str.
            self._parse_xml_bytes(data, "utf-8", forced=True)
            doc.original_encoding = None
            return
        if doc._mode == "fragment":
            container, problems = fragment_container(data)
            if problems:
                self._truncate(problems, stacklevel=4)
            doc._set_container(container)
            return
        if doc._mode == "html5":
            # The document level is in the tree (`_html5.parse_html5`).
            html, doc._top_doctype_index = parse_html5_document(markup, data)
            doc._set_root(html, None, parsed_here=True)
            return
        parser = html_parser("utf-8")
        root: Any = None
        if data:
            parser.feed(data)
            try:
                root = parser.close()
            except etree.XMLSyntaxError:
                root = None
        if root is not None:
            self._keep_deep(root, data, b"", "utf-8")
        doc._set_root(root, markup, parsed_here=True)
        if root is None and markup.strip():
            doc._top_trailer = doc._rootless_nodes(markup)

    def _keep_deep(
        self, root: Any, data: bytes, prefix: bytes, encoding: str | None
    ) -> bool:
        """Rebuild a tree libxml2 stopped at its depth limit (see `_deep`).

        ``encoding``: the one the native parse was given.  True if it was
        stopped there.
        """
        if not _deep.depth_capped(root):
            return False
        chunks = [prefix, data] if prefix else [data]
        make = xml_parser if self._doc.is_xml else html_parser
        problems = _deep.rebuild(root, chunks, lambda target: make(encoding, target))
        if problems:
            self._truncate(problems)
        return True

    def _parse_xml_bytes(
        self, data: bytes, encoding: str | None, forced: bool = False
    ) -> None:
        doc = self._doc
        data = replace_surrogate_references(data)
        problems: list[str] = []
        given = encoding if forced else None  # what the parsers are told
        if b"<!ENTITY" in data:
            data, problems = expand_internal_entities(data, xml_parser(given))
        parser = xml_parser(given)
        root: Any = None
        rebuilt = False
        if data.strip():
            try:
                root = etree.fromstring(data, parser)
            except etree.XMLSyntaxError:
                root = None
        if root is not None:
            info = root.getroottree().docinfo
            doc.original_encoding = (info.encoding or encoding or "utf-8").lower()
            # The error log says whether the tree needs either repair, unless
            # libxml2 stopped reporting (it keeps the first 100 errors).
            log = parser.error_log
            full = len(log) >= REPORTED_ERRORS
            errors = {e.type for e in log}
            if (full or RESOURCE_LIMIT in errors) and self._keep_deep(
                root, data, b"", given
            ):
                rebuilt = True
            if full or ATTRIBUTE_REDEFINED in errors:
                drop_repeated_attributes(root)
            # Reference nodes exist only for undeclared or declared entities.
            if full or UNDECLARED_ENTITY in errors or b"<!ENTITY" in data:
                replace_entity_references(root)
        limits = [e for e in parser.error_log if e.type == RESOURCE_LIMIT]
        if rebuilt:
            limits = [e for e in limits if "depth" not in e.message]
        problems += [
            f"libxml2 stopped at line {e.line}: {e.message.strip()}" for e in limits
        ]
        doc._set_root(root, None, parsed_here=True)
        if root is None and data.strip():
            doc._top_trailer = doc._rootless_nodes(data, xml=True, encoding=given)
        if problems:
            self._truncate(problems)

    @property
    def truncated(self) -> bool:
        """Whether the parser left part of the document out.

        A `TruncatedDocumentWarning` says what, once.  For a tree parsed
        here it is known at once; for a tree adopted from elsewhere (a Scrapy
        response's) it is worked out when first read, which only costs a walk
        down the last children: the Scrapy layer reads it to count
        ``soup/documents_truncated``.  bs4 has no such attribute.
        """
        doc = self._doc
        known = doc._truncated
        if known is None:
            known = doc._truncated = False
            root = doc._root if doc._el is None else doc._el
            if root is not None and _deep.depth_capped(root.getroottree().getroot()):
                self._truncate(
                    [
                        "the tree stops at the parser's depth limit "
                        f"({_deep.MAX_DEPTH} levels, {_deep.DEFAULT_MAX_DEPTH} without "
                        "huge_tree): what was deeper and after it "
                        "is not in it (parse the text with Soup() to keep it)"
                    ],
                    stacklevel=3,
                )
                known = True
        return known

    def _truncate(self, problems: list[str], stacklevel: int = 5) -> None:
        """Mark the soup truncated and say why (`TruncatedDocumentWarning`)."""
        self._doc._truncated = True
        warnings.warn(
            "part of the document was left out: " + "; ".join(problems),
            TruncatedDocumentWarning,
            stacklevel=stacklevel,
        )

    def _adopt(self, markup: Any) -> None:
        """Wrap an existing tree: a parsel Selector, an lxml element or tree."""
        source: str | None = None
        root = getattr(markup, "root", None)
        if root is not None and hasattr(markup, "xpath") and hasattr(markup, "type"):
            # A parsel (or Scrapy) Selector: reuse its tree, read its source.
            if markup.type == "xml" and self._doc._mode == "html":
                self._doc._set_mode("xml")
            text = getattr(markup, "_text", None)
            source = text if isinstance(text, str) else None
            namespaces = getattr(markup, "namespaces", None)
            if isinstance(namespaces, dict):
                self._doc._namespaces = namespaces
            markup = root
        if isinstance(markup, etree._ElementTree):
            markup = markup.getroot()
        if not isinstance(markup, etree._Element):
            # bs4's message first (code matches on it), then what else works here.
            raise TypeError(
                f"Incoming markup is of an invalid type: {markup!r}. Markup must "
                "be a string, a bytestring, or an open filehandle. (An lxml "
                "element or tree, or a parsel Selector, is wrapped as it is.)"
            )
        doc = self._doc
        doc._truncated = None  # known when first read (`truncated`)
        if doc._mode == "fragment":
            doc._set_container(markup)
            return
        if markup.getparent() is not None:
            # A subtree: the soup lists just this element.
            doc._root = markup
            return
        doc._set_root(markup, source, parsed_here=False)

    def __del__(self) -> None:
        # Nothing points at this object but the user's references (the
        # document's is weak): it goes when they go, and the document lets
        # go of the wrappers it kept for it.  A soup made again for a tag
        # still held (`Document.soup`) replaced it as the document's.
        doc = getattr(self, "_doc", None)
        if doc is not None and doc._facade is not None and doc._facade() is self:
            doc.release()

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other)

    def __hash__(self) -> int:
        return id(self)

    def __copy__(self) -> Soup:
        clone = type(self)(self.decode(), "xml" if self.is_xml else self._doc._mode)
        # bs4 copies what the parse found out about the bytes, too.
        clone.original_encoding = self.original_encoding
        clone.declared_html_encoding = self.declared_html_encoding
        if self._doc._beside_lxml:
            _copy_edited_contents(self, clone)
        return clone

    def __getstate__(self) -> dict[str, Any]:
        return {
            "markup": self.decode(),
            "features": self._doc._mode,
            "base_url": self.base_url,
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        Soup.__init__(
            self, state["markup"], state["features"], base_url=state["base_url"]
        )

    def __reduce__(self) -> Any:
        return (
            _rebuild,
            (self.decode(eventual_encoding=None), self._doc._mode, self.base_url),
        )

    @property
    def base_url(self) -> str | None:
        """The URL relative links resolve against (None if not known).

        ``Soup(..., base_url=f)`` with a function defers the work of finding
        it (the Scrapy layer's ``<base href>`` lookup walks the whole tree)
        to the first read.
        """
        return self._doc.base_url

    @base_url.setter
    def base_url(self, value: str | None) -> None:
        self._doc._base_url = value

    def decompose(self) -> None:
        """Destroy the document at once (bs4's ``decompose`` of the soup).

        The soup is left empty and marked decomposed.  Its document lets go
        of every wrapper it kept, those with state of their own too (which
        `reset` keeps for a tag someone still holds).  Tags and strings
        someone still holds keep their part of the tree.
        """
        old = self._doc
        self.reset()
        old._kept.clear()
        self._doc._decomposed = True

    def reset(self) -> None:
        """Empty the document (bs4's ``reset``)."""
        # The old tree goes with its wrappers, unless someone holds one of
        # them: that one's document then makes a soup of its own.
        old = self._doc
        old.release()
        Soup.__init__(self, "", old._mode, base_url=old.base_url)

    def main_content(self, **options: Any) -> Soup | None:
        """The page's main content as a new fragment soup, or None (not in bs4).

        `scrapy_soup.main_content` on this soup, with the same keyword
        options (``comments``, ``tables``, ``images``, ``links``, ``favor``,
        ``base_url``): this soup is read, never changed.
        """
        extract = extensions.main_content
        if extract is None:  # only if scrapy_soup.markup was never imported
            raise RuntimeError("import scrapy_soup.markup to use main_content()")
        result: Soup | None = extract(self, **options)
        return result

    def new_string(
        self, s: str, subclass: type[NavigableString] | None = None
    ) -> NavigableString:
        """A new detached string, of ``subclass`` if given (bs4's ``new_string``)."""
        cls = subclass or NavigableString
        return cls(s)


def _copy_edited_contents(source: Soup, clone: Soup) -> None:
    """Make ``clone``'s contents copies of ``source``'s nodes, as bs4's deep
    copy does, where the text it was parsed from does not say everything an
    edit made: whitespace kept as written, strings kept apart or of a class
    of their own, hidden tags (`Tag.__copy__` copies those)."""
    if source._doc._mode == "fragment":
        old: Any = source
        new: Any = clone
    else:
        old_root, new_root = source._doc._root, clone._doc._root
        if old_root is None or new_root is None:
            return
        old, new = wrap(old_root, source._doc), wrap(new_root, clone._doc)
        new.hidden = old.hidden
    new.clear()
    for child in old.contents:
        new.append(copy.copy(child))


#: The live document over each tree, by the tree's top element (the
#: first soup made over it, while it lives): how a parsel ``SelectorList``
#: finds the soup a Scrapy response already has, so that its Tags are that
#: soup's (same document, same base URL, same ``parent`` chain).
_DOCUMENTS: dict[Any, Ref] = {}


def _register(doc: Document) -> None:
    """Make ``doc`` the document `tags_of_selectors` finds for its tree."""
    el = doc._el
    if el is not None:  # a fragment: its container is inside the tree
        top = el.getroottree().getroot()
    else:
        top = doc._root
        if top is None or top.getparent() is not None:
            return  # empty, or a subtree's soup: not the whole tree's
    ref = _DOCUMENTS.get(top)
    if ref is not None and ref() is not None:
        return
    _DOCUMENTS[top] = _ref(doc, _forget_document, top)


def document_viewing(top: Any) -> Document | None:
    """The live document a soup made over the tree whose top element is ``top``."""
    ref = _DOCUMENTS.get(top)
    return ref() if ref is not None else None


def _forget_document(dead: Ref) -> None:
    if _DOCUMENTS.get(dead.key) is dead:
        del _DOCUMENTS[dead.key]


def tags_of_selectors(selectors: Iterable[Any]) -> ResultSet[Tag]:
    """The Tags of parsel Selectors' elements, in their order, as a `ResultSet`.

    Each element's Tag is the one the soup already made over its tree gives
    (a Scrapy response's ``response.soup``), so ``Soup(response.css("p"))``
    equals ``response.soup.find_all("p")`` and its Tags' parents lead up to
    that soup; a tree no soup views yet gets one (HTML or XML as the
    selector's ``type``). Selections that are not elements (``::text``,
    ``@href``) raise TypeError: their Selectors hold plain strings.
    """
    made: list[Soup] = []  # soups made here live until the Tags are wrapped
    out: list[Tag] = []
    for selector in selectors:
        el = getattr(selector, "root", selector)
        if not isinstance(el, etree._Element):
            raise TypeError(
                "Soup() of a SelectorList takes element selections; this one "
                f"holds {type(el).__name__} {el!r} (select elements, not "
                "::text or @attributes)"
            )
        top = el.getroottree().getroot()
        ref = _DOCUMENTS.get(top)
        doc = ref() if ref is not None else None
        if doc is None:
            kind = "xml" if getattr(selector, "type", "html") == "xml" else "html"
            soup = Soup(top, kind)
            made.append(soup)
            doc = soup._doc
        out.append(wrap(el, doc))
    return ResultSet(None, out)


def _rebuild(markup: str, mode: str, base_url: str | None) -> Soup:
    return Soup(markup, mode, base_url=base_url)


classes.Soup = Soup
BeautifulSoup = Soup
