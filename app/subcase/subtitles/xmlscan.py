"""XML read safely and lexically: a well-formedness check that expands nothing, then the markup
and text of the document with their offsets in the text, for formats written back byte for byte.

The check runs expat with every entity declaration refused: a file that declares entities (the
"billion laughs" bomb, an external entity that would read another file) is refused before
anything else reads it, so the only references left are the five predefined entities and
character references.  The scanner then trusts that the text is well-formed XML and cuts it with
regular expressions, which keeps every character's offset (an XML tree keeps none).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator
from xml.parsers import expat

from .errors import SubtitleError


class XmlError(SubtitleError):
    """The text is not well-formed XML, or declares entities; the message says where and why."""


_NO_ELEMENTS = expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS]


class _Refused(Exception):
    pass


def _refuse(*_args: object) -> int:
    raise _Refused


def check_well_formed(text: str, name: str | None = None) -> None:
    """XmlError unless ``text`` is well-formed, namespace-correct XML declaring no entities."""
    parser = expat.ParserCreate(encoding="utf-8", namespace_separator=" ")
    # Declaring an entity is refused outright, whether or not it is used: that is what a bomb or
    # an external reference needs, and no subtitle file does.
    parser.EntityDeclHandler = _refuse
    parser.UnparsedEntityDeclHandler = _refuse
    parser.ExternalEntityRefHandler = _refuse
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        # The text is already decoded: parsed as UTF-8 whatever the declaration says.
        parser.Parse(text.encode("utf-8", "surrogatepass"), True)
    except _Refused:
        raise XmlError("not a subtitle file: the XML declares entities (refused: they can expand "
                       "without bound or read other files)", name) from None
    except expat.ExpatError as exc:
        # expat says "no element found" of a file cut short: say what it means
        why = ("it ends before its elements are closed (cut short?)" if exc.code == _NO_ELEMENTS and text.strip()
               else expat.ErrorString(exc.code))
        raise XmlError(f"not well-formed XML: {why} "
                       f"(line {exc.lineno}, column {exc.offset + 1})", name) from None


# One lexical item at a time; the text between matches is character data.
_ITEM_RE = re.compile(
    r"<!--.*?-->"
    r"|<!\[CDATA\[.*?\]\]>"
    r"|<\?.*?\?>"
    r"|<!DOCTYPE(?:[^\[>]|\[.*?\])*>"
    r"|<(/?)([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>",
    re.DOTALL)
_ATTR_RE = re.compile(r"([^\s=]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_REF_RE = re.compile(r"&(?:#([0-9]+)|#x([0-9A-Fa-f]+)|(lt|gt|amp|quot|apos));")
_PREDEFINED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}


def unescape(value: str) -> str:
    """Character data or an attribute value with its references resolved (well-formed input)."""
    def one(m: re.Match[str]) -> str:
        if m.group(3):
            return _PREDEFINED[m.group(3)]
        return chr(int(m.group(1)) if m.group(1) else int(m.group(2), 16))
    return _REF_RE.sub(one, value)


@dataclass(frozen=True, slots=True)
class Item:
    """One lexical item: kind is "start", "end", "empty", "text", "cdata", "comment", "pi" or "doctype"."""

    kind: str
    start: int
    end: int
    qname: str = ""
    attrs: tuple[tuple[str, str], ...] = ()  # (name, unescaped value), as written


def items(text: str) -> Iterator[Item]:
    """The lexical items of well-formed XML, in order, covering every character."""
    pos = 0
    for m in _ITEM_RE.finditer(text):
        if m.start() > pos:
            yield _text(text, pos, m.start())
        pos = m.end()
        whole = m.group()
        if m.group(2) is None:
            kind = ("comment" if whole.startswith("<!--") else "cdata" if whole.startswith("<![")
                    else "pi" if whole.startswith("<?") else "doctype")
            yield Item(kind, m.start(), m.end())
            continue
        attrs = tuple((a.group(1), unescape(a.group(2) if a.group(2) is not None else a.group(3)))
                      for a in _ATTR_RE.finditer(m.group(3)))
        kind = "end" if m.group(1) else "empty" if m.group(4) else "start"
        yield Item(kind, m.start(), m.end(), m.group(2), attrs)
    if pos < len(text):
        yield _text(text, pos, len(text))


def _text(text: str, start: int, end: int) -> Item:
    # Well-formed character data has no "<": one here is markup the patterns above do not know (a
    # doctype's internal subset with "]" in a value), and reading it as text could recase its letters.
    at = text.find("<", start, end)
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        raise XmlError(f"cannot read this XML: markup subcase does not know at line {line}")
    return Item("text", start, end)


# The first element's name, after the prolog (declaration, comments, PIs, doctype, white space).
_ROOT_RE = re.compile(r"(?:\s|<\?.*?\?>|<!--.*?-->|<!DOCTYPE(?:[^\[>]|\[.*?\])*>)*<([^\s/>!?]+)", re.DOTALL)


def root_name(text: str) -> str | None:
    """The qualified name of the root element as written, None if the text does not start as XML."""
    m = _ROOT_RE.match(text.lstrip("\ufeff"))
    return m.group(1) if m else None
