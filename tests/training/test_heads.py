"""Students with fewer attention heads: pruning a head, scoring heads, the exported graph and its rebuild
(train extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("transformers", reason="the train extra (transformers) is not installed")
pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")

from subcase.training.distill import head_importance, keep_heads  # noqa: E402
from subcase.training.examples import IGNORE  # noqa: E402
from subcase.training.tagger import CaseTagger, prune_heads  # noqa: E402


@pytest.fixture(scope="module")
def enc() -> str:
    from subcase.training.paths import encoder_dir

    try:
        return str(encoder_dir())
    except RuntimeError as exc:
        pytest.skip(str(exc))


def _batch(seed: int = 0, rows: int = 3, width: int = 20):
    rng = np.random.default_rng(seed)
    ids = rng.integers(1000, 20000, size=(rows, width)).astype(np.int64)
    ids[:, 0], ids[:, -1] = 101, 102  # [CLS] ... [SEP]
    mask = np.ones_like(ids)
    labels = rng.integers(0, 4, size=ids.shape).astype(np.int64)
    labels[:, 0] = labels[:, -1] = IGNORE
    return ids, mask, labels


def _logits(model: CaseTagger, ids, mask) -> torch.Tensor:
    model.eval()
    with torch.no_grad():
        return model.logits(torch.from_numpy(ids), torch.from_numpy(mask))


def test_keeping_every_head_changes_nothing_and_a_dead_head_scores_zero_and_goes_first(enc):
    torch.manual_seed(0)
    model = CaseTagger(enc, layers=2)
    ids, mask, _ = _batch()
    before = _logits(model, ids, mask)
    prune_heads(model.encoder.encoder.layer[0], list(range(12)))
    assert torch.allclose(_logits(model, ids, mask), before, atol=1e-5)

    # head 3 of layer 1 writes nothing: its 32 columns of the attention's output projection are zero
    with torch.no_grad():
        model.encoder.encoder.layer[1].attention.output.dense.weight[:, 3 * 32:4 * 32] = 0
    silenced = _logits(model, ids, mask)
    scores = head_importance(model, iter([_batch(1), _batch(2)]), 2)
    assert scores.shape == (2, 12)
    assert scores[1, 3] == 0 and (scores[1, torch.arange(12) != 3] > 0).all()
    keep = sorted(torch.topk(scores[1], 11).indices.tolist())
    assert 3 not in keep
    prune_heads(model.encoder.encoder.layer[1], keep)
    layer = model.encoder.encoder.layer[1]
    assert layer.attention.self.key.out_features == 11 * 32 and layer.attention.output.dense.in_features == 11 * 32
    # the dead head was the one dropped: the output is exactly what it was with the head silenced
    assert torch.allclose(_logits(model, ids, mask), silenced, atol=1e-5)


def test_keep_heads_prunes_every_layer_to_its_most_important_heads(enc):
    model = CaseTagger(enc, layers=2)
    scores = torch.arange(24, dtype=torch.float).reshape(2, 12)
    scores[1] = scores[1].flip(0)
    assert keep_heads(model, scores, 4) == [[8, 9, 10, 11], [0, 1, 2, 3]]
    assert model.heads == 4
    assert all(layer.attention.self.query.out_features == 4 * 32 for layer in model.encoder.encoder.layer)


def test_a_head_pruned_student_exports_fused_and_rebuilds_from_its_onnx_file(enc, tmp_path: Path):
    from subcase.casing.onnx_session import OnnxSession
    from subcase.training.export import export_onnx, optimize, quantize
    from subcase.training.from_onnx import state_from_onnx

    torch.manual_seed(0)
    student = CaseTagger(enc, layers=2, intermediate=256)
    for layer in student.encoder.encoder.layer:
        prune_heads(layer, [0, 2, 5, 7, 8, 11])
    config = {"layers": 2, "intermediate": 256, "heads": student.heads, "layer_mix": False}
    # a checkpoint of that shape loads into the tagger its config describes
    shaped = CaseTagger.shaped_as(enc, config)
    shaped.load_state_dict(student.state_dict())

    raw, fp32, int8 = tmp_path / "raw.onnx", tmp_path / "fp32.onnx", tmp_path / "model.onnx"
    export_onnx(student, raw)
    att = student.encoder.encoder.layer[0].attention.self
    fused = optimize(raw, fp32, att.all_head_size, att.num_attention_heads)
    assert fused["Attention"] == 2  # the fast fused kernel, with 6 heads
    quantize(fp32, int8)

    state, layers = state_from_onnx(int8)
    assert layers == 2
    assert state["encoder.encoder.layer.1.attention.self.value.weight"].shape == (6 * 32, 384)
    assert state["encoder.encoder.layer.1.attention.output.dense.weight"].shape == (384, 6 * 32)
    rebuilt = CaseTagger.shaped_as(enc, config)
    rebuilt.load_state_dict(state, strict=False)
    ids, mask, _ = _batch(5)
    probs = OnnxSession(int8).run(ids, mask)
    with torch.no_grad():
        rebuilt_probs = rebuilt.eval()(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
        student_probs = student.eval()(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    # the rebuilt weights are the int8 ones: close to the student's, and what the ONNX model computes
    # up to its run-time quantisation of activations
    assert np.abs(rebuilt_probs - student_probs).mean() < 0.02
    assert np.abs(probs - rebuilt_probs).mean() < 0.03
