"""SubRip: the scanner rules, and the cues of a new SRT file made from another format's."""

from __future__ import annotations

import re
from typing import Sequence

from . import markup
from .errors import ParseWarning
from .document import Cue
from .scan import Rules, scan

_NUMBER_RE = re.compile(r"\s*[0-9]+\s*")

RULES = Rules(
    fmt="srt",
    # Only a number can be an SRT index; anything else before a timing line
    # is the last text line of a cue whose blank line is missing.
    is_identifier=lambda line, first: _NUMBER_RE.fullmatch(line) is not None,
    verbatim_block=lambda line, first_block: False,
)


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    return scan(text, RULES)


# Tags SRT players understand; everything else WebVTT has is dropped.
_KEEP_RE = re.compile(r"<(/?)([ibu])(?:\.[^<>\s]*)?(?:\s[^<>]*)?>")
_POSITION = {("top", "left"): 7, ("top", "center"): 8, ("top", "right"): 9,
             ("middle", "left"): 4, ("middle", "center"): 5, ("middle", "right"): 6,
             ("bottom", "left"): 1, ("bottom", "right"): 3}


def _an_tag(settings: str) -> str:
    """WebVTT line/align settings as the nearest SRT {\\anN} position tag."""
    values = dict(part.split(":", 1) for part in settings.split() if ":" in part)
    vertical, horizontal = "bottom", "center"
    line = values.get("line", "").split(",")[0]
    try:
        number = float(line.rstrip("%"))
    except ValueError:
        number = None
    if number is not None:
        if line.endswith("%"):
            vertical = "top" if number < 34 else "middle" if number < 67 else "bottom"
        elif number >= 0:
            vertical = "top" if number < 4 else "bottom"
    horizontal = {"left": "left", "start": "left", "right": "right", "end": "right"}.get(
        values.get("align", ""), "center")
    n = _POSITION.get((vertical, horizontal))
    return f"{{\\an{n}}}" if n else ""


def text_from_vtt(text: str, settings: str) -> str:
    out = []
    for span in markup.split(text):
        if not span.is_markup:
            out.append(span.text)
        elif span.text.startswith("&"):
            out.append(markup.unescape(span.text))
        else:
            m = _KEEP_RE.fullmatch(span.text)
            if m:
                out.append(f"<{m.group(1)}{m.group(2)}>")
    return _an_tag(settings) + "".join(out)


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    """Fresh SRT cues, numbered from 1, from SubRip-style cues (another format's ``common_cues``)."""
    out: list[str | Cue] = []
    for number, cue in enumerate(cues, 1):
        lines = [ln for ln in cue.text.split("\n") if ln.strip()]
        out.append(Cue(str(number), cue.start_ms, cue.end_ms, "", "\n".join(lines)))
    return out
