"""Web and e-mail addresses inside subtitle text: their host names stay lower case.

Talks read addresses out ("visit w3.org/WAI/evaluation"), and the word
tokenizer splits them into words and dots.  To the model "org" after a dot
looks like a new sentence, so it came out "Org" or "ORG".  Host names are
case-insensitive and written in lower case by convention, so the words of a
host name (and the local part of an e-mail address) are tagged L by rule.
Path segments after a slash ("WAI", "evaluation") are still the model's call.
"""

from __future__ import annotations

from typing import Sequence

from subcase.subtitles.words import Token

# Top-level domains common in speech; a dotted run must end in one to count as a host,
# so "e.g." or "U.S." never do.
TLDS = frozenset(
    "com org net edu gov mil int io co uk us eu de fr es it nl be ch at se no dk fi ie ca au nz jp cn in br "
    "info biz dev app ai tv me ly fm gg xyz online site tech news blog".split()
)
JOINERS = {".", "@", "-"}


def host_word_indices(tokens: Sequence[Token]) -> set[int]:
    """Indices (into ``tokens``) of the words that belong to a host name or e-mail address."""
    # a host name has a dot with a word on either side and no space between them; most cues have none
    # (a sentence's full stop is followed by a space or the end), and they skip the scan
    if not any(tokens[k].text == "." and tokens[k - 1].is_word and tokens[k + 1].is_word
               and tokens[k - 1].end == tokens[k].start and tokens[k].end == tokens[k + 1].start
               for k in range(1, len(tokens) - 1)):
        return set()
    return scan_hosts(tokens)


def scan_hosts(tokens: Sequence[Token]) -> set[int]:
    """``host_word_indices`` by scanning every run of words joined without spaces."""
    found: set[int] = set()
    n = len(tokens)
    i = 0
    while i < n:
        if not tokens[i].is_word:
            i += 1
            continue
        # the longest run word (joiner word)* with no space between any two tokens
        j = i
        while (j + 2 < n and tokens[j + 1].text in JOINERS and tokens[j + 2].is_word
               and tokens[j].end == tokens[j + 1].start and tokens[j + 1].end == tokens[j + 2].start):
            j += 2
        run = tokens[i:j + 1]
        words = [t for t in run if t.is_word]
        if len(words) >= 2 and any(t.text == "." for t in run) and words[-1].text.lower() in TLDS:
            found.update(k for k in range(i, j + 1) if tokens[k].is_word)
        i = j + 1
    return found
