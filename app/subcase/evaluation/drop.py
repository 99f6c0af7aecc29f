"""Mixed input for ``evaluate --drop P`` and ``simulate-review --drop P``.

Speech recognition drops into "no capitals, no punctuation" partway through
a file and back.  To measure that, random runs of cues covering a share P of
a file's words are lower-cased and stripped of punctuation, and the other
cues are left as the people wrote them.  The runs are drawn from a seed and
the file's name, so a run of the command is repeatable and every file gets
runs of its own.
"""

from __future__ import annotations

import random
import zlib
from typing import Sequence

RUN_CUES = (3, 12)  # cues in a dropped run, drawn uniformly: a few lines to a minute of speech
SEED = 0


def parse_share(text: str) -> float:
    """``--drop``'s argument: a share of the words from 0 to 1."""
    import argparse
    try:
        share = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a share of the words from 0 to 1, not {text!r}") from None
    if not 0.0 <= share <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a share of the words from 0 to 1, not {text}")
    return share


def dropped_cues(words_per_cue: Sequence[int], share: float, name: str, seed: int = SEED) -> set[int]:
    """The cues to lower-case and strip: random runs of ``RUN_CUES`` cues until they hold ``share`` of
    the words (the last run is cut where the share is reached)."""
    total = sum(words_per_cue)
    target = share * total
    if total == 0 or share <= 0.0:
        return set()
    if share >= 1.0:
        return set(range(len(words_per_cue)))
    rng = random.Random(zlib.crc32(f"{seed}:{name}".encode("utf-8")))
    chosen: set[int] = set()
    covered = 0
    while covered < target:
        start = rng.randrange(len(words_per_cue))
        for c in range(start, min(start + rng.randint(*RUN_CUES), len(words_per_cue))):
            if covered >= target:
                break
            if c not in chosen:
                chosen.add(c)
                covered += words_per_cue[c]
    return chosen


__all__ = ["RUN_CUES", "SEED", "dropped_cues", "parse_share"]
