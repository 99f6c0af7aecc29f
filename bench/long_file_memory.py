"""Where the memory of converting a long file goes, phase by phase (issue #56 item 5, #55 item 5).

    python bench/long_file_memory.py FILE [--punctuate auto] [--tracemalloc 8]

Runs the steps of ``subcase convert`` on FILE one at a time, as ``batch.convert.convert_file`` does (read,
case, write the marks, apply the casing, render), and prints after each its time, the resident memory now
and the peak so far (VmRSS, VmHWM of /proc/self/status).  ``--tracemalloc N`` also prints the N source lines
holding the most Python memory after each phase (tracemalloc slows the run several times; its sizes are
Python objects only, not onnxruntime's or numpy's buffers).  The long files come from
``python bench/long_files.py``.  Numbers, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from pathlib import Path


def _status() -> tuple[float, float]:
    """(VmRSS, VmHWM) in MB."""
    fields = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--punctuate", default="auto")
    ap.add_argument("--model", type=Path, default=None)
    ap.add_argument("--tracemalloc", type=int, default=0, metavar="N")
    ap.add_argument("--out", type=Path, default=None, help="also write the converted file here")
    args = ap.parse_args(argv)
    if args.tracemalloc:
        tracemalloc.start(1)
    t0 = time.perf_counter()
    rows: list[tuple[str, float]] = []

    def phase(name: str) -> None:
        rss, hwm = _status()
        now = time.perf_counter()
        rows.append((name, now))
        took = now - (rows[-2][1] if len(rows) > 1 else t0)
        print(f"{name:<14} {took:7.1f} s   rss {rss:7.0f} MB   peak {hwm:7.0f} MB", flush=True)
        if args.tracemalloc:
            snap = tracemalloc.take_snapshot()
            now_mb, peak_mb = (x / 2**20 for x in tracemalloc.get_traced_memory())
            tracemalloc.reset_peak()
            print(f"    python objects {now_mb:.0f} MB, {peak_mb:.0f} MB at the phase's peak; the largest now:")
            for stat in snap.statistics("lineno")[:args.tracemalloc]:
                frame = stat.traceback[0]
                print(f"    {stat.size / 2**20:8.1f} MB {stat.count:>9,}  {frame.filename.split('/app/')[-1]}:{frame.lineno}")

    from subcase.casing import CasingEngine, case_document
    from subcase.casing.pipeline import apply_casing, write_marks
    from subcase.subtitles import load
    engine = CasingEngine(args.model)
    phase("model loaded")
    doc = load(args.file)
    phase("read")
    casing = case_document(engine, doc, punctuate=args.punctuate)
    phase("cased")
    casing = write_marks(doc, casing)
    phase("marks written")
    changed = apply_casing(doc, casing)
    phase("casing applied")
    data = doc.to_bytes()
    phase("rendered")
    if args.out is not None:
        args.out.write_bytes(data)
    print(f"{len(casing.words):,} words, {changed:,} changed, {len(casing.marks):,} marks, {len(data):,} bytes out; "
          f"{rows[-1][1] - rows[0][1]:.1f} s after the model loaded")
    return 0


if __name__ == "__main__":
    sys.exit(main())
