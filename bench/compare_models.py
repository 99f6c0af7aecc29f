"""Two model folders on the same reference subtitles: F1 of each and a paired interval of the difference.

    python bench/compare_models.py MODELS_A MODELS_B REF... [--strip-punct] [--lang auto|en|...]

Each folder is a full model directory as SUBCASE_MODEL_DIR takes it (the English model, and
multilingual/ beside it for es/fr/de/pt).  Both models case every file exactly as ``subcase evaluate``
does (``runner.subcase_outcomes``); per language and in total it prints both F1 and intrinsic F1
and the 90% interval of A - B over resamples of the files, both models scored on the same resample
(``intervals.f1_difference_interval``).  An interval that holds 0 means these files do not tell
the two models apart.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from subcase.batch import collect_inputs
from subcase.casing import CasingEngine
from subcase.casing.language import detect, token_text
from subcase.evaluation.intervals import LEVEL, f1_difference_interval
from subcase.evaluation.metrics import WordOutcome, score
from subcase.casing.restoring import Punctuate
from subcase.evaluation.runner import load_reference, model_input, subcase_outcomes


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_a", type=Path)
    ap.add_argument("model_b", type=Path)
    ap.add_argument("refs", nargs="+", type=Path)
    ap.add_argument("--strip-punct", action="store_true", help="input without punctuation")
    ap.add_argument("--lang", default="auto")
    args = ap.parse_args(argv)
    engines = [CasingEngine(args.model_a), CasingEngine(args.model_b)]
    files, bad = collect_inputs(args.refs)
    if bad or not files:
        raise SystemExit("; ".join(f"{r.src}: {r.error}" for r in bad) or "no .srt or .vtt files")
    # language -> per model, the outcomes of each file of that language, in the same order
    groups: dict[str, list[list[list[WordOutcome]]]] = {}
    for path in files:
        ref = load_reference(path)
        guess = detect([token_text(tokens) for tokens in ref.cues], args.lang, engines[0].model_languages[0])
        inp = model_input(ref, not args.strip_punct)
        outcomes = [subcase_outcomes(engine, ref, inp, guess, punctuate=Punctuate.NEVER)[0] for engine in engines]
        for group in (groups.setdefault(guess.language, [[], []]), groups.setdefault("all", [[], []])):
            for side, mine in zip(group, outcomes):
                side.append(mine)
    print(f"A = {args.model_a}\nB = {args.model_b}\n{len(files)} files, "
          f"{'no punctuation' if args.strip_punct else 'punctuated'}; {LEVEL:.0%} paired interval of A - B")
    print(f"{'files':8} {'n':>3} {'F1 A':>6} {'F1 B':>6} {'A - B':>13} {'iF1 A':>6} {'iF1 B':>6} {'A - B':>13}")
    for label in sorted(groups, key=lambda k: (k == "all", k)):
        a, b = groups[label]
        sa, sb = (score([o for f in side for o in f]) for side in (a, b))
        cells = []
        for key, intrinsic in (("f1", False), ("intrinsic_f1", True)):
            span = f1_difference_interval(a, b, intrinsic=intrinsic)
            text = "-" if span is None else f"{100*span[0]:+.1f} {100*span[1]:+.1f}"
            cells.append(f"{100*sa[key]:6.1f} {100*sb[key]:6.1f} {text:>13}")
        print(f"{label:8} {len(a):3d} " + " ".join(cells))


if __name__ == "__main__":
    main()
