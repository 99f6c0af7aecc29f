"""One model for casing and marks: the encoder fine-tuned for both, on real captions (issue #55, step b).

    python -m subcase.training.joint train --corpus /work/corpus/en --init work/joint/shipped.pt \
        --out work/joint/en --minutes 60 [--resume]
    python -m subcase.training.joint compact --checkpoint work/joint/en/last.pt --out models/wip/joint-en.fp16.pt
    python -m subcase.training.joint train ... --from-compact models/wip/joint-en.fp16.pt   (on another machine)
    python -m subcase.training.joint export --checkpoint work/joint/en/last.pt --out work/joint/en-model

The tagger gets a second head, a small network over the same hidden state that gives the mark written after
each word (``casing.marks.MARKS``: none, comma, full stop, question, exclamation).  Both heads read the
word's first sub-token, where the casing head already reads, so one int8 graph can give per word the tag and
the mark probabilities with no hidden-state output and no numpy head.

The encoder itself is trained, on windows of real human captions (``corpus`` JSONL, built by
``training.corpus``) that cross cue boundaries; ``--strip-share`` of the windows lose their punctuation and
speaker labels, as speech recognition gives them, and only those windows teach the marks (with punctuation
written, the mark is in the input).  Casing learns from every window, and is distilled from the shipped
model (``--init``, rebuilt by ``from_onnx``): the loss adds ``--distill`` times the KL divergence from the
teacher's tag probabilities, so that casing on punctuated text does not drift while the encoder learns to
read unpunctuated speech.

Checkpoints: OUT/last.pt (full, with the optimiser, for ``--resume``) every ``--checkpoint-minutes`` and at
the end, validated on held-out documents (every ``--val-every``-th document of the corpus, by a fixed
hash); OUT/log.jsonl gets one record per checkpoint.  ``compact`` writes the fp16 weights alone, without
the frozen word embeddings (which ``--init`` gives back): what a run that must continue on another machine
commits, and ``train --from-compact`` goes on from.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from subcase.casing.encoder import BOUNDARY, WordEncoder
from subcase.casing.marks import MARKS, mark_after
from subcase.casing.tags import TAGS, tag_of
from subcase.subtitles.words import has_letters, tokenize

from .examples import IGNORE, SPEAKER_LABEL
from .paths import encoder_dir
from .tagger import CaseTagger

BUDGET = 62  # sub-tokens per window, plus [CLS] and [SEP]: the engine's window
TAG_INDEX = {t: i for i, t in enumerate(TAGS)}
MARK_INDEX = {m: i for i, m in enumerate(MARKS)}


class JointTagger(CaseTagger):
    """The casing tagger with a mark head beside its tag head, on the same hidden state."""

    def __init__(self, encoder_dir: str, mark_hidden: int = 256, **kw):
        super().__init__(encoder_dir, **kw)
        hidden = self.encoder.config.hidden_size
        self.mark_head = nn.Sequential(nn.Linear(hidden, mark_hidden), nn.GELU(), nn.Linear(mark_hidden, len(MARKS)))

    @classmethod
    def shaped_as(cls, encoder_dir: str, config: dict) -> "JointTagger":
        return cls(encoder_dir, layer_mix=bool(config.get("layer_mix")), layers=config.get("layers"),
                   intermediate=config.get("intermediate"), heads=config.get("heads"),
                   mark_hidden=int(config.get("mark_hidden", 256)))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Tag and mark probabilities, each (batch, tokens, classes): the exported graph's two outputs."""
        tags, marks = self.both_logits(input_ids, attention_mask)
        return torch.softmax(tags, dim=-1), torch.softmax(marks, dim=-1)

    def both_logits(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.encoder(input_ids=input_ids, attention_mask=attention_mask)
        h = self.dropout(out.last_hidden_state)
        return self.head(h), self.mark_head(h)


@dataclass
class Encoded:
    """A document's tokens, flattened across cues: sub-token ids, the tag and mark label of each token."""

    pieces: list[list[int]]
    tags: list[int]
    marks: list[int]
    drop_when_stripped: list[bool]   # punctuation and speaker labels: speech recognition gives neither
    cue_starts: list[int]


def encode(cues: list[str], encoder: WordEncoder) -> Encoded | None:
    texts: list[str] = []
    tags: list[int] = []
    marks: list[int] = []
    drop: list[bool] = []
    cue_starts: list[int] = []
    for cue in cues:
        cue_starts.append(len(texts))
        texts.append(BOUNDARY)  # every cue opens with the boundary marker, as at run time
        tags.append(IGNORE)
        marks.append(IGNORE)
        drop.append(False)
        labels = [m.span() for m in SPEAKER_LABEL.finditer(cue)]
        for tok in tokenize(cue):
            in_label = any(a <= tok.start < b for a, b in labels)
            texts.append(tok.text)
            drop.append(not tok.is_word or in_label)
            tags.append(TAG_INDEX[tag_of(tok.text)] if tok.is_word and has_letters(tok.text) else IGNORE)
            marks.append(MARK_INDEX[mark_after(cue, tok.end)] if tok.is_word and not in_label else IGNORE)
    if all(t == IGNORE for t in tags):
        return None
    return Encoded(encoder.pieces(texts), tags, marks, drop, cue_starts)


def window(doc: Encoded, rng: random.Random, strip: bool) -> tuple[list[int], list[int], list[int]]:
    """One window's sub-token ids, tag labels and mark labels (marks only when stripped), without [CLS]/[SEP]."""
    start = rng.choice(doc.cue_starts) if rng.random() < 0.7 else rng.randrange(len(doc.pieces))
    ids: list[int] = []
    tags: list[int] = []
    marks: list[int] = []
    last_word: int | None = None
    for i in range(start, len(doc.pieces)):
        if strip and doc.drop_when_stripped[i]:
            continue
        p = doc.pieces[i]
        if len(ids) + len(p) > BUDGET:
            # the last word's mark depends on what follows, which the window does not show: not a label
            if last_word is not None:
                marks[last_word] = IGNORE
            break
        last_word = len(marks)
        ids.extend(p)
        tags.append(doc.tags[i])
        tags.extend([IGNORE] * (len(p) - 1))
        marks.append(doc.marks[i] if strip else IGNORE)
        marks.extend([IGNORE] * (len(p) - 1))
    return ids, tags, marks


def batch(windows, cls_id: int, sep_id: int, pad_id: int):
    n = max(len(w[0]) for w in windows) + 2
    ids = np.full((len(windows), n), pad_id, dtype=np.int64)
    mask = np.zeros((len(windows), n), dtype=np.int64)
    tags = np.full((len(windows), n), IGNORE, dtype=np.int64)
    marks = np.full((len(windows), n), IGNORE, dtype=np.int64)
    for r, (w_ids, w_tags, w_marks) in enumerate(windows):
        k = len(w_ids)
        ids[r, 0] = cls_id
        ids[r, 1:k + 1] = w_ids
        ids[r, k + 1] = sep_id
        mask[r, :k + 2] = 1
        tags[r, 1:k + 1] = w_tags
        marks[r, 1:k + 1] = w_marks
    return ids, mask, tags, marks


def is_held_out(doc_id: str, every: int) -> bool:
    """A fixed share of the documents, chosen by a hash of their id (stable across corpus rebuilds)."""
    return int(hashlib.sha256(doc_id.encode()).hexdigest()[:8], 16) % every == 0


LONG_CUE = 16  # words: longer "cues" are transcript turns or paragraphs, not subtitles


def recut(cues: list[str], rng: random.Random) -> list[str]:
    """Transcript turns and paragraphs cut into cues of 5-14 words, as a subtitler or a speech recogniser
    would: more often than not right after a written mark (a clause or a sentence ends there), otherwise
    anywhere, so that the model meets sentence ends inside cues and cue ends inside sentences."""
    out: list[str] = []
    for cue in cues:
        words = cue.split()
        if len(words) <= LONG_CUE:
            out.append(cue)
            continue
        i = 0
        while i < len(words):
            size = rng.randint(5, 14)
            if len(words) - i <= 14:
                size = len(words) - i
            elif rng.random() < 0.6:
                ends = [k for k in range(i + 4, min(i + 15, len(words))) if words[k - 1][-1:] in ".?!,;:"]
                if ends:
                    size = rng.choice(ends) - i
            out.append(" ".join(words[i:i + size]))
            i += size
    return out


def load_corpus(folder: Path, encoder: WordEncoder, val_every: int, max_words_per_shard: int | None = None,
                seed: int = 0):
    """Training and held-out documents of a corpus folder (``*.jsonl`` shards, one per source), by genre,
    with the training words per genre; a shard stops giving documents at ``max_words_per_shard``."""
    rng = random.Random(seed)
    train: dict[str, list[Encoded]] = {}
    val: list[Encoded] = []
    stats: dict[str, int] = {}
    for shard in sorted(folder.glob("*.jsonl")):
        taken = 0
        with open(shard, encoding="utf-8") as f:
            for line in f:
                rec = json.loads(line)
                genre = rec.get("genre", "other")
                held = is_held_out(rec["id"], val_every)
                if not held and max_words_per_shard and taken >= max_words_per_shard:
                    continue
                cues = recut([c for c in rec["cues"] if c and c.strip()], rng)
                enc = encode(cues, encoder) if cues else None
                if enc is None:
                    continue
                if held:
                    val.append(enc)
                    continue
                train.setdefault(genre, []).append(enc)
                n = sum(1 for t in enc.tags if t != IGNORE)
                stats[genre] = stats.get(genre, 0) + n
                taken += n
    return train, val, stats


def stream(train: dict[str, list[Encoded]], rng: random.Random, encoder: WordEncoder, batch_size: int,
           strip_share: float):
    """Endless batches; a genre is sampled in proportion to the square root of its size (the big
    transcript sources would drown the subtitles, and a small genre must not be learnt by heart),
    documents in proportion to their length."""
    genres = sorted(train)
    weights = {g: np.cumsum([len(d.pieces) for d in train[g]]) for g in genres}
    share = [float(np.sqrt(weights[g][-1])) for g in genres]
    while True:
        windows = []
        while len(windows) < batch_size:
            g = rng.choices(genres, share)[0]
            cum = weights[g]
            doc = train[g][int(np.searchsorted(cum, rng.random() * cum[-1], side="right"))]
            w = window(doc, rng, strip=rng.random() < strip_share)
            if w[0]:
                windows.append(w)
        yield batch(windows, encoder.cls_id, encoder.sep_id, encoder.pad_id)


def held_out(val: list[Encoded], encoder: WordEncoder, n: int = 600, seed: int = 1234, size: int = 32):
    rng = random.Random(seed)
    windows = []
    for i in range(n):
        w = window(val[rng.randrange(len(val))], rng, strip=i % 2 == 1)
        if w[0]:
            windows.append(w)
    return [batch(windows[i:i + size], encoder.cls_id, encoder.sep_id, encoder.pad_id)
            for i in range(0, len(windows), size)]


@torch.no_grad()
def validate(model: JointTagger, batches) -> dict:
    model.eval()
    tag_tp = tag_fp = tag_fn = 0
    conf = np.zeros((len(MARKS), len(MARKS)), dtype=np.int64)
    for ids, mask, tags, marks in batches:
        t_logits, m_logits = model.both_logits(torch.from_numpy(ids), torch.from_numpy(mask))
        tp = t_logits.argmax(-1).numpy()
        keep = tags != IGNORE
        p, g = tp[keep], tags[keep]
        tag_tp += int(((p == g) & (g != 0)).sum())
        tag_fp += int(((p != g) & (p != 0)).sum())
        tag_fn += int(((p != g) & (g != 0)).sum())
        mp = m_logits.argmax(-1).numpy()
        keep = marks != IGNORE
        np.add.at(conf, (marks[keep], mp[keep]), 1)
    model.train()
    out = {"case_f1": 2 * tag_tp / max(2 * tag_tp + tag_fp + tag_fn, 1)}
    for k, name in ((1, "comma"), (2, "full_stop"), (3, "question"), (4, "exclamation")):
        tp, fp, fn = conf[k, k], conf[:, k].sum() - conf[k, k], conf[k, :].sum() - conf[k, k]
        out[f"{name}_f1"] = float(2 * tp / max(2 * tp + fp + fn, 1))
    return {k: round(float(v), 4) for k, v in out.items()}


def schedule(opt, base_lrs, steps: int, frac: float) -> None:
    warm = min(1.0, (steps + 1) / 300)
    for g, lr in zip(opt.param_groups, base_lrs):
        g["lr"] = lr * warm * max(0.05, 1.0 - frac)


def save(path: Path, payload: dict) -> None:
    tmp = path.with_suffix(".tmp")
    torch.save(payload, tmp)
    tmp.replace(path)


def train(args: argparse.Namespace) -> None:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    enc_dir = encoder_dir()
    encoder = WordEncoder(enc_dir / "tokenizer.json")
    t0 = time.time()
    corpus, val, stats = load_corpus(args.corpus, encoder, args.val_every, args.max_words_per_shard, args.seed)
    print(json.dumps({"loaded": stats, "val_docs": len(val), "seconds": round(time.time() - t0)}), flush=True)

    init = torch.load(args.init, map_location="cpu")
    config = dict(init["config"], mark_hidden=args.mark_hidden)
    model = JointTagger.shaped_as(str(enc_dir), config)
    model.load_state_dict(init["model"], strict=False)  # the mark head starts fresh
    teacher = None
    if args.distill > 0:
        teacher = CaseTagger.shaped_as(str(enc_dir), init["config"])
        teacher.load_state_dict(init["model"], strict=False)
        teacher.eval()
    # The word embeddings stay as they are: 30k x 384 of the 12M parameters, most of them for words a
    # caption corpus barely shows; updating them tripled a step's time and can only forget.
    model.encoder.embeddings.word_embeddings.weight.requires_grad_(False)
    heads = list(model.head.parameters()) + list(model.mark_head.parameters())
    body = [p for p in model.encoder.parameters() if p.requires_grad]
    opt = torch.optim.AdamW([{"params": body, "lr": args.lr},
                             {"params": heads, "lr": args.head_lr}], weight_decay=0.01)
    step = done_minutes = 0.0
    last = args.out / "last.pt"
    if args.from_compact:
        state = torch.load(args.from_compact, map_location="cpu")
        load_weights(model, state, args.init)
        step, done_minutes = state["step"], state["minutes"]
        print(f"going on from {args.from_compact} at step {step}, {done_minutes:.1f} minutes", flush=True)
    if args.resume and last.exists():
        state = torch.load(last, map_location="cpu")
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        step, done_minutes = state["step"], state["minutes"]
        print(f"resumed at step {step}, {done_minutes:.1f} minutes", flush=True)
    run_config = {**config, "corpus": str(args.corpus), "corpus_words": stats, "lr": args.lr,
                  "head_lr": args.head_lr, "batch_size": args.batch_size, "strip_share": args.strip_share,
                  "distill": args.distill, "seed": args.seed, "budget": BUDGET, "total_minutes": args.total_minutes}
    (args.out / "config.json").write_text(json.dumps(run_config, indent=2))
    val_batches = held_out(val, encoder)
    base_lrs = [g["lr"] for g in opt.param_groups]
    ce = nn.CrossEntropyLoss(ignore_index=IGNORE)
    log = open(args.out / "log.jsonl", "a")
    start = time.time()
    deadline = start + args.minutes * 60
    last_ckpt = start
    seen = 0
    model.train()

    def checkpoint(now: float) -> None:
        minutes = done_minutes + (now - start) / 60
        record = {"step": int(step), "minutes": round(minutes, 2), **validate(model, val_batches)}
        log.write(json.dumps(record) + "\n")
        log.flush()
        print("VAL", json.dumps(record), flush=True)
        save(last, {"model": model.state_dict(), "opt": opt.state_dict(), "rng": rng.getstate(),
                    "torch_rng": torch.get_rng_state(), "step": step, "minutes": minutes, "config": run_config})

    for ids, mask, tags, marks in stream(corpus, rng, encoder, args.batch_size, args.strip_share):
        now = time.time()
        frac = (done_minutes + (now - start) / 60) / args.total_minutes
        schedule(opt, base_lrs, int(step), min(frac, 1.0))
        ids_t, mask_t = torch.from_numpy(ids), torch.from_numpy(mask)
        t_logits, m_logits = model.both_logits(ids_t, mask_t)
        tags_t, marks_t = torch.from_numpy(tags), torch.from_numpy(marks)
        loss_tag = ce(t_logits.reshape(-1, t_logits.shape[-1]), tags_t.reshape(-1))
        loss_mark = ce(m_logits.reshape(-1, m_logits.shape[-1]), marks_t.reshape(-1)) if (marks != IGNORE).any() \
            else t_logits.sum() * 0
        loss = loss_tag + args.mark_weight * loss_mark
        if teacher is not None:
            with torch.no_grad():
                soft = torch.softmax(teacher.logits(ids_t, mask_t), -1)
            sel = tags_t != IGNORE
            kl = torch.nn.functional.kl_div(torch.log_softmax(t_logits[sel], -1), soft[sel], reduction="batchmean")
            loss = loss + args.distill * kl
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        seen += len(ids)
        if step % 50 == 0:
            print(json.dumps({"step": int(step), "loss": round(loss.item(), 4), "tag": round(loss_tag.item(), 4),
                              "mark": round(loss_mark.item(), 4), "seq_per_s": round(seen / (now - start + 1e-9), 1),
                              "minutes": round(done_minutes + (now - start) / 60, 2)}), flush=True)
        if now >= deadline or now - last_ckpt >= args.checkpoint_minutes * 60:
            last_ckpt = now
            checkpoint(now)
            if now >= deadline:
                break


# Parameters a run never changes (the word embeddings, see ``train``): a compact checkpoint leaves them out
# and takes them from the --init checkpoint again, which ``from_onnx`` rebuilds from the shipped model.
FROZEN = ("encoder.embeddings.word_embeddings.weight",)


def compact(args: argparse.Namespace) -> None:
    """The fp16 weights and config of a checkpoint, without the optimiser and the frozen parameters: what
    a run commits to go on elsewhere (``train --from-compact``, which restarts the optimiser)."""
    state = torch.load(args.checkpoint, map_location="cpu")
    out = {"model": {k: v.half() if v.is_floating_point() else v for k, v in state["model"].items()
                     if k not in FROZEN},
           "step": state["step"], "minutes": state["minutes"], "config": state["config"], "frozen": list(FROZEN)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    save(args.out, out)
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB, step {state['step']}")


def load_weights(model: JointTagger, state: dict, init: Path | None) -> None:
    """A checkpoint's weights into ``model``; a compact one's frozen parameters come from ``init``."""
    weights = {k: v.float() if v.is_floating_point() else v for k, v in state["model"].items()}
    missing = [k for k in state.get("frozen", ()) if k not in weights]
    if missing:
        if init is None:
            raise SystemExit("a compact checkpoint needs --init for the parameters it leaves out")
        base = torch.load(init, map_location="cpu")["model"]
        weights.update({k: base[k] for k in missing})
    model.load_state_dict(weights)


def export(args: argparse.Namespace) -> None:
    """A checkpoint as a model folder the engine runs: int8 graph (7-bit weights, fused, last layer gathered)
    with ``probs`` and ``marks``; tokenizer, lexicon and calibration are the ``--like`` folder's (a trial
    export to measure with ``subcase evaluate``; the shipping export refits calibration and thresholds)."""
    import shutil
    import tempfile

    from subcase.digest import file_sha256

    from .export import optimize, quantize
    from .gather import GRAPH, INPUTS, gather_file

    state = torch.load(args.checkpoint, map_location="cpu")
    model = JointTagger.shaped_as(str(encoder_dir()), state["config"])
    load_weights(model, state, args.init)
    model.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        raw, fp32, int8 = (Path(tmp) / n for n in ("raw.onnx", "fp32.onnx", "model.onnx"))
        ids = torch.ones(2, 16, dtype=torch.long)
        torch.onnx.export(model, (ids, torch.ones_like(ids)), str(raw), input_names=["input_ids", "attention_mask"],
                          output_names=["probs", "marks"], opset_version=17, dynamo=False,
                          dynamic_axes={n: {0: "batch", 1: "tokens"}
                                        for n in ("input_ids", "attention_mask", "probs", "marks")})
        att = model.encoder.encoder.layer[0].attention.self
        fused = optimize(raw, fp32, att.all_head_size, att.num_attention_heads)
        quantize(fp32, int8)
        gather_file(int8, int8)
        shutil.copyfile(int8, args.out / "model.onnx")
    for name in ("tokenizer.json", "lexicon.json"):
        shutil.copyfile(args.like / name, args.out / name)
    meta = json.loads((args.like / "model.json").read_text(encoding="utf-8"))
    meta.update({"sha256": file_sha256(args.out / "model.onnx"), "inputs": INPUTS, "outputs": ["probs", "marks"],
                 "graph": GRAPH, "training": {k: v for k, v in state["config"].items() if k != "encoder"},
                 "training_steps": int(state["step"]), "fused_operators": fused,
                 "trial": f"joint checkpoint {args.checkpoint.name}; calibration carried over from {args.like}"})
    meta.pop("export_check", None)
    (args.out / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(f"{args.out}: {(args.out / 'model.onnx').stat().st_size / 1e6:.1f} MB, step {state['step']}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    t = sub.add_parser("train", help="fine-tune the encoder for casing and marks")
    t.add_argument("--corpus", type=Path, required=True, help="a folder of corpus JSONL shards (one language)")
    t.add_argument("--init", type=Path, required=True, help="the checkpoint to start from (from_onnx of the shipped model)")
    t.add_argument("--out", type=Path, required=True)
    t.add_argument("--minutes", type=float, default=60, help="this session's share of the run")
    t.add_argument("--total-minutes", type=float, default=600, help="the whole run, for the learning-rate decay")
    t.add_argument("--resume", action="store_true", help="go on from OUT/last.pt")
    t.add_argument("--from-compact", type=Path,
                   help="go on from a compact checkpoint (another machine's; the optimiser starts afresh)")
    t.add_argument("--batch-size", type=int, default=16)
    t.add_argument("--lr", type=float, default=4e-5)
    t.add_argument("--head-lr", type=float, default=5e-4)
    t.add_argument("--mark-hidden", type=int, default=256)
    t.add_argument("--mark-weight", type=float, default=1.0)
    t.add_argument("--distill", type=float, default=1.0, help="weight of the KL term to the --init model's tags")
    t.add_argument("--strip-share", type=float, default=0.7)
    t.add_argument("--val-every", type=int, default=50, help="every N-th document (by hash) is held out")
    t.add_argument("--max-words-per-shard", type=int, default=800_000,
                   help="training words loaded per source shard (memory and loading time; 0 for all)")
    t.add_argument("--checkpoint-minutes", type=float, default=8)
    t.add_argument("--threads", type=int, default=1, help="1 is fastest when anything else shares the cores")
    t.add_argument("--seed", type=int, default=0)
    c = sub.add_parser("compact", help="write a checkpoint's fp16 weights alone")
    c.add_argument("--checkpoint", type=Path, required=True)
    c.add_argument("--out", type=Path, required=True)
    e = sub.add_parser("export", help="a checkpoint as a model folder (int8, probs and marks) to measure")
    e.add_argument("--checkpoint", type=Path, required=True)
    e.add_argument("--out", type=Path, required=True)
    e.add_argument("--init", type=Path, help="the run's --init checkpoint (for a compact checkpoint)")
    e.add_argument("--like", type=Path, default=Path("models"), help="the folder whose tokenizer, lexicon and card to take")
    args = ap.parse_args(argv)
    if args.command == "train" and not 0.0 <= args.strip_share <= 1.0:
        sys.exit("--strip-share must be between 0 and 1")
    {"train": train, "compact": compact, "export": export}[args.command](args)


if __name__ == "__main__":
    main()
