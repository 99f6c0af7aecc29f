"""The window step at run time: dev F1 and CPU cost per film, for each step given.

    python docs/research/scripts/window_step.py [STEP ...]          (default: 54 58 60 62)

Accuracy: the dev subtitles (../shared/data/dev-subtitles), punctuated and with
punctuation stripped, through the same code as ``subcase evaluate``.  Speed: CPU
seconds (``time.process_time``, one onnxruntime thread) to case a 1,500-cue film,
steps alternating, median of 5 -- steadier than wall time on a shared machine.
Results for the shipped model are in docs/research/2026-11-23-window-overlap-at-run-time.md.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from subcase.casing import CasingEngine, case_file
from subcase.evaluation.bench import SHARED_DEV, make_film
from subcase.casing.restoring import Punctuate
from subcase.evaluation.runner import EvaluationOptions, evaluate


def main(steps: list[int]) -> None:
    paths = sorted(p for p in SHARED_DEV.iterdir() if p.suffix in (".srt", ".vtt")) if SHARED_DEV.is_dir() else []
    engines = {s: CasingEngine(step=s, threads=1) for s in steps}
    for s, engine in engines.items():
        if not paths:
            print(f"step {s}: no dev subtitles at {SHARED_DEV}; accuracy not measured")
            continue
        r = evaluate(paths, engine, EvaluationOptions(baselines=False, per_cue=False, punct_settings=(True, False),
                                                      punctuate=Punctuate.NEVER))["systems"]["subcase"]
        print(f"step {s}: dev F1 {100 * r['punct']['f1']:.2f} (SER {100 * r['punct']['ser']:.2f}), "
              f"no punct. F1 {100 * r['nopunct']['f1']:.2f} (SER {100 * r['nopunct']['ser']:.2f})", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(tmp) / "film.srt"
        make_film(film, 1500)
        cpu: dict[int, list[float]] = {s: [] for s in steps}
        words = 0
        for engine in engines.values():
            words = len(case_file(engine, film, punctuate="never").casing.words)  # warm-up: ORT's lazy set-up, word pieces
        for _ in range(5):
            for s, engine in engines.items():
                c0 = time.process_time()
                case_file(engine, film, punctuate="never")
                cpu[s].append(time.process_time() - c0)
    for s in steps:
        m = statistics.median(cpu[s])
        print(f"step {s}: {m:.3f} CPU s per film, {words / m:.0f} words per CPU-second ({words} words)")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [54, 58, 60, 62])
