"""7-bit weights (training/reduce_range.py): the arithmetic, and the shipped models as they are."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="onnx (test and train extras) is not installed")

from subcase.training.reduce_range import Q_MAX, ReduceRangeError, gptq_round, largest_weight, reduce_range, requantize  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"
SHIPPED = [MODELS, MODELS / "multilingual"]


@pytest.mark.parametrize("model_dir", SHIPPED, ids=["english", "multilingual"])
def test_no_shipped_weight_can_saturate_avx2s_int8_kernel(model_dir):
    """A pair of u8 x s8 products is at most 2 x 255 x 64 = 32,640: vpmaddubsw's 16 bits hold it."""
    model = onnx.load(str(model_dir / "model.onnx"))
    assert largest_weight(model) <= Q_MAX == 64
    assert 2 * 255 * Q_MAX <= 2 ** 15 - 1
    card = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    assert "reduce_range" in card["quantization"]


def test_requantize_keeps_each_channel_within_half_a_new_step():
    rng = np.random.default_rng(0)
    q = rng.integers(-127, 128, size=(384, 96)).astype(np.int8)
    q[:, 3] = 0  # a channel of zeros keeps its scale
    scale = rng.uniform(1e-3, 6e-3, size=96).astype(np.float32)
    new_q, new_scale = requantize(q, scale)
    assert new_q.dtype == np.int8 and np.abs(new_q.astype(int)).max() <= Q_MAX
    w = q.astype(np.float64) * scale
    assert np.all(np.abs(w - new_q * new_scale.astype(np.float64)) <= new_scale / 2 + 1e-9)
    assert new_scale[3] == scale[3] and not new_q[:, 3].any()
    # each channel's largest weight lands on the end of the 7-bit range, as onnxruntime's reduce_range puts it
    live = np.abs(w).max(0) > 0
    assert np.all(np.abs(new_q.astype(int)).max(0)[live] == Q_MAX)


def test_gptq_rounding_keeps_the_outputs_closer_than_rounding_each_weight():
    """On inputs with correlated features, spreading each row's rounding error over the later rows (GPTQ)
    gives outputs closer to the float ones than plain rounding at the same scales."""
    rng = np.random.default_rng(1)
    mix = rng.normal(size=(64, 64))
    x = rng.normal(size=(2000, 64)) @ mix  # correlated inputs, as activations are
    w = rng.normal(size=(64, 32))
    scale = np.abs(w).max(0) / Q_MAX
    plain = np.clip(np.rint(w / scale), -Q_MAX, Q_MAX)
    gptq = gptq_round(w, scale.astype(np.float32), x.T @ x).astype(np.float64)
    assert np.abs(gptq).max() <= Q_MAX
    err = [np.linalg.norm(x @ w - x @ (q * scale)) for q in (plain, gptq)]
    assert err[1] < 0.8 * err[0]


def test_reduce_range_rewrites_a_quantized_graph_and_refuses_another(tmp_path):
    """A small MatMulInteger graph of the quantizer's naming: its weight and scale are re-quantized and the
    graph still runs; a graph with no int8 weight is refused with the reason."""
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(2)
    q = rng.integers(-127, 128, size=(8, 4)).astype(np.int8)
    q[0, 0] = -127
    scale = np.full(4, 0.01, dtype=np.float32)
    inits = [numpy_helper.from_array(q, "w_quantized"), numpy_helper.from_array(scale, "w_scale"),
             numpy_helper.from_array(np.zeros(4, np.int8), "w_zero_point")]
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "w_quantized", "xz", "w_zero_point"], ["y"])]
    graph = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                              [helper.make_tensor_value_info("y", TensorProto.INT32, [2, 4])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    assert largest_weight(model) == 127
    reduce_range(model)
    assert largest_weight(model) == Q_MAX
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    assert np.allclose(weights["w_quantized"] * weights["w_scale"], q * scale, atol=weights["w_scale"].max() / 2)
    import onnxruntime as ort
    path = tmp_path / "m.onnx"
    onnx.save(model, str(path))
    out = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(
        ["y"], {"x": rng.normal(size=(2, 8)).astype(np.float32)})[0]
    assert out.shape == (2, 4)

    empty = helper.make_model(helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "g",
                                                [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])],
                                                [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1])]))
    with pytest.raises(ReduceRangeError, match="no int8 matrix product"):
        reduce_range(empty)
