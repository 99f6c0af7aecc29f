"""The restored marks' calibration: how far a mark's probability means what it says, and its temperature.

A restored mark puts its word on the review list when its probability is under the mark threshold
(review/state.py), so that probability must mean what it says, as a tag's does (casing/calibration.py).  The
population is the one the editor is shown: every mark the head restores where the input had none, its
confidence the head's probability of that mark, right when the reference has the same mark after the word.

``subcase evaluate --punctuate auto`` reports its expected calibration error beside the tags' (``restored_marks``);

    python -m subcase.evaluation.mark_calibration [--model DIR] [--write] REFS...

fits the temperature that minimises the restored marks' negative log-likelihood (``fit_temperature``, as the
tags' is fitted at export) on human-punctuated subtitles the model never trained on, input lower-cased without
punctuation, prints the ECE before and after, and with ``--write`` stores it in the model's model.json
(``punctuation.temperature``; the engine applies it to every mark probability, casing/restoring.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

import numpy as np

from subcase.casing import CasingEngine
from subcase.casing.calibration import apply_temperature, fit_temperature
from subcase.casing.language import detect, token_text
from subcase.casing.marks import MARKS
from subcase.casing.restoring import Punctuate

from .punctuation import mark_ece, restored_outcomes
from .runner import load_reference, model_input, subcase_casing


def collect(paths: Sequence[Path], engine: CasingEngine) -> list[tuple[tuple[float, ...], str]]:
    """The restored marks of every reference, input lower-cased and stripped, before any calibration."""
    head = engine.punctuation
    if head is None:
        raise SystemExit("this model restores no marks")
    kept, head.temperature = head.temperature, 1.0
    try:
        out = []
        for path in paths:
            ref = load_reference(path)
            inp = model_input(ref, punctuated=False)
            guess = detect([token_text(tokens) for tokens in ref.cues], "auto", engine.model_languages[0])
            _, casing = subcase_casing(engine, ref, inp, guess, punctuate=Punctuate.AUTO)
            out += restored_outcomes(ref.cues, ref.marks, casing.marks)
        return out
    finally:
        head.temperature = kept


def fit(outcomes: Sequence[tuple[tuple[float, ...], str]]) -> dict:
    probs = np.array([p for p, _ in outcomes], np.float64)
    gold = np.array([MARKS.index(g) for _, g in outcomes])
    temperature = fit_temperature(probs, gold)
    after = [(tuple(p), g) for p, (_, g) in zip(apply_temperature(probs, temperature).tolist(), outcomes)]
    return {"temperature": temperature, "before": mark_ece(outcomes), "after": mark_ece(after)}


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m subcase.evaluation.mark_calibration", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("refs", nargs="+", type=Path, help="human-punctuated subtitle files or folders")
    ap.add_argument("--model", type=Path, help="the model folder (default: the shipped model)")
    ap.add_argument("--write", action="store_true", help="store the temperature in the model's model.json")
    args = ap.parse_args(argv)
    paths = sorted(p for r in args.refs for p in ([r] if r.is_file() else r.iterdir())
                   if p.suffix.lower() in (".srt", ".vtt"))
    engine = CasingEngine(args.model)
    result = fit(collect(paths, engine))
    b, a = result["before"], result["after"]
    print(f"{len(paths)} files, {b['marks']} restored marks, {b['right']} right; temperature {result['temperature']}: "
          f"ECE {b['ece']:.4f} -> {a['ece']:.4f}")
    for before, after in zip(b["reliability"], a["reliability"]):
        print(f"  before {before['bin']} {before['words']:6d} conf {before['confidence']:.3f} acc "
              f"{before['accuracy']:.3f}   after {after['bin']} {after['words']:6d} conf {after['confidence']:.3f} "
              f"acc {after['accuracy']:.3f}")
    if args.write:
        card = engine.model_dir / "model.json"
        meta = json.loads(card.read_text(encoding="utf-8"))
        meta.setdefault("punctuation", {})["temperature"] = result["temperature"]
        meta["punctuation"]["calibration"] = {"fitted_on": f"{len(paths)} files, {b['marks']} restored marks",
                                              "ece_before": round(b["ece"], 4), "ece_after": round(a["ece"], 4)}
        from subcase.subtitles.atomic import write_atomic
        write_atomic(card, (json.dumps(meta, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
        print(f"wrote {card}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
