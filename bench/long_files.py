"""Write long speech-recognition-like subtitle files (issue #56 item 5): a plain SRT and a rolling YouTube VTT.

The text is the dev subtitles' own (subcase.evaluation.long_files), so the files are generated, never
committed:

    python bench/long_files.py --words 150000 --out /tmp/long
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from subcase.evaluation.long_files import write_long_files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=150_000)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    for path in write_long_files(args.out, args.words):
        print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
