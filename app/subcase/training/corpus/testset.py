"""Writing the held-out documents as .srt files: real times where the source has them, regular
synthetic ones (a fixed reading rate, a fixed gap) where it has only cue cuts, and for transcripts
without cues, cues laid out as a caption tool would (two lines of at most 42 characters, a new cue
at each turn) with the speaker label left out."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from .formats import Cue

LINE = 42
GAP = 0.2
SECONDS_PER_WORD = 0.35
MIN_SECONDS = 1.0
_LABEL = re.compile(r"^[^\s:][^:\n]{0,40}:\s+(?=\S)")


def layout(turn: str) -> list[str]:
    """One transcript turn as caption cues of up to two lines of up to ``LINE`` characters."""
    # split at plain spaces only: a no-break space (French "vous\u00a0?") keeps the mark with its word
    words = [w for w in re.split(r"[ \t\n]+", _LABEL.sub("", turn, count=1)) if w]
    lines: list[str] = []
    current = ""
    for word in words:
        if current and len(current) + 1 + len(word) > LINE:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return ["\n".join(lines[i:i + 2]) for i in range(0, len(lines), 2)]


def timed(cues: list[Cue], cue_cuts: bool) -> list[Cue]:
    if not cue_cuts:
        cues = [Cue(text) for cue in cues for text in layout(cue.text)]
    if cues and all(c.start is not None and c.end is not None for c in cues):
        return cues
    out, clock = [], 1.0
    for cue in cues:
        end = clock + max(MIN_SECONDS, SECONDS_PER_WORD * len(cue.text.split()))
        out.append(Cue(cue.text, clock, end))
        clock = end + GAP
    return out


def _stamp(seconds: float) -> str:
    ms = max(0, round(seconds * 1000))
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"


def srt(cues: list[Cue]) -> str:
    blocks = []
    for n, cue in enumerate(cues, 1):
        assert cue.start is not None and cue.end is not None
        end = max(cue.end, cue.start + 0.001)
        blocks.append(f"{n}\n{_stamp(cue.start)} --> {_stamp(end)}\n{cue.text}\n")
    return "\n".join(blocks)


def write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
