"""Would a per-file update of the tagging head, learnt from the editor's decisions, help?

    pip install onnx   # only this experiment needs it (the train extra has it)
    PYTHONPATH=app python docs/research/scripts/head_update.py ../shared/data/dev-subtitles [--strip-punct]
    PYTHONPATH=app python docs/research/scripts/head_update.py W3C_FOLDER --series   # across a series

The shipped ONNX graph is copied with the encoder's last hidden state (the
input of the 384 x 4 tagging head) exposed as a second output, and the head's
weights are read back from the int8 graph.  Each dev file is cased as the
editor opens it, with the engine's own windows, and every word keeps its
hidden state (its first sub-token, in the window that predicts it).  For each
file a correction of the head (dW, db) is fitted in numpy on the words the
editor reviews at the default threshold (the reference tag of every
highlighted word), with an L2 penalty, and applied to the words the editor
never sees.  Fitting on all of a file's decisions at once is an upper bound:
in the app a word could only gain from the decisions made before it.

Prints, per L2 strength, how many unseen words the update turns right and
how many it turns wrong.  Measured (docs/research/2026-11-23-simulated-review.md): about as
many wrong as right, so the app does not do it.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]  # the repository: docs/research/scripts/ -> root
sys.path.insert(0, str(ROOT / "app"))

HIDDEN = "/encoder/encoder/layer.2/output/LayerNorm/LayerNormalization_output_0"
HEAD = "onnx::MatMul_495"


def graph_with_hidden(model: Path, out: Path) -> tuple[np.ndarray, np.ndarray]:
    """Write the model with the head's input as an output; return the head (W dequantized, b)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    m = onnx.load(str(model))
    m.graph.output.append(helper.make_tensor_value_info(HIDDEN, TensorProto.FLOAT, None))
    onnx.save(m, str(out))
    init = {i.name: numpy_helper.to_array(i) for i in m.graph.initializer}
    q = init[f"{HEAD}_quantized"].astype(np.float32)
    w = (q - init[f"{HEAD}_zero_point"].astype(np.float32)) * init[f"{HEAD}_scale"]
    return w, init["head.bias"]


def hidden_states(engine, session, stream) -> np.ndarray:
    """The engine's ``predict`` windows and batches, keeping each token's hidden state."""
    from subcase.casing.engine import StreamToken
    from subcase.casing.windows import assign_tokens, plan_windows

    stream = [StreamToken(".", False), *stream]
    pieces = engine.encoder.pieces([t.text.lower() for t in stream])
    lengths = [min(len(p), engine.budget) for p in pieces]
    flat = np.fromiter((t for p in pieces for t in p[:engine.budget]), dtype=np.int64, count=sum(lengths))
    starts = np.zeros(len(stream) + 1, dtype=np.int64)
    np.cumsum(lengths, out=starts[1:])
    windows = plan_windows(lengths, engine.budget, engine.step)
    owner = np.asarray(assign_tokens(lengths, windows))
    word_tokens = np.flatnonzero([t.is_word for t in stream])
    grouped = word_tokens[np.argsort(owner[word_tokens], kind="stable")]
    needed, first = np.unique(owner[grouped], return_index=True)
    groups = dict(zip(needed.tolist(), np.split(grouped, first[1:])))
    span = {w: int(starts[windows[w].last] - starts[windows[w].first]) for w in groups}
    out = np.zeros((len(stream), 384), dtype=np.float32)
    for w, toks in groups.items():
        lo = starts[windows[w].first]
        ids = np.array([[engine.encoder.cls_id, *flat[lo:lo + span[w]], engine.encoder.sep_id]], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
        at = starts[toks] - lo + 1
        if "positions" in {i.name for i in session.get_inputs()}:  # the last layer at the words only
            (hidden,) = session.run([HIDDEN], feed | {"positions": at.astype(np.int64)})
            out[toks] = hidden
        else:
            (hidden,) = session.run([HIDDEN], feed)
            out[toks] = hidden[0, at]
    return out[1:]


def collect(paths: list[Path], strip: bool, model_h: Path) -> list[dict]:
    import onnxruntime as ort

    from subcase.casing import TAGS, CasingEngine, tag_of
    from subcase.casing.engine import StreamToken
    from subcase.casing.stream import BOUNDARY
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.simulate import SimulateOptions, prepare
    from subcase.subtitles.words import has_letters

    engine = CasingEngine()
    session = ort.InferenceSession(str(model_h), providers=["CPUExecutionProvider"])
    index = {t: i for i, t in enumerate(TAGS)}
    files = []
    for path in paths:
        prep = prepare(path, engine, SimulateOptions(strip_punct=strip, punctuate=Punctuate.NEVER))
        stream = []
        for cue in prep.source.cues:  # the stream case_document builds
            stream.append(StreamToken(BOUNDARY, False))
            stream += [StreamToken(t.text, t.is_word) for t in cue.tokens()]
        hidden = hidden_states(engine, session, stream)
        keep = [i for i, t in enumerate(stream) if t.is_word and has_letters(t.text)]
        refs = [r for rs in prep.ref_words for r in rs]
        assert len(keep) == len(prep.casing.words) == len(refs)
        files.append({"H": hidden[keep], "probs": np.array([w.probs for w in prep.casing.words]),
                      "y": np.array([index[tag_of(r)] for r in refs])})
    return files


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit(hs: np.ndarray, ys: np.ndarray, zs: np.ndarray, temperature: float, lam: float,
        steps: int = 300) -> tuple[np.ndarray, np.ndarray]:
    """A correction (dW, db) of the head fitted to the decided words: hidden states, one-hot tags, logits."""
    dw, db = np.zeros((hs.shape[1], 4)), np.zeros(4)
    lr = 0.2 / len(hs)
    for _ in range(steps):
        g = (softmax((zs + hs @ dw + db) / temperature) - ys) / temperature
        dw -= lr * (hs.T @ g + lam * dw)
        db -= lr * (g.sum(0) + lam * db)
    return dw, db


def _moved(f: dict, w: np.ndarray, b: np.ndarray, dw: np.ndarray, db: np.ndarray, unseen: np.ndarray
           ) -> tuple[int, int]:
    h, y = f["H"], f["y"]
    z = h @ w + b
    before, after = z.argmax(1), (z + h @ dw + db).argmax(1)
    moved = unseen & (before != after)
    return int(((after == y) & moved).sum()), int(((before == y) & moved).sum())


def flips(files: list[dict], w: np.ndarray, b: np.ndarray, temperature: float, threshold: float,
          lam: float, steps: int = 300) -> tuple[int, int]:
    """Unseen words the fitted correction turns right, and turns wrong."""
    fixed = broken = 0
    for f in files:
        h, y = f["H"], f["y"]
        seen = f["probs"].max(1) < threshold
        if not seen.any():
            continue
        dw, db = fit(h[seen], np.eye(4)[y[seen]], (h @ w + b)[seen], temperature, lam, steps)
        a, c = _moved(f, w, b, dw, db, ~seen)
        fixed, broken = fixed + a, broken + c
    return fixed, broken


def flips_series(files: list[dict], w: np.ndarray, b: np.ndarray, temperature: float, threshold: float,
                 lam: float, steps: int = 300) -> tuple[int, int]:
    """Across a series: the correction fitted on the decided words of the files before
    each file, applied to the words of that file the editor never sees."""
    fixed = broken = 0
    for k in range(1, len(files)):
        earlier = files[:k]
        masks = [f["probs"].max(1) < threshold for f in earlier]
        if not any(m.any() for m in masks):
            continue
        hs = np.concatenate([f["H"][m] for f, m in zip(earlier, masks)])
        ys = np.eye(4)[np.concatenate([f["y"][m] for f, m in zip(earlier, masks)])]
        zs = np.concatenate([(f["H"] @ w + b)[m] for f, m in zip(earlier, masks)])
        dw, db = fit(hs, ys, zs, temperature, lam, steps)
        a, c = _moved(files[k], w, b, dw, db, files[k]["probs"].max(1) >= threshold)
        fixed, broken = fixed + a, broken + c
    return fixed, broken


def main() -> int:
    import json

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("refs", type=Path, help="folder of human-cased .srt/.vtt files")
    ap.add_argument("--strip-punct", action="store_true")
    ap.add_argument("--series", action="store_true",
                    help="fit on the files before each file (in name order), apply to that file")
    args = ap.parse_args()
    models = ROOT / "models"
    meta = json.loads((models / "model.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        model_h = Path(tmp) / "model_hidden.onnx"
        w, b = graph_with_hidden(models / "model.onnx", model_h)
        paths = sorted((p for p in args.refs.iterdir() if p.suffix.lower() in (".srt", ".vtt")), key=lambda p: p.name)
        files = collect(paths, args.strip_punct, model_h)
    t, thr = meta["calibration"]["temperature"], meta["calibration"]["review_threshold"]
    for lam in (0.1, 0.3, 1.0, 3.0):
        fixed, broken = (flips_series if args.series else flips)(files, w, b, t, thr, lam)
        print(f"L2 {lam:4}: unseen words turned right {fixed:3d}, turned wrong {broken:3d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
