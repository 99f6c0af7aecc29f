"""One command for the whole pipeline: data, fine-tuning, ONNX export, evaluation, model card.

    python -m subcase.training --minutes 60 [--layers 3] [--layer-mix] [--out models]

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


if __name__ == "__main__":
    main()
