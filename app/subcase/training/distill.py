"""Distil the shipped tagger into a smaller student (fewer layers, a narrower feed-forward block).

    python -m subcase.training.from_onnx --out work/train/shipped.pt          # the teacher
    python -m subcase.training.distill --teacher work/train/shipped.pt --out work/distill/l2f768 \\
        --keep-layers 0,2 --intermediate 768 --minutes 80 --threads 1
    python -m subcase.training.export --checkpoint work/distill/l2f768/last.pt --out work/distill/model

The student starts from the teacher's own weights: the encoder layers listed in
``--keep-layers`` (renumbered), each feed-forward block pruned to ``--intermediate``
units by weight norm (``tagger.prune_ffn``), with ``--heads`` only the attention heads
that matter most for the gold tags (``head_importance``, then ``tagger.prune_heads``),
and the teacher's head. It then trains on
the normal training windows (same sources, weights, punctuated and stripped halves
as ``train``) with

    loss = alpha * T^2 * KL(teacher_T || student_T) + (1 - alpha) * CE(student, gold)

on the words' sub-tokens (the positions the gold tags sit on), where ``_T`` is a
softmax at temperature T (Hinton et al. 2015; T^2 keeps the soft term's gradient
on the scale of the hard one). The teacher's softened probabilities carry what the
gold tags do not: how close the runner-up tag was. With ``--hidden-weight beta`` the loss
also has ``beta`` times the mean squared difference between each student layer's output and
the output of the teacher layer it started from (``--keep-layers``), over the windows' real
sub-tokens (TinyBERT, Jiao et al. 2020): a student as deep and as wide in its hidden states
as its teacher can be taught what every layer computes, not only what the last one
concludes; 0, the default, is the recipe of the shipped student. Checkpoints have the ``train``
format, so ``export`` (ONNX, int8, calibration temperature) and ``soup`` take them as
they are; the calibration temperature is fitted at export, as for every model.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from functools import partial
from pathlib import Path

import torch
from torch.nn import functional as F


from .examples import IGNORE
from .tagger import CaseTagger, prune_ffn, prune_heads, student_state
from .train import (BUDGET, add_run_options, batches, english_data, start_run, time_boxed,
                    validate)


class LayerTap:
    """The outputs of some of a model's encoder layers in its latest forward pass (forward hooks),
    for a loss that compares a student's layers with its teacher's."""

    def __init__(self, model: CaseTagger, layers: list[int]):
        self.layers = list(layers)
        self.outputs: dict[int, torch.Tensor] = {}
        for i in self.layers:  # for the whole run: a tapped model is a distillation's student or teacher
            model.encoder.encoder.layer[i].register_forward_hook(partial(self._keep, i))

    def _keep(self, i: int, _module, _args, output) -> None:
        self.outputs[i] = output[0] if isinstance(output, tuple) else output

    def take(self) -> list[torch.Tensor]:
        """The kept outputs in ``layers`` order, forgotten once taken (one forward pass, one use)."""
        if any(i not in self.outputs for i in self.layers):
            raise RuntimeError("LayerTap: no forward pass since the outputs were last taken")
        return [self.outputs.pop(i) for i in self.layers]


class DistillLoss:
    """The loss ``train_step`` calls as ``loss_fn(logits, labels)``, holding the teacher's logits
    for the batch in hand (set by ``teach`` before each step), so the one optimiser step of
    ``train.train_step`` serves distillation too.  With ``hidden_weight`` and ``tap``, also the
    layer-by-layer distance of the student's hidden states to the teacher's."""

    def __init__(self, temperature: float, alpha: float, hidden_weight: float = 0.0):
        self.temperature = temperature
        self.alpha = alpha
        self.hidden_weight = hidden_weight
        self.teacher_logits: torch.Tensor | None = None
        self.mask: torch.Tensor | None = None
        self.taps: tuple[LayerTap, LayerTap] | None = None
        self.last: dict[str, float] = {}

    def tap(self, student: CaseTagger, teacher: CaseTagger, keep_layers: list[int]) -> None:
        """Compare student layer j with teacher layer ``keep_layers[j]``, the one it started from."""
        self.taps = (LayerTap(student, list(range(len(keep_layers)))), LayerTap(teacher, keep_layers))

    def teach(self, teacher: CaseTagger, ids: torch.Tensor, mask: torch.Tensor) -> None:
        with torch.no_grad():
            logits = teacher.logits(ids, mask)
        self.teacher_logits = logits.reshape(-1, logits.shape[-1])
        self.mask = mask

    def hidden_distance(self) -> torch.Tensor:
        """Mean over the tapped layers of the squared difference per hidden unit, at real sub-tokens."""
        student_tap, teacher_tap = self.taps
        keep = self.mask.bool()
        terms = [F.mse_loss(s[keep], t.detach()[keep]) for s, t in zip(student_tap.take(), teacher_tap.take())]
        return torch.stack(terms).mean()

    def __call__(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        if self.teacher_logits is None:
            raise RuntimeError("DistillLoss: call teach() with the batch first")
        keep = labels != IGNORE
        ce = F.cross_entropy(logits[keep], labels[keep])
        t = self.temperature
        kd = F.kl_div(F.log_softmax(logits[keep] / t, dim=-1), F.log_softmax(self.teacher_logits[keep] / t, dim=-1),
                      log_target=True, reduction="batchmean") * t * t
        self.teacher_logits = None  # one batch only: a stale teacher must never be used
        loss = self.alpha * kd + (1 - self.alpha) * ce
        self.last = {"ce": ce.item(), "kd": kd.item()}
        if self.hidden_weight:
            if self.taps is None:
                raise RuntimeError("DistillLoss: a hidden_weight needs tap(student, teacher, keep_layers) first")
            hidden = self.hidden_distance()
            loss = loss + self.hidden_weight * hidden
            self.last["hidden"] = hidden.item()
        return loss


def make_student(teacher_state: dict, teacher_config: dict, keep_layers: list[int], intermediate: int | None,
                 enc_dir: Path) -> CaseTagger:
    """The student, initialised from the teacher's layers ``keep_layers`` and head, FFN pruned."""
    # the teacher's own feed-forward width first (a distilled teacher is narrower than the encoder's), then pruned
    student = CaseTagger(str(enc_dir), layer_mix=bool(teacher_config.get("layer_mix")), layers=len(keep_layers),
                         intermediate=teacher_config.get("intermediate"))
    student.load_state_dict(student_state(teacher_state, keep_layers), strict=False)
    if intermediate and intermediate != student.encoder.config.intermediate_size:
        for layer in student.encoder.encoder.layer:
            prune_ffn(layer, intermediate)
        student.encoder.config.intermediate_size = intermediate
    return student


def head_importance(model: CaseTagger, batch_iter, n_batches: int) -> torch.Tensor:
    """How much each attention head matters, shape (layers, heads): the summed absolute
    gradient of the gold-tag loss with respect to a gate on the head's output, batch by
    batch (Michel et al. 2019, "Are sixteen heads really better than one?"). A head whose
    removal would barely move the loss scores near zero."""
    layers = model.encoder.encoder.layer
    heads, size = model.heads, layers[0].attention.self.attention_head_size
    gates = torch.ones(len(layers), heads, requires_grad=True)
    hooks = [layer.attention.output.dense.register_forward_pre_hook(
        lambda _mod, args, i=i: (args[0] * gates[i].repeat_interleave(size),)) for i, layer in enumerate(layers)]
    score = torch.zeros(len(layers), heads)
    was_training = model.training
    model.eval()  # no dropout: the gradient of the model as it predicts
    try:
        for ids, mask, labels in itertools.islice(batch_iter, n_batches):
            logits = model.logits(torch.from_numpy(ids), torch.from_numpy(mask))
            gold = torch.from_numpy(labels).reshape(-1)
            keep = gold != IGNORE
            loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1])[keep], gold[keep])
            (grad,) = torch.autograd.grad(loss, gates)
            score += grad.abs()
    finally:
        for hook in hooks:
            hook.remove()
        model.train(was_training)
    return score


def keep_heads(student: CaseTagger, importance: torch.Tensor, heads: int) -> list[list[int]]:
    """Prune every layer of ``student`` to its ``heads`` most important heads (the same number
    in every layer: the fused attention of the exported graph has one head count)."""
    kept = [sorted(torch.topk(row, heads).indices.tolist()) for row in importance]
    for layer, keep in zip(student.encoder.encoder.layer, kept):
        prune_heads(layer, keep)
    return kept


def load_teacher(path: Path, enc_dir: Path, mpnet_encoder: Path | None = None) -> tuple[torch.nn.Module, dict]:
    """The teacher in eval mode and its checkpoint; with ``mpnet_encoder``, a checkpoint of ``mpnet.train``
    (another encoder, read through the same ids: its soft tags sit on the student's sub-tokens)."""
    state = torch.load(path, map_location="cpu")
    if mpnet_encoder is not None:
        from .mpnet import make_tagger
        teacher = make_tagger(mpnet_encoder)
    else:
        teacher = CaseTagger.shaped_as(str(enc_dir), state["config"])
    teacher.load_state_dict(state["model"])
    teacher.eval()
    return teacher, state


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--teacher", type=Path, required=True, help="checkpoint (from_onnx rebuilds the shipped one)")
    ap.add_argument("--teacher-encoder", type=Path,
                    help="the teacher is an MPNet tagger (training/mpnet.py) on this encoder folder; the student "
                         "then goes on from --resume (e.g. the shipped one, rebuilt by from_onnx)")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--keep-layers", default="0,2", help="teacher layers the student starts from, e.g. 0,2")
    ap.add_argument("--intermediate", type=int, help="feed-forward width of the student (pruned by weight norm)")
    ap.add_argument("--heads", type=int, help="attention heads per layer the student keeps (the most important "
                    "for the gold tags on --importance-batches training batches)")
    ap.add_argument("--importance-batches", type=int, default=40)
    ap.add_argument("--minutes", type=float, default=80)
    ap.add_argument("--temperature", type=float, default=2.0, help="softmax temperature of the soft targets")
    ap.add_argument("--alpha", type=float, default=0.5, help="weight of the soft (KL) term; 1 - alpha for gold CE")
    ap.add_argument("--hidden-weight", type=float, default=0.0,
                    help="weight of the mean squared distance of each student layer's output to its teacher "
                         "layer's (0: logits only, the shipped recipe)")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--head-lr", type=float, default=5e-4)
    add_run_options(ap)
    ap.add_argument("--resume", type=Path, help="go on from this student checkpoint (its shape wins over "
                    "--keep-layers/--intermediate); the schedule starts again (warm-up, then decay)")
    ap.add_argument("--init-only", action="store_true",
                    help="validate the teacher and the untrained student, save the student, do not train")
    args = ap.parse_args(argv)
    if args.teacher_encoder and not args.resume:
        raise SystemExit("an MPNet teacher (--teacher-encoder) has no layers a student can start from: give --resume")
    if args.teacher_encoder and args.hidden_weight:
        raise SystemExit("--hidden-weight compares layers of one encoder; the MPNet teacher's are 768 wide")

    rng = start_run(args)
    # the same 800 held-out windows (seed 1234) as train.py's validation log
    enc_dir, encoder, ds, by_source, val_batches = english_data(args.cache)

    teacher, teacher_ckpt = load_teacher(args.teacher, enc_dir, args.teacher_encoder)
    keep_layers = [int(x) for x in args.keep_layers.split(",")]
    first_step = 0
    if args.resume:
        state = torch.load(args.resume, map_location="cpu")
        keep_layers = state["config"]["distill"]["keep_layers"]
        student = CaseTagger.shaped_as(str(enc_dir), state["config"])
        student.load_state_dict(state["model"])
        first_step = state["step"]
    else:
        student = make_student(teacher_ckpt["model"], teacher_ckpt["config"], keep_layers, args.intermediate, enc_dir)
        if args.heads and args.heads != student.heads:
            # scored on their own batches (another seed), so the training stream is the one without --heads
            importance = head_importance(student, batches(by_source, random.Random(args.seed + 7919), encoder,
                                                          args.batch_size, args.weights), args.importance_batches)
            kept = keep_heads(student, importance, args.heads)
            print("HEADS", json.dumps({"importance": importance.tolist(), "kept": kept}), flush=True)
    base = state["config"] if args.teacher_encoder else teacher_ckpt["config"]  # the student's own shape
    config = {**{k: v for k, v in base.items() if k not in ("soup", "distill")},
              "layers": len(keep_layers), "intermediate": student.encoder.config.intermediate_size,
              "heads": student.heads,
              "batch_size": args.batch_size, "lr": args.lr, "head_lr": args.head_lr, "budget": BUDGET,
              "source_weights": args.weights, "strip_share": args.strip_share, "data": ds.stats,
              "encoder": str(enc_dir),
              "distill": {"teacher": str(args.teacher), "teacher_sha256": teacher_ckpt.get("sha256"),
                          "teacher_layers": teacher_ckpt["config"].get("layers"), "keep_layers": keep_layers,
                          "teacher_encoder": teacher_ckpt["config"].get("encoder") if args.teacher_encoder else None,
                          "temperature": args.temperature, "alpha": args.alpha,
                          "hidden_weight": args.hidden_weight, "seed": args.seed,
                          "resumed_from": str(args.resume) if args.resume else None}}
    (args.out / "config.json").write_text(json.dumps(config, indent=2))
    log = open(args.out / "log.jsonl", "a")
    for name, model, at in (("teacher", teacher, 0), ("student_resumed" if args.resume else "student_init", student,
                                                     first_step)):
        record = {"model": name, "step": at, **validate(model, val_batches)}
        model.eval()  # validate() leaves the model in train mode; the teacher must stay in eval (no dropout)
        log.write(json.dumps(record) + "\n")
        log.flush()
        print("VAL", json.dumps(record), flush=True)
    if args.init_only:
        torch.save({"model": student.state_dict(), "step": 0, "config": config}, args.out / "last.pt")
        return

    opt = torch.optim.AdamW([
        {"params": student.encoder.parameters(), "lr": args.lr},
        {"params": student.head.parameters(), "lr": args.head_lr},
    ], weight_decay=0.01)
    loss_fn = DistillLoss(args.temperature, args.alpha, args.hidden_weight)
    if args.hidden_weight:
        loss_fn.tap(student, teacher, keep_layers)
    time_boxed(student, opt, loss_fn, batches(by_source, rng, encoder, args.batch_size, args.weights, args.strip_share),
               val_batches, log, config, first_step, args,
               before_step=lambda ids, mask: loss_fn.teach(teacher, torch.from_numpy(ids), torch.from_numpy(mask)))


if __name__ == "__main__":
    main()
