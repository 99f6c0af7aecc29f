"""The shipped models compute their last layer only at the sub-tokens whose tags are read
(training/gather.py); the engine hands them those places and reads the rows back in order.

Real models, real sessions: the English model and the multilingual companion.
"""

from __future__ import annotations

import numpy as np
import pytest

from subcase.casing import case_texts
from subcase.casing.engine import StreamToken

TEXTS = ["so we flew to new york", "on monday with john smith", "and the fbi was waiting.",
         "then we drove to boston.", "i never saw him again.", "[door slams]", "JOHN: who's there?"] * 12


def _batch(engine, rows: int = 3, width: int = 20, seed: int = 0):
    rng = np.random.default_rng(seed)
    ids = rng.integers(1000, engine.encoder.tokenizer.get_vocab_size(), size=(rows, width))
    ids[:, 0], ids[:, -1] = engine.encoder.cls_id, engine.encoder.sep_id
    return ids.astype(np.int64), np.ones_like(ids, dtype=np.int64)


def test_every_shipped_model_takes_positions(engine):
    assert engine.session.gathers
    assert "positions" in engine.info.card["inputs"]
    companion = engine.engine_for("es")
    if companion is None:
        pytest.skip("no multilingual model in this model folder")
    assert companion.session.gathers and "positions" in companion.info.card["inputs"]


def test_rows_come_back_in_the_order_of_the_positions(engine):
    """The same set of positions in another order gives the same rows, in that order, to the last bit
    (the set decides the tensors' int8 scales, the order nothing else)."""
    ids, mask = _batch(engine)
    positions = np.array([1, 5, 7, 20 + 2, 20 + 19, 40 + 3, 40 + 4], dtype=np.int64)
    out = engine.session.run(ids, mask, positions)
    assert out.shape == (len(positions), 4)
    np.testing.assert_allclose(out.sum(1), 1.0, atol=1e-5)
    order = np.random.default_rng(1).permutation(len(positions))
    again = engine.session.run(ids, mask, positions[order])
    assert np.array_equal(again, out[order])
    with pytest.raises(ValueError, match="positions"):
        engine.session.run(ids, mask)


def test_a_model_without_positions_is_read_as_before(engine, monkeypatch):
    """The engine still reads a model folder exported before (every sub-token's tags, batch x tokens x 4;
    bench scripts compare with such folders).  Stood in for by the shipped graph run at every position of
    the batch in order, which is what such a graph computes: the rows the engine reads must be the same
    words' as on the gathered path, and the words nearly all tagged alike (the int8 scales differ)."""
    gathered = case_texts(engine, TEXTS).words
    ort_session = engine.session._session

    def every_position(names, ids, mask, positions=None):
        assert positions is None
        rows, width = ids.shape
        feed = {"input_ids": ids, "attention_mask": mask, "positions": np.arange(rows * width, dtype=np.int64)}
        return [out.reshape(rows, width, -1) for out in ort_session.run(list(names), feed)]

    monkeypatch.setattr(engine.session, "gathers", False)
    monkeypatch.setattr(engine.session, "run_outputs", every_position)
    full = case_texts(engine, TEXTS).words
    assert [w.input for w in full] == [w.input for w in gathered]
    same = sum(a.tag == b.tag for a, b in zip(full, gathered)) / len(full)
    assert same >= 0.98
    assert max(abs(p - q) for a, b in zip(full, gathered) for p, q in zip(a.probs, b.probs)) < 0.1


def test_predict_reads_one_row_per_word(engine):
    """Words of many windows and batches: one prediction per word, punctuation none."""
    stream = [StreamToken(t, t.isalpha()) for t in " , ".join(["alpha beta gamma delta"] * 200).split()]
    preds = engine.predict(stream)
    assert [p is not None for p in preds] == [t.is_word for t in stream]
    assert all(abs(sum(p.probs) - 1.0) < 1e-3 for p in preds if p is not None)
