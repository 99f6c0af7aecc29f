"""Build the case-mask lexicon: the exact form of every mixed-case (M) word.

From the training text (forms seen at least twice and as the word's majority
mixed form) and from Debian word lists and the product list.  Keys that are
ordinary lower-case English words ("abed") are left out: the lexicon must never
turn a common word into a mask.
"""

from __future__ import annotations

from collections import Counter

from subcase.casing.tags import Tag, case_mask_key, tag_of
from subcase.subtitles.words import words

from . import corpora, synthetic


def build_lexicon(dataset=None) -> dict[str, str]:
    import random
    counts: Counter[str] = Counter()
    rng = random.Random(0)
    docs = ([d for _, d in corpora.seinfeld_episodes()] + corpora.wiki_docs(rng) + corpora.fortune_docs(rng)
            + corpora.tech_docs(rng))
    for d in docs:
        for cue in d.cues:
            for w in words(cue):
                if tag_of(w) is Tag.M:
                    counts[w] += 1
    by_key: dict[str, Counter[str]] = {}
    for w, n in counts.items():
        key = case_mask_key(w)
        stem = w[: len(key)]
        if n >= 2 and tag_of(stem) is Tag.M:
            by_key.setdefault(key, Counter())[stem] += n
    lexicon = {k: c.most_common(1)[0][0] for k, c in by_key.items()}
    for k, v in synthetic.mixed_case_words().items():
        lexicon.setdefault(k, v)
    common = synthetic.common_words()
    return {k: v for k, v in lexicon.items() if k not in common and len(k) == len(v) and len(k) >= 2}
