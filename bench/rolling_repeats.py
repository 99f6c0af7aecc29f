"""Flicker in rolling captions: repeated lines that read differently after conversion.

A rolling layout (YouTube's automatic captions, roll-up captions) shows each line again in the next cue.
For every line of a cue that reads exactly like a line of the cue before in the input (tags left out), this
counts the pairs whose two copies read differently in the output.  Every such pair is a line a viewer sees
change as it scrolls; the count must be 0.

    python bench/rolling_repeats.py [FILES OR FOLDERS...] [--mode auto] [--punctuate auto]

Without files it reads ../shared/data/dev-asr (beside the repository).  Nothing is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from subcase.casing import CasingEngine, case_file
from subcase.evaluation.flicker import count_flicker, cue_lines
from subcase.subtitles import load

DEV_ASR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "dev-asr"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--mode", default="auto")
    parser.add_argument("--punctuate", default="auto")
    args = parser.parse_args(argv)
    paths = args.paths or [DEV_ASR]
    files = sorted(f for p in paths for f in (p.iterdir() if p.is_dir() else [p])
                   if f.suffix.lower() in (".srt", ".vtt"))
    if not files:
        print(f"no .srt or .vtt files in {', '.join(map(str, paths))}", file=sys.stderr)
        return 1
    engine = CasingEngine()
    total = [0, 0]
    print(f"mode {args.mode}, punctuate {args.punctuate}")
    print(f"{'file':60} {'repeats':>8} {'differ':>7}")
    for f in files:
        before = cue_lines(load(f))
        after = cue_lines(case_file(engine, f, args.mode, punctuate=args.punctuate).doc)
        repeats, differ = count_flicker(before, after)
        total[0] += repeats
        total[1] += differ
        print(f"{f.name[:60]:60} {repeats:8d} {differ:7d}")
    print(f"{'all':60} {total[0]:8d} {total[1]:7d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
