"""Rebuild a training checkpoint from a shipped int8 ONNX model.

    python -m subcase.training.from_onnx --model models --out work/train/shipped.pt
    python -m subcase.training.from_onnx --model models/multilingual --encoder encoder-l4 --out run/last.pt

Checkpoints are not committed (they are 90 MB and machines come and go), so to go
on training the shipped weights this reads them back out of ``models/model.onnx``:
every int8/uint8 weight is dequantized ((q - zero_point) * scale) and mapped onto
the ``CaseTagger`` parameter it came from. The fused graph keeps the names of
biases and LayerNorm parameters; the QKV weight of each fused attention is split
back into query, key and value; MatMul weights are found by position (per layer:
attention output, intermediate, output, then the head).

The rebuilt model is the dequantized one, not the fp32 weights before
quantization; tests/training/test_from_onnx.py compares its tags with the ONNX model's.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import numpy as np
import torch


def _arrays(model_path: Path):
    import onnx
    from onnx import numpy_helper
    graph = onnx.load(str(model_path)).graph
    return {i.name: numpy_helper.to_array(i) for i in graph.initializer}, list(graph.node)


def _dequant(inits: dict, name: str, scale: str, zero: str) -> np.ndarray:
    q = inits[name].astype(np.float32)
    return (q - inits[zero].astype(np.float32)) * inits[scale].astype(np.float32)


def _dequant_matmul(inits: dict, node) -> np.ndarray:
    """A quantized MatMul's weight as a torch Linear weight (out, in); the quantizer names its
    scale and zero point after the weight."""
    base = node.input[1][: -len("_quantized")]
    return _dequant(inits, node.input[1], base + "_scale", base + "_zero_point").T


def state_from_onnx(model_path: Path) -> tuple[dict[str, torch.Tensor], int]:
    """The CaseTagger state dict held by a fused, dynamically quantized model, and its layer count."""
    inits, nodes = _arrays(model_path)
    sd: dict[str, np.ndarray] = {}
    embed = next(n for n in nodes if n.op_type == "QEmbedLayerNormalization")
    names = ["word_embeddings.weight", "position_embeddings.weight", "token_type_embeddings.weight",
             "LayerNorm.weight", "LayerNorm.bias"]
    # inputs: ids, segments, 5 quantized tensors, mask, 5 scales, 5 zero points
    for k, name in enumerate(names):
        sd[f"encoder.embeddings.{name}"] = _dequant(inits, embed.input[2 + k], embed.input[8 + k], embed.input[13 + k])

    attentions = [n for n in nodes if n.op_type == "QAttention"]
    matmuls = [n for n in nodes if n.op_type == "MatMulInteger" and n.input[1] in inits]
    n_layers = len(attentions)
    if len(matmuls) != 3 * n_layers + 1:
        raise ValueError(f"{model_path}: expected {3 * n_layers + 1} quantized MatMuls, found {len(matmuls)}")
    for i, att in enumerate(attentions):
        w = _dequant(inits, att.input[1], att.input[4], att.input[7])  # (hidden, 3 * heads * head size)
        b = inits[att.input[2]]
        width = w.shape[1] // 3  # the hidden size, unless heads were pruned
        for k, part in enumerate(("query", "key", "value")):
            sl = slice(k * width, (k + 1) * width)
            sd[f"encoder.encoder.layer.{i}.attention.self.{part}.weight"] = w[:, sl].T
            sd[f"encoder.encoder.layer.{i}.attention.self.{part}.bias"] = b[sl]
        for k, part in enumerate(("attention.output.dense", "intermediate.dense", "output.dense")):
            sd[f"encoder.encoder.layer.{i}.{part}.weight"] = _dequant_matmul(inits, matmuls[3 * i + k])
    sd["head.weight"] = _dequant_matmul(inits, matmuls[-1])
    # biases and LayerNorm parameters keep their torch names as float initializers
    for name, arr in inits.items():
        if re.fullmatch(r"(encoder\.encoder\.layer\.\d+\..*\.(bias|weight))|head\.bias", name) and arr.dtype == np.float32:
            sd[name] = arr
    return {k: torch.from_numpy(np.array(v, dtype=np.float32)) for k, v in sd.items()}, n_layers


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=Path("models"), help="folder with model.onnx and model.json")
    ap.add_argument("--encoder", type=Path,
                    help="the encoder folder the model was trained on (default: the English one; for the "
                         "multilingual model, the folder `multilingual convert` wrote, e.g. encoder-l4)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)

    from .tagger import CaseTagger
    from .paths import encoder_dir
    encoder = args.encoder or encoder_dir()
    meta = json.loads((args.model / "model.json").read_text(encoding="utf-8"))
    sd, n_layers = state_from_onnx(args.model / "model.onnx")
    config = dict(meta["training"])
    config["layers"] = n_layers
    # a distilled student may have a narrower feed-forward block than the encoder it came from
    config["intermediate"] = int(sd["encoder.encoder.layer.0.intermediate.dense.weight"].shape[0])
    # and fewer attention heads (each as wide as the encoder's: hidden size / its head count)
    base = json.loads((encoder / "config.json").read_text(encoding="utf-8"))
    head_size = base["hidden_size"] // base["num_attention_heads"]
    config["heads"] = int(sd["encoder.encoder.layer.0.attention.self.query.weight"].shape[0]) // head_size
    model = CaseTagger.shaped_as(str(encoder), config)
    expected = set(model.state_dict())
    # the pooler is not part of the tagger's graph: it keeps the pre-trained weights
    missing = sorted(k for k in expected - set(sd) if not k.startswith("encoder.pooler."))
    unexpected = sorted(set(sd) - expected)
    if missing or unexpected:
        raise SystemExit(f"cannot map the graph: missing {missing[:4]}, unexpected {unexpected[:4]}")
    model.load_state_dict(sd, strict=False)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model.state_dict(), "step": meta.get("training_steps", 0), "config": config,
                "rebuilt_from": str(args.model / "model.onnx"), "sha256": meta.get("sha256")}, args.out)
    print(f"{args.out}: {len(sd)} tensors from {args.model / 'model.onnx'} ({n_layers} layers)")


if __name__ == "__main__":
    main()
