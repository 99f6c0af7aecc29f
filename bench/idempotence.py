"""Idempotence over the whole matrix (issue #56 item 4): convert, convert the output again, count changed files.

Inputs: the English and multilingual dev subtitles, each as written, lower-cased, stripped (lower case, no
punctuation) and in ALL CAPS, and the dev-asr files as received; every --mode and every --punctuate.  Each
conversion a second run changes is printed with its first changed line.  The tests run samples
(tests/casing/test_idempotence.py); this is the full run (about 40 minutes on 2 shared cores; its totals are
in docs/research/2026-11-29-idempotence.md):

    python bench/idempotence.py            # the full matrix
    python bench/idempotence.py --quick    # auto mode, --punctuate auto only
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from subcase.casing import CasingEngine
from subcase.evaluation.idempotence import PUNCTUATES, VARIANTS, run

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".srt", ".vtt")) if folder.is_dir() else []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="auto mode and --punctuate auto only")
    args = ap.parse_args(argv)
    modes = ["auto"] if args.quick else None
    punctuates = ["auto"] if args.quick else PUNCTUATES
    engine = CasingEngine()
    sets = {"dev-subtitles": (_files(DATA / "dev-subtitles"), VARIANTS),
            "dev-subtitles-ml": (_files(DATA / "dev-subtitles-ml"), VARIANTS),
            "dev-asr": (_files(DATA / "dev-asr"), ("as-written",))}
    started = time.perf_counter()
    total: Counter[str] = Counter()
    changed: Counter[str] = Counter()
    for name, (files, variants) in sets.items():
        if not files:
            print(f"{name}: not found under {DATA}", file=sys.stderr)
            continue
        kwargs = {"modes": modes} if modes else {}
        for result in run(engine, files, variants, punctuates=punctuates, **kwargs):
            key = f"{name:17s} {result.variant:10s} {result.mode:8s} {result.punctuate:6s}"
            total[key] += 1
            if not result.idempotent:
                changed[key] += 1
                print(f"CHANGED  {key} {result.src.name}: {result.first_change}", flush=True)
    print(f"\n{'set':17s} {'input':10s} {'mode':8s} {'punct':6s} changed/files")
    for key in total:
        print(f"{key} {changed[key]}/{total[key]}")
    print(f"all: {sum(changed.values())} of {sum(total.values())} conversions changed on a second run "
          f"({time.perf_counter() - started:.0f} s)")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
