"""Words a reference file writes in more than one casing inside its sentences.

A reference is one subtitler's choices, and they are not always one choice per word:
one French W3C talk writes "web" 9 times and "Web" once inside its sentences, another
"Web" 12 times and "web" twice; a Portuguese talk writes "Docker" 4 times and "docker" 4.
Where a file writes a word two ways, a system that writes it one way is wrong on one
of them whatever it chose, and a system that varies can only guess which is which.
Some of these are context a model could read (a title in capitals, "US" and "us");
most are the subtitler's whim.  So ``evaluate`` reports, beside each score, how many
of subcase's errors sit on such words and the scores on the words each file writes
one way only: what a figure means depends on what its references allow, and a model
tuned to one file's whim would not hold on the next file.

Sentence-initial words take no part in the comparison (their capital belongs to the
sentence, not to the word) and stay in the scores; so do the first words of cues, where a
capital often starts a sentence whose full stop the reference left out ("E" and "e" in a
Portuguese file are sentence starts and "and", not two spellings).  Files are compared with
themselves only: two files that write a word differently are two house styles, not
one subtitler disagreeing with themself.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Sequence

from .metrics import WordOutcome, score

EXAMPLES = 4


def two_way_forms(outcomes: Sequence[WordOutcome]) -> dict[str, set[str]]:
    """The words of one file (lower-cased) that its reference writes in more than one casing
    inside sentences, each with the forms it takes there."""
    forms: dict[str, set[str]] = defaultdict(set)
    for o in outcomes:
        if not (o.sentence_initial or o.cue_initial):
            forms[o.ref.lower()].add(o.ref)
    return {word: seen for word, seen in forms.items() if len(seen) > 1}


def two_way_entry(files: Sequence[Sequence[WordOutcome]]) -> dict:
    """For one system's outcomes per file: the words their own file writes two ways (how many,
    the system's errors on them, the commonest), and the scores on all other words."""
    rest: list[WordOutcome] = []
    words = errors = 0
    examples: Counter[str] = Counter()
    for outcomes in files:
        forms = two_way_forms(outcomes)
        for o in outcomes:
            key = o.ref.lower()
            if o.sentence_initial or o.cue_initial or key not in forms:
                rest.append(o)
                continue
            words += 1
            errors += o.ref != o.hyp
            examples[" / ".join(sorted(forms[key]))] += 1
    s = score(rest)
    return {"words": words, "errors": errors, "examples": [form for form, _ in examples.most_common(EXAMPLES)],
            "rest": {k: s[k] for k in ("words", "errors", "f1", "intrinsic_f1", "ser")}}
