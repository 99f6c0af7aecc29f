"""Would fine-tuning the whole model on a series' corrected subtitles help its next files?

    pip install -e '.[train]'
    PYTHONPATH=app python docs/research/scripts/profile_finetune.py SERIES_FOLDER --first 9 --out work/pft \
        --checkpoint work/train/shipped.pt --cache work/train/dataset-v5.pkl [--minutes 4]

The paper's domain adaptation, as a profile would do it: the shipped model
(rebuilt by ``subcase.training.from_onnx``) goes on training on the first
``--first`` files of the series (in name order; the editor's corrected
subtitles), half of the windows from them and half from its own training data
so that it does not forget, half of all windows without punctuation.  The
result is exported as a model folder (int8, calibrated on the held-out
training windows as every model is) and both models are scored by
``subcase evaluate`` on the rest of the series, which it never saw.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the repository: docs/research/scripts/ -> root
sys.path.insert(0, str(ROOT / "app"))


def main() -> int:
    import torch

    from subcase.subtitles import load
    from subcase.training.corpora import Doc
    from subcase.training.examples import encode_doc
    from subcase.training.tagger import CaseTagger
    from subcase.training.train import SOURCE_WEIGHTS, batches, english_data, train_step

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("series", type=Path)
    ap.add_argument("--first", type=int, required=True, help="files to fine-tune on; the rest are scored")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--checkpoint", type=Path, required=True)
    ap.add_argument("--cache", type=Path, required=True)
    ap.add_argument("--minutes", type=float, default=4)
    ap.add_argument("--lr", type=float, default=2e-5)
    ap.add_argument("--head-lr", type=float, default=4e-4)
    ap.add_argument("--domain-share", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    files = sorted((p for p in args.series.iterdir() if p.suffix.lower() in (".srt", ".vtt")), key=lambda p: p.name)
    train_files, test_files = files[:args.first], files[args.first:]
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    enc_dir, encoder, ds, by_source, _ = english_data(args.cache)
    domain = [d for d in (encode_doc(Doc("series", [c.text for c in load(p).cues]), encoder) for p in train_files)
              if d is not None]
    model = CaseTagger(str(enc_dir), layers=3)
    state = torch.load(args.checkpoint, map_location="cpu")
    model.load_state_dict(state["model"], strict=False)
    opt = torch.optim.AdamW([{"params": model.encoder.parameters(), "lr": args.lr},
                             {"params": model.head.parameters(), "lr": args.head_lr}], weight_decay=0.01)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=-100)
    # the series is one more source for train.py's sampler, beside the model's own, scaled down
    weights = {src: w * (1 - args.domain_share) for src, w in SOURCE_WEIGHTS.items()} | {"series": args.domain_share}
    model.train()
    deadline, steps = time.time() + 60 * args.minutes, 0
    for ids, mask, labels in batches(by_source | {"series": domain}, rng, encoder, 16, weights):
        if time.time() >= deadline:
            break
        train_step(model, opt, loss_fn, ids, mask, labels)
        steps += 1
    args.out.mkdir(parents=True, exist_ok=True)
    ckpt = args.out / "finetuned.pt"
    torch.save({"model": model.state_dict(), "step": state["step"] + steps, "config": state.get("config", {})}, ckpt)
    print(f"fine-tuned {steps} steps on {len(train_files)} files ({len(domain)} documents)", flush=True)
    subprocess.run([sys.executable, "-m", "subcase.training.export", "--checkpoint", str(ckpt), "--out",
                    str(args.out / "model"), "--cache", str(args.cache)], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL)
    test_dir = args.out / "test"
    test_dir.mkdir(exist_ok=True)
    for p in test_files:
        (test_dir / p.name).write_bytes(p.read_bytes())
    scores = {}
    for name, model_dir in (("shipped", None), ("fine-tuned", args.out / "model")):
        out = args.out / f"eval-{name}.json"
        subprocess.run([sys.executable, "-m", "subcase", "evaluate", str(test_dir), "--no-baselines", "--no-per-cue",
                        "--json", str(out)] + (["--model", str(model_dir)] if model_dir else []),
                       check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        s = json.loads(out.read_text())["systems"]["subcase"]
        scores[name] = {k: {m: round(100 * s[k][m], 1) for m in ("f1", "intrinsic_f1", "ser")} for k in ("punct", "nopunct")}
        print(name, json.dumps(scores[name]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
