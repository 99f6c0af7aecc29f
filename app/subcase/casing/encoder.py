"""Turning words into the encoder's sub-token ids (WordPiece via ``tokenizers``).

Shared by the run-time engine and the training pipeline, so both feed the
model identical ids.  The tokenizer is uncased: it lower-cases and strips
accents itself, which is why ALL-CAPS input and lower-case input are the same
to the model.
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer


class WordEncoder:
    def __init__(self, tokenizer_path: Path):
        self.tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self.tokenizer.no_padding()
        self.tokenizer.no_truncation()
        vocab = self.tokenizer.get_vocab()
        self.cls_id = vocab["[CLS]"]
        self.sep_id = vocab["[SEP]"]
        self.pad_id = vocab["[PAD]"]
        self.unk_id = vocab["[UNK]"]

    CHUNK = 256  # tokens per tokenizer call: one call holds the GIL, so a film at once would stall a GUI

    def pieces(self, tokens: list[str]) -> list[list[int]]:
        """Sub-token ids of each token (a token never maps to zero pieces)."""
        out: list[list[int]] = [[] for _ in tokens]
        for base in range(0, len(tokens), self.CHUNK):
            enc = self.tokenizer.encode(tokens[base:base + self.CHUNK], is_pretokenized=True,
                                        add_special_tokens=False)
            for tid, wid in zip(enc.ids, enc.word_ids):
                if wid is not None:
                    out[base + wid].append(tid)
        for i, p in enumerate(out):
            if not p:
                p.append(self.unk_id)
        return out
