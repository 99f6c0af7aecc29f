"""The last encoder layer computed only where a tag is read: a graph change, not a new model.

    python -m subcase.training.gather MODEL_DIR        (rewrites MODEL_DIR/model.onnx and its model.json)

The engine reads one tag per word: the first sub-token's, in the window where
the word is most central (casing/engine.py).  The other sub-tokens (word
pieces, punctuation, the cue boundary, [CLS]/[SEP] and the words of the
overlap that another window tags) are needed as context in every layer but
the last, whose attention output, feed-forward block and tagging head serve
only the positions that are read.  On a lower-cased film those are 60% of the
sub-tokens the model reads (11,239 of 18,573).

So the graph takes a third input, ``positions`` (int64, n): the places to tag
in the batch's rows laid end to end (row r, column c is ``r * width + c``).
Right after the last layer's attention (ORT's fused ``QAttention``, whose
key/value projections need every position), its context and the residual
stream are reshaped to rows and gathered at ``positions``; the rest of the
layer and the head run on those n rows, and ``probs`` is n x 4.  The weights
are the same tensors.  The numbers are not bit for bit those of the full
graph: the dynamic int8 quantisation picks one scale per tensor, and the
gathered tensors hold fewer rows (the same holds between two batchings of
the full graph).  Measured on the shipped English model
(docs/research/2026-11-27-gather-last-layer.md): dev F1 unchanged, 7.6%
fewer instructions per film on the users' AVX2 kernel.

Applied by ``export`` and the multilingual export after quantisation (their
calibration is fitted on the full int8 graph of the same weights), and by this
command to a model folder that predates it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import onnx
from onnx import TensorProto, helper

POSITIONS = "positions"
INPUTS = ["input_ids", "attention_mask", POSITIONS]  # model.json's "inputs" of a gathered graph
GRAPH = "the last layer and the head at the positions read only (training/gather.py)"  # model.json's "graph"


class GatherError(ValueError):
    """The graph is not the exported tagger this change expects."""


def gather_last_layer(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` (changed in place and returned) with its last layer and head at ``positions`` only."""
    g = model.graph
    if any(i.name == POSITIONS for i in g.input):
        raise GatherError("the graph already takes positions")
    nodes = list(g.node)
    attentions = [n for n in nodes if n.op_type == "QAttention"]
    if not attentions:
        raise GatherError("no fused int8 attention (QAttention): export and quantise the model first")
    attention = attentions[-1]
    context = attention.output[0]
    producers = {out: n for n in nodes for out in n.output}
    quantize = producers.get(attention.input[0])
    if quantize is None or quantize.op_type != "DynamicQuantizeLinear":
        raise GatherError("the last attention's input is not a dynamically quantised tensor")
    hidden = quantize.input[0]  # the residual stream entering the last layer, fp32
    residual = [n for n in nodes if n.op_type == "Add" and hidden in n.input]
    if len(residual) != 1:
        raise GatherError(f"expected one residual Add of the last layer's input, found {len(residual)}")
    weights = {t.name: t for t in g.initializer}
    qkv = weights.get(attention.input[1])
    if qkv is None:
        raise GatherError("the last attention's weights are not an initializer")
    width = int(qkv.dims[0])  # the hidden size: the Q/K/V weight is hidden x 3 * (heads x head size)

    g.input.append(helper.make_tensor_value_info(POSITIONS, TensorProto.INT64, ["words"]))
    rows = "gather_rows_shape"
    g.initializer.append(helper.make_tensor(rows, TensorProto.INT64, [2], [-1, width]))
    new = []
    for name, tensor in (("context", context), ("residual", hidden)):
        new += [helper.make_node("Reshape", [tensor, rows], [f"{tensor}_rows"], name=f"{name}_rows"),
                helper.make_node("Gather", [f"{tensor}_rows", POSITIONS], [f"{tensor}_gathered"],
                                 name=f"gather_{name}", axis=0)]
    for n in nodes:
        if n is attention:
            continue
        for i, name in enumerate(n.input):
            if name == context:
                n.input[i] = f"{context}_gathered"
    for i, name in enumerate(residual[0].input):
        if name == hidden:
            residual[0].input[i] = f"{hidden}_gathered"
    at = nodes.index(attention) + 1  # the graph's nodes stay in topological order
    del g.node[:]
    g.node.extend(nodes[:at] + new + nodes[at:])
    for out in g.output:
        # each output is now one row per position read: probs x 4, a joint model's marks x 5
        dims = out.type.tensor_type.shape.dim
        width = dims[-1].dim_value if len(dims) and dims[-1].dim_value else 4
        del dims[:]
        dims.add().dim_param = "words"
        dims.add().dim_value = width
    onnx.checker.check_model(model)
    return model


def gather_file(src: Path, dst: Path) -> None:
    model = gather_last_layer(onnx.load(str(src)))
    tmp = dst.with_name(dst.name + ".tmp")
    onnx.save(model, str(tmp))
    tmp.replace(dst)


def convert_folder(folder: Path) -> dict:
    """A model folder's model.onnx gathered in place, and its model.json's sha256 and inputs with it."""
    from subcase.digest import file_sha256

    model_path, card_path = folder / "model.onnx", folder / "model.json"
    gather_file(model_path, model_path)
    meta = json.loads(card_path.read_text(encoding="utf-8"))
    meta["sha256"] = file_sha256(model_path)
    meta["inputs"] = INPUTS
    meta["graph"] = GRAPH
    if "int8_size_bytes" in meta.get("export_check", {}):
        meta["export_check"]["int8_size_bytes"] = model_path.stat().st_size
    tmp = card_path.with_name(card_path.name + ".tmp")
    tmp.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    tmp.replace(card_path)
    return meta


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", type=Path, nargs="+", help="model folders (model.onnx + model.json)")
    args = ap.parse_args(argv)
    for folder in args.folders:
        meta = convert_folder(folder)
        print(f"{folder}: model {meta.get('version')}, sha256 {meta['sha256']}")


if __name__ == "__main__":
    main()
