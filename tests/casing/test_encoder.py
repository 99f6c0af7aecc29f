"""Word pieces: the remembered pieces of a word are exactly what the tokenizer gives in context."""

from __future__ import annotations

import pytest

from subcase.casing.encoder import BOUNDARY, WordEncoder
from subcase.paths import models_dir

pytestmark = pytest.mark.model  # the shipped model's tokenizer

WORDS = ["so", "we", "flew", "to", "new", "york", ",", BOUNDARY, "on", "monday", "with", "mcadams", "'", "s",
         "unbelievably", "we", "flew", "again", ".", "pneumonoultramicroscopic", "so", "\u00e9t\u00e9", "so"]


def in_one_call(encoder: WordEncoder, tokens: list[str]) -> list[list[int]]:
    """The reference: every non-boundary token in one tokenizer call, pieces mapped back by word id."""
    out: list[list[int]] = [[] for _ in tokens]
    at = [i for i, t in enumerate(tokens) if t != BOUNDARY]
    enc = encoder.tokenizer.encode([tokens[i] for i in at], is_pretokenized=True, add_special_tokens=False)
    for tid, wid in zip(enc.ids, enc.word_ids):
        out[at[wid]].append(tid)
    for i, t in enumerate(tokens):
        if t == BOUNDARY:
            out[i] = [encoder.boundary_id]
    return out


def test_remembered_pieces_equal_pieces_in_context():
    encoder = WordEncoder(models_dir() / "tokenizer.json")
    first = encoder.pieces(WORDS)
    assert first == in_one_call(encoder, WORDS)
    assert any(len(p) > 1 for p in first)               # long words really split
    again = encoder.pieces(list(reversed(WORDS)))       # now all from memory
    assert again == list(reversed(first))


def test_memory_is_bounded(monkeypatch):
    encoder = WordEncoder(models_dir() / "tokenizer.json")
    monkeypatch.setattr(WordEncoder, "MAX_KNOWN", 10)
    tokens = [f"w{i}" for i in range(25)] + [BOUNDARY]
    assert encoder.pieces(tokens) == in_one_call(encoder, tokens)
    assert len(encoder._known) <= 27
    assert encoder.pieces(["so", BOUNDARY]) == [in_one_call(encoder, ["so"])[0], [encoder.boundary_id]]
