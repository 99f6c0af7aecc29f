"""Word 8-gram overlap: the training corpus shares no 8 words in a row with the test set or the dev sets.

Words are lower-cased with punctuation stripped, so "Wait, what?" and "wait what" are the same; 8-grams
run across cue boundaries.  A cue run that shares any 8-gram with the protected text is dropped (the
document splits around it); a document most of whose sampled 8-grams an earlier training document
already had is a second release of the same episode, and is dropped whole.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable, Sequence

N = 8
_STRIP = re.compile(r"[^\w]+")
# near-duplicate check on one 8-gram in SAMPLE (by a fixed hash, so the same ones every run)
SAMPLE = 8
NEAR_DUPLICATE = 0.5


def words(text: str) -> list[str]:
    out = []
    for token in text.lower().split():
        token = _STRIP.sub("", token)
        if token:
            out.append(token)
    return out


def grams(tokens: Sequence[str]) -> Iterable[str]:
    for i in range(len(tokens) - N + 1):
        yield " ".join(tokens[i:i + N])


def text_grams(texts: Iterable[str]) -> set[str]:
    """Every 8-gram of the texts, one word stream across them."""
    tokens: list[str] = []
    for text in texts:
        tokens.extend(words(text))
    return set(grams(tokens))


def split_on_overlap(cues: Sequence[str], protected: set[str]) -> tuple[list[list[str]], int]:
    """The runs of ``cues`` left when every cue touched by an 8-gram in ``protected`` is dropped, and
    how many cues were dropped."""
    tokens: list[str] = []
    owner: list[int] = []
    for index, cue in enumerate(cues):
        for token in words(cue):
            tokens.append(token)
            owner.append(index)
    hit = [False] * len(cues)
    for i in range(len(tokens) - N + 1):
        if " ".join(tokens[i:i + N]) in protected:
            for j in range(i, i + N):
                hit[owner[j]] = True
    runs: list[list[str]] = [[]]
    for cue, dropped in zip(cues, hit):
        if dropped:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(cue)
    return [run for run in runs if run], sum(hit)


def sampled(cues: Sequence[str]) -> set[str]:
    tokens: list[str] = []
    for cue in cues:
        tokens.extend(words(cue))
    return {g for g in grams(tokens) if zlib.crc32(g.encode("utf-8")) % SAMPLE == 0}


class NearDuplicates:
    """Remembers the sampled 8-grams of the documents kept so far."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def keep(self, cues: Sequence[str]) -> bool:
        sample = sampled(cues)
        if sample and len(sample & self.seen) >= NEAR_DUPLICATE * len(sample):
            return False
        self.seen |= sample
        return True
