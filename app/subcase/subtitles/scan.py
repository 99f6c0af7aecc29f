"""The line scanner shared by the SRT and WebVTT readers.

It never discards a character: every line of the input ends up either in a
cue (identifier/timing lines, text lines, trailing blank lines) or in a
verbatim segment (WebVTT header, NOTE/STYLE/REGION blocks, stray text).  The
two formats differ only in the small rules passed in from srt.py and vtt.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .document import Cue, RawCue
from .errors import ParseWarning
from .lines import Line, split_lines
from .timecode import Timing, parse_timing


@dataclass(frozen=True, slots=True)
class Rules:
    fmt: str
    is_identifier: Callable[[str, bool], bool]  # (line, first line of its block)
    verbatim_block: Callable[[str, bool], bool]  # (first line, first block of file): header, NOTE...


@dataclass
class _Pending:
    """A cue being collected; the text may still grow (blank line inside a cue)."""

    line: int
    ident: Line | None
    timing: Line
    parsed: Timing
    text: list[Line] = field(default_factory=list)
    tail: list[Line] = field(default_factory=list)


def _blank(line: Line) -> bool:
    return not line[0].strip()


def _join(lines: list[Line]) -> str:
    return "".join(c + e for c, e in lines)


def _short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 40 else text[:37] + "..."


def scan(text: str, rules: Rules) -> tuple[list[str | Cue], list[ParseWarning]]:
    lines = split_lines(text)
    warnings: list[ParseWarning] = []
    warn = lambda i, msg: warnings.append(ParseWarning(i + 1, msg))  # noqa: E731
    fmt = rules.fmt
    timings: dict[int, Timing] = {}
    for i, (content, _) in enumerate(lines):
        if "-->" in content:
            t = parse_timing(content, fmt)
            if t is None:
                warn(i, f"cannot read the timing line '{_short(content)}'; kept as text")
            else:
                timings[i] = t

    items: list[list[Line] | _Pending] = []  # verbatim runs and cues, in order
    i, n = 0, len(lines)
    lead: list[Line] = []
    while i < n and _blank(lines[i]):
        lead.append(lines[i])
        i += 1
    if lead:
        items.append(lead)
    first_block = True
    while i < n:
        start = i
        while i < n and not _blank(lines[i]):
            i += 1
        block_end = i
        blanks_start = i
        while i < n and _blank(lines[i]):
            i += 1
        # A text block right after a cue continues that cue ("blank line
        # inside a cue"): most such files come from editors that allowed it,
        # and the text must stay casable.  Anywhere else (before the first cue,
        # or after a NOTE/STYLE/REGION block or stray text) it is stray text:
        # joining it to an earlier cue would move it across what lies between
        # on output.
        # Where cues start in this block: each timing line, with the line
        # before it when that is the cue's identifier.
        starts: list[tuple[int, int]] = []  # (first line of cue, timing line)
        floor = start
        for k in range(start, block_end):
            if k not in timings:
                continue
            first = k
            if k - 1 >= floor and rules.is_identifier(lines[k - 1][0], k - 1 == start) and not (
                    k - 1 == start and rules.verbatim_block(lines[start][0], first_block)):
                first = k - 1
            starts.append((first, k))
            floor = k + 1
        pre_end = starts[0][0] if starts else block_end
        last_item: list[Line] | _Pending | None = None
        if pre_end > start:
            pre = lines[start:pre_end]
            if rules.verbatim_block(pre[0][0], first_block):
                items.append(list(pre))
                last_item = items[-1]
                if starts:
                    warn(starts[0][0], "no blank line before this cue")
            elif items and isinstance(last_cue := items[-1], _Pending):
                warn(_blanks_start_of(last_cue, start), "blank line inside cue text")
                last_cue.text.extend(last_cue.tail)
                last_cue.text.extend(pre)
                last_cue.tail = []
                last_item = last_cue
                if starts:
                    warn(starts[0][0], "no blank line before this cue")
            else:
                warn(start, f"text outside any cue is ignored: '{_short(pre[0][0])}'")
                items.append(list(pre))
                last_item = items[-1]
        elif first_block and fmt == "vtt":
            warn(start, "no WEBVTT header line at the start of the file")
        for j, (first, k) in enumerate(starts):
            end = starts[j + 1][0] if j + 1 < len(starts) else block_end
            for problem in timings[k].problems:
                warn(k, problem)
            cue = _Pending(k + 1, lines[first] if first < k else None, lines[k], timings[k],
                           list(lines[k + 1:end]))
            if j + 1 < len(starts):
                warn(end, "no blank line before this cue")
            items.append(cue)
            last_item = cue
        blanks = lines[blanks_start:i]
        if isinstance(last_item, _Pending):
            last_item.tail = list(blanks)
            if len(blanks) > 1 and i < n:
                warn(blanks_start + 1, f"{len(blanks) - 1} extra blank line(s) between cues")
        elif last_item is not None:
            last_item.extend(blanks)
        first_block = False
    segments = [_join(it) if isinstance(it, list) else _finish(it, fmt) for it in items]
    _check_cues([s for s in segments if isinstance(s, Cue)], fmt, warn)
    warnings.sort(key=lambda w: w.line)
    return segments, warnings


def _blanks_start_of(cue: _Pending, fallback: int) -> int:
    """0-based line of the first blank line after a cue's text."""
    return cue.line + len(cue.text) if cue.tail else fallback


def _finish(p: _Pending, fmt: str) -> Cue:
    head = _join([p.ident] if p.ident else []) + _join([p.timing])
    text = "\n".join(c for c, _ in p.text)
    cue = Cue(p.ident[0].strip() if p.ident else None, p.parsed.start_ms, p.parsed.end_ms,
              p.parsed.settings if fmt == "vtt" else "", text, line=p.line)
    cue.raw = RawCue(head, cue.head_key(), text, tuple(e for _, e in p.text), _join(p.tail))
    return cue


def _check_cues(cues: list[Cue], fmt: str, warn: Callable[[int, str], None]) -> None:
    prev: Cue | None = None
    for cue in cues:
        at = cue.line - 1
        if fmt == "srt":
            if cue.identifier is None:
                warn(at, "cue has no index number")
            elif prev is not None and (before := _index(prev.identifier)) is not None \
                    and _index(cue.identifier) != before + 1:
                warn(at - 1, f"cue number {cue.identifier} out of sequence after {prev.identifier}")
        if not cue.text.strip():
            warn(at, "empty cue")
        if cue.end_ms < cue.start_ms:
            warn(at, "cue ends before it starts")
        if prev is not None:
            if cue.start_ms < prev.start_ms:
                warn(at, "cue starts before the previous cue (out of order)")
            elif cue.start_ms < prev.end_ms:
                warn(at, "cue overlaps the previous cue")
        prev = cue


def _index(identifier: str | None) -> int | None:
    """An SRT index number, None if absent or too long to be one (int() of
    thousands of digits raises ValueError)."""
    if identifier is None:
        return None
    digits = identifier.strip().lstrip("0") or "0"
    return int(digits) if len(digits) <= 18 else None
