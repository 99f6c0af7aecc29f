"""What a format conversion cannot carry over, listed so the user is told.

SubRip has no voices, classes, comments, style sheets, regions, named cue
identifiers, ruby, language spans or karaoke timestamps, so a WebVTT -> SRT
conversion drops them (srt.render); WebVTT has no <font> tags or ASS
overrides other than positions, so SRT -> WebVTT drops those (vtt.render);
ASS/SSA keeps styles, overrides, drawings and embedded fonts that no other
format has (ass.losses), and has no form for <font> tags (ass.cannot_hold).
Nothing is dropped silently: ``conversion_losses`` names each kind, with a
count and the first few examples, for the CLI and the GUI to show.
"""

from __future__ import annotations

import re

from . import formats, markup, vtt
from .document import Document

_VOICE_RE = re.compile(r"<v(?:\.[^\s>]*)?\s+([^>]*)>", re.IGNORECASE)
_CLASS_RE = re.compile(r"<(?:c|[ibuv])\.[^\s>]+[^>]*>|<c>", re.IGNORECASE)
_OTHER_VTT_RE = re.compile(r"</?(?:ruby|rt|lang)\b[^>]*>|<\d{2}(?::\d{2}){1,2}\.\d{3}>", re.IGNORECASE)
_BLOCK_RE = re.compile(r"^(NOTE|STYLE|REGION)(?:[ \t]|$)", re.MULTILINE)
_EXAMPLES = 3
# what the formats whose codes subcase writes over in place (subtitles/inplace.py) hold beyond text and times
_BROADCAST = {
    "scc": "the CEA-608 positions, styles, caption modes (pop-on, roll-up, paint-on) and channels",
    "stl": "the EBU STL header, positions, colours, italics, double height, comments and user data",
}


def _listing(kind: str, items: list[str], target: str) -> str:
    shown = ", ".join(items[:_EXAMPLES]) + (", \u2026" if len(items) > _EXAMPLES else "")
    return f"converting to {target.upper()} drops {len(items)} {kind}: {shown}"


def conversion_losses(doc: Document, out_format: str | None) -> list[str]:
    """One warning per kind of content that saving ``doc`` as ``out_format`` drops: what the document's
    format has that the others lack (its ``Format.losses``), what its cues hold that the target cannot
    (the target's ``Format.cannot_hold``), and the lines outside any cue."""
    if out_format is None or out_format == doc.format:
        return []
    source, target = formats.get(doc.format), formats.get(out_format)
    out = []
    if doc.format == "vtt":
        out = _vtt_to_srt(doc, out_format)
    elif doc.format == "srt" and out_format == "vtt":
        out = _srt_to_vtt(doc)
    elif doc.format in _BROADCAST:
        out = [f"converting to {out_format.upper()} keeps each caption's text and times only: it drops "
               f"{_BROADCAST[doc.format]}"]
    if source.losses is not None:
        out += source.losses(doc, out_format)
    if target.cannot_hold is not None:
        out += target.cannot_hold(source.common(doc.cues))
    # a format with its own ``losses`` says what its text between cues holds (ASS: sections, styles)
    stray = _stray_lines(doc) if source.losses is None else []
    if stray:  # kept verbatim in the file's own format; a converted file is made of its cues alone
        out.append(_listing("line(s) outside any cue", stray, out_format))
    return out


def _stray_lines(doc: Document) -> list[str]:
    """The text between cues that is neither blank nor a WebVTT header, NOTE, STYLE or REGION block: what
    the reader could not read as a cue (a broken timing line and its text)."""
    lines = []
    for i, seg in enumerate(doc._segments):
        if not isinstance(seg, str):
            continue
        for block in re.split(r"(?:\r\n|\r|\n)[ \t]*(?=\r|\n)", seg):
            block = block.strip("\r\n")
            if doc.format == "vtt" and (_BLOCK_RE.match(block) or (i == 0 and block.startswith("WEBVTT"))):
                continue
            lines += [ln.strip() for ln in re.split(r"\r\n|\r|\n", block) if ln.strip()]
    return lines


def _tags(doc: Document) -> list[str]:
    return [span.text for cue in doc.cues for span in markup.split(cue.text)
            if span.is_markup and span.text.startswith("<")]


def _vtt_to_srt(doc: Document, target: str = "srt") -> list[str]:
    """What WebVTT has that SubRip lacks, and the other formats too (``target``): ASS has no voices,
    classes, comments, regions or named cues either."""
    out = []
    tags = _tags(doc)
    voices = [m.group(1).strip() for t in tags if (m := _VOICE_RE.fullmatch(t))]
    if voices:
        out.append(_listing("voice name(s)", sorted(set(voices), key=voices.index), target))
    blocks: dict[str, int] = {}
    for seg in doc._segments:  # the verbatim text between cues: header, comments, styles, regions
        if isinstance(seg, str):
            for m in _BLOCK_RE.finditer(seg):
                blocks[m.group(1)] = blocks.get(m.group(1), 0) + 1
    if blocks:
        listed = ", ".join(f"{n} {kind}" for kind, n in blocks.items())
        out.append(f"converting to {target.upper()} drops {sum(blocks.values())} NOTE/STYLE/REGION block(s): "
                   f"{listed}")
    header = _header_extra(doc)
    if header:
        out.append(_listing("header line(s)", header, target))
    # SRT numbers its cues 1, 2, 3...: any other identifier is lost (and every identifier elsewhere).
    ids = [c.identifier for c in doc.cues
           if c.identifier and (target != "srt" or c.identifier.strip() != str(c.index + 1))]
    if ids:
        out.append(_listing("cue identifier(s)", ids, target))
    classes = [t for t in tags if _CLASS_RE.fullmatch(t)]
    if classes:
        out.append(_listing("class span(s)", classes, target))
    other = [t for t in tags if _OTHER_VTT_RE.fullmatch(t) and not t.startswith("</")]
    if other:
        out.append(_listing("ruby, language or timestamp tag(s)", other, target))
    # SubRip has no escapes: WebVTT's &lt; becomes a bare "<", which players take for a tag's start
    escaped = [markup.plain(c.text).replace("\n", " ") for c in doc.cues
               if target == "srt" and "&lt;" in c.text.lower()]
    if escaped:
        shown = ", ".join(repr(t[:40]) for t in escaped[:_EXAMPLES]) + (", \u2026" if len(escaped) > _EXAMPLES else "")
        out.append(f"converting to SRT writes the escaped '<' of {len(escaped)} cue(s) as a bare '<', which "
                   f"players may read as a tag and hide: {shown}")
    return out


def _header_extra(doc: Document) -> list[str]:
    """Header text after "WEBVTT" and the metadata lines below it."""
    first = doc._segments[0] if doc._segments and isinstance(doc._segments[0], str) else ""
    block = re.split(r"\r?\n[ \t]*\r?\n|\r[ \t]*\r", first, maxsplit=1)[0]
    lines = [ln for ln in re.split(r"\r\n|\r|\n", block) if ln.strip()]
    if not lines or not lines[0].startswith("WEBVTT"):
        return []
    extra = [lines[0][len("WEBVTT"):].strip(" \t-")] if lines[0].strip() != "WEBVTT" else []
    return [e for e in extra if e] + lines[1:]


def _srt_to_vtt(doc: Document) -> list[str]:
    dropped = [span.text for cue in doc.cues for span in markup.split(cue.text)
               if span.is_markup and not vtt.keeps_srt_markup(span.text) and not span.text.startswith("</")]
    return [_listing("tag(s) WebVTT has no form for", dropped, "vtt")] if dropped else []
