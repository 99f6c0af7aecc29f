"""Training windows that look like real subtitle input.

A window is a run of consecutive cues (crossing cue boundaries, cut at a word
when it reaches the token budget), lower-cased, with punctuation either kept
or stripped (speech recognition gives both).  ALL-CAPS input needs no
examples of its own: the encoder is uncased, so "FBI" and "fbi" are the same
input.  Labels sit on the first sub-token of each word; punctuation and
words without letters are ignored (-100).

The tokenisation is exactly the engine's (``subcase.casing.encoder``), so the
model sees the same ids in training and at run time.
"""

from __future__ import annotations

import argparse
import random
import re
from dataclasses import dataclass

import numpy as np

from subcase.casing.encoder import BOUNDARY, WordEncoder
from subcase.casing.tags import TAGS, tag_of
from subcase.subtitles.words import has_letters, tokenize

from .corpora import Doc

IGNORE = -100
TAG_INDEX = {t: i for i, t in enumerate(TAGS)}


@dataclass
class EncodedDoc:
    """A document's tokens with their sub-token ids, flattened across cues."""

    pieces: list[list[int]]   # sub-token ids of each token
    labels: list[int]         # tag index, or IGNORE
    is_punct: list[bool]
    cue_starts: list[int]     # token index where each cue begins
    is_label: list[bool] | None = None  # part of an SDH speaker label ("JOHN SMITH:")


# An SDH speaker label at the start of a line: capitals, then a colon.
SPEAKER_LABEL = re.compile(r"(?m)^(?:- )?[A-Z][A-Z0-9 .'\-]*:")


def encode_doc(doc: Doc, encoder: WordEncoder) -> EncodedDoc | None:
    texts: list[str] = []
    labels: list[int] = []
    punct: list[bool] = []
    cue_starts: list[int] = []
    is_label: list[bool] = []
    for cue in doc.cues:
        cue_starts.append(len(texts))
        texts.append(BOUNDARY)  # every cue opens with the boundary marker, as at run time
        punct.append(False)
        labels.append(IGNORE)
        is_label.append(False)
        spans = [m.span() for m in SPEAKER_LABEL.finditer(cue)]
        for tok in tokenize(cue):
            texts.append(tok.text)
            punct.append(not tok.is_word)
            is_label.append(any(a <= tok.start < b for a, b in spans))
            labels.append(TAG_INDEX[tag_of(tok.text)] if tok.is_word and has_letters(tok.text) else IGNORE)
    if all(lab == IGNORE for lab in labels):  # nothing to learn from
        return None
    pieces = encoder.pieces(texts)
    return EncodedDoc(pieces, labels, punct, cue_starts, is_label)


def sample_window(doc: EncodedDoc, rng: random.Random, budget: int, strip_punct: bool) -> tuple[list[int], list[int]]:
    """Sub-token ids and labels (without [CLS]/[SEP]) of one random window."""
    if rng.random() < 0.7:
        start = rng.choice(doc.cue_starts)
    else:
        start = rng.randrange(len(doc.pieces))
    ids: list[int] = []
    labels: list[int] = []
    for i in range(start, len(doc.pieces)):
        # speech recognition gives neither punctuation nor speaker labels: the
        # stripped variant drops both, so a label's capitals are only ever
        # learnt next to the colon that marks them
        if strip_punct and (doc.is_punct[i] or (doc.is_label and doc.is_label[i])):
            continue
        p = doc.pieces[i]
        if len(ids) + len(p) > budget:
            break
        ids.extend(p)
        labels.append(doc.labels[i])
        labels.extend([IGNORE] * (len(p) - 1))
    return ids, labels


def make_batch(windows: list[tuple[list[int], list[int]]], cls_id: int, sep_id: int, pad_id: int):
    """Pad windows into (input_ids, attention_mask, labels) arrays."""
    n = max(len(ids) for ids, _ in windows) + 2
    input_ids = np.full((len(windows), n), pad_id, dtype=np.int64)
    mask = np.zeros((len(windows), n), dtype=np.int64)
    labels = np.full((len(windows), n), IGNORE, dtype=np.int64)
    for r, (ids, lab) in enumerate(windows):
        k = len(ids)
        input_ids[r, 0] = cls_id
        input_ids[r, 1:k + 1] = ids
        input_ids[r, k + 1] = sep_id
        mask[r, : k + 2] = 1
        labels[r, 1:k + 1] = lab
    return input_ids, mask, labels


def held_out_batches(docs, encoder, budget: int, n_windows: int, seed: int, batch_size: int = 32):
    """A fixed, seeded set of held-out windows (half with punctuation stripped), batched."""
    rng = random.Random(seed)
    windows = []
    for i in range(n_windows):
        _, doc = docs[rng.randrange(len(docs))]
        ids, labels = sample_window(doc, rng, budget, strip_punct=i % 2 == 1)
        if ids:
            windows.append((ids, labels))
    return [make_batch(windows[i:i + batch_size], encoder.cls_id, encoder.sep_id, encoder.pad_id)
            for i in range(0, len(windows), batch_size)]


def add_strip_share(ap: argparse.ArgumentParser) -> None:
    """``--strip-share``, which ``train.start_run`` checks: every training command has it (English and multilingual)."""
    ap.add_argument("--strip-share", type=float, default=0.5,
                    help="share of windows without punctuation (default 0.5; 1.0 trains a model for "
                         "unpunctuated input only)")
