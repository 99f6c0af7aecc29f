"""Restored marks that disagree with the casing or with the text around them (issue #55, item 4).

Counted in the text subcase writes, over the marks it restored (written marks are the writer's):
- ``end_then_lower``: a restored full stop, question or exclamation mark followed by a word in lower case
  (the next word of the text, whatever it is: "in 1998. 50 years" is consistent);
- ``quiet_mark``: a mark restored inside brackets (a sound cue) or after a speaker label's word;
- ``open_end``: a file whose last word, in a cue where marks were restored, ends no sentence;
- ``capital_after_comma``: a word written with a capital right after a comma subcase restored, where the
  reference writes it in lower case ("No, emo, It's a trap.": the capital of a sentence start the marks do
  not give).
Each should be zero; ``subcase evaluate`` reports their sum and each count beside the per-mark scores.
"""

from __future__ import annotations

from typing import Sequence

from subcase.casing.marks import COMMA, SENTENCE_ENDS, classify
from subcase.casing.restoring import quiet_words
from subcase.casing.stream import DocumentCasing
from subcase.subtitles.words import Token

KINDS = ("end_then_lower", "quiet_mark", "open_end", "capital_after_comma")


def inconsistencies(cues: Sequence[Sequence[Token]], casing: DocumentCasing,
                    reference_forms: dict[tuple[int, int], str] | None = None) -> dict[str, int]:
    """The counts of ``KINDS`` in one file: ``cues`` the input's tokens, ``casing`` what subcase made of them
    (its words' outputs and its restored marks), ``reference_forms`` the reference's form of each word by
    (cue, word index), for ``capital_after_comma`` (left at 0 without it)."""
    counts = dict.fromkeys(KINDS, 0)
    output = {(w.cue_index, w.word_index): w.output for w in casing.words}
    # every word in text order, cased or not: after "ends. 50 years" the sentence starts at "50", not "years"
    order = [(c, i) for c, tokens in enumerate(cues) for i in range(sum(t.is_word for t in tokens))]
    following = {at: (*order[k + 1], output.get(order[k + 1], "")) for k, at in enumerate(order[:-1])}
    word_tokens = [[k for k, t in enumerate(tokens) if t.is_word] for tokens in cues]
    marked: dict[tuple[int, int], str] = {}
    for m in casing.marks:
        mark = m.prediction.mark
        marked[(m.cue_index, m.word_index)] = mark
        tokens = cues[m.cue_index]
        if m.word_index < len(word_tokens[m.cue_index]) and \
                word_tokens[m.cue_index][m.word_index] in quiet_words(tokens):
            counts["quiet_mark"] += 1
        nxt = following.get((m.cue_index, m.word_index))
        if nxt is None or nxt[2][:1].upper() == nxt[2][:1].lower():
            continue  # no word, or one that starts with no letter that has a capital ("50", "\u00aa")
        if mark in SENTENCE_ENDS and nxt[2][:1].islower():
            counts["end_then_lower"] += 1
        if mark == COMMA and nxt[2][:1].isupper() and reference_forms is not None:
            ref = reference_forms.get((nxt[0], nxt[1]))
            if ref is not None and ref[:1].islower():
                counts["capital_after_comma"] += 1
    restored = casing.restored
    last = len(cues) - 1
    while last >= 0 and not word_tokens[last]:
        last -= 1
    if last >= 0 and (restored is None or restored[last]):
        k = len(word_tokens[last]) - 1
        tokens = cues[last]
        after = word_tokens[last][k] + 1
        written = classify(tokens[after].text) if after < len(tokens) and not tokens[after].is_word else ""
        if written not in SENTENCE_ENDS and marked.get((last, k)) not in SENTENCE_ENDS:
            counts["open_end"] += 1
    return counts


def add(total: dict[str, int], counts: dict[str, int]) -> dict[str, int]:
    return {k: total.get(k, 0) + counts.get(k, 0) for k in KINDS}


def report_line(label: str, key: str, counts: dict[str, int]) -> str:
    detail = ", ".join(f"{k.replace('_', ' ')} {counts.get(k, 0)}" for k in KINDS)
    return f"{label} {key}: {sum(counts.get(k, 0) for k in KINDS)} inconsistencies ({detail})"


__all__ = ["KINDS", "add", "inconsistencies", "report_line"]
