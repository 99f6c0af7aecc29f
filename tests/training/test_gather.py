"""training/gather.py on the shipped models: the graph change applied again is refused, and the
change itself, made on a full-graph model rebuilt from the shipped one, gives the full graph's rows."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
ort = pytest.importorskip("onnxruntime")

from subcase.training.gather import GatherError, gather_last_layer  # noqa: E402

pytestmark = pytest.mark.model  # the shipped networks, run

MODELS = Path(__file__).resolve().parents[2] / "models"


def _ungathered(path: Path) -> onnx.ModelProto:
    """The shipped graph with the gathering taken out again: what export wrote before this change."""
    model = onnx.load(str(path))
    g = model.graph
    renamed = {}
    for n in g.node:
        if n.op_type == "Gather" and n.input[1] == "positions":
            renamed[n.output[0]] = n.input[0].removesuffix("_rows")
    keep = [n for n in g.node if n.name not in ("context_rows", "residual_rows", "gather_context",
                                                "gather_residual")]
    for n in keep:
        for i, name in enumerate(n.input):
            n.input[i] = renamed.get(name, name)
    del g.node[:]
    g.node.extend(keep)
    inputs = [i for i in g.input if i.name != "positions"]
    del g.input[:]
    g.input.extend(inputs)
    inits = [t for t in g.initializer if t.name != "gather_rows_shape"]
    del g.initializer[:]
    g.initializer.extend(inits)
    for out in g.output:
        dims = out.type.tensor_type.shape.dim
        del dims[:]
        for d in ("batch", "tokens"):
            dims.add().dim_param = d
        dims.add().dim_value = 4
    onnx.checker.check_model(model)
    return model


@pytest.mark.parametrize("folder", [MODELS, MODELS / "multilingual"])
def test_gathering_matches_the_full_graph(folder, tmp_path):
    if not (folder / "model.onnx").is_file():
        pytest.skip(f"no model in {folder}")
    shipped = onnx.load(str(folder / "model.onnx"))
    with pytest.raises(GatherError, match="already"):
        gather_last_layer(shipped)
    full = _ungathered(folder / "model.onnx")
    onnx.save(full, str(tmp_path / "full.onnx"))
    onnx.save(gather_last_layer(_ungathered(folder / "model.onnx")), str(tmp_path / "gathered.onnx"))
    opts = dict(providers=["CPUExecutionProvider"], disabled_optimizers=["SkipLayerNormFusion"])
    a = ort.InferenceSession(str(tmp_path / "full.onnx"), **opts)
    b = ort.InferenceSession(str(tmp_path / "gathered.onnx"), **opts)
    rng = np.random.default_rng(0)
    ids = rng.integers(1000, 5000, size=(3, 24)).astype(np.int64)
    mask = np.ones_like(ids)
    every = np.arange(ids.size, dtype=np.int64)
    (pa,) = a.run(["probs"], {"input_ids": ids, "attention_mask": mask})
    (pb,) = b.run(["probs"], {"input_ids": ids, "attention_mask": mask, "positions": every})
    # every position, in order: the same tensors as the full graph, so the same numbers to the last bit
    assert np.array_equal(pb, pa.reshape(-1, 4))
    some = np.array([1, 3, 24 + 5, 48 + 23], dtype=np.int64)
    (pc,) = b.run(["probs"], {"input_ids": ids, "attention_mask": mask, "positions": some})
    assert np.abs(pc - pa.reshape(-1, 4)[some]).max() < 0.1  # other int8 scales, the same rows
