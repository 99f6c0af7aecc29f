"""WebVTT: the scanner rules, and the cues of a new WebVTT file made from another format's."""

from __future__ import annotations

import re
from typing import Sequence

from . import markup, srt
from .errors import ParseWarning
from .document import Cue
from .scan import Rules, scan

HEADER_RE = re.compile(r"WEBVTT(?:[ \t].*)?")
SIGNATURE_RE = re.compile(r"WEBVTT(?:[ \t\r\n]|$)")
_BLOCK_RE = re.compile(r"(?:NOTE|STYLE|REGION)(?:[ \t].*)?")


def _verbatim_block(line: str, first_block: bool) -> bool:
    """The header, comments, style sheets and regions are kept as written."""
    return (first_block and HEADER_RE.fullmatch(line) is not None) or _BLOCK_RE.fullmatch(line) is not None


RULES = Rules(
    fmt="vtt",
    # In WebVTT any line directly above the timing line, first in its block,
    # is the cue identifier; a bare number is one even without a blank line.
    is_identifier=lambda line, first: first or re.fullmatch(r"\s*[0-9]+\s*", line) is not None,
    verbatim_block=_verbatim_block,
)


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    return scan(text, RULES)


# Tags WebVTT has (and the ASS overrides that say the same); SRT's <font>, <s> and unknown tags are dropped.
_KEEP_RE = re.compile(r"</?[ibu]>", re.IGNORECASE)
_AN_RE = re.compile(r"\{\\an([1-9])\}")
_ASS_STYLE_RE = re.compile(r"\{\\([ibu])([01])\}", re.IGNORECASE)
_SETTINGS = {1: "align:left", 3: "align:right", 4: "line:50% align:left", 5: "line:50%",
             6: "line:50% align:right", 7: "line:0 align:left", 8: "line:0", 9: "line:0 align:right"}
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def text_from_srt(text: str) -> tuple[str, str]:
    """SRT cue text as WebVTT cue text, and the cue settings for {\\anN}."""
    out, settings = [], ""
    for span in markup.split(text):
        if not span.is_markup:
            out.append("".join(_ESCAPES.get(ch, ch) for ch in span.text))
        elif span.text.startswith("&"):
            out.append(span.text)
        elif _KEEP_RE.fullmatch(span.text):
            out.append(span.text.lower())
        elif span.text in ("\\N", "\\n"):
            out.append("\n")
        elif span.text == "\\h":
            out.append("&nbsp;")
        elif m := _AN_RE.fullmatch(span.text):
            settings = _SETTINGS.get(int(m.group(1)), "")
        elif m := _ASS_STYLE_RE.fullmatch(span.text):  # {\i1} ... {\i0}: WebVTT's <i> ... </i>
            out.append(f"<{'' if m.group(2) == '1' else '/'}{m.group(1).lower()}>")
    return "".join(out), settings


def keeps_srt_markup(tag: str) -> bool:
    """Whether ``text_from_srt`` carries this SRT markup span into WebVTT in some form (conversion
    warnings list the others)."""
    return (tag.startswith("&") or tag in ("\\N", "\\n", "\\h") or _KEEP_RE.fullmatch(tag) is not None
            or _AN_RE.fullmatch(tag) is not None or _ASS_STYLE_RE.fullmatch(tag) is not None)


def has_signature(text: str) -> bool:
    """Whether decoded text starts with the WEBVTT signature."""
    return SIGNATURE_RE.match(text) is not None


def common_cues(cues: Sequence[Cue]) -> list[Cue]:
    """WebVTT cues as SubRip-style cues: the tags SubRip has, positions as {\\anN}, escapes resolved."""
    return [Cue(None, cue.start_ms, cue.end_ms, "", srt.text_from_vtt(cue.text, cue.settings)) for cue in cues]


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    """A header and fresh WebVTT cues (escaped text, {\\anN} as cue settings) from SubRip-style cues."""
    out: list[str | Cue] = ["WEBVTT" + newline + newline]
    for cue in cues:
        text, settings = text_from_srt(cue.text)
        lines = [ln for ln in text.split("\n") if ln.strip()]
        out.append(Cue(cue.identifier, cue.start_ms, cue.end_ms, settings, "\n".join(lines)))
    return out
