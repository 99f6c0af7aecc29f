"""The simulated review's speed with restored marks against without, in the same run.

    python bench/simulate_review_speed.py REFS... [--model DIR]

Each file is cased once per setting (``--strip-punct``, ``--punctuate never`` then ``auto``, the default), then
reviewed by the simulated editor (evaluation/simulate.py); the review alone is timed, the casing beside it, in
CPU seconds of this process (the machine may be shared: wall time would measure the neighbours).
With marks the editor visits more words and sets hundreds of marks, each of which moves sentence starts: the
review's structure is read again for the cues a mark changes, not the file (review/structure.py), so the time
per visit should stay near that of the run without marks (the baseline printed first).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from subcase.casing import CasingEngine
from subcase.casing.restoring import Punctuate
from subcase.evaluation.simulate import LEARNING, SimulateOptions, prepare, simulate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("refs", nargs="+", type=Path)
    ap.add_argument("--model", type=Path)
    args = ap.parse_args()
    paths = sorted(p for r in args.refs for p in ([r] if r.is_file() else r.iterdir())
                   if p.suffix.lower() in (".srt", ".vtt"))
    engine = CasingEngine(args.model)
    rows = []
    for punctuate in (Punctuate.NEVER, Punctuate.AUTO):
        options = SimulateOptions(strip_punct=True, punctuate=punctuate)
        t0 = time.process_time()
        preps = [prepare(p, engine, options) for p in paths]
        t1 = time.process_time()
        result = simulate(preps, engine, None, LEARNING)
        t2 = time.process_time()
        total = result["total"]
        rows.append((punctuate.value, total["words"], total["visited"], t1 - t0, t2 - t1))
    print(f"{len(paths)} files; --strip-punct, learning on")
    print(f"{'punctuate':10} {'words':>7} {'visited':>8} {'casing cpu s':>12} {'review cpu s':>12} {'ms/visit':>9} {'x never':>8}")
    base = rows[0][4]
    for name, words, visited, casing, review in rows:
        print(f"{name:10} {words:7d} {visited:8d} {casing:12.1f} {review:12.1f} {1000 * review / max(visited, 1):9.2f} "
              f"{review / base:8.2f}")


if __name__ == "__main__":
    main()
