"""Decoding bytes with ``exclude_encodings``: bs4's ``UnicodeDammit`` order."""

from __future__ import annotations

from collections.abc import Iterable

from w3lib.encoding import html_body_declared_encoding, read_bom


def decode_excluding(
    data: bytes, from_encoding: str | None, exclude: Iterable[str]
) -> tuple[str, str | None]:
    """``data`` decoded by the first encoding bs4 would try that is not excluded.

    bs4 tries, in order: the encoding the caller gave, a byte-order mark,
    the document's own declaration, then UTF-8 and Windows-1252, skipping
    the excluded ones (names compared as written, lowercased, as bs4 does:
    excluding ``"utf8"`` leaves ``"utf-8"``); the first that decodes without
    error wins, else the first that decodes with replacement characters.
    Nothing left: UTF-8 with replacement characters, no original encoding.  The declaration is read as w3lib reads it (WHATWG
    names: ``iso-8859-1`` is ``cp1252``).
    """
    excluded = {name.lower() for name in exclude}
    bom_encoding, bom = read_bom(data)
    body = data[len(bom) :] if bom else data
    candidates = [from_encoding, bom_encoding, html_body_declared_encoding(data)]
    candidates += ["utf-8", "windows-1252"]
    usable = [e for e in candidates if e and e.lower() not in excluded]
    for errors in ("strict", "replace"):
        for encoding in usable:
            if errors == "replace" and encoding.lower() == "ascii":
                continue
            try:
                return body.decode(encoding, errors), encoding.lower()
            except (UnicodeDecodeError, LookupError):
                continue
    return body.decode("utf-8", "replace"), None
