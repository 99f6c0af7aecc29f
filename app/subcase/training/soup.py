"""Average the weights of runs fine-tuned from one checkpoint ("model soup") and keep what validates best.

    python -m subcase.training.soup work/train/a/last.pt work/train/b/last.pt --out work/train/best.pt

Two seeds trained side by side on a 2-core machine use both cores; averaging
their weights (Wortsman et al. 2022) often beats either run.  Every candidate,
the runs and their average, is scored on the same held-out windows, and the
best one by SER is written out (with ``--average``, the average itself).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from subcase.casing.encoder import WordEncoder

from .data import DEFAULT_CACHE, load_or_build
from .examples import held_out_batches
from .tagger import CaseTagger
from .paths import encoder_dir
from .train import BUDGET, validate


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("checkpoints", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--average", action="store_true",
                    help="write the average whatever scores best (the candidates are still scored and logged): "
                         "the shipped student's recipe, chosen before its runs, as held-out windows have "
                         "stopped predicting real subtitles (docs/research/2026-11-27-lineage.md)")
    args = ap.parse_args(argv)
    torch.set_num_threads(2)
    enc_dir = encoder_dir()
    encoder = WordEncoder(enc_dir / "tokenizer.json")
    ds = load_or_build(args.cache, encoder)
    batches = held_out_batches(ds.val, encoder, BUDGET, n_windows=800, seed=4321)
    states = [torch.load(p, map_location="cpu") for p in args.checkpoints]
    config = states[0]["config"]
    soup = {k: sum(s["model"][k].float() for s in states) / len(states) for k in states[0]["model"]}
    candidates = [(str(p), s["model"], s["step"], s["config"]) for p, s in zip(args.checkpoints, states)]
    # the average has seen every run's data
    data = {k: v for s in states for k, v in s["config"].get("data", {}).items()}
    candidates.append(("average", soup, max(s["step"] for s in states), dict(config, data=data)))
    model = CaseTagger.shaped_as(str(enc_dir), config)
    scored = []
    for name, weights, step, cfg in candidates:
        model.load_state_dict(weights)
        metrics = validate(model, batches)
        print(json.dumps({"candidate": name, **metrics}), flush=True)
        scored.append((metrics["ser"], name, weights, step, cfg, metrics))
    best = (next(t for t in scored if t[1] == "average") if args.average else min(scored, key=lambda t: t[0]))
    ser, name, weights, step, config, metrics = best
    config = dict(config, soup={"picked": name, "candidates": [c[0] for c in candidates],
                                "held_out": {k: round(v, 5) for k, v in metrics.items()}})
    torch.save({"model": weights, "step": step, "config": config}, args.out)
    print(f"picked {name} (SER {ser:.4f}) -> {args.out}")


if __name__ == "__main__":
    main()
