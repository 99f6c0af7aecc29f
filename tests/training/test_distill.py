"""Distillation pieces: the loss train_step calls, FFN pruning, picking the teacher's layers, growing a deeper
teacher from a shallow checkpoint, and the share of unpunctuated windows the sampler feeds every run (an option
both train and distill take; train extra)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("transformers", reason="the train extra (transformers) is not installed")

from torch import nn  # noqa: E402

from subcase.training.distill import DistillLoss  # noqa: E402
from subcase.training.examples import IGNORE  # noqa: E402
from subcase.training.tagger import CaseTagger, prune_ffn, student_state  # noqa: E402
from subcase.training.train import resume  # noqa: E402


class _Layer(nn.Module):
    """The two Linear layers of a BERT feed-forward block, under the names prune_ffn uses."""

    def __init__(self, hidden: int = 8, width: int = 32):
        super().__init__()
        self.intermediate = nn.Module()
        self.intermediate.dense = nn.Linear(hidden, width)
        self.output = nn.Module()
        self.output.dense = nn.Linear(width, hidden)

    def forward(self, x):
        return self.output.dense(torch.nn.functional.gelu(self.intermediate.dense(x)))


def test_pruning_to_full_width_changes_nothing_and_a_dead_unit_goes_first():
    torch.manual_seed(0)
    layer = _Layer()
    x = torch.randn(5, 8)
    before = layer(x)
    prune_ffn(layer, 32)
    assert torch.allclose(layer(x), before)
    with torch.no_grad():
        layer.output.dense.weight[:, 3] = 0  # unit 3 writes nothing to the residual stream
    zeroed = layer(x)
    prune_ffn(layer, 31)
    assert layer.intermediate.dense.out_features == 31 and layer.output.dense.in_features == 31
    # the dead unit was the one dropped: the output is exactly what it was with the unit silenced
    assert torch.allclose(layer(x), zeroed, atol=1e-6)
    assert (layer.output.dense.weight.abs().sum(0) > 0).all()


def test_student_state_keeps_and_renumbers_the_chosen_layers():
    state = {"encoder.embeddings.x": torch.zeros(1),
             **{f"encoder.encoder.layer.{i}.w": torch.full((1,), float(i)) for i in range(3)},
             "head.weight": torch.ones(1)}
    out = student_state(state, [0, 2])
    assert sorted(out) == ["encoder.embeddings.x", "encoder.encoder.layer.0.w", "encoder.encoder.layer.1.w",
                           "head.weight"]
    assert out["encoder.encoder.layer.1.w"].item() == 2.0


def test_distill_loss_is_the_gold_term_alone_when_student_and_teacher_agree():
    torch.manual_seed(0)
    logits = torch.randn(6, 4)
    labels = torch.tensor([0, 1, IGNORE, 2, 3, IGNORE])
    loss_fn = DistillLoss(temperature=2.0, alpha=0.5)
    loss_fn.teacher_logits = logits.clone()
    loss = loss_fn(logits, labels)
    ce = torch.nn.functional.cross_entropy(logits[labels != IGNORE], labels[labels != IGNORE])
    assert loss_fn.last["kd"] == pytest.approx(0.0, abs=1e-6)
    assert loss.item() == pytest.approx(0.5 * ce.item(), rel=1e-6)
    with pytest.raises(RuntimeError):  # the teacher's logits serve one batch only
        loss_fn(logits, labels)


def test_a_grown_model_starts_with_the_checkpoints_layers_below_and_pre_trained_ones_above():
    from subcase.training.paths import encoder_dir

    try:
        enc = str(encoder_dir())
    except RuntimeError as exc:
        pytest.skip(str(exc))
    shallow = CaseTagger(enc, layers=2)
    with torch.no_grad():
        for p in shallow.parameters():
            p.add_(0.01)  # "trained": unlike the pre-trained weights
    state = {"model": shallow.state_dict(), "step": 7}
    deep = CaseTagger(enc, layers=4)
    pretrained_top = deep.encoder.encoder.layer[3].output.dense.weight.clone()
    with pytest.raises(SystemExit, match="lacks"):
        resume(CaseTagger(enc, layers=4), state)
    assert resume(deep, state, grow=True) == 7
    assert torch.equal(deep.encoder.encoder.layer[1].output.dense.weight,
                       shallow.encoder.encoder.layer[1].output.dense.weight)
    assert torch.equal(deep.head.weight, shallow.head.weight)
    assert torch.equal(deep.encoder.encoder.layer[3].output.dense.weight, pretrained_top)


def test_strip_share_sets_how_many_training_windows_lose_their_punctuation():
    import random
    from types import SimpleNamespace

    from subcase.training.examples import EncodedDoc
    from subcase.training.train import batches

    # "hello , world ." with the comma (id 7) and the full stop (id 8) as punctuation
    doc = EncodedDoc(pieces=[[5], [7], [6], [8]], labels=[1, IGNORE, 0, IGNORE],
                     is_punct=[False, True, False, True], cue_starts=[0])
    ids = SimpleNamespace(cls_id=1, sep_id=2, pad_id=0)

    def punctuated_share(strip_share: float) -> float:
        gen = batches({"seinfeld": [doc]}, random.Random(3), ids, 8, {"seinfeld": 1.0}, strip_share)
        rows = [row for _ in range(25) for row in next(gen)[0].tolist()]
        return sum(7 in row or 8 in row for row in rows) / len(rows)

    assert punctuated_share(1.0) == 0.0
    assert punctuated_share(0.0) == 1.0
    assert 0.35 < punctuated_share(0.5) < 0.65


def test_train_and_distill_share_the_strip_share_option_and_refuse_a_share_outside_0_1(tmp_path):
    import argparse

    from subcase.training.train import add_run_options, start_run

    ap = argparse.ArgumentParser()
    add_run_options(ap)
    assert ap.parse_args([]).strip_share == 0.5
    args = ap.parse_args(["--strip-share", "0.7"])
    args.out = tmp_path / "run"
    assert args.strip_share == 0.7
    start_run(args)
    assert args.out.is_dir()
    args.strip_share, args.out = 1.5, tmp_path / "refused"
    with pytest.raises(SystemExit, match="between 0 and 1"):
        start_run(args)
    assert not args.out.exists()


def test_a_student_starts_from_a_distilled_teacher_of_its_own_width_then_prunes():
    from subcase.training.distill import make_student
    from subcase.training.paths import encoder_dir

    try:
        enc = str(encoder_dir())
    except RuntimeError as exc:
        pytest.skip(str(exc))
    teacher = CaseTagger(enc, layers=3, intermediate=96)  # a student of an earlier round, narrower than 1536
    config = {"layers": 3, "intermediate": 96, "layer_mix": False}
    student = make_student(teacher.state_dict(), config, [0, 1, 2], 32, enc)
    assert student.encoder.config.intermediate_size == 32
    assert all(layer.intermediate.dense.out_features == 32 for layer in student.encoder.encoder.layer)
    assert torch.equal(student.head.weight, teacher.head.weight)
    same = make_student(teacher.state_dict(), config, [0, 1, 2], None, enc)  # no pruning: the teacher's weights
    assert torch.equal(same.encoder.encoder.layer[2].output.dense.weight,
                       teacher.encoder.encoder.layer[2].output.dense.weight)


def test_the_hidden_state_term_is_zero_for_a_copy_of_the_teacher_and_teaches_only_the_student():
    from subcase.training.distill import make_student
    from subcase.training.paths import encoder_dir

    try:
        enc = encoder_dir()
    except RuntimeError as exc:
        pytest.skip(str(exc))
    torch.manual_seed(0)
    teacher = CaseTagger(str(enc), layers=2).eval()
    config = {"layers": 2}
    ids = torch.randint(1000, 20000, (2, 12))
    ids[:, 0], ids[:, -1] = 101, 102
    mask = torch.ones_like(ids)
    mask[1, 8:] = 0  # a padded row: its padding is not compared
    labels = torch.randint(0, 4, (2 * 12,))

    def step(student: CaseTagger) -> tuple[torch.Tensor, DistillLoss]:
        loss_fn = DistillLoss(temperature=2.0, alpha=0.5, hidden_weight=1.0)
        loss_fn.tap(student, teacher, [0, 1])
        loss_fn.teach(teacher, ids, mask)
        logits = student.logits(ids, mask)
        return loss_fn(logits.reshape(-1, 4), labels), loss_fn

    copy = make_student(teacher.state_dict(), config, [0, 1], None, enc).eval()
    _, loss_fn = step(copy)
    assert loss_fn.last["hidden"] == pytest.approx(0.0, abs=1e-10)
    assert loss_fn.last["kd"] == pytest.approx(0.0, abs=1e-6)

    narrow = make_student(teacher.state_dict(), config, [0, 1], 256, enc).eval()
    loss, loss_fn = step(narrow)
    assert loss_fn.last["hidden"] > 0
    assert loss.item() == pytest.approx(0.5 * loss_fn.last["kd"] + 0.5 * loss_fn.last["ce"] + loss_fn.last["hidden"],
                                        rel=1e-5)
    loss.backward()
    assert narrow.encoder.encoder.layer[0].intermediate.dense.weight.grad.abs().sum() > 0
    assert all(p.grad is None for p in teacher.parameters())
    with pytest.raises(RuntimeError):  # the tapped outputs serve one batch only
        loss_fn.hidden_distance()


def test_an_mpnet_teacher_needs_a_student_to_go_on_from(tmp_path):
    """An MPNet teacher (training/mpnet.py) shares no layers with the MiniLM student, so the student must be
    given (--resume), and the layer-by-layer loss cannot compare a 768-wide teacher with it."""
    from subcase.training.distill import main

    base = ["--teacher", str(tmp_path / "teacher.pt"), "--teacher-encoder", str(tmp_path / "enc"),
            "--out", str(tmp_path / "out")]
    with pytest.raises(SystemExit, match="give --resume"):
        main(base)
    with pytest.raises(SystemExit, match="768 wide"):
        main([*base, "--resume", str(tmp_path / "student.pt"), "--hidden-weight", "1"])
    assert not (tmp_path / "out").exists()  # refused before anything is written
