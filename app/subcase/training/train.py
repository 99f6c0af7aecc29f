"""Fine-tune the tagger on CPU with a time budget, checkpoints and a validation log.

    python -m subcase.training.train --out work/run --minutes 45 [--layer-mix] [--resume work/run/last.pt]

Sources are sampled with fixed weights so the small synthetic set and the
subtitles are seen often enough next to the much larger Wikipedia text.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import torch

from subcase.casing.encoder import WordEncoder

from .data import DEFAULT_CACHE, load_or_build
from .examples import IGNORE, add_strip_share, held_out_batches, make_batch, sample_window
from .tagger import CaseTagger
from .paths import encoder_dir

SOURCE_WEIGHTS = {"seinfeld": 0.30, "wiki": 0.30, "fortunes": 0.10, "synthetic": 0.15, "tech": 0.15}
BUDGET = 62  # sub-tokens per window, plus [CLS] and [SEP]


def batches(docs_by_source, rng: random.Random, encoder: WordEncoder, batch_size: int,
            source_weights: dict[str, float] = SOURCE_WEIGHTS, strip_share: float = 0.5):
    """Endless batches of training windows; ``strip_share`` of them lose their punctuation
    (speech-recognition input), the rest keep it."""
    sources = list(source_weights)
    weights = [source_weights[s] for s in sources]
    while True:
        windows = []
        while len(windows) < batch_size:
            src = rng.choices(sources, weights)[0]
            doc = rng.choice(docs_by_source[src])
            ids, labels = sample_window(doc, rng, BUDGET, strip_punct=rng.random() < strip_share)
            if ids:
                windows.append((ids, labels))
        yield make_batch(windows, encoder.cls_id, encoder.sep_id, encoder.pad_id)


def parse_weights(text: str) -> dict[str, float]:
    weights = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if name not in SOURCE_WEIGHTS:
            raise argparse.ArgumentTypeError(f"unknown source {name!r} (sources: {', '.join(SOURCE_WEIGHTS)})")
        weights[name] = float(value)
    return weights


@torch.no_grad()
def validate(model: CaseTagger, val_batches) -> dict:
    model.eval()
    correct = total = tp = fp = fn = 0
    for ids, mask, labels in val_batches:
        pred = model.logits(torch.from_numpy(ids), torch.from_numpy(mask)).argmax(-1).numpy()
        keep = labels != IGNORE
        p, g = pred[keep], labels[keep]
        correct += int((p == g).sum())
        total += int(keep.sum())
        tp += int(((p == g) & (g != 0)).sum())
        fp += int(((p != g) & (p != 0)).sum())
        fn += int(((p != g) & (g != 0)).sum())
    model.train()
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    return {"word_acc": correct / max(total, 1), "f1": 2 * prec * rec / max(prec + rec, 1e-9),
            "ser": (fp + fn) / max(tp + fn, 1)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--minutes", type=float, default=45)
    ap.add_argument("--layer-mix", action="store_true")
    ap.add_argument("--resume", type=Path)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--head-lr", type=float, default=1e-3)
    ap.add_argument("--layers", type=int, help="keep only this many encoder layers")
    ap.add_argument("--grow", action="store_true",
                    help="with --resume from a shallower checkpoint: its layers at the bottom, the layers above "
                         "from the pre-trained encoder (a deeper teacher for distillation)")
    add_run_options(ap)
    args = ap.parse_args(argv)

    rng = start_run(args)
    enc_dir, encoder, ds, by_source, val_batches = english_data(args.cache)

    model = CaseTagger(str(enc_dir), layer_mix=args.layer_mix, layers=args.layers)
    step = 0
    if args.resume:
        step = resume(model, torch.load(args.resume, map_location="cpu"), args.grow)
    head_params = list(model.head.parameters()) + (list(model.mix.parameters()) if model.mix else [])
    opt = torch.optim.AdamW([
        {"params": model.encoder.parameters(), "lr": args.lr},
        {"params": head_params, "lr": args.head_lr},
    ], weight_decay=0.01)
    loss_fn = torch.nn.CrossEntropyLoss(ignore_index=IGNORE)
    log = open(args.out / "log.jsonl", "a")
    config = {"layer_mix": args.layer_mix, "layers": args.layers, "batch_size": args.batch_size, "lr": args.lr,
              "head_lr": args.head_lr, "budget": BUDGET, "source_weights": args.weights, "strip_share": args.strip_share,
              "data": ds.stats, "encoder": str(enc_dir)}
    (args.out / "config.json").write_text(json.dumps(config, indent=2))

    time_boxed(model, opt, loss_fn, batches(by_source, rng, encoder, args.batch_size, args.weights, args.strip_share),
               val_batches, log, config, step, args)


def time_boxed(model, opt, loss_fn, stream, val_batches, log, config: dict, step: int, args: argparse.Namespace,
               every: int = 50, before_step=None) -> int:
    """Train on ``stream`` for ``args.minutes``: the schedule, a progress line every ``every`` steps (with
    the loss's own parts, ``loss_fn.last``, where it keeps them), a validated checkpoint every
    ``args.checkpoint_minutes`` and at the end; returns the last step.  ``before_step(ids, mask)`` runs
    before each step (distillation: the teacher reads the batch)."""
    base_lrs = [g["lr"] for g in opt.param_groups]
    start = time.time()
    deadline = start + args.minutes * 60
    last_ckpt = start
    seen = 0
    first_step = step
    model.train()
    for ids, mask, labels in stream:
        now = time.time()
        schedule(opt, base_lrs, step - first_step, (now - start) / (deadline - start))
        if before_step is not None:
            before_step(ids, mask)
        loss = train_step(model, opt, loss_fn, ids, mask, labels)
        step += 1
        seen += len(ids)
        if step % every == 0:
            print(json.dumps({"step": step, "loss": round(loss.item(), 4),
                              **{k: round(v, 4) for k, v in getattr(loss_fn, "last", {}).items()},
                              "seq_per_s": round(seen / (now - start + 1e-9), 1),
                              "minutes": round((now - start) / 60, 2)}), flush=True)
        done = now >= deadline
        if done or now - last_ckpt >= args.checkpoint_minutes * 60:
            last_ckpt = now
            checkpoint(model, val_batches, log, args.out, config, step, seen, (now - start) / 60)
        if done:
            break
    return step


def resume(model: CaseTagger, state: dict, grow: bool = False) -> int:
    """Load a checkpoint into ``model``; returns its step.

    A model with fewer layers than the checkpoint starts from its lower layers.  With
    ``grow``, a model with more layers takes the checkpoint's at the bottom and keeps the
    pre-trained encoder's weights above them: a deeper model that starts where the
    shallow one is, not from scratch."""
    missing, _ = model.load_state_dict(state["model"], strict=False)
    if grow:
        missing = [k for k in missing if not k.startswith("encoder.encoder.layer.")]
    if missing:
        raise SystemExit(f"checkpoint lacks {missing[:3]}...")
    return int(state["step"])


def add_run_options(ap: argparse.ArgumentParser) -> None:
    """The options train.py and distill.py share: checkpoints, seed, the share of unpunctuated windows,
    threads, the English data."""
    ap.add_argument("--checkpoint-minutes", type=float, default=5)
    ap.add_argument("--seed", type=int, default=0)
    add_strip_share(ap)
    ap.add_argument("--threads", type=int, default=1,
                    help="torch threads; 1 is fastest when anything else shares the cores")
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    ap.add_argument("--weights", type=parse_weights, default=SOURCE_WEIGHTS,
                    help="share of windows per source, e.g. seinfeld=0.25,wiki=0.45,fortunes=0.1,synthetic=0.2")


def start_run(args: argparse.Namespace) -> random.Random:
    """Threads, seeds and the output folder of a run; its window sampler's random generator."""
    if not 0.0 <= args.strip_share <= 1.0:
        raise SystemExit("--strip-share must be between 0 and 1")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    return random.Random(args.seed)


def english_data(cache: Path):
    """The English encoder folder, its tokenizer, the cached dataset, its training documents by
    source and the 800 held-out windows (seed 1234) every English run validates on."""
    enc_dir = encoder_dir()
    encoder = WordEncoder(enc_dir / "tokenizer.json")
    ds = load_or_build(cache, encoder)
    by_source: dict[str, list] = {}
    for src, doc in ds.train:
        by_source.setdefault(src, []).append(doc)
    return enc_dir, encoder, ds, by_source, held_out_batches(ds.val, encoder, BUDGET, n_windows=800, seed=1234)


def schedule(opt, base_lrs: list[float], steps_done: int, time_frac: float) -> None:
    """Warm-up over 200 steps, then linear decay by the share of the time budget used (floor 5%)."""
    warm = min(1.0, (steps_done + 1) / 200)
    for g, lr in zip(opt.param_groups, base_lrs):
        g["lr"] = lr * warm * max(0.05, 1.0 - time_frac)


def checkpoint(model, val_batches, log, out: Path, config: dict, step: int, seen: int, minutes: float) -> None:
    """Validate, log the record and replace OUT/last.pt atomically."""
    record = {"step": step, "minutes": round(minutes, 2), "sequences": seen, **validate(model, val_batches)}
    log.write(json.dumps(record) + "\n")
    log.flush()
    print("VAL", json.dumps(record), flush=True)
    torch.save({"model": model.state_dict(), "step": step, "config": config}, out / "last.tmp")
    (out / "last.tmp").replace(out / "last.pt")


def train_step(model, opt, loss_fn, ids, mask, labels):
    """One optimiser step on a batch of numpy arrays (token ids, attention mask, tag labels); returns the loss.

    Shared by the English and the multilingual pipelines, so both clip and step the same way."""
    import torch

    logits = model.logits(torch.from_numpy(ids), torch.from_numpy(mask))
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), torch.from_numpy(labels).reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return loss


if __name__ == "__main__":
    main()
