"""The marks at run time: the mark after each word, from the casing model's own pass.

Two kinds of model give them.  A joint model (training/joint.py) has a second graph output, ``marks``: per
word, the probabilities of the mark after it, from an encoder trained for casing and marks together
(``GraphMarks``).  An older model folder has ``punctuation.npz`` (a head's weights) and a graph whose second
output, ``hidden``, is the encoder's last hidden state at the words whose tags it gives; the mark after word
i is read from the hidden states of words i - 1, i and i + 1 of the stream (across cue boundaries, as casing
reads) and whether word i ends its cue, through one hidden layer that numpy runs (``PunctuationHead``).
Either way there is no second model call, and both answer ``predict(output, ends_cue)`` for the graph
output they name (``output``).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

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

    def predict(self, marks: np.ndarray, ends_cue: np.ndarray) -> list[MarkPrediction]:
        probs = np.asarray(marks, np.float32)
        best = probs.argmax(1).tolist()
        return [MarkPrediction(MARKS[k], tuple(p)) for k, p in zip(best, probs.tolist())]


class PunctuationHead:
    """The head's weights, loaded once per engine."""

    output = HIDDEN

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

    def probabilities(self, hidden: np.ndarray, ends_cue: np.ndarray) -> np.ndarray:
        """Probabilities of each mark (words x 5, MARKS order) after each word of one stream, its words'
        hidden states in order."""
        n = len(hidden)
        if not n:
            return np.zeros((0, len(MARKS)), np.float32)
        # The first layer over ``neighbours`` (previous, own, next hidden state, cue end), computed without
        # building that words x (3 x dim + 1) matrix: each word's state goes through the three blocks of
        # weights once, and a word adds its neighbours' rows.  Same sum, a third of the memory traffic.
        k = self.width
        blocks = hidden.astype(np.float32, copy=False) @ self._w1_blocks  # as before, as itself, as after
        h = blocks[:, k:2 * k] + self.b1
        if n > 1:
            h[1:] += blocks[:-1, :k]      # each word's state as the word before the next one
            h[:-1] += blocks[1:, 2 * k:]  # and as the word after the one before
        h += np.asarray(ends_cue, np.float32).reshape(n, 1) * self.w1[-1]
        # GELU, as trained (exact form).  The constant is a Python float: a numpy float64 scalar would make
        # numpy 2 carry the whole array in float64 (twice the time; numpy 1 kept float32).
        h = 0.5 * h * (1.0 + _erf(h * SQRT_HALF))
        logits = h @ self.w2 + self.b2
        logits -= logits.max(1, keepdims=True)
        e = np.exp(logits)
        return (e / e.sum(1, keepdims=True)).astype(np.float32)

    def predict(self, hidden: np.ndarray, ends_cue: np.ndarray) -> list[MarkPrediction]:
        probs = self.probabilities(hidden, ends_cue)
        best = probs.argmax(1).tolist()
        return [MarkPrediction(MARKS[k], tuple(p)) for k, p in zip(best, probs.tolist())]


SQRT_HALF = 0.5 ** 0.5


def _erf(x: np.ndarray) -> np.ndarray:
    """The error function, vectorised (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7: numpy has none and
    scipy is not a dependency)."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t
               + 0.254829592) * t * np.exp(-a * a)
    return sign * y

