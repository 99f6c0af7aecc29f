"""TTML, DFXP, IMSC1 and EBU-TT-D: every timed ``<p>`` is a cue, written back by patching letters.

A cue's text is what the ``<p>`` shows: character data, ``<br/>`` as a line break, ``<span>`` tags
kept as markup (``markup.MARKUP_RE`` reads them as tags), entities and character references as
they are written.  White space with a line break in it is the indentation of a pretty-printed file,
which TTML shows as one space (or nothing, at a line's edge); with ``xml:space="preserve"`` a line
break in the text is one.  Comments, ``<metadata>``, ``<set>`` and any other element inside a
``<p>`` are invisible.

Each character of a cue's text remembers where it came from in the file.  Saving never serialises
XML: it copies the file's own text and writes only the letters whose case changed and the marks
the punctuation restored, each at its place.  A cue whose text was rewritten freely (the editor)
is written from its text, with its own tags kept, and must still be well-formed.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Sequence

from . import markup
from .document import Cue, Document
from .errors import ParseWarning, SubtitleError
from .marking import CLOSING, NO_BREAK, OPENING
from .ttml_time import clock, parse_ms, rates
from .xmlscan import Item, XmlError, check_well_formed, items, root_name

SUFFIXES = (".ttml", ".dfxp", ".xml")
_MARKS = CLOSING | OPENING | NO_BREAK
_XML_NS = "http://www.w3.org/XML/1998/namespace"


class TtmlError(SubtitleError):
    """The file is XML but not TTML (no <tt> root, no <body>), or an edit would not be well-formed."""


def is_ttml(text: str) -> bool:
    """Whether text starts as XML whose root element is tt (any prefix)."""
    name = root_name(text)
    return name is not None and name.rpartition(":")[2] == "tt"


def is_ttml_file(path: Path | str) -> bool:
    """Whether a file (a generic ".xml") is TTML by its root element: its first 64 KiB are read."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return False
    for bom, codec in ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be")):
        if head.startswith(bom):
            return is_ttml(head[len(bom):].decode(codec, "ignore"))
    return is_ttml(head.decode("utf-8", "ignore"))


_DECLARATION_RE = re.compile(rb"<\?xml[ \t\r\n][^>]*?encoding[ \t\r\n]*=[ \t\r\n]*[\"']([A-Za-z][A-Za-z0-9._-]*)[\"']")


def declared_encoding(data: bytes) -> str | None:
    """The legacy 8-bit encoding an XML declaration names (``encoding="ISO-8859-1"``), which decides
    over a guess; None for none, a Unicode one (a BOM or the bytes tell those) or an unknown name."""
    m = _DECLARATION_RE.match(data)
    if m is None:
        return None
    try:
        name = codecs.lookup(m.group(1).decode("ascii")).name
    except LookupError:
        return None
    return None if name.startswith(("utf-", "utf_")) else name


# Kinds of the characters of a cue's text, by where they came from:
_TEXT = "t"      # character data, one character for one (the letters recased here)
_SPACE = "w"     # a run of white space with a line break: shown as one space
_TAG = "m"       # a <span> or </span> tag, shown on one line
_REF = "e"       # an entity or character reference (&amp;), or a CDATA "<" or "&" shown as one
_BREAK = "b"     # <br/>: a line break
_NEWLINE = "n"   # a line break in preserved white space


@dataclass(frozen=True, slots=True)
class _Piece:
    view: str
    start: int
    end: int
    kind: str


@dataclass(eq=False, slots=True)
class _Source:
    """A cue's <p> as written, and where each character of its text came from."""

    open_tag: str
    inner: str
    close_tag: str
    view: str
    starts: list[int]
    ends: list[int]
    kinds: str
    tags: dict[str, str]  # a tag's view -> its source, for cue text rewritten freely
    key: tuple[str | None, int, int, str]
    parent_ms: int  # when the <p>'s parent begins: begin and end are written relative to it
    br: str  # <br> with the prefix of the cue's <p>, for line breaks in text rewritten freely


@dataclass(eq=False)
class TtmlCue(Cue):
    source: _Source | None = field(default=None, repr=False)
    qname: str = "p"

    def render(self, fmt: str, newline: str) -> str:
        src = self.source
        if src is None:
            return (f"<{self.qname} begin=\"{clock(self.start_ms)}\" end=\"{clock(self.end_ms)}\">"
                    f"{_from_text(self.text, {}, 'br', self.index)}</{self.qname}>")
        open_tag, close_tag = src.open_tag, src.close_tag
        if self.head_key() != src.key:
            open_tag = _retimed(open_tag, self.start_ms - src.parent_ms, self.end_ms - src.parent_ms)
        if self.text == src.view:
            inner = src.inner
        else:
            patched = _patch(src, self.text)
            inner = patched if patched is not None else _from_text(self.text, src.tags, src.br, self.index)
        if inner and not close_tag:  # <p .../> that now has text
            open_tag = open_tag[:-2].rstrip() + ">"
            close_tag = f"</{self.qname}>"
        return open_tag + inner + close_tag


# -- reading ---------------------------------------------------------------------------------

@dataclass
class _Element:
    qname: str
    namespaces: dict[str, str]
    preserve: bool
    begin_ms: int
    end_ms: int | None
    seq: bool
    cursor_ms: int  # in a seq container: where the next child begins


def _local(qname: str) -> str:
    return qname.rpartition(":")[2]


def _namespace(qname: str, namespaces: dict[str, str]) -> str:
    prefix = qname.rpartition(":")[0]
    return namespaces.get(prefix, "")


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    check_well_formed(text)
    root = root_name(text)
    if root is None or _local(root) != "tt":
        raise TtmlError(f"not a TTML file: the root element is <{root}>, not <tt>" if root
                        else "not a TTML file: no root element")
    return _Reader(text).read()


class _Reader:
    def __init__(self, text: str):
        self.text = text
        self.warnings: list[ParseWarning] = []
        self.segments: list[str | Cue] = []
        self.stack: list[_Element] = []
        self.tt_ns = ""
        self.rates = rates({})
        self.in_body = 0
        self.seen_body = False
        self._counted = (0, 1)  # (offset, its line): where line() last counted to

    def line(self, at: int) -> int:
        """The 1-based line of an offset; offsets are asked for in order, so counting goes on from the last."""
        if at < self._counted[0]:
            self._counted = (0, 1)
        offset, line = self._counted
        line += self.text.count("\n", offset, at)
        self._counted = (at, line)
        return line

    def warn(self, at: int, message: str) -> None:
        self.warnings.append(ParseWarning(self.line(at), message))

    def read(self) -> tuple[list[str | Cue], list[ParseWarning]]:
        text = self.text
        stream = items(text)
        done = 0  # text before this offset is in the segments
        for item in stream:
            if item.kind == "start" or item.kind == "empty":
                element = self._push(item)
                is_tt = _namespace(item.qname, element.namespaces) == self.tt_ns
                if is_tt and _local(item.qname) == "body":
                    self.seen_body = True
                    self.in_body += 1
                if is_tt and _local(item.qname) == "p" and self.in_body:
                    if item.start > done:
                        self.segments.append(text[done:item.start])
                    cue, done = self._cue(item, element, stream)
                    self.segments.append(cue)
                    self._pop(item)
                    continue
                if item.kind == "empty":
                    self._pop(item)
            elif item.kind == "end":
                self._pop(item)
        if not self.seen_body:
            raise TtmlError("not a TTML file: <tt> has no <body>")
        if done < len(text):
            self.segments.append(text[done:])
        self._check([s for s in self.segments if isinstance(s, Cue)])
        self.warnings.sort(key=lambda w: w.line)
        return self.segments, self.warnings

    def _push(self, item: Item) -> _Element:
        parent = self.stack[-1] if self.stack else None
        namespaces = parent.namespaces if parent else {"xml": _XML_NS}
        declared = {name.partition(":")[2] if ":" in name else "": value
                    for name, value in item.attrs if name == "xmlns" or name.startswith("xmlns:")}
        if declared:
            namespaces = {**namespaces, **declared}
        attrs = {name: value for name, value in item.attrs}
        if parent is None:
            self.tt_ns = _namespace(item.qname, namespaces)
            self.rates = rates({_local(k): v for k, v in item.attrs if k.startswith(tuple(
                p + ":" for p, uri in namespaces.items() if uri.endswith("#parameter")))})
        preserve = parent.preserve if parent else False
        if "xml:space" in attrs:
            preserve = attrs["xml:space"].strip() == "preserve"
        p_begin = parent.cursor_ms if parent and parent.seq else parent.begin_ms if parent else 0
        p_end = parent.end_ms if parent else None
        begin = end = dur = None
        if self.in_body or _local(item.qname) == "body":
            for key in ("begin", "end", "dur"):
                if key in attrs:
                    value = parse_ms(attrs[key], self.rates)
                    if value is None:
                        self.warn(item.start, f"cannot read the time {key}=\"{attrs[key][:40]}\"; ignored")
                    elif key == "begin":
                        begin = value
                    elif key == "end":
                        end = value
                    else:
                        dur = value
        start_ms = p_begin + (begin or 0)
        end_ms = p_begin + end if end is not None else None
        if dur is not None:
            end_ms = min(end_ms, start_ms + dur) if end_ms is not None else start_ms + dur
        if p_end is not None:
            end_ms = p_end if end_ms is None else min(end_ms, p_end)
        element = _Element(item.qname, namespaces, preserve, start_ms, end_ms,
                           attrs.get("timeContainer", "").strip() == "seq", start_ms)
        self.stack.append(element)
        return element

    def _pop(self, item: Item) -> None:
        element = self.stack.pop()
        if self.stack and self.stack[-1].seq:
            parent = self.stack[-1]
            parent.cursor_ms = element.end_ms if element.end_ms is not None else element.begin_ms
        if _namespace(element.qname, element.namespaces) == self.tt_ns and _local(element.qname) == "body":
            self.in_body -= 1

    def _cue(self, p: Item, element: _Element, stream: Iterator[Item]) -> tuple[TtmlCue, int]:
        """The cue of one <p>, reading its content from ``stream``; and the offset after it."""
        text = self.text
        start_ms = element.begin_ms
        end_ms = element.end_ms if element.end_ms is not None else start_ms
        parent = self.stack[-2] if len(self.stack) > 1 else element
        parent_ms = parent.cursor_ms if parent.seq else parent.begin_ms
        if p.kind == "empty":
            open_tag, inner_start, inner_end, end = text[p.start:p.end], p.end, p.end, p.end
            pieces: list[_Piece] = []
        else:
            pieces, inner_end, end = self._content(p, stream)
            open_tag, inner_start = text[p.start:p.end], p.end
        inner = text[inner_start:inner_end]
        view, starts, ends, kinds = _finish(pieces, inner_start)
        tags: dict[str, str] = {}
        for pc in pieces:
            if pc.kind == _TAG:
                tags.setdefault(pc.view, text[pc.start:pc.end])
        cue = TtmlCue(None, start_ms, end_ms, "", view, line=self.line(p.start), qname=p.qname)
        prefix = p.qname.rpartition(":")[0]
        cue.source = _Source(open_tag, inner, text[inner_end:end], view, starts, ends, kinds, tags,
                             cue.head_key(), parent_ms, f"{prefix}:br" if prefix else "br")
        if element.end_ms is None:
            self.warn(p.start, "a <p> with no end time, nor any on its parents: read as ending where it begins")
        return cue, end

    def _content(self, p: Item, stream: Iterator[Item]) -> tuple[list[_Piece], int, int]:
        """The pieces of a <p>'s text; the offsets of its end tag's start and end."""
        text = self.text
        pieces: list[_Piece] = []
        depth = 0      # elements open inside the <p>
        hidden = 0     # depth at which an invisible element opened, 0 if none is open
        for item in stream:
            kind = item.kind
            if kind == "end" and depth == 0:
                return pieces, item.start, item.end
            if kind in ("start", "empty"):
                element = self._push(item)
                depth += 1
                local = _local(item.qname)
                ours = _namespace(item.qname, element.namespaces) == self.tt_ns
                if not hidden:
                    if ours and local == "br":
                        pieces.append(_Piece("\n", item.start, item.end, _BREAK))
                    elif ours and local == "span":
                        pieces.append(_Piece(_tag_view(text[item.start:item.end]), item.start, item.end, _TAG))
                    else:
                        hidden = depth
                if kind == "empty":
                    self._pop(item)
                    depth -= 1
                    if hidden > depth:
                        hidden = 0
            elif kind == "end":
                element = self.stack[-1]
                if not hidden and _local(item.qname) == "span" and \
                        _namespace(item.qname, element.namespaces) == self.tt_ns:
                    pieces.append(_Piece(_tag_view(text[item.start:item.end]), item.start, item.end, _TAG))
                self._pop(item)
                depth -= 1
                if hidden > depth:
                    hidden = 0
            elif hidden:
                continue
            elif kind == "text":
                pieces.extend(_text_pieces(text, item.start, item.end, self.stack[-1].preserve))
            elif kind == "cdata":
                for k in range(item.start + 9, item.end - 3):
                    ch = text[k]
                    pieces.append(_Piece({"<": "&lt;", "&": "&amp;"}[ch], k, k + 1, _REF) if ch in "<&"
                                  else _Piece(ch, k, k + 1, _TEXT))
        raise TtmlError("a <p> is not closed")  # not reached: the text is well-formed

    def _check(self, cues: list[Cue]) -> None:
        prev: Cue | None = None
        for cue in cues:
            at = cue.line - 1
            if cue.end_ms < cue.start_ms:
                self.warnings.append(ParseWarning(at + 1, "cue ends before it starts"))
            if prev is not None and cue.start_ms < prev.start_ms:
                self.warnings.append(ParseWarning(at + 1, "cue starts before the previous cue (out of order)"))
            prev = cue


# in character data: a reference, or white space with a line break (a preserved line break)
_SPECIAL_RE = re.compile(r"&[^;]*;|[ \t\r\n]*[\r\n][ \t\r\n]*")
_PRESERVED_RE = re.compile(r"&[^;]*;|\r\n|\r|\n")
_TAG_SPACE_RE = re.compile(r"[\t\r\n]")


def _tag_view(tag: str) -> str:
    """A tag as cue text shows it: on one line, with no ">" inside a value (it would end the tag
    for markup.MARKUP_RE and leave the rest as letters to recase)."""
    body = _TAG_SPACE_RE.sub(" ", tag[1:-1]).replace(">", "\u203a").replace("<", "\u2039")
    view = f"<{body}>"
    if markup.MARKUP_RE.fullmatch(view) is None:  # a prefix that starts with "_" or a non-ASCII letter
        view = f"</x{body[1:]}>" if body.startswith("/") else f"<x{body}>"
    return view


def _text_pieces(text: str, start: int, end: int, preserve: bool) -> list[_Piece]:
    """Character data as pieces: runs of characters as they are, references, and line breaks
    (white space around a line break, or a preserved line break)."""
    pieces = []
    pos = start
    for m in (_PRESERVED_RE if preserve else _SPECIAL_RE).finditer(text, start, end):
        if m.start() > pos:
            pieces.append(_Piece(text[pos:m.start()], pos, m.start(), _TEXT))
        if m.group().startswith("&"):
            pieces.append(_Piece(m.group(), m.start(), m.end(), _REF))
        else:
            pieces.append(_Piece("\n" if preserve else " ", m.start(), m.end(), _NEWLINE if preserve else _SPACE))
        pos = m.end()
    if pos < end:
        pieces.append(_Piece(text[pos:end], pos, end, _TEXT))
    return pieces


def _finish(pieces: list[_Piece], base: int) -> tuple[str, list[int], list[int], str]:
    """The cue text and where each of its characters came from (offsets from ``base``).  A run of
    white space with a line break shows as nothing at the start or end of the text, beside a line
    break or after a space."""
    # what comes next, past tags and white-space runs: "" at the end, else the kind
    following = [""] * len(pieces)
    nxt = ""
    for k in range(len(pieces) - 1, -1, -1):
        following[k] = nxt
        if pieces[k].kind not in (_TAG, _SPACE):
            nxt = pieces[k].kind
    view: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    kinds: list[str] = []
    before = ""  # the last visible character's kind and text, past tags
    before_char = ""
    for k, pc in enumerate(pieces):
        if pc.kind == _SPACE:
            if before in ("", _BREAK, _NEWLINE) or before_char.isspace() or following[k] in ("", _BREAK, _NEWLINE):
                continue
        view.append(pc.view)
        a, b = pc.start - base, pc.end - base
        if pc.kind == _TEXT:  # one character for one
            starts.extend(range(a, b))
            ends.extend(range(a + 1, b + 1))
        else:
            starts.extend([a] * len(pc.view))
            ends.extend([b] * len(pc.view))
        kinds.append(pc.kind * len(pc.view))
        if pc.kind != _TAG:
            before, before_char = pc.kind, pc.view[-1]
    return "".join(view), starts, ends, "".join(kinds)


# -- writing ---------------------------------------------------------------------------------

def _same_letter(a: str, b: str) -> bool:
    return a.isalpha() and b.isalpha() and (a.lower() == b.lower() or a.upper() == b.upper())


def _patch(src: _Source, new: str) -> str | None:
    """The <p>'s content with only recased letters and added or removed marks written over the
    original; None when ``new`` differs from the text read in any other way."""
    old, inner, kinds = src.view, src.inner, src.kinds
    out: list[str] = []
    cursor = 0  # inner[:cursor] is written
    i = j = 0
    while i < len(old) or j < len(new):
        if i < len(old) and j < len(new) and old[i] == new[j]:
            i, j = i + 1, j + 1
        elif i < len(old) and j < len(new) and kinds[i] == _TEXT and _same_letter(old[i], new[j]):
            out.append(inner[cursor:src.starts[i]])
            out.append(new[j])
            cursor = src.ends[i]
            i, j = i + 1, j + 1
        elif j < len(new) and new[j] in _MARKS:
            # a mark that ends a word goes right after the character before it; one that opens
            # a word, or one at the very start, right before the character after it
            if i > 0 and new[j] not in OPENING:
                at = src.ends[i - 1]
            elif i < len(old):
                at = src.starts[i]
            else:
                at = src.ends[i - 1] if i else len(inner)
            at = max(at, cursor)
            out.append(inner[cursor:at])
            out.append(new[j])
            cursor = at
            j += 1
        elif i < len(old) and old[i] in _MARKS and kinds[i] == _TEXT:
            out.append(inner[cursor:src.starts[i]])
            cursor = src.ends[i]
            i += 1
        else:
            return None
    out.append(inner[cursor:])
    return "".join(out)


_ESCAPE = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
_XML_REF_RE = re.compile(r"&(?:#[0-9]+|#x[0-9A-Fa-f]+|lt|gt|amp|quot|apos);")


def _from_text(text: str, tags: dict[str, str], br: str, index: int) -> str:
    """A <p>'s content written from cue text: the cue's own tags as they were, line breaks as <br/>,
    everything else as character data.  TtmlError if the tags no longer nest."""
    out = []
    for span in markup.split(text):
        if span.is_markup and span.text in tags:
            out.append(tags[span.text])
        elif span.is_markup and _XML_REF_RE.fullmatch(span.text):
            out.append(span.text)
        elif span.is_markup and span.text.startswith("&"):
            out.append(_escape(markup.unescape(span.text), br))
        else:
            out.append(_escape(span.text, br))
    content = "".join(out)
    try:
        # A name for the wrapper no prefix can clash with; namespaces are checked on the whole file.
        from xml.parsers import expat
        expat.ParserCreate().Parse(f"<x>{content}</x>".encode("utf-8", "surrogatepass"), True)
    except Exception:
        raise TtmlError(f"cue {index + 1}: the edited text's tags do not nest, so it cannot be saved as TTML") from None
    return content


# Characters XML 1.0 cannot hold at all, not even as references: dropped from text written as TTML.
_NOT_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _escape(text: str, br: str) -> str:
    text = _NOT_XML_RE.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))
    return "".join(_ESCAPE.get(ch, ch) for ch in text).replace("\n", f"<{br}/>")


_TIME_ATTR_RE = re.compile(r"""\s(begin|end|dur)\s*=\s*(?:"[^"]*"|'[^']*')""")


def _retimed(open_tag: str, begin_ms: int, end_ms: int) -> str:
    """An open tag with begin and end set (relative to the parent) and any dur removed."""
    stripped = _TIME_ATTR_RE.sub("", open_tag)
    close = "/>" if stripped.endswith("/>") else ">"
    head = stripped[: -len(close)].rstrip()
    return f'{head} begin="{clock(begin_ms)}" end="{clock(end_ms)}"{close}'


# -- new files from another format's cues --------------------------------------------------------

_HEADER = ('<?xml version="1.0" encoding="UTF-8"?>{nl}'
           '<tt xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling">{nl}'
           '  <body>{nl}    <div>{nl}')
_FOOTER = "    </div>{nl}  </body>{nl}</tt>{nl}"
# SRT and WebVTT styling tags as TTML spans; every other tag is dropped (the conversion says so).
_STYLE_SPANS = {"i": '<span tts:fontStyle="italic">', "b": '<span tts:fontWeight="bold">',
                "u": '<span tts:textDecoration="underline">'}
_STYLE_TAG_RE = re.compile(r"<(/?)([ibu])(?:[.\s][^<>]*)?>", re.IGNORECASE)


def text_from_markup(text: str) -> str:
    """SRT or WebVTT cue text as the content of a TTML <p> (spans for <i>, <b>, <u>, kept nested)."""
    out: list[str] = []
    open_tags: list[str] = []
    for span in markup.split(text):
        if not span.is_markup:
            out.append(_escape(span.text, "br"))
        elif span.text.startswith("&"):
            out.append(_escape(markup.unescape(span.text), "br"))
        elif span.text in ("\\N", "\\n"):
            out.append("<br/>")
        elif span.text == "\\h":
            out.append("\u00a0")
        elif m := _STYLE_TAG_RE.fullmatch(span.text):
            name = m.group(2).lower()
            if not m.group(1):
                open_tags.append(name)
                out.append(_STYLE_SPANS[name])
            elif name in open_tags:
                while open_tags:  # close what opened after it too, so that spans nest
                    out.append("</span>")
                    if open_tags.pop() == name:
                        break
    out.extend("</span>" for _ in open_tags)
    return "".join(out)


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    """A new TTML document (UTF-8, one <div>) with one <p> per cue."""
    out: list[str | Cue] = [_HEADER.format(nl=newline)]
    for cue in cues:
        new = TtmlCue(None, cue.start_ms, cue.end_ms, "", "")
        content = text_from_markup("\n".join(ln for ln in cue.text.split("\n") if ln.strip()))
        # The cue is new, so it renders from its text: parsed back from the content written, the
        # spans become tags of its own that it keeps.
        segments, _ = parse(f"<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:tts=\"http://www.w3.org/ns/ttml#styling\">"
                            f"<body><p>{content}</p></body></tt>")
        read = next(s for s in segments if isinstance(s, TtmlCue))
        new.text = read.text
        assert read.source is not None
        new.source = _Source(f'<p begin="{clock(cue.start_ms)}" end="{clock(cue.end_ms)}">', content, "</p>",
                             read.text, read.source.starts, read.source.ends, read.source.kinds, read.source.tags,
                             new.head_key(), 0, "br")
        out += ["      ", new, newline]
    out.append(_FOOTER.format(nl=newline))
    return out


def common_cues(cues: Sequence[Cue]) -> list[Cue]:
    """TTML cues as SubRip-style cues (formats.py): their text as it shows, line breaks kept, spans and
    their styling dropped (``losses`` says so), entities resolved."""
    return [Cue(None, cue.start_ms, cue.end_ms, "", cue.plain_text()) for cue in cues]


def losses(doc: Document, target: str) -> list[str]:
    """One line per kind of TTML content that writing ``doc`` as ``target`` drops."""
    spans = sum(1 for cue in doc.cues for span in markup.split(cue.text)
                if span.is_markup and span.text.startswith("<span"))
    out = [f"converting to {target.upper()} drops {spans} span(s) and their styling"] if spans else []
    return out + [f"converting to {target.upper()} drops the head (styles, regions, metadata) and every "
                  "timing attribute but each cue's begin and end"]


__all__ = ["TtmlCue", "TtmlError", "XmlError", "common_cues", "declared_encoding", "from_cues", "losses", "is_ttml", "is_ttml_file", "parse",
           "text_from_markup"]
