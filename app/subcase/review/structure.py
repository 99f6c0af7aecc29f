"""Where each reviewable word of a document sits: one structure, computed once per version of its words.

Sentence starts (the casing's one rule, ``positions.sentence_initial``), line starts, whether the file
marks sentence ends at all, the sound-cue and speaker-label words (``housestyle.categories_of``), the
silences that make a cue's first word a likelier sentence start, where each word occurs and which words
are quoted.  The flag reasons, the learner (``learning.Layout``) and the edit log's record context read it; none of it depends on how the words are cased, so
it stays valid through every accept and tag change and is computed again only when the words
themselves change (a text edit, a mark set or taken away, a mode change, a save into another format).

``DocumentStructure`` is its owner: the session holds one (``ReviewSession.structure``) and hands it to
the flag context, and it recognises the document's version by value (its text and its words' layout),
never by the identity of the objects.  It keeps what each cue adds (``CuePart``), so a text edit in a
three-hour file reads that cue again, and the cues after it only while the sentence they open in
changes, instead of every cue of the file.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from dataclasses import dataclass
from itertools import chain, compress, count
from operator import attrgetter, is_not
from typing import NamedTuple, Sequence

from subcase.casing.housestyle import Category, CueLabel, cue_categories, label_slots
from subcase.casing.pauses import opening_word, pauses_of
from subcase.casing.rules import PROBE_CUES, cue_sentence_starts, marks_sentence_ends
from subcase.subtitles import Document
from subcase.subtitles.words import Token

from .positions import cue_line_starts
from .state import Pos, ReviewState, ReviewWord


@dataclass(frozen=True)
class Structure:
    initial: dict[Pos, bool]           # the word starts a sentence
    line_starts: set[Pos]              # the word opens a line of its cue
    punctuated: bool                   # the file marks sentence ends
    categories: dict[Pos, Category]    # sound-cue and speaker-label words
    silences: dict[int, float]         # cue -> seconds of silence before it, where that makes its first
                                       # word a likelier sentence start (casing/pauses.py; no punctuation)
    index: dict[str, tuple[Pos, ...]]  # lower-cased word -> where it occurs, in reading order
    quoted: dict[Pos, list[Pos]]       # a word inside quotation marks -> its quotation's words

    @classmethod
    def compute(cls, doc: Document, state: ReviewState) -> Structure:
        return DocumentStructure().of(doc, state)


# English quotation marks: a straight one opens or closes, a curly one says which.
QUOTE_MARKS = {'"': None, "\u201c": True, "\u201d": False}


def quoted_spans(doc: Document, state: ReviewState) -> dict[Pos, list[Pos]]:
    """Each word inside quotation marks, with the words of its quotation (one list shared by them
    all); a quotation ends with its cue, whether or not it is closed there."""
    out: dict[Pos, list[Pos]] = {}
    for c, cue in enumerate(doc.cues):
        out.update(cue_quoted(cue.tokens(), state.cues[c], c))
    return out


def cue_quoted(tokens: Sequence[Token], words: Sequence[ReviewWord], c: int) -> dict[Pos, list[Pos]]:
    """``quoted_spans`` in cue ``c``."""
    out: dict[Pos, list[Pos]] = {}
    quotation: list[Pos] | None = None  # the words of the open quotation
    slots = {w.start: s for s, w in enumerate(words)}
    for t in tokens:
        if t.text in QUOTE_MARKS:
            opens = QUOTE_MARKS[t.text]
            quotation = [] if (quotation is None if opens is None else opens) else None
        elif quotation is not None and t.is_word and t.start in slots:
            pos = (c, slots[t.start])
            quotation.append(pos)
            out[pos] = quotation
    return out


def version(doc: Document, state: ReviewState) -> tuple:
    """What the structure depends on: the cue texts but for their case, and each word's place and model
    tag (a speaker label is told by the model's tags)."""
    return tuple(_cue_version(doc, state, c) for c in range(len(doc.cues)))


def _cue_version(doc: Document, state: ReviewState, c: int) -> tuple:
    """One cue's part of ``version``."""
    return (doc.cues[c].text.lower(),
            tuple((w.word_index, w.start, w.end, w.model_tag) for w in state.cues[c]) if c < len(state.cues) else None)


class CuePart(NamedTuple):
    """What one cue adds to the structure, but for its sentence starts (they depend on the cues before)."""

    tokens: list[Token]
    line_starts: list[Pos]
    sounds: dict[int, Category]        # slot -> SOUND
    labels: list[CueLabel]             # speaker-label candidates (``housestyle.label_slots``)
    opens_with_word: bool              # a pause before the cue would make its first word a sentence start
    words: list[tuple[str, Pos]]       # each word lower-cased, with its place
    quoted: dict[Pos, list[Pos]]

    @classmethod
    def read(cls, text: str, tokens: list[Token], words: list[ReviewWord], c: int) -> CuePart:
        sounds, labels = cue_categories(text, words)
        return cls(tokens, cue_line_starts(text, tokens, words, c), sounds, labels, opening_word(tokens) is not None,
                   [(w.form.lower(), (c, s)) for s, w in enumerate(words)], cue_quoted(tokens, words, c))

    def category_places(self, c: int) -> set[Pos]:
        """Every place this cue's sounds and label candidates could put into the categories."""
        return {(c, s) for s in chain(self.sounds, *(inside for _n, inside, _chev in self.labels))}


class DocumentStructure:
    """The structure of a reviewed document, computed again only for the cues whose words change.

    A look after a key that changed letter case only, or nothing, costs one comparison of the lists of words
    (item by item, identity first; ``Document.text_edits`` says no text moved).  Otherwise whether the words
    changed is decided by value, cue by cue, but only for the cues whose text or list of words is another
    object than at the last look: a key makes a new text for the cues it touches and leaves every other
    cue's objects as they were (a word's place moves only with its cue's text), so a look costs a pass of
    identity checks over the cues and a comparison of the few that changed, not a copy of every word of a
    three-hour file.  A cue whose words did change is read again (``CuePart``) and put into the structure
    in place of what it added before: the structure's tables are patched in place, not copied (a copy of
    every word's sentence start and line start was most of a cue edit on a three-hour file): a look after a
    change returns a new ``Structure`` over the same tables, so an earlier one's tables describe the document
    as it is now, not as it was."""

    def __init__(self) -> None:
        self._doc: Document | None = None   # the document of the last look, and its ``text_edits`` then
        self._text_edits = -1
        self._texts: list[str] = []         # each cue's text at the last look (held, so ``is`` is sound)
        self._words: list[list] = []        # each cue's list of review words at the last look
        self._version: list[tuple] = []     # each cue's part of ``version`` at the last look
        self._structure: Structure | None = None
        self._parts: list[CuePart] = []
        self._opens: list[bool] = []        # a sentence starts at each cue's first word (before its marks)
        self._initial: list[dict[Pos, bool]] = []
        self._closes: list[bool] = []       # a sentence is to start after each cue (``cue_sentence_starts``)
        self._pauses: list[bool] | None = None  # ``pauses.for_unpunctuated`` of the cues
        self._labels: dict[str, set[int]] = {}  # a speaker-label candidate's name -> the cues it is in
        self._label_count: dict[str, int] = {}  # -> how many times
        self.reread: set[int] | None = None  # the cues the last change read again (None: the whole document)

    def of(self, doc: Document, state: ReviewState) -> Structure:
        if (self._structure is not None and doc is self._doc and doc.text_edits == self._text_edits
                and state.cues == self._words):
            return self._structure  # no text changed but for letter case, no cue's words replaced
        self._doc, self._text_edits = doc, doc.text_edits
        texts = list(map(attrgetter("text"), doc.cues))
        words = list(state.cues)
        if self._structure is None or len(texts) != len(self._texts) or len(words) != len(self._words):
            self._version = list(version(doc, state))
            self._build(doc, state)
        elif texts != self._texts or words != self._words:  # item by item, identity first: no cue moved, no cost
            moved = set(compress(count(), map(is_not, texts, self._texts)))
            moved.update(compress(count(), map(is_not, words, self._words)))
            changed = set()
            for c in moved:
                part = _cue_version(doc, state, c)
                if part != self._version[c]:
                    changed.add(c)
                self._version[c] = part
            if changed:
                self._update(doc, state, changed)
        self._texts, self._words = texts, words
        assert self._structure is not None
        return self._structure

    # -- the whole document ---------------------------------------------------------------------------
    def _build(self, doc: Document, state: ReviewState) -> None:
        self.reread = None
        cues = doc.cues
        self._parts = [CuePart.read(cue.text, cue.tokens(), state.cues[c], c) for c, cue in enumerate(cues)]
        tokens = [p.tokens for p in self._parts]
        punctuated = marks_sentence_ends(tokens)  # reads the first PROBE_CUES cues
        pauses = pauses_of(cues)
        self._pauses = None if not pauses or punctuated else pauses  # as pauses.for_unpunctuated
        self._opens, self._initial, self._closes = [], [], []
        initial: dict[Pos, bool] = {}
        start = True
        for c in range(len(cues)):
            start = start or not punctuated
            self._opens.append(start)
            part, start = self._cue_initial(state, c, start)
            self._initial.append(part)
            self._closes.append(start)
            initial.update(part)
        self._labels, self._label_count = {}, {}
        for c, p in enumerate(self._parts):
            self._count_labels(p, c, +1)
        categories: dict[Pos, Category] = {}
        for c in range(len(cues)):
            self._categorise(categories, c)
        index: dict[str, list[Pos]] = {}
        quoted: dict[Pos, list[Pos]] = {}
        for p in self._parts:
            for lower, pos in p.words:
                index.setdefault(lower, []).append(pos)
            quoted.update(p.quoted)
        silences = {c: self._silence(doc, c) for c in range(len(cues)) if self._pauses_before(c)}
        self._structure = Structure(initial, set(chain.from_iterable(p.line_starts for p in self._parts)),
                                    punctuated, categories, silences, {k: tuple(v) for k, v in index.items()}, quoted)

    def _cue_initial(self, state: ReviewState, c: int, start: bool) -> tuple[dict[Pos, bool], bool]:
        """Which words of cue ``c`` start a sentence when it opens with ``start``, and ``start`` after it."""
        slots = {w.word_index: s for s, w in enumerate(state.cues[c])}
        words, after = cue_sentence_starts(self._parts[c].tokens, start)
        out = {(c, slots[k]): starts for k, (_tok, starts) in enumerate(words) if k in slots}
        return out, after

    def _count_labels(self, part: CuePart, c: int, sign: int) -> None:
        """Count cue ``c``'s label candidates in (``sign`` +1) or out (-1) of the file's."""
        for name, _inside, _chev in part.labels:
            self._label_count[name] = self._label_count.get(name, 0) + sign
            if sign > 0:
                self._labels.setdefault(name, set()).add(c)
                continue
            self._labels.get(name, set()).discard(c)  # counted in again with the cue's new part if it is still there
            if self._label_count[name] <= 0:
                self._labels.pop(name, None)
                self._label_count.pop(name, None)

    def _categorise(self, categories: dict[Pos, Category], c: int) -> None:
        p = self._parts[c]
        categories.update(((c, s), cat) for s, cat in p.sounds.items())
        for s in label_slots(p.labels, self._label_count):
            categories.setdefault((c, s), Category.LABEL)

    def _pauses_before(self, c: int) -> bool:
        return self._pauses is not None and self._pauses[c] and self._parts[c].opens_with_word

    @staticmethod
    def _silence(doc: Document, c: int) -> float:
        return (doc.cues[c].start_ms - doc.cues[c - 1].end_ms) / 1000

    # -- some cues ------------------------------------------------------------------------------------
    def _update(self, doc: Document, state: ReviewState, changed: set[int]) -> None:
        self.reread = set(changed)
        old = self._structure
        assert old is not None
        before = {c: self._parts[c] for c in changed}
        for c in changed:
            cue = doc.cues[c]
            self._parts[c] = CuePart.read(cue.text, cue.tokens(), state.cues[c], c)
        if min(changed) < PROBE_CUES and \
                marks_sentence_ends([p.tokens for p in self._parts[:PROBE_CUES]]) != old.punctuated:
            self._build(doc, state)  # the file now marks sentence ends, or no longer: every cue reads otherwise
            return
        punctuated = old.punctuated

        initial = old.initial
        c, last = min(changed), max(changed)
        start = self._opens[c]
        while c < len(self._parts):
            if c > last and start == self._opens[c]:
                break  # this cue and every one after it open as they did
            if c in changed or start != self._opens[c]:
                for pos in self._initial[c]:
                    initial.pop(pos, None)
                self._initial[c], self._closes[c] = self._cue_initial(state, c, start)
                self._opens[c] = start
                initial.update(self._initial[c])
            start = self._closes[c] or not punctuated
            c += 1

        names: set[str] = set()
        for c, p in before.items():
            self._count_labels(p, c, -1)
            names.update(n for n, _i, _c in p.labels)
        for c in changed:
            self._count_labels(self._parts[c], c, +1)
            names.update(n for n, _i, _c in self._parts[c].labels)
        # a name labelled once more or once less may make its other cues' labels count, or not
        redo = set(changed).union(*(self._labels.get(n, ()) for n in names))
        categories = old.categories
        for c in redo:
            for pos in before[c].category_places(c) if c in before else self._parts[c].category_places(c):
                categories.pop(pos, None)
            self._categorise(categories, c)

        silences = old.silences
        for c in changed:
            silences.pop(c, None)
            if self._pauses_before(c):
                silences[c] = self._silence(doc, c)

        index = old.index
        for lower in {w for c in changed for w, _pos in chain(before[c].words, self._parts[c].words)}:
            # the word's places are in reading order: each changed cue's are cut out by bisection, not by a
            # look at each of the thousands of places a common word has in a long file
            places = list(index.get(lower, ()))
            for c in sorted(changed, reverse=True):
                del places[bisect_left(places, (c, -1)):bisect_left(places, (c + 1, -1))]
            for c in changed:
                for w, pos in self._parts[c].words:
                    if w == lower:
                        insort(places, pos)
            if places:
                index[lower] = tuple(places)
            else:
                index.pop(lower, None)

        quoted = old.quoted
        for c in changed:
            for pos in before[c].quoted:
                quoted.pop(pos, None)
            quoted.update(self._parts[c].quoted)

        line_starts = old.line_starts
        line_starts.difference_update(chain.from_iterable(before[c].line_starts for c in changed))
        line_starts.update(chain.from_iterable(self._parts[c].line_starts for c in changed))
        # a new Structure (a change is seen by identity) over the same tables, now patched
        self._structure = Structure(initial, line_starts, punctuated, categories, silences, index, quoted)


__all__ = ["CuePart", "DocumentStructure", "Structure", "cue_quoted", "quoted_spans", "version"]
