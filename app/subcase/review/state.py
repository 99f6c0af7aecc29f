"""Per-word review status over a cased document (pure Python, no Qt).

A word is *to review* when the model's confidence is under the threshold and
no human has decided on it yet.  The threshold can move at any time, so
"to review" is computed, never stored; only human decisions are stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from itertools import chain, islice, takewhile
from typing import Any, Iterator, Mapping

from subcase.casing import TAGS, Tag
from subcase.casing.auto import Passage
from subcase.casing.marks import MARKS
from subcase.casing.tags import ranked, tag_of

Pos = tuple[int, int]  # (cue index, slot in that cue's reviewable words)

# A restored mark the punctuation head gives less (calibrated) probability than this is to review, in the same
# order as the words.  Chosen with ``subcase simulate-review DEV --strip-punct --mark-thresholds ...``
# (evaluation/mark_sweep.py): the highest threshold up to which each step's added visits fix errors (a wrong mark,
# or the word's casing) at least as often as the casing threshold's own last step does; English model 0.2.0 with
# its marks calibrated (temperature 1.85), docs/research/2026-11-29-mark-threshold.md.
MARK_THRESHOLD = 0.90


class Status(str, Enum):
    UNTOUCHED = "untouched"  # no human decision yet
    ACCEPTED = "accepted"    # a human looked and kept the proposed form
    CHANGED = "changed"      # a human chose a different tag
    EDITED = "edited"        # the word came from a hand edit of the cue text
    # Changed by the app from what the editor taught elsewhere (learning from
    # fixes); not a human decision on this word.  The GUI reserves a look for it.
    LEARNED = "learned"
    # Changed by the app from the profile chosen for the file (what the editor taught in
    # other files, review/profiles/profile.py); not reviewed here, and in-file learning may re-case it.
    PROFILE = "profile"


@dataclass(frozen=True, slots=True)
class MarkReview:
    """The punctuation mark restored after a word (casing/restoring.py), and what the editor made of it.

    A value: a change makes a new one, so a word's snapshot keeps the mark as it was."""

    proposed: str                 # the mark the head restored (one of ``casing.marks.MARKS``)
    probs: tuple[float, ...]      # the head's probability of each mark, in MARKS order
    now: str                      # the mark after the word in the text now
    status: Status = Status.UNTOUCHED  # UNTOUCHED, ACCEPTED (kept or set back to ``proposed``) or CHANGED

    @property
    def confidence(self) -> float:
        return self.probs[MARKS.index(self.proposed)]

    def needs_review(self, threshold: float) -> bool:
        return self.status is Status.UNTOUCHED and self.confidence < threshold

    def decided(self, now: str) -> MarkReview:
        """This mark once a human made ``now`` the mark after the word (the proposed one: accepted)."""
        return MarkReview(self.proposed, self.probs, now,
                          Status.ACCEPTED if now == self.proposed else Status.CHANGED)


@dataclass(slots=True)
class ReviewWord:
    cue_index: int
    word_index: int          # index among the cue's words (Cue.words()), as the edit log records it
    start: int               # offsets into the cue text
    end: int
    input: str               # as written in the opened file
    proposed: str            # the form casing put into the document
    form: str                # the form in the document now
    model_tag: Tag | None    # None when the model never saw this word (typed by hand)
    probs: tuple[float, float, float, float] | None
    status: Status = Status.UNTOUCHED
    # Why the app raised this word for review whatever its confidence (None: it did
    # not), e.g. next to a word the editor changed (review/learning/).
    raised: str | None = field(default=None, compare=False)
    # The mark restored after the word (None: none was); a word broken by inline tags carries it on its
    # first piece, where it is reviewed, though the mark follows its last.
    mark: MarkReview | None = None
    # Cached: counts and highlighting read it for every word on every keypress.
    confidence: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.probs is None or self.model_tag is None:
            self.confidence = 1.0
        else:
            self.confidence = self.probs[TAGS.index(self.model_tag)]

    @property
    def tag(self) -> Tag:
        return tag_of(self.form)

    @property
    def decided(self) -> bool:
        return self.status is not Status.UNTOUCHED

    def flagged(self, threshold: float) -> bool:
        """Low confidence, whether or not someone decided already."""
        return self.probs is not None and (self.confidence < threshold or self.raised is not None)

    def needs_review(self, threshold: float) -> bool:
        # A learned word is decided by the app, not by a human; it is back on the list only when
        # the app asks for a check (a house style learned from one fix, review/learning/).
        # The same for a profile's change the model doubted (review/profiles/apply.py).
        return (self.status is Status.UNTOUCHED
                or (self.status in (Status.LEARNED, Status.PROFILE) and self.raised is not None)) \
            and self.flagged(threshold)

    def mark_needs_review(self, mark_threshold: float) -> bool:
        return self.mark is not None and self.mark.needs_review(mark_threshold)

    def alternatives(self) -> list[tuple[Tag, float]]:
        """Tags ranked by the model's probability, best first (in TAGS order for a hand-typed word)."""
        return ranked(self.probs if self.probs is not None else (0.0,) * len(TAGS))


class ReviewState:
    """The reviewable words of every cue, the threshold and the current word."""

    def __init__(self, cues: list[list[ReviewWord]], threshold: float, mark_threshold: float = MARK_THRESHOLD):
        self.cues = cues
        self.threshold = threshold
        self.mark_threshold = mark_threshold  # for restored marks (``MarkReview``)
        self.current: Pos | None = None
        # What the document-level flag reasons read (flags.FlagContext), set by whoever opens
        # the file with a model and a session; None: only each word's own evidence.
        self.flag_context: Any = None
        # Auto mode's decision for each cue (casing/auto.py), None in the other modes: the GUI marks each cue.
        self.passages: list[Passage] | None = None
        # and why, for the cues decided on more than their letters (``DocumentCasing.reasons``)
        self.passage_reasons: dict[int, str] = {}
        # A word broken by inline tags (casing/joined.py) is reviewed as one: each piece's position maps to
        # all of the word's pieces, in order.  Its first piece carries the highlight.
        self.pieces: dict[Pos, tuple[Pos, ...]] = {}
        # Where missing marks were restored when the file was opened (``casing.restoring.Punctuate``): a change
        # of mode cases it again so (review/remode.py), and crash recovery too (review/autosave.py).
        self.punctuate = "never"
        # A spoken word a rolling caption shows again (casing/rolling.py) is decided once for all its copies: each
        # copy's position (its first piece's) maps to every copy's, the first appearance first, which alone is
        # reviewed; a decision on it is written to all of them (actions.OnCopies).
        self.copies: dict[Pos, tuple[Pos, ...]] = {}

    @classmethod
    def from_casing(cls, n_cues: int, casing, threshold: float | None = None) -> ReviewState:
        """Build from a ``DocumentCasing`` whose outputs are already applied."""
        cues: list[list[ReviewWord]] = [[] for _ in range(n_cues)]
        passage = getattr(casing, "passage", None)
        for w in casing.words:
            word = ReviewWord(w.cue_index, w.word_index, w.start, w.end, w.input, w.output, w.output, w.tag,
                              tuple(w.probs))
            if passage is not None and (passage(w.cue_index) is Passage.KEEP
                                        or getattr(w, "convention", None) is not None):
                # Auto mode kept the input here: the model's doubt is no reason to look at a word it did not
                # write; a word it is sure of writing otherwise is shown, with both forms.  So is a word the
                # file's convention writes (casing/conventions.py), in any passage.
                word.confidence = 1.0
                word.raised = casing.disagrees(w)
            elif passage is not None:
                word.raised = casing.doubted(w)
            cues[w.cue_index].append(word)
        state = cls(cues, casing.threshold if threshold is None else threshold)
        for c, groups in getattr(casing, "joined", {}).items():
            slot = {w.word_index: s for s, w in enumerate(cues[c])}
            for group in groups:
                places = tuple((c, slot[k]) for k in group if k in slot)
                if len(places) < 2:
                    continue
                for pos in places:
                    state.pieces[pos] = places
                for pos in places[1:]:
                    # reviewed as one word, at its first piece: the others follow it
                    piece = state.word(pos)
                    piece.confidence, piece.raised = 1.0, None
        state._attach_marks(casing)
        state._group_copies(getattr(casing, "copies", None) or {})
        passages = getattr(casing, "passages", None)
        state.passages = list(passages) if passages is not None and len(passages) == n_cues else None
        state.passage_reasons = dict(getattr(casing, "reasons", {})) if state.passages is not None else {}
        return state

    def _attach_marks(self, casing) -> None:
        """Each restored mark on the word it follows, matched by where the word ends in the text with the marks
        in (a joined word's mark index is the joined word's, so the index alone cannot find its pieces)."""
        if not getattr(casing, "marks_written", False):
            return  # offsets into a text without the marks: nothing to show, the document has none either
        ends = {(c, w.end): s for c, words in enumerate(self.cues) for s, w in enumerate(words)}
        for m in casing.marks:
            s = ends.get((m.cue_index, m.offset))
            if s is None:
                continue
            pos = self.pieces.get((m.cue_index, s), ((m.cue_index, s),))[0]
            p = m.prediction
            self.word(pos).mark = MarkReview(p.mark, tuple(float(x) for x in p.probs), p.mark)

    def _group_copies(self, copies: Mapping[tuple[int, int], tuple[int, int]]) -> None:
        """``state.copies`` from the casing's (cue, word index) of each repeat -> its first appearance."""
        slot = {(w.cue_index, w.word_index): (c, s) for c, words in enumerate(self.cues) for s, w in enumerate(words)}
        groups: dict[Pos, list[Pos]] = {}
        for copy, first in copies.items():
            if copy in slot and first in slot:
                groups.setdefault(slot[first], [slot[first]]).append(slot[copy])
        for places in groups.values():
            group = tuple(places)
            for pos in group:
                self.copies[pos] = group
            for pos in group[1:]:
                # shown, not reviewed: the first appearance is, for all of them (its pieces and its mark too)
                for piece in self.pieces.get(pos, (pos,)):
                    w = self.word(piece)
                    w.confidence, w.raised, w.mark = 1.0, None, None

    def flagged_for_mark_only(self, pos: Pos) -> bool:
        """Whether the word at ``pos`` is on the review list for the mark restored after it and not for its
        letters: the review keys then decide the mark (the editor was shown a doubtful mark, not a doubtful
        word).  Decided or not, so the same keys change a decision on the mark."""
        w = self.word(self.pieces.get(pos, (pos,))[0])
        return w.mark is not None and w.mark.confidence < self.mark_threshold and not w.flagged(self.threshold)

    def needs_review(self, pos: Pos) -> bool:
        """Whether the word at ``pos`` is still to review: its casing, or the mark restored after it."""
        w = self.word(pos)
        return w.needs_review(self.threshold) or w.mark_needs_review(self.mark_threshold)

    # -- lookup ------------------------------------------------------------
    def word(self, pos: Pos) -> ReviewWord:
        return self.cues[pos[0]][pos[1]]

    def positions(self) -> Iterator[Pos]:
        for c, words in enumerate(self.cues):
            for s in range(len(words)):
                yield (c, s)

    def all_words(self) -> Iterator[ReviewWord]:
        for words in self.cues:
            yield from words

    def clamp_current(self) -> None:
        """Keep the current word valid after a cue's words were rebuilt."""
        if self.current is None:
            return
        c, s = self.current
        if not 0 <= c < len(self.cues) or not self.cues[c]:
            self.current = None
        elif s >= len(self.cues[c]):
            self.current = (c, len(self.cues[c]) - 1)

    # -- navigation ----------------------------------------------------------
    # Each walks from the given word outwards and stops at what it looks for: a key press costs the words it
    # passes, not a list of every position of a three-hour file.
    def _walk(self, after: Pos | None, backwards: bool) -> Iterator[Pos]:
        """The positions after ``after`` (exclusive; backwards: before it) to the end of the file in that
        direction; from the start (backwards: the end) when ``after`` is None.  ``after`` need not be a
        word (a vanished one, or (cue, -1): just before a cue's first word): it is compared as a pair."""
        n = len(self.cues)
        if after is None:
            after = (n, 0) if backwards else (-1, 0)
        c0, s0 = after
        if not backwards:
            if 0 <= c0 < n:
                yield from ((c0, s) for s in range(max(s0 + 1, 0), len(self.cues[c0])))
            for c in range(max(c0 + 1, 0), n):
                yield from ((c, s) for s in range(len(self.cues[c])))
        else:
            if 0 <= c0 < n:
                yield from ((c0, s) for s in range(min(s0 - 1, len(self.cues[c0]) - 1), -1, -1))
            for c in range(min(c0 - 1, n - 1), -1, -1):
                yield from ((c, s) for s in range(len(self.cues[c]) - 1, -1, -1))

    def next_to_review(self, after: Pos | None = None, backwards: bool = False, wrap: bool = True) -> Pos | None:
        """The next (or previous) word still to review, from ``after`` exclusive, round to ``after`` itself
        when ``wrap``."""
        candidates: Iterator[Pos] = self._walk(after, backwards)
        if wrap and after is not None:
            here = after
            back_round = self._walk(None, backwards)
            candidates = chain(candidates, takewhile((lambda p: p >= here) if backwards else (lambda p: p <= here),
                                                     back_round))
        for pos in candidates:
            if self.needs_review(pos):
                return pos
        return None

    def step(self, pos: Pos | None, delta: int) -> Pos | None:
        """The neighbouring word in reading order, reviewable or not (the first or last word from a position
        that is not a word; the first or last word when ``delta`` goes past it)."""
        valid = pos is not None and 0 <= pos[0] < len(self.cues) and 0 <= pos[1] < len(self.cues[pos[0]])
        if not valid:
            ends = self._walk(None, backwards=delta <= 0)
            return next(ends, None)
        assert pos is not None
        passed = list(islice(self._walk(pos, backwards=delta < 0), abs(delta)))
        return passed[-1] if passed else pos

    def next_spoken(self, pos: Pos) -> Pos | None:
        """The next word after ``pos`` in the order it was spoken: in reading order, leaving out the copies a
        rolling caption shows again of words before it (``copies``).  None after the last."""
        c, s = pos[0], pos[1] + 1
        while c < len(self.cues):
            words = self.cues[c]
            while s < len(words):
                first = self.pieces.get((c, s), ((c, s),))[0]  # a copy's pieces are copies too
                group = self.copies.get(first)
                if group is None or group[0] == first:
                    return (c, s)
                s += 1
            c, s = c + 1, 0
        return None

    # -- counts --------------------------------------------------------------
    def counts(self) -> dict[str, int]:
        """Every word counted (``review.tally.Tally`` keeps them cue by cue for the editor's status bar)."""
        total = [0] * len(COUNT_NAMES)
        for words in self.cues:
            for i, n in enumerate(count_cue(words, self.threshold, self.mark_threshold)):
                total[i] += n
        return dict(zip(COUNT_NAMES, total))

    def to_review(self) -> int:
        return self.counts()["to_review"]


COUNT_NAMES = ("words", "flagged", "to_review", "accepted", "changed", "edited")


def count_cue(words: list[ReviewWord], t: float, mt: float) -> tuple[int, int, int, int, int, int]:
    """One cue's counts, in ``COUNT_NAMES`` order, at threshold ``t`` and mark threshold ``mt``."""
    # A plain loop with no method calls: it runs over every word of a file when it opens.
    flagged = to_review = accepted = changed = edited = 0
    untouched, learned, profile = Status.UNTOUCHED, Status.LEARNED, Status.PROFILE
    for w in words:
        status = w.status
        if status is Status.ACCEPTED:
            accepted += 1
        elif status is Status.CHANGED:
            changed += 1
        elif status is Status.EDITED:
            edited += 1
        if w.probs is not None and (w.confidence < t or w.raised is not None):
            flagged += 1
            if status is untouched or ((status is learned or status is profile) and w.raised is not None):
                to_review += 1  # as needs_review: a learned or profile word raised for a check
            elif w.mark is not None and w.mark.needs_review(mt):
                to_review += 1
        elif w.mark is not None and w.mark.confidence < mt:  # flagged for its mark alone
            flagged += 1
            if w.mark.status is untouched:
                to_review += 1
    return len(words), flagged, to_review, accepted, changed, edited
