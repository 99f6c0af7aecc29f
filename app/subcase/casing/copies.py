"""Which words of a rolling caption repeat which: a compact, read-only map from each repeat to its first
appearance, both as (cue, word index).

A word-level rolling caption shows each spoken word three times (casing/rolling.py), so a three-hour stream
has some 300,000 repeats.  As a dict of tuples they took 41 MB (two tuples, two ints above 256 and a slot
each); here they are two sorted arrays of 64-bit keys, 16 bytes a repeat (issue #56 item 5).
"""

from __future__ import annotations

from typing import Iterable, Iterator, Mapping

import numpy as np

Pos = tuple[int, int]  # (cue index, word index among the cue's words)
_SHIFT = 32  # a position's key: cue << 32 | word index


def _key(pos: Pos) -> int:
    return (pos[0] << _SHIFT) | pos[1]


def _pos(key: int) -> Pos:
    return key >> _SHIFT, key & ((1 << _SHIFT) - 1)


class WordCopies(Mapping[Pos, Pos]):
    """Each repeated word's (cue, word index) -> its first appearance's; a Mapping, read-only."""

    __slots__ = ("_keys", "_firsts")

    def __init__(self, pairs: Iterable[tuple[Pos, Pos]] = ()):
        flat = np.fromiter((k for copy, first in pairs for k in (_key(copy), _key(first))), dtype=np.int64)
        keys, firsts = flat[0::2], flat[1::2]
        order = np.argsort(keys, kind="stable")
        # a repeat named twice keeps its last first appearance, as a dict built from the pairs would
        keys, firsts = keys[order], firsts[order]
        last = np.append(keys[1:] != keys[:-1], True) if len(keys) else np.zeros(0, dtype=bool)
        self._keys, self._firsts = keys[last], firsts[last]

    def __getitem__(self, pos: Pos) -> Pos:
        key = _key(pos)
        at = int(np.searchsorted(self._keys, key))
        if at == len(self._keys) or int(self._keys[at]) != key:
            raise KeyError(pos)
        return _pos(int(self._firsts[at]))

    def __iter__(self) -> Iterator[Pos]:
        return (_pos(k) for k in self._keys.tolist())

    def __len__(self) -> int:
        return len(self._keys)

    def items(self) -> list[tuple[Pos, Pos]]:  # type: ignore[override]  # one pass, not a lookup per key
        return [(_pos(k), _pos(f)) for k, f in zip(self._keys.tolist(), self._firsts.tolist())]

    def __repr__(self) -> str:
        return f"WordCopies({len(self)} repeats)"


__all__ = ["Pos", "WordCopies"]
