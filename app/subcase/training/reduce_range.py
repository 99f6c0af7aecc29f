"""Re-quantize a shipped int8 model to 7-bit weights, so every x86 int8 kernel computes the same integers.

    python -m subcase.training.reduce_range models                 (rewrites models/model.onnx and model.json)
    python -m subcase.training.reduce_range models/multilingual --out work/rr-ml

Why.  onnxruntime multiplies dynamically quantized activations (u8, 0..255) by the
weights (s8).  The VNNI and AMX kernels sum every product exactly in 32 bits; the AVX2
kernel (and AVX-512 BW without VNNI) multiplies with ``vpmaddubsw``, which adds each
*pair* of u8 x s8 products in 16 bits with saturation: 2 x 255 x 127 = 64,770 does not
fit in 32,767, so near a large activation the AVX2 sum is clipped and the same file
gets other probabilities, and near a tie other tags, on a user's AVX2-only CPU
(docs/research/2026-11-24-int8-kernels.md).  With weights in [-64, 64] a pair is at
most 2 x 255 x 64 = 32,640: it never saturates, and every kernel computes the same
integer sums.  This is onnxruntime's own ``reduce_range`` (``quantize_dynamic(...,
reduce_range=True)``), which ``training/export.py`` now uses for new exports.

The float weights before quantization were not kept for the shipped models, so the
best float reconstruction here is the dequantized int8 weight ``q * scale``
(symmetric, per output channel, zero point 0).  Each channel is quantized again
symmetrically to 7 bits: ``scale' = max|q * scale| / 64``, ``q' = round(q * scale / scale')``,
which is what ``reduce_range`` does with those floats.  The graph is otherwise left as
it is (fused attention, the gathered last layer, the ``hidden`` output): only the weight
and scale initializers of ``MatMulInteger`` and ``QAttention`` change.  The embedding
tables (``QEmbedLayerNormalization``) are looked up, not multiplied, and stay 8-bit.

The calibration temperature and review threshold in model.json are kept: they were
fitted on training data that is not here, and the re-quantized model's dev figures
(docs/research/2026-11-29-one-answer-on-every-cpu.md) are within noise of the old ones.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np

# onnxruntime's reduce_range bound for signed 8-bit weights: |q| <= 64 keeps a pair of
# u8 x s8 products within a signed 16-bit sum (2 x 255 x 64 = 32,640 <= 32,767).
Q_MAX = 64


def requantize(q: np.ndarray, scale: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Symmetric per-output-channel int8 weights ``q`` (in, out) with ``scale`` (out,) or a
    scalar, as 7-bit weights and their new scales.  Channels whose weights are all zero keep
    their scale."""
    w = q.astype(np.float64) * scale.astype(np.float64)
    peak = np.abs(w).max(axis=tuple(range(w.ndim - 1))) if scale.ndim else np.abs(w).max()
    new_scale = np.where(peak > 0, peak / Q_MAX, scale.astype(np.float64)).astype(np.float32)
    new_q = np.clip(np.rint(w / new_scale.astype(np.float64)), -Q_MAX, Q_MAX).astype(np.int8)
    return new_q, new_scale


class ReduceRangeError(ValueError):
    """The graph is not the dynamically quantized tagger this change expects."""


def _weights(graph) -> list[tuple[str, str, str]]:
    """(weight, scale, zero point) initializer names of every int8 matrix product in the graph."""
    inits = {i.name for i in graph.initializer}
    found = []
    for node in graph.node:
        if node.op_type == "QAttention":
            # inputs: input, weight, bias, input_scale, weight_scale, mask_index, input_zero_point,
            # weight_zero_point (com.microsoft QAttention)
            found.append((node.input[1], node.input[4], node.input[7]))
        elif node.op_type == "MatMulInteger" and node.input[1] in inits:
            # the quantizer names the scale and zero point after the weight (see from_onnx.py)
            base = node.input[1][: -len("_quantized")]
            found.append((node.input[1], base + "_scale", node.input[3] if len(node.input) > 3 else base + "_zero_point"))
    return found


def gptq_round(w: np.ndarray, scale: np.ndarray, hessian: np.ndarray, damp: float = 0.01) -> np.ndarray:
    """7-bit weights for the float weights ``w`` (in, out) at the per-column ``scale``, rounded so as
    to keep ``x @ w`` close for the inputs ``x`` whose ``hessian`` (x.T @ x, in x in) is given.

    GPTQ (Frantar et al., 2023): the input rows are rounded one at a time, and each row's rounding
    error is spread over the rows not yet rounded, weighted by the inverse Hessian, so errors that
    the inputs would add up cancel instead.  Plain rounding treats every weight alone."""
    w = w.astype(np.float64).copy()
    h = hessian.astype(np.float64).copy()
    dead = np.diag(h) == 0
    h[dead, dead] = 1.0
    w[dead, :] = 0.0
    h[np.diag_indices_from(h)] += damp * np.mean(np.diag(h))
    # the upper Cholesky factor of H^-1: row i holds how row i's error moves the later rows
    u = np.linalg.cholesky(np.linalg.inv(h)).T
    s = scale.astype(np.float64)
    q = np.zeros(w.shape, dtype=np.int8)
    for i in range(w.shape[0]):
        q[i] = np.clip(np.rint(w[i] / s), -Q_MAX, Q_MAX)
        err = (w[i] - q[i] * s) / u[i, i]
        w[i + 1:] -= np.outer(u[i, i + 1:], err)
    return q


def reduce_range(model, hessians: dict[str, np.ndarray] | None = None):
    """``model`` (an onnx ModelProto, changed in place and returned) with 7-bit weights; where
    ``hessians`` has a weight's name, rounded by ``gptq_round`` with it, else to the nearest step."""
    from onnx import numpy_helper
    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    weights = _weights(graph)
    if not weights:
        raise ReduceRangeError("no int8 matrix product (QAttention, MatMulInteger) with a constant weight")
    for weight, scale, zero in weights:
        if not all(name in inits for name in (weight, scale, zero)):
            raise ReduceRangeError(f"{weight}: its scale or zero point is not a constant of the graph")
        q = numpy_helper.to_array(inits[weight])
        s = numpy_helper.to_array(inits[scale])
        z = numpy_helper.to_array(inits[zero])
        if q.dtype != np.int8 or np.any(z != 0):
            raise ReduceRangeError(f"{weight}: not symmetric int8 (dtype {q.dtype}, zero points {np.unique(z)[:4]})")
        if s.ndim not in (0, 1):
            raise ReduceRangeError(f"{scale}: a scale of shape {s.shape}")
        new_q, new_s = requantize(q, s)
        if hessians is not None and weight in hessians:
            new_q = gptq_round(q.astype(np.float64) * s.astype(np.float64), new_s, hessians[weight])
        inits[weight].CopyFrom(numpy_helper.from_array(new_q, weight))
        inits[scale].CopyFrom(numpy_helper.from_array(new_s.reshape(s.shape), scale))
    return model


def _activations(graph) -> dict[str, list[str]]:
    """For each float tensor that is quantized on the fly to feed int8 weights, those weights' names."""
    producers = {out: n for n in graph.node for out in n.output}
    consumers = {n.input[1]: n for n in graph.node if n.op_type in ("QAttention", "MatMulInteger")}
    feeds: dict[str, list[str]] = {}
    for weight, _, _ in _weights(graph):
        quantize = producers.get(consumers[weight].input[0])
        if quantize is None or quantize.op_type != "DynamicQuantizeLinear":
            raise ReduceRangeError(f"{weight}: its input is not quantized on the fly (DynamicQuantizeLinear)")
        feeds.setdefault(quantize.input[0], []).append(weight)
    return feeds


# Debian's fortune files per language (apt-get install fortunes fortunes-min fortunes-es fortunes-de
# fortunes-br): text both models were trained on, never the dev or held-back subtitles.
FORTUNES = Path("/usr/share/games/fortunes")
CALIBRATION = {"en": [FORTUNES], "es": [FORTUNES / "es"], "de": [FORTUNES / "de"], "pt": [FORTUNES / "brasil"],
               # no French fortunes in Debian: the French Debian Reference (debian-reference-fr), also trained on
               "fr": [Path("/usr/share/debian-reference")]}


def calibration_texts(language: str, limit: int, seed: int = 0) -> list[str]:
    """Up to ``limit`` passages of running text in ``language`` (see CALIBRATION)."""
    import random
    import re
    passages: list[str] = []
    for root in CALIBRATION[language]:
        if not root.exists():
            raise SystemExit(f"{root} is missing: apt-get install fortunes fortunes-min fortunes-es fortunes-de "
                             "fortunes-br debian-reference-fr")
        if language == "fr":
            files = sorted(root.glob("*.fr.html"))
        elif root.is_file():
            files = [root]
        else:  # a folder of fortune files, beside their index (.dat) and UTF-8 links (.u8)
            files = sorted(p for p in root.iterdir() if p.is_file() and p.suffix not in (".dat", ".u8")
                           and p.name != "brasil")  # Portuguese, beside the English files
        for path in files:
            text = path.read_text(encoding="utf-8", errors="replace")
            if language == "fr":
                chunks = [re.sub(r"<[^>]+>", " ", m) for m in re.findall(r"<p>(.*?)</p>", text, re.S)]
            else:
                chunks = text.split("\n%\n")
            for chunk in chunks:
                body = re.sub(r"\s+", " ", chunk).strip()
                if 6 <= len(body.split()) <= 120 and not re.search(r"[{}<>\\|@#$_=]", body):
                    passages.append(body)
    random.Random(seed).shuffle(passages)
    return passages[:limit]


def _as_cues(passage: str, width: int = 8) -> list[str]:
    words = passage.split()
    return [" ".join(words[i:i + width]) for i in range(0, len(words), width)]


def collect_hessians(model_dir: Path, languages: list[str], passages: int = 1500) -> dict[str, np.ndarray]:
    """x.T @ x of every int8 weight's float input, over calibration text run through the real engine,
    each passage twice: as written, and lower-cased without punctuation (the input subcase restores)."""
    import re
    import tempfile

    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper

    from subcase.casing.engine import CasingEngine
    from subcase.casing.stream import case_texts

    model = onnx.load(str(model_dir / "model.onnx"))
    feeds = _activations(model.graph)
    for name in feeds:
        model.graph.output.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, None))
    sums: dict[str, np.ndarray] = {}
    engine = CasingEngine(model_dir, threads=1)
    session = engine.session
    with tempfile.TemporaryDirectory() as tmp:
        onnx.save(model, str(Path(tmp) / "instrumented.onnx"))
        probe = ort.InferenceSession(str(Path(tmp) / "instrumented.onnx"), providers=["CPUExecutionProvider"])
        extra = tuple(feeds)

        def run_outputs(names, input_ids, attention_mask, positions=None):
            feed = {"input_ids": input_ids, "attention_mask": attention_mask}
            if session.gathers:
                feed["positions"] = positions
            outs = probe.run(list(names) + list(extra), feed)
            for name, x in zip(extra, outs[len(names):]):
                x = x.reshape(-1, x.shape[-1]).astype(np.float64)
                sums[name] = sums.get(name, 0) + x.T @ x
            return outs[:len(names)]

        session.run_outputs = run_outputs  # type: ignore[method-assign]
        for language in languages:
            for passage in calibration_texts(language, passages):
                case_texts(engine, _as_cues(passage))
                bare = re.sub(r"[^\w\s'-]", "", passage).lower()
                if bare.split():
                    case_texts(engine, _as_cues(bare))
    return {weight: sums[name] for name, weights in feeds.items() for weight in weights}


def largest_weight(model) -> int:
    """The largest |q| of any int8 matrix weight: at most 64 once the model is re-quantized."""
    from onnx import numpy_helper
    inits = {i.name: i for i in model.graph.initializer}
    return max(int(np.abs(numpy_helper.to_array(inits[w]).astype(np.int32)).max()) for w, _, _ in _weights(model.graph))


def main(argv=None) -> None:
    import onnx
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model_dir", type=Path, help="a model folder (model.onnx and model.json)")
    ap.add_argument("--out", type=Path, help="write the folder's copy here instead of rewriting it")
    ap.add_argument("--calibrate", metavar="LANG,...",
                    help="round with GPTQ over these languages' calibration text (en, es, fr, de, pt) "
                         "instead of to the nearest step")
    ap.add_argument("--passages", type=int, default=1500, help="calibration passages per language")
    args = ap.parse_args(argv)
    src = args.model_dir
    out = args.out or src
    if out != src:
        shutil.copytree(src, out, dirs_exist_ok=True)
    model = onnx.load(str(src / "model.onnx"))
    if largest_weight(model) <= Q_MAX:
        raise SystemExit(f"{src / 'model.onnx'}: its weights are 7-bit already")
    hessians = (collect_hessians(src, args.calibrate.split(","), args.passages) if args.calibrate else None)
    reduce_range(model, hessians)
    tmp = out / "model.onnx.tmp"
    onnx.save(model, str(tmp))
    tmp.replace(out / "model.onnx")
    meta_path = out / "model.json"
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["sha256"] = hashlib.sha256((out / "model.onnx").read_bytes()).hexdigest()
    meta["quantization"] = ("int8 dynamic, per-channel symmetric weights in [-64, 64] (reduce_range): "
                            "the same integers on every x86 kernel (training/reduce_range.py)")
    meta_path.write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{out / 'model.onnx'}: {len(_weights(model.graph))} int8 weights re-quantized to 7 bits, "
          f"sha256 {meta['sha256'][:12]}")


if __name__ == "__main__":
    main()
