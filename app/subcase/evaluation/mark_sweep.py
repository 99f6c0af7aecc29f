"""``subcase simulate-review --mark-thresholds T,T,...``: the mark threshold chosen from the editor's effort.

A restored mark the head is less sure of than the mark threshold puts its word on the review list
(``review.state.MARK_THRESHOLD``).  Each file is cased once; the simulated editor (evaluation/simulate.py)
then reviews it at each mark threshold of the sweep, and at 0 (no mark flagged).  For each: the review load
(words visited / words), the casing errors left (% of words), the marks left wrong (% of the reference's
marks), and what its step from the threshold before it buys: errors fixed (casing and marks) per visit added.

The rule, as the word threshold's was chosen (a visit must find errors at least as often as moving the
other threshold would, docs/research/2026-11-23-simulated-review.md): the chosen mark threshold is the
highest of the sweep up to which every step fixes at least as many errors per added visit as the casing
threshold's own last step (from ``CASING_STEP`` under the model's threshold up to it, marks not flagged).
Run it again for a new model; docs/research/2026-11-29-mark-threshold.md records the run behind the
shipped value.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Callable, Sequence

from subcase.casing import CasingEngine

from .simulate import Opening, Prepared, SimulateOptions, prepare, simulate
from .skipped import Skipped, read_each

CASING_STEP = 0.025  # the casing threshold's last step, the yardstick: 0.95 -> 0.975 for the English model


def _point(result: dict) -> dict:
    total = result["total"]
    p = total.get("punctuation") or {}
    marks = p.get("reference_marks", 0)
    return {"words": total["words"], "visited": total["visited"], "review_load": total["review_load"],
            "casing_left": total["residual_errors"], "casing_left_rate": total["residual_rate"],
            "marks_left": p.get("residual_errors", 0), "reference_marks": marks,
            "marks_left_rate": p.get("residual_errors", 0) / marks if marks else 0.0}


def _errors(point: dict) -> int:
    return point["casing_left"] + point["marks_left"]


def _step_yield(before: dict, after: dict) -> float | None:
    """Errors fixed per visit added from ``before`` to ``after`` (None: no visit added)."""
    added = after["visited"] - before["visited"]
    return (_errors(before) - _errors(after)) / added if added > 0 else None


def sweep(paths: list[Path], engine: CasingEngine, options: SimulateOptions, thresholds: Sequence[float],
          log: Callable[[str], None] = lambda s: None) -> dict:
    """Every file cased once, then reviewed at each mark threshold; the rows, the yardstick and the choice."""
    preps, skipped = read_each(paths, lambda p: prepare(p, engine, options), log)
    return sweep_prepared(preps, engine, options, thresholds, skipped)


def sweep_prepared(preps: list[Prepared], engine: CasingEngine, options: SimulateOptions,
                   thresholds: Sequence[float], skipped: list[Skipped] | None = None) -> dict:
    opening = Opening(learning=not options.no_learning)
    word_threshold = options.threshold if options.threshold is not None else engine.info.review_threshold

    def run(mark_threshold: float, threshold: float | None = options.threshold) -> tuple[dict, dict]:
        result = simulate(preps, engine, threshold, opening, list(skipped or ()), mark_threshold=mark_threshold)
        return _point(result), result

    base, result = run(0.0)
    lower, _ = run(0.0, word_threshold - CASING_STEP)
    yardstick = _step_yield(lower, base)
    rows = [{"mark_threshold": 0.0, **base, "step_yield": None}]
    chosen, paying = 0.0, True
    for t in sorted(set(thresholds) - {0.0}):
        point, _ = run(t)
        step = _step_yield(rows[-1], point)
        rows.append({"mark_threshold": t, **point, "step_yield": step})
        paying = paying and (step is None or yardstick is None or step >= yardstick)
        if paying:
            chosen = t
    return {"model": engine.info.version, "word_threshold": word_threshold, "casing_step": CASING_STEP,
            "casing_step_yield": yardstick, "casing_step_point": lower, "rows": rows, "chosen": chosen,
            "files": len(result["files"]), "skipped": result["skipped"],
            "options": {k: str(v) for k, v in asdict(options).items()}}


def format_sweep(data: dict) -> str:
    lines = [f"model {data['model']}, {data['files']} files, casing threshold {data['word_threshold']:.3f}",
             f"{'mark thr.':>9} {'visited':>8} {'load':>7} {'casing left':>12} {'marks left':>17} "
             f"{'errors fixed per added visit':>29}"]
    for r in data["rows"]:
        step = "" if r["step_yield"] is None else f"{r['step_yield']:.3f}"
        lines.append(f"{r['mark_threshold']:9.3f} {r['visited']:8d} {100 * r['review_load']:6.1f}% "
                     f"{r['casing_left']:5d} {100 * r['casing_left_rate']:5.2f}% "
                     f"{r['marks_left']:5d} of {r['reference_marks']:5d} {100 * r['marks_left_rate']:4.1f}% "
                     f"{step:>29}")
    y = data["casing_step_yield"]
    low = data["casing_step_point"]
    lines.append(f"yardstick: the casing threshold's step {data['word_threshold'] - data['casing_step']:.3f} -> "
                 f"{data['word_threshold']:.3f} (marks not flagged) fixes "
                 + (f"{y:.3f} errors per added visit" if y is not None else "nothing (no visit added)")
                 + f" ({low['visited']} visits at the lower threshold)")
    lines.append(f"chosen mark threshold: {data['chosen']:.3f} (the highest up to which every step fixes at least "
                 "as many errors per added visit)")
    return "\n".join(lines)


def parse_thresholds(text: str) -> list[float]:
    """"0.5,0.7,0.9" -> [0.5, 0.7, 0.9]; each in [0, 1]."""
    out = []
    for part in text.split(","):
        value = float(part)
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{part} is not a threshold from 0 to 1")
        out.append(value)
    return out
