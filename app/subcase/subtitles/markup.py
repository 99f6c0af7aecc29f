"""Split cue text into opaque markup and visible text.

Markup is everything a player does not show as letters: HTML-like tags
(<i>, </b>, <font color="...">, <v Name>, <c.class>, <00:01.000>), ASS
override blocks ({\\an8}, {\\i1}) and the drawings they start ({\\p1}m 0 0 l 8 0{\\p0}),
MicroDVD control codes that conversions
leave in SRT files ({y:i}, {c:$0000ff}; their letter's case is their scope, so
recasing one would change its meaning), ASS hard breaks (\\N, \\h) and
character entities (&amp;).  The truecaser never sees or changes these; keeping them
as untouched spans is what makes "only letter case changed" hold.  The
patterns match regardless of letter case, so recasing visible text can
never turn it into markup or back.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

MARKUP_RE = re.compile(
    # an ASS override block that starts a drawing ({\p1}, {\an7\p2}) with the drawing commands after it,
    # up to the next block ({\p0}) or the line's end: "m 0 0 l 10 0" is a shape, not words.  The lookahead
    # stays inside the block (no brace), so each "{" is read to the next brace once: linear in the line.
    r"\{(?=\\)(?=[^{}\r\n]*?\\[pP]0*[1-9])[^{}\r\n]*\}[^{\r\n]*"
    r"|</?[A-Za-z0-9][^<>\r\n]*>"  # tags, including <v Name> and <00:00:01.000>
    r"|\{\\[^{}\r\n]*\}"  # ASS override block: {\an8}, {\pos(10,20)}
    r"|\{[CcFfHhOoPpSsYy]:[^{}\r\n]*\}"  # MicroDVD control code left in SRT: {y:i}, {c:$0000ff}
    r"|\\[NnhH]"  # ASS hard line break / hard space (\H too, so recasing "\Hi" cannot make markup)
    r"|&(?:#[0-9]+|#[xX][0-9A-Fa-f]+|[A-Za-z][A-Za-z0-9]*);",  # entities
)


@dataclass(frozen=True, slots=True)
class Span:
    start: int
    end: int
    text: str
    is_markup: bool


def split(text: str) -> list[Span]:
    """Cover text with alternating visible and markup spans, in order."""
    spans: list[Span] = []
    pos = 0
    for m in MARKUP_RE.finditer(text):
        if m.start() > pos:
            spans.append(Span(pos, m.start(), text[pos:m.start()], False))
        spans.append(Span(m.start(), m.end(), m.group(), True))
        pos = m.end()
    if pos < len(text):
        spans.append(Span(pos, len(text), text[pos:], False))
    return spans


def plain(text: str) -> str:
    """What a viewer reads: tags dropped, entities and ASS breaks resolved."""
    out = []
    for span in split(text):
        if not span.is_markup:
            out.append(span.text)
        elif span.text.startswith("&"):
            out.append(unescape(span.text))
        elif span.text in ("\\N", "\\n"):
            out.append("\n")
        elif span.text == "\\h":
            out.append("\u00a0")
    return "".join(out)


_DECIMAL_REF_RE = re.compile(r"&#0*([0-9]*);")


def unescape(entity: str) -> str:
    """html.unescape for one entity span, also for absurdly long numbers
    (html.unescape raises ValueError past 4300 digits)."""
    m = _DECIMAL_REF_RE.fullmatch(entity)
    if m is None:
        return html.unescape(entity)
    if len(m.group(1)) > 7:  # beyond U+10FFFF: html.unescape gives U+FFFD too
        return "\ufffd"
    return html.unescape(f"&#{m.group(1) or '0'};")
