"""The marks at run time: the mark after each word, from the casing model's own pass.

Two kinds of model give them.  A joint model (training/joint.py) has a second graph output, ``marks``: per
word, the probabilities of the mark after it, from an encoder trained for casing and marks together
(``GraphMarks``).  An older model folder has ``punctuation.npz`` (a head's weights) and a graph whose second
output, ``hidden``, is the encoder's last hidden state at the words whose tags it gives; the mark after word
i is read from the hidden states of words i - 1, i and i + 1 of the stream (across cue boundaries, as casing
reads) and whether word i ends its cue, through one hidden layer that numpy runs (``PunctuationHead``).
Either way there is no second model call, and both answer ``streamed(chunks, ends_cue)`` and
``predict(output, ends_cue)`` for the graph output they name (``output``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, NamedTuple

import numpy as np

from .marks import MARK_NAMES, MARKS
from .onnx_session import ModelError

HEAD_FILE = "punctuation.npz"
HIDDEN = "hidden"
MARKS_OUTPUT = "marks"


class MarkPrediction(NamedTuple):
    mark: str                                       # one of MARKS ("" for none)
    probs: tuple[float, float, float, float, float]  # in MARKS order

    @property
    def confidence(self) -> float:
        return self.probs[MARKS.index(self.mark)]

    def alternatives(self) -> list[tuple[str, float]]:
        """Marks ranked by probability, best first, with their names' order as the tie-break."""
        return sorted(zip(MARKS, self.probs), key=lambda mp: -mp[1])

    def describe(self) -> str:
        return ", ".join(f"{MARK_NAMES[m]} {p:.0%}" for m, p in self.alternatives())


def neighbours(hidden: np.ndarray, ends_cue: np.ndarray, first: np.ndarray) -> np.ndarray:
    """The head's input for each word: the hidden states of the word before, the word and the word after
    (zeros where a stream starts or ends: ``first`` marks where each starts), then whether it ends its cue."""
    n, dim = hidden.shape
    prev = np.zeros_like(hidden)
    nxt = np.zeros_like(hidden)
    if n > 1:
        prev[1:] = hidden[:-1]
        nxt[:-1] = hidden[1:]
    prev[first] = 0.0
    last = np.flatnonzero(first) - 1
    nxt[last[last >= 0]] = 0.0
    nxt[n - 1] = 0.0
    return np.hstack([prev, hidden, nxt, ends_cue.reshape(n, 1).astype(hidden.dtype)])


class GraphMarks:
    """A joint model's marks: its graph's ``marks`` output is already each word's probabilities."""

    output = MARKS_OUTPUT
    temperature = 1.0  # the marks' calibration (model.json ``punctuation.temperature``, set by the engine)

    def streamed(self, chunks: Iterable[np.ndarray], ends_cue: np.ndarray) -> np.ndarray:
        """The probabilities of one stream's words (words x 5), from its ``marks`` in consecutive chunks."""
        out = np.zeros((len(ends_cue), len(MARKS)), np.float32)
        at = 0
        for chunk in chunks:
            out[at:at + len(chunk)] = chunk
            at += len(chunk)
        return out

    def predict(self, marks: np.ndarray, ends_cue: np.ndarray) -> list[MarkPrediction]:
        probs = np.asarray(marks, np.float32)
        best = probs.argmax(1).tolist()
        return [MarkPrediction(MARKS[k], tuple(p)) for k, p in zip(best, probs.tolist())]


class PunctuationHead:
    """The head's weights, loaded once per engine."""

    output = HIDDEN
    temperature = 1.0  # the marks' calibration (model.json ``punctuation.temperature``, set by the engine)

    def __init__(self, path: Path):
        try:
            with np.load(path, allow_pickle=False) as data:
                self.w1, self.b1 = data["w1"], data["b1"]
                self.w2, self.b2 = data["w2"], data["b2"]
        except (OSError, KeyError, ValueError) as exc:
            raise ModelError(f"cannot read the punctuation head {path}: {exc}") from exc
        dim = (len(self.w1) - 1) // 3
        self.width = self.w1.shape[1]
        # the blocks of w1 for the word before, the word and the word after, side by side: one product
        self._w1_blocks = np.ascontiguousarray(np.hstack([self.w1[:dim], self.w1[dim:2 * dim],
                                                          self.w1[2 * dim:3 * dim]]))

    @classmethod
    def load(cls, model_dir: Path) -> PunctuationHead | None:
        path = model_dir / HEAD_FILE
        return cls(path) if path.is_file() else None

    def probabilities(self, hidden: np.ndarray, ends_cue: np.ndarray, offset: int = 0) -> np.ndarray:
        """Probabilities of each mark (words x 5, MARKS order) after each word of one stream, its words'
        hidden states in order (``offset``: the first one's place in the stream, for ``streamed``)."""
        n = len(hidden)
        if not n:
            return np.zeros((0, len(MARKS)), np.float32)
        # The first layer over ``neighbours`` (previous, own, next hidden state, cue end), computed without
        # building that words x (3 x dim + 1) matrix: each word's state goes through the three blocks of
        # weights once, and a word adds its neighbours' rows.  Same sum, a third of the memory traffic.
        k = self.width
        blocks = _on_grid(hidden.astype(np.float32, copy=False), self._w1_blocks, offset)  # before, itself, after
        h = blocks[:, k:2 * k] + self.b1
        if n > 1:
            h[1:] += blocks[:-1, :k]      # each word's state as the word before the next one
            h[:-1] += blocks[1:, 2 * k:]  # and as the word after the one before
        h += np.asarray(ends_cue, np.float32).reshape(n, 1) * self.w1[-1]
        # GELU, as trained (exact form).  The constant is a Python float: a numpy float64 scalar would make
        # numpy 2 carry the whole array in float64 (twice the time; numpy 1 kept float32).
        h = 0.5 * h * (1.0 + _erf(h * SQRT_HALF))
        logits = _on_grid(h, self.w2, offset) + self.b2
        logits -= logits.max(1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(1, keepdims=True)).astype(np.float32)

    def streamed(self, chunks: Iterable[np.ndarray], ends_cue: np.ndarray) -> np.ndarray:
        """``probabilities`` of one stream whose hidden states arrive in consecutive chunks (``ends_cue`` for
        all its words): the same rows as one call over the chunks put together, holding a chunk at a time.
        Each row needs its neighbours, so the last row of a chunk is computed with the next chunk, and the
        row before it is carried over as that row's word before."""
        out = np.zeros((len(ends_cue), len(MARKS)), np.float32)
        tail: np.ndarray | None = None  # the last two rows seen: the pending row and its word before
        done = 0  # the pending row's word: every row before it is written
        # the head's own arrays take 12 KB a word: it reads a grid block at a time, however long the chunk
        for chunk in (c[cut:cut + GRID] for c in chunks for cut in range(0, len(c), GRID)):
            x = chunk if tail is None else np.concatenate([tail, chunk])
            base = done - (len(tail) - 1) if tail is not None else 0  # the word of x[0]
            first = len(tail) - 1 if tail is not None else 0
            probs = self.probabilities(x, ends_cue[base:base + len(x)], base)
            out[base + first:base + len(x) - 1] = probs[first:len(x) - 1]
            done = base + len(x) - 1
            tail = x[-2:].copy()
        if tail is not None:
            base = done - (len(tail) - 1)
            out[done] = self.probabilities(tail, ends_cue[base:base + len(tail)], base)[-1]
        return out

    def predict(self, hidden: np.ndarray, ends_cue: np.ndarray) -> list[MarkPrediction]:
        probs = self.probabilities(hidden, ends_cue)
        best = probs.argmax(1).tolist()
        return [MarkPrediction(MARKS[k], tuple(p)) for k, p in zip(best, probs.tolist())]


SQRT_HALF = 0.5 ** 0.5
GRID = 512  # rows of the fixed blocks ``_on_grid`` multiplies in


def _on_grid(a: np.ndarray, b: np.ndarray, offset: int) -> np.ndarray:
    """``a @ b``, where row i of ``a`` is row ``offset + i`` of a longer stream, each row computed in the
    block of ``GRID`` rows of the stream it falls in (zeros for the rows not given).  BLAS sums a row in an
    order that depends on the matrix's height and the row's place in it (last bits differ), so a stream cut
    into chunks anywhere gets the very rows of one product over the whole stream."""
    out = np.empty((len(a), b.shape[1]), np.float32)
    pos = 0
    while pos < len(a):
        at = (offset + pos) % GRID
        take = min(GRID - at, len(a) - pos)
        block = np.zeros((GRID, a.shape[1]), np.float32)
        block[at:at + take] = a[pos:pos + take]
        out[pos:pos + take] = (block @ b)[at:at + take]
        pos += take
    return out


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function, vectorised (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7: numpy has none and
    scipy is not a dependency)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return sign * y

