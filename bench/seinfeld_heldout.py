"""Write the Seinfeld episodes every English run holds out (S09E14-19) as SRT files, with the corpus's timings.

    python bench/seinfeld_heldout.py OUT_DIR        (needs the train extra: seinfeld-laugh-corpus)

The English model trains on the other 90 episodes of the PyPI ``seinfeld-laugh-corpus``
(``training/data.py`` keeps its last ``VAL_SEINFELD_EPISODES`` episodes apart), so these six are
real, human-cased subtitles of a genre the dev files lack (sitcom dialogue, SDH sound cues) that
no run saw.  The README's and the model card's "Seinfeld S9E14-19" figures are
``subcase evaluate OUT_DIR`` and ``subcase simulate-review OUT_DIR`` on them (16,127 words).

A ``.merged`` file lists, per speaker turn (``# NAME``), each subtitle as its start time in
seconds, its lines, and its end time; ``**LOL**`` marks the laugh track between two times.  The
SRT cue is those lines and times; the laugh marks are left out, as in training.  The subtitle
text is copyrighted: the files are for local evaluation, never to be committed.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from subcase.subtitles import timecode
from subcase.training.corpora import _package_dir
from subcase.training.data import VAL_SEINFELD_EPISODES

_TIME = re.compile(r"\d+(\.\d+)?")


def cues_of(text: str) -> list[tuple[float, float, list[str]]]:
    """(start s, end s, lines) of each subtitle of a ``.merged`` file, in file order."""
    cues: list[tuple[float, float, list[str]]] = []
    start: float | None = None
    block: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        if _TIME.fullmatch(line):
            t = float(line)
            if block and start is not None:
                cues.append((start, max(t, start + 0.001), block))
                block, start = [], None
            else:  # a start time, or the time after a laugh mark: the last one before a text wins
                start = t
        elif line and line != "**LOL**" and not line.startswith("# "):
            block.append(line)
    return cues


def srt_of(cues: list[tuple[float, float, list[str]]]) -> str:
    blocks = []
    for n, (start, end, lines) in enumerate(cues, 1):
        span = f"{timecode.format_ms(round(start * 1000), 'srt')} --> {timecode.format_ms(round(end * 1000), 'srt')}"
        blocks.append(f"{n}\n{span}\n" + "\n".join(lines) + "\n")
    return "\n".join(blocks)


def main(out: Path) -> None:
    episodes = sorted((_package_dir("seinfeld_laugh_corpus") / "the_corpus").glob("*.merged"))
    out.mkdir(parents=True, exist_ok=True)
    for path in episodes[-VAL_SEINFELD_EPISODES:]:
        cues = cues_of(path.read_text(encoding="utf-8", errors="replace"))
        (out / f"{path.stem}.srt").write_text(srt_of(cues), encoding="utf-8")
        print(f"{out / (path.stem + '.srt')}: {len(cues)} cues")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.split("\n\n")[1].strip())
    main(Path(sys.argv[1]))
