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
        # WordPiece splits each pre-tokenized word on its own, so a word's pieces never
        # depend on its neighbours: remember them.  A film repeats most of its words
        # (11,239 words, about 1,700 distinct), which halves the tokenizing time.
        self._known: dict[str, list[int]] = {BOUNDARY: [self.boundary_id]}

    CHUNK = 256  # tokens per tokenizer call: one call holds the GIL, so a film at once would stall a GUI
    MAX_KNOWN = 200_000  # distinct tokens remembered; far beyond any film's vocabulary

    def pieces(self, tokens: list[str]) -> list[list[int]]:
        """Sub-token ids of each token (a token never maps to zero pieces).

        The lists returned are shared with the cache: callers must not change them.
        """
        known = self._known
        new = list(dict.fromkeys(t for t in tokens if t not in known))
        if len(known) + len(new) > self.MAX_KNOWN:
            known.clear()
            known[BOUNDARY] = [self.boundary_id]
            new = list(dict.fromkeys(t for t in tokens if t not in known))
        for base in range(0, len(new), self.CHUNK):
            chunk = new[base:base + self.CHUNK]
            found: list[list[int]] = [[] for _ in chunk]
            enc = self.tokenizer.encode(chunk, is_pretokenized=True, add_special_tokens=False)
            for tid, wid in zip(enc.ids, enc.word_ids):
                if wid is not None:
                    found[wid].append(tid)
            for token, ids in zip(chunk, found):
                known[token] = ids or [self.unk_id]
        return [known[t] for t in tokens]
