"""Does a second placement of the windows tell the errors the model is sure of?

    PYTHONPATH=app python docs/research/scripts/window_placements.py ../shared/data/dev-subtitles

Each word takes its prediction from the window where it sits most centrally
(casing/windows.py).  This cases every reference file twice, the second time
with every window after the first moved on by half a step, so that most words
are read with other context, and ranks the words for review three ways: by
the confidence alone (what the app does), by the lower of the two readings'
confidences in the first reading's form, and by their mean.  Printed: the
errors left (share of words) when the editor reviews the lowest-ranked 5, 10,
15 and 20% of the words, with and without punctuation.  Measured
(docs/research/2026-11-23-simulated-review.md): no better than the confidence
alone, for twice the model time, so the app reads each word once.
"""

from __future__ import annotations

import bisect
import sys
from pathlib import Path

import subcase.casing.engine as engine_module
from subcase.casing import CasingEngine
from subcase.casing.language import detect, token_text
from subcase.casing.windows import Window, capped_offsets, plan_windows
from subcase.evaluation.runner import _ref_words, load_reference, model_input, run_model

LOADS = (0.05, 0.10, 0.15, 0.20)


def shifted_windows(lengths: list[int], budget: int, step: int) -> list[Window]:
    """``plan_windows`` with every window after the first starting half a step later."""
    offsets = capped_offsets(lengths, budget)
    s = bisect.bisect_left(offsets, step // 2, 1)
    if s >= len(lengths):
        return plan_windows(lengths, budget, step)
    head = max(bisect.bisect_right(offsets, budget) - 1, s, 1)
    return [Window(0, head)] + [Window(w.first + s, w.last + s) for w in plan_windows(lengths[s:], budget, step)]


def rows_for(engine: CasingEngine, path: Path, punctuated: bool) -> list[tuple[bool, float, float, float]]:
    """Per scored word: wrong in the first reading, its confidence, the lower and the mean of the two."""
    ref = load_reference(path)
    inp = model_input(ref, punctuated)
    # the file's model, as the app picks it (a file in a language no model cases is read by the English one)
    engine = engine.engine_for(detect([token_text(t) for t in inp]).language) or engine
    hyp_a, conf_a = run_model(engine, inp, pauses=ref.pauses)
    engine_module.plan_windows = shifted_windows  # the engine plans its windows with this name
    try:
        hyp_b, conf_b = run_model(engine, inp, pauses=ref.pauses)
    finally:
        engine_module.plan_windows = plan_windows
    rows = []
    for c, words in enumerate(_ref_words(ref)):
        for k, word in enumerate(words):
            # the second reading's belief in the first reading's form
            other = conf_b[c][k] if hyp_b[c][k] == hyp_a[c][k] else 1.0 - conf_b[c][k]
            rows.append((word != hyp_a[c][k], conf_a[c][k], min(conf_a[c][k], other), (conf_a[c][k] + other) / 2))
    return rows


def main(folders: list[str]) -> None:
    engine = CasingEngine()
    files = sorted(p for f in folders for p in Path(f).rglob("*") if p.suffix in (".srt", ".vtt"))
    for punctuated in (True, False):
        rows = [r for p in files for r in rows_for(engine, p, punctuated)]
        n, errors = len(rows), sum(r[0] for r in rows)
        print(f"{'punctuated' if punctuated else 'without punctuation'}: {len(files)} files, {n} words, "
              f"{errors} errors; errors left at review load " + ", ".join(f"{load:.0%}" for load in LOADS))
        for name, key in (("confidence (the app)", 1), ("lower of two readings", 2), ("mean of two readings", 3)):
            ranked = sorted(rows, key=lambda r: r[key])
            left = [errors - sum(r[0] for r in ranked[:int(n * load)]) for load in LOADS]
            print(f"  {name:24} " + "  ".join(f"{100 * e / n:.2f}%" for e in left))


if __name__ == "__main__":
    main(sys.argv[1:] or [str(Path(__file__).resolve().parents[4] / "shared" / "data" / "dev-subtitles")])
