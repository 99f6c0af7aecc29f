"""Where each reviewable word of a document sits: one structure, computed once per version of its words.

Sentence starts (the casing's one rule, ``positions.sentence_initial``), line starts, whether the file
marks sentence ends at all, the sound-cue and speaker-label words (``housestyle.categories_of``), the
silences that make a cue's first word a likelier sentence start, where each word occurs and which words
are quoted.  The flag reasons, the learner (``learning.Layout``) and the edit log's record context read it; none of it depends on how the words are cased, so
it stays valid through every accept and tag change and is computed again only when the words
themselves change (a text edit, a mode change, a save into another format).

``DocumentStructure`` is its owner: the session holds one (``ReviewSession.structure``) and hands it to
the flag context, and it recognises the document's version by value (its text and its words' layout),
never by the identity of the objects.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from subcase.casing.housestyle import Category, categories_of
from subcase.subtitles import Document

from .positions import has_sentence_punctuation, line_starts, sentence_initial
from .state import Pos, ReviewState


@dataclass(frozen=True)
class Structure:
    initial: dict[Pos, bool]           # the word starts a sentence
    line_starts: frozenset[Pos]        # the word opens a line of its cue
    punctuated: bool                   # the file marks sentence ends
    categories: dict[Pos, Category]    # sound-cue and speaker-label words
    silences: dict[int, float]         # cue -> seconds of silence before it, where that makes its first
                                       # word a likelier sentence start (casing/pauses.py; no punctuation)
    index: dict[str, tuple[Pos, ...]]  # lower-cased word -> where it occurs, in reading order
    quoted: dict[Pos, list[Pos]]       # a word inside quotation marks -> its quotation's words

    @classmethod
    def compute(cls, doc: Document, state: ReviewState) -> Structure:
        from subcase.casing.pauses import for_unpunctuated, opening_words, pauses_of

        cues = doc.cues
        tokens = [cue.tokens() for cue in cues]
        pauses = for_unpunctuated(tokens, pauses_of(cues))
        silences = {c: (cues[c].start_ms - cues[c - 1].end_ms) / 1000 for c, _ in opening_words(tokens, pauses)}
        index: dict[str, list[Pos]] = {}
        for pos in state.positions():
            index.setdefault(state.word(pos).form.lower(), []).append(pos)
        return cls(sentence_initial(doc, state), frozenset(line_starts(doc, state)), has_sentence_punctuation(doc),
                   categories_of(doc, state.cues), silences, {k: tuple(v) for k, v in index.items()},
                   quoted_spans(doc, state))


# English quotation marks: a straight one opens or closes, a curly one says which.
QUOTE_MARKS = {'"': None, "\u201c": True, "\u201d": False}


def quoted_spans(doc: Document, state: ReviewState, only: Iterable[int] | None = None) -> dict[Pos, list[Pos]]:
    """Each word inside quotation marks, with the words of its quotation (one list shared by them
    all); a quotation ends with its cue, whether or not it is closed there.  ``only``: those cues."""
    out: dict[Pos, list[Pos]] = {}
    for c in (range(len(doc.cues)) if only is None else only):
        cue = doc.cues[c]
        quotation: list[Pos] | None = None  # the words of the open quotation
        slots = {w.start: s for s, w in enumerate(state.cues[c])}
        for t in cue.tokens():
            if t.text in QUOTE_MARKS:
                opens = QUOTE_MARKS[t.text]
                quotation = [] if (quotation is None if opens is None else opens) else None
            elif quotation is not None and t.is_word and t.start in slots:
                pos = (c, slots[t.start])
                quotation.append(pos)
                out[pos] = quotation
    return out


CueVersion = tuple  # (text lower-cased, start ms, end ms, each word's (word index, start, end, model tag))


def cue_versions(doc: Document, state: ReviewState) -> list[CueVersion]:
    """What each cue's part of the structure depends on: its text but for its case, its timing (the
    silences), and each word's place and model tag (a speaker label is told by the model's tags)."""
    return [(cue.text.lower(), cue.start_ms, cue.end_ms,
             tuple([(w.word_index, w.start, w.end, w.model_tag) for w in words]))
            for cue, words in zip(doc.cues, state.cues)]


def version(doc: Document, state: ReviewState) -> tuple:
    """What the whole structure depends on (``cue_versions``), as one value."""
    return tuple(cue_versions(doc, state))


# A change spread over more cues than this is read again whole: the update is for one decision's cues.
UPDATE_SPAN = 32


def _updated(old: Structure, doc: Document, state: ReviewState, before: list[CueVersion],
             changed: list[int]) -> Structure | None:
    """``old`` with the parts of cues ``changed`` (and the first word after them, whose sentence start their
    marks decide) read again; None where only a whole reading is right: the file's sentence punctuation
    (read from its first ``PROBE_CUES`` cues) came or went, silences count (a file without it), a speaker
    label may be involved (a colon: labels are counted over the file), or the change spreads wide.

    The same values as ``Structure.compute``, at the cost of the cues changed: a decision on a mark (which
    moves the sentence starts) is read in the time of one cue, not of the file (simulate-review's editor
    sets hundreds)."""
    from subcase.casing.rules import PROBE_CUES, sentence_starts

    lo, hi = changed[0], changed[-1]
    if not old.punctuated or hi - lo > UPDATE_SPAN:
        return None
    cues = doc.cues
    # a label may be involved, or lower-casing moved the offsets the word index reads ("\u0130", the one
    # letter whose lower case is longer, leaves a "\u0307" in it)
    if any(":" in before[c][0] or ":" in cues[c].text or "\u0307" in before[c][0] or "\u0130" in cues[c].text
           for c in changed):
        return None
    if lo < PROBE_CUES and not has_sentence_punctuation(doc):
        return None
    tokens = {c: cues[c].tokens() for c in range(lo, hi + 1)}
    # sentence starts: from the last cue before the change with a word (after its last word the rule's state
    # is the same whatever came before) to the first cue after it with one (its first word may start a sentence)
    anchor = lo - 1
    while anchor >= 0 and not any(t.is_word for t in cues[anchor].tokens()):
        anchor -= 1
    anchor = max(anchor, 0)
    end = hi + 1
    while end < len(cues) and not any(t.is_word for t in cues[end].tokens()):
        end += 1
    end = min(end, len(cues) - 1)
    span = [tokens[c] if c in tokens else cues[c].tokens() for c in range(anchor, end + 1)]
    initial = dict(old.initial)
    for c in range(lo, end + 1):
        for s in range(max(len(state.cues[c]), len(before[c][3]))):
            initial.pop((c, s), None)
    slots = {c: {w.word_index: s for s, w in enumerate(state.cues[c])} for c in range(lo, end + 1)}
    word_index, last_cue = -1, -1
    for k, _, start in sentence_starts(span):
        c = anchor + k
        word_index = word_index + 1 if c == last_cue else 0
        last_cue = c
        if c >= lo:
            slot = slots[c].get(word_index)
            if slot is not None:
                initial[(c, slot)] = start
    # the parts of each changed cue alone: line starts, sound cues, quotations, the word index
    lines, cats, quoted = set(old.line_starts), dict(old.categories), dict(old.quoted)
    places: dict[str, set[Pos]] = {}  # the word index's entries touched, as sets while they change

    def at(form: str) -> set[Pos]:
        if form not in places:
            places[form] = set(old.index.get(form, ()))
        return places[form]

    for c in changed:
        text, _, _, words = before[c]
        for s, (_, start, end_, _) in enumerate(words):
            pos = (c, s)
            lines.discard(pos)
            cats.pop(pos, None)
            quoted.pop(pos, None)
            at(text[start:end_]).discard(pos)  # the form as it was (lower-casing keeps offsets, checked below)
        lines.update(line_starts(doc, state, only=(c,)))
        cats.update(categories_of(doc, state.cues, only=(c,)))
        quoted.update(quoted_spans(doc, state, only=(c,)))
        for s, w in enumerate(state.cues[c]):
            at(w.form.lower()).add((c, s))
    index = dict(old.index)
    for form, found in places.items():
        if found:
            index[form] = tuple(sorted(found))
        else:
            index.pop(form, None)
    return Structure(initial, frozenset(lines), True, cats, {}, index, quoted)


class DocumentStructure:
    """The structure of a reviewed document, computed again only when its words change, and then only
    for the cues that changed where that gives the same structure (``_updated``)."""

    def __init__(self) -> None:
        self._versions: list[CueVersion] | None = None
        self._structure: Structure | None = None
        # per cue: the words list and the exact text (and timing) its version was last read from, held so that
        # the list cannot be another one at the same address
        self._read_from: list[tuple[list, str, int, int]] = []

    def _cue_versions(self, doc: Document, state: ReviewState) -> list[CueVersion]:
        """``cue_versions``, each cue's read again only where its text (to the letter), its timing or its list
        of words is another: the words of a cue change only with its text (a mark moves them) or as a new
        list (an edit, a mode change), so the rest are the versions already read.  A decision costs a look
        at each cue, not a tuple per word of the file."""
        memo, versions = self._read_from, self._versions
        out: list[CueVersion] = []
        fresh: list[tuple[list, str, int, int]] = []
        for c, (cue, words) in enumerate(zip(doc.cues, state.cues)):
            seen = memo[c] if c < len(memo) and versions is not None and c < len(versions) else None
            if seen is not None and seen[0] is words and seen[1] == cue.text and seen[2] == cue.start_ms \
                    and seen[3] == cue.end_ms:
                out.append(versions[c])  # type: ignore[index]  # seen implies versions
                fresh.append(seen)
            else:
                out.append((cue.text.lower(), cue.start_ms, cue.end_ms,
                            tuple([(w.word_index, w.start, w.end, w.model_tag) for w in words])))
                fresh.append((words, cue.text, cue.start_ms, cue.end_ms))
        self._read_from = fresh
        return out

    def of(self, doc: Document, state: ReviewState) -> Structure:
        before, structure = self._versions, self._structure
        current = self._cue_versions(doc, state)
        if structure is not None and before is not None and len(before) == len(current):
            changed = [c for c, (a, b) in enumerate(zip(before, current)) if a is not b and a != b]
            if not changed:
                return structure
            updated = _updated(structure, doc, state, before, changed)
            if updated is not None:
                self._structure, self._versions = updated, current
                return updated
        self._structure, self._versions = Structure.compute(doc, state), current
        return self._structure


__all__ = ["DocumentStructure", "Structure", "cue_versions", "quoted_spans", "version"]
