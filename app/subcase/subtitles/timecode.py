"""Cue timing lines: lenient reading, strict writing.

Real files use "." where SRT wants ",", drop the hours, pad oddly
("0:01:00,00") or carry four-digit milliseconds.  They are all read, and the
reader says what was off so the caller can warn; writing always produces the
strict form of the target format.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ASCII digits only: str.isdigit and \d also accept other scripts' digits.
# Hours and fractions are read up to 9 digits: longer runs are no time anyone
# wrote (and Python refuses int() of over 4300 digits), so such a line is an
# unreadable timing line, kept as text like any other.
_TS = r"(?:([0-9]{1,9}):)?([0-9]{1,2}):([0-9]{1,2})(?:([,.:])([0-9]{1,9}))?"
TIMING_RE = re.compile(rf"^\s*{_TS}\s*-->\s*{_TS}(?:[ \t]+(.*?))?\s*$")
_STRICT = {"srt": re.compile(r"[0-9]{2,}:[0-9]{2}:[0-9]{2},[0-9]{3}"),
           "vtt": re.compile(r"(?:[0-9]{2,}:)?[0-9]{2}:[0-9]{2}\.[0-9]{3}")}


@dataclass(frozen=True, slots=True)
class Timing:
    start_ms: int
    end_ms: int
    settings: str
    problems: tuple[str, ...]  # human-readable deviations from the strict form


def _ms(hours: str | None, minutes: str, seconds: str, sep: str | None, frac: str | None,
        fmt: str, problems: list[str]) -> int:
    text = f"{hours + ':' if hours is not None else ''}{minutes}:{seconds}{sep or ''}{frac or ''}"
    if _STRICT[fmt].fullmatch(text) is None:
        expected = "HH:MM:SS,mmm" if fmt == "srt" else "HH:MM:SS.mmm"
        why = []
        if sep is None:
            why.append("no milliseconds")
        elif sep != ("," if fmt == "srt" else "."):
            why.append(f"'{sep}' before the milliseconds")
        if frac is not None and len(frac) != 3:
            why.append(f"{len(frac)}-digit milliseconds")
        if hours is None and fmt == "srt":
            why.append("no hours")
        elif hours is not None and len(hours) < 2:
            why.append("1-digit hours")
        detail = f" ({', '.join(why)})" if why else ""
        problems.append(f"timestamp '{text}' is not in {expected} form{detail}")
    if int(minutes) > 59 or int(seconds) > 59:
        problems.append(f"timestamp '{text}' has minutes or seconds above 59")
    # The digits after the separator are a decimal fraction of a second:
    # ",5" is 500 ms, ",1234" is 123.4 ms, rounded.
    millis = round(int(frac) * 1000 / 10 ** len(frac)) if frac else 0
    return ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + millis


def parse_timing(line: str, fmt: str) -> Timing | None:
    """Read a "start --> end [settings]" line, or None if it is not one."""
    m = TIMING_RE.match(line)
    if m is None:
        return None
    problems: list[str] = []
    g = m.groups()
    start = _ms(g[0], g[1], g[2], g[3], g[4], fmt, problems)
    end = _ms(g[5], g[6], g[7], g[8], g[9], fmt, problems)
    return Timing(start, end, g[10] or "", tuple(problems))


def format_ms(ms: int, fmt: str) -> str:
    """Strict timestamp for the target format; negative times clamp to zero."""
    ms = max(ms, 0)
    if fmt == "ass":  # H:MM:SS.cc, centiseconds
        minutes, cs = divmod(round(ms / 10), 6000)
        hours, minutes = divmod(minutes, 60)
        return f"{hours}:{minutes:02d}:{cs // 100:02d}.{cs % 100:02d}"
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    sep = "," if fmt == "srt" else "."
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{sep}{millis:03d}"


def timing_block(identifier: str | None, start_ms: int, end_ms: int, settings: str,
                 fmt: str, newline: str) -> str:
    """The identifier and timing lines of a cue written from scratch (for ASS, its Dialogue line up to the
    Text field, from the template ``ass`` keeps in the settings: the line around its two times, NUL-separated)."""
    if fmt == "ass":
        before, between, after = settings.split("\x00")[:3]
        return f"{before}{format_ms(start_ms, fmt)}{between}{format_ms(end_ms, fmt)}{after}"
    line = f"{format_ms(start_ms, fmt)} --> {format_ms(end_ms, fmt)}"
    if fmt == "vtt" and settings:
        line += f" {settings}"
    if identifier:
        return f"{identifier}{newline}{line}{newline}"
    return f"{line}{newline}"
