"""Turning words into the encoder's sub-token ids (WordPiece via ``tokenizers``).

Shared by the run-time engine and the training pipeline, so both feed the
model identical ids.  The tokenizer is uncased: it lower-cases and strips
accents itself, which is why ALL-CAPS input and lower-case input are the same
to the model.
"""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer

# Stands between two cues in a token stream.  The model reads it as one reserved
# vocabulary entry ([unused1]) and learns in training how far a cue boundary
# hints at a new sentence; U+2029 can never be a token of subtitle text.
BOUNDARY = "\u2029"


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
        self.boundary_id = vocab.get("[unused1]", self.sep_id)

    CHUNK = 256  # tokens per tokenizer call: one call holds the GIL, so a film at once would stall a GUI

    def pieces(self, tokens: list[str]) -> list[list[int]]:
        """Sub-token ids of each token (a token never maps to zero pieces)."""
        out: list[list[int]] = [[] for _ in tokens]
        text_at = [i for i, t in enumerate(tokens) if t != BOUNDARY]
        for i, t in enumerate(tokens):
            if t == BOUNDARY:
                out[i].append(self.boundary_id)
        for base in range(0, len(text_at), self.CHUNK):
            chunk = text_at[base:base + self.CHUNK]
            enc = self.tokenizer.encode([tokens[i] for i in chunk], is_pretokenized=True,
                                        add_special_tokens=False)
            for tid, wid in zip(enc.ids, enc.word_ids):
                if wid is not None:
                    out[chunk[wid]].append(tid)
        for i, p in enumerate(out):
            if not p:
                p.append(self.unk_id)
        return out
