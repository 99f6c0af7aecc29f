"""Undoable review actions, as plain command objects (Gaupol style).

Each action changes the document and the review state together in ``do`` and
puts both back in ``undo``.  ``do`` returns the human decisions it made, which
the session turns into edit-log records.  Actions know nothing of Qt; the GUI
wraps each one in a QUndoCommand.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Sequence

from subcase.casing import TAGS, TAG_NAMES, Tag, WordCasing
from subcase.casing.joined import join_words
from subcase.casing.tags import TagWriter, tag_of
from subcase.casing.typesetting import FRENCH, OPENING_OF, SPANISH, french_space
from subcase.casing.marks import MARK_NAMES, MARKS, SENTENCE_ENDS, classify, sentence_end_probability
from subcase.subtitles import Document, MarkEdit
from subcase.subtitles.marking import existing_mark
from subcase.subtitles.words import has_letters

from .pairing import opening_edit
from .state import MarkReview, Pos, ReviewState, ReviewWord, Status



@dataclass(frozen=True, slots=True)
class Decision:
    """One human decision, as the edit log records it."""

    # "accepted" | "changed_tag" | "edited_text"; for the mark after a word "accepted_mark" | "changed_mark"
    # (``final`` and ``before`` are marks); "recased": the word after a changed sentence end (caused by it)
    action: str
    cue_index: int
    word: ReviewWord | None      # a snapshot; None for a whole-cue text edit
    final: str                   # the final word form, or the new cue text
    before: str                  # the form (or cue text) before the decision
    # For the app's own changes ("learned"): the index, in the same list of
    # decisions, of the human decision that caused it; the log lists the change in that record.
    caused_by: int | None = None


class Action:
    label = "action"
    cues: tuple[int, ...] = ()   # cues whose display changes
    rewrites_words = False       # True if it rebuilds the review words of its cues (not only their forms)
    changes_text = False         # True if it changes more than letter case (sentence starts may move)
    focus: Pos | None = None     # where the cursor goes after do/undo
    on_a_word = False            # True if it decides one word (``pos``), and ``at`` makes it for another

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        raise NotImplementedError

    def at(self, pos: Pos) -> Action:
        """The same decision on the word at ``pos`` (a copy of this one in a rolling caption, ``OnCopies``)."""
        raise NotImplementedError

    def undo(self, doc: Document, state: ReviewState) -> None:
        raise NotImplementedError


def _snap(w: ReviewWord) -> ReviewWord:
    return replace(w)


def _status_for(w: ReviewWord, form: str) -> Status:
    if w.status is Status.EDITED:
        return Status.EDITED
    return Status.ACCEPTED if form == w.proposed else Status.CHANGED


class SetTag(Action):
    """Write the current word with another tag (lower, Title, UPPER, Mixed)."""

    on_a_word = True

    def __init__(self, pos: Pos, tag: Tag, write_tag: TagWriter):
        self.pos, self.tag, self.write_tag = pos, Tag(tag), write_tag
        self.cues = (pos[0],)
        self.focus = pos
        self.label = f"Set word to {TAG_NAMES[self.tag]}"
        self._before: ReviewWord | None = None
        self._pieces: list[ReviewWord] = []  # a word broken by inline tags: every piece before
        self._places: tuple[Pos, ...] = ()

    def at(self, pos: Pos) -> SetTag:
        """The same decision on another word (a copy of this one in a rolling caption, ``OnCopies``)."""
        return SetTag(pos, self.tag, self.write_tag)

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        places = state.pieces.get(self.pos)
        if places is not None:
            return self._do_pieces(doc, state, places)
        w = state.word(self.pos)
        self._before = _snap(w)
        new = self.write_tag(w.form, self.tag)
        if new != w.form:
            doc.recase(w.cue_index, [(w.start, w.end, new)])
        old = w.form
        w.form = new
        w.status = _status_for(w, new)
        return [Decision("changed_tag" if new != old else "accepted", w.cue_index, _snap(w), new, old)]

    def _do_pieces(self, doc: Document, state: ReviewState, places: tuple[Pos, ...]) -> list[Decision]:
        """A word broken by inline tags: the tag writes the whole word, each piece gets its letters."""
        words = [state.word(p) for p in places]
        self._places, self._pieces = places, [_snap(w) for w in words]
        whole = "".join(w.form for w in words)
        new = self.write_tag(whole, self.tag)
        if len(new) != len(whole):  # a capital of two letters cannot be cut into the pieces
            new = whole
        decisions, at = [], 0
        for w in words:
            form = new[at:at + len(w.form)]
            at += len(w.form)
            old = w.form
            if form != old:
                doc.recase(w.cue_index, [(w.start, w.end, form)])
            w.form, w.status = form, _status_for(w, form)
            decisions.append(Decision("changed_tag" if form != old else "accepted", w.cue_index, _snap(w), form,
                                      old))
        return decisions

    def undo(self, doc: Document, state: ReviewState) -> None:
        if self._pieces:
            for pos, before in zip(self._places, self._pieces):
                w = state.word(pos)
                if w.form != before.form:
                    doc.recase(w.cue_index, [(w.start, w.end, before.form)])
                w.form, w.status = before.form, before.status
            return
        assert self._before is not None
        w = state.word(self.pos)
        if w.form != self._before.form:
            doc.recase(w.cue_index, [(w.start, w.end, self._before.form)])
        w.form, w.status = self._before.form, self._before.status


class OnCopies(Action):
    """One decision on a spoken word that a rolling caption shows in several cues (``ReviewState.copies``): the
    action on the word, and the same (``action.at``) on each of its other copies, done and undone as one step."""

    def __init__(self, action: Action, others: Sequence[Pos]):
        self.actions = [action, *(action.at(pos) for pos in others)]
        self.label, self.focus = action.label, action.focus
        self.rewrites_words, self.changes_text = action.rewrites_words, action.changes_text
        self.cues = tuple(dict.fromkeys(c for a in self.actions for c in a.cues))

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        out = [d for a in self.actions for d in a.do(doc, state)]
        self.cues = tuple(dict.fromkeys(c for a in self.actions for c in a.cues))  # a mark's re-cased next word
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        for a in reversed(self.actions):
            a.undo(doc, state)


def on_copies(action: Action, state: ReviewState) -> Action:
    """``action`` on all the copies of the word it decides, when a rolling caption repeats it (else itself)."""
    pos = getattr(action, "pos", None)
    if not action.on_a_word or pos is None:
        return action
    first_piece = state.pieces.get(pos, (pos,))[0]
    group = state.copies.get(first_piece)
    if group is None:
        return action
    return OnCopies(action, [p for p in group if p != first_piece])


def cycle_tag(current: Tag) -> Tag:
    """The next tag in L -> T -> U -> M -> L order."""
    return TAGS[(TAGS.index(current) + 1) % len(TAGS)]


def next_distinct_tag(w: ReviewWord, write_tag: TagWriter) -> Tag:
    """The tag Space cycles ``w`` to: the next one that writes a different form.

    M without a lexicon entry writes the same form as T, and a one-letter word
    is the same in T and U; cycling through those would look like nothing happened.
    """
    tag = w.tag
    for _ in range(len(TAGS)):
        tag = cycle_tag(tag)
        if write_tag(w.form, tag) != w.form:
            return tag
    return tag


class Accept(Action):
    """Keep the word as it is, and the mark restored after it; both count as reviewed."""

    label = "Accept word"
    on_a_word = True

    def __init__(self, pos: Pos):
        self.pos = pos
        self.cues = (pos[0],)
        self.focus = pos
        self._before: Status | None = None
        self._mark: MarkReview | None = None

    def at(self, pos: Pos) -> Accept:
        """The same decision on another word (``OnCopies``)."""
        return Accept(pos)

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        w = state.word(self.pos)
        self._before, self._mark = w.status, w.mark
        # a learned word (or one from the profile) that a human accepts is reviewed
        if w.status in (Status.UNTOUCHED, Status.LEARNED, Status.PROFILE):
            w.status = _status_for(w, w.form)
        out = [Decision("accepted", w.cue_index, _snap(w), w.form, w.form)]
        mark = _accept_mark(w)
        if mark is not None:
            out.append(mark)
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        assert self._before is not None
        w = state.word(self.pos)
        w.status, w.mark = self._before, self._mark


class AcceptMark(Action):
    """Keep the mark restored after the word, and only the mark: the word was flagged for it alone, so its
    letters were not what the editor looked at (learning takes no casing evidence from it)."""

    label = "Accept mark"
    on_a_word = True

    def __init__(self, pos: Pos):
        self.pos = pos
        self.cues = (pos[0],)
        self.focus = pos
        self._mark: MarkReview | None = None

    def at(self, pos: Pos) -> AcceptMark:
        """The same decision on another word (``OnCopies``)."""
        return AcceptMark(pos)

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        w = state.word(state.pieces.get(self.pos, (self.pos,))[0])  # a joined word's mark is on its first piece
        self._mark = w.mark
        mark = _accept_mark(w)
        return [mark] if mark is not None else []

    def undo(self, doc: Document, state: ReviewState) -> None:
        state.word(state.pieces.get(self.pos, (self.pos,))[0]).mark = self._mark


def _accept_mark(w: ReviewWord) -> Decision | None:
    """The restored mark after ``w`` kept as it stands, if nobody decided on it yet."""
    if w.mark is None or w.mark.status is not Status.UNTOUCHED:
        return None
    w.mark = w.mark.decided(w.mark.now)
    return Decision("accepted_mark", w.cue_index, _snap(w), w.mark.now, w.mark.now)


class AcceptCue(Action):
    """Accept every word of one cue that is still to review, and every restored mark in it still to review."""

    label = "Accept cue"

    def __init__(self, cue_index: int, threshold: float):
        self.cue_index, self.threshold = cue_index, threshold
        self.cues = (cue_index,)
        self._slots: list[tuple[int, Status, MarkReview | None]] = []

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        out = []
        self._slots = []
        for s, w in enumerate(state.cues[self.cue_index]):
            word = w.needs_review(self.threshold)
            mark = w.mark_needs_review(state.mark_threshold)
            if not (word or mark):
                continue
            self._slots.append((s, w.status, w.mark))
            if word:
                w.status = _status_for(w, w.form)
                out.append(Decision("accepted", w.cue_index, _snap(w), w.form, w.form))
            if mark:
                out.append(_accept_mark(w))  # type: ignore[arg-type]  # a mark to review is undecided
        self.focus = (self.cue_index, self._slots[-1][0]) if self._slots else None
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        for s, status, mark in self._slots:
            w = state.cues[self.cue_index][s]
            w.status, w.mark = status, mark


class EditText(Action):
    """Replace a cue's text by hand, for when the words themselves are wrong.

    Words that survive the edit (same letters, same order) keep their model
    tag, confidence and review status.  New words are cased like the rest when
    ``cased`` gives the model's casing of the new text (``casing.case_cue_text``):
    they take its form, tag and confidence and are flagged as any word is; without
    it they count as decided by the editor (status EDITED) with no prediction.

    A restored mark after a surviving word is read again from the new text: one the editor typed over (or
    took out) is their decision on it, as with ``SetMark`` (changed, or accepted when typed back as
    proposed), and a decision for the edit log; one the edit left as it stood keeps its review.
    """

    label = "Edit cue text"
    rewrites_words = True  # the cue's review words are rebuilt: an autosave keeps them in full
    changes_text = True

    def __init__(self, cue_index: int, text: str, cased: Sequence[WordCasing] | None = None):
        self.cue_index, self.text = cue_index, text
        self.cased = list(cased) if cased is not None else None
        self.cues = (cue_index,)
        self.focus = None
        self._old_text: str | None = None
        self._old_words: list[ReviewWord] | None = None

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        c = self.cue_index
        self._old_text = doc.cues[c].text
        self._old_words = state.cues[c]
        doc.set_cue_text(c, self.text)
        words = realign(self._old_words, doc.cues[c].words(), c)
        if self.cased is not None:
            words = self._case_new_words(doc, c, words)
        state.cues[c] = words
        return [Decision("edited_text", c, None, doc.cues[c].text, self._old_text), *_reread_marks(doc, c, words)]

    def _case_new_words(self, doc: Document, c: int, words: list[ReviewWord]) -> list[ReviewWord]:
        """The typed words (no prediction yet) as the model cases them, written into the cue."""
        by_index = {w.word_index: w for w in self.cased or ()}
        out, spans = [], []
        for w in words:
            wc = by_index.get(w.word_index)
            if w.model_tag is not None or wc is None or (wc.start, wc.end, wc.input) != (w.start, w.end, w.form):
                out.append(w)
                continue
            if wc.output != w.form:
                spans.append((w.start, w.end, wc.output))
            out.append(ReviewWord(c, w.word_index, w.start, w.end, wc.input, wc.output, wc.output, wc.tag,
                                  wc.probs))
        if spans:
            doc.recase(c, spans)
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        assert self._old_text is not None and self._old_words is not None
        doc.set_cue_text(self.cue_index, self._old_text)
        state.cues[self.cue_index] = self._old_words


def _reread_marks(doc: Document, c: int, words: list[ReviewWord]) -> list[Decision]:
    """Each restored mark of cue ``c``'s ``words`` as the cue's text has it now (after a word broken by inline
    tags: after its last piece); a mark found changed is the editor's decision."""
    if all(w.mark is None for w in words):
        return []
    text = doc.cues[c].text
    _, joins = join_words(text, doc.cues[c].tokens())
    out = []
    for w in words:
        if w.mark is None:
            continue
        pieces = joins.pieces.get(w.start) if joins is not None else None
        now = classify(existing_mark(text, pieces[-1][1] if pieces else w.end)[1])
        if now != w.mark.now:
            before, w.mark = w.mark.now, w.mark.decided(now)
            out.append(Decision("changed_mark", c, _snap(w), now, before))
    return out


class SetMark(Action):
    """Make one of ``casing.marks.MARKS`` the punctuation mark after the current word: none, comma, full
    stop, question mark, exclamation mark.

    The mark changes in the text (``Document.set_mark``: an existing mark is replaced where it stands, a new
    one written right after the word, inside closing markup); the words after it in the cue keep their
    letters and move with the text.  A mark the head restored there gets the editor's decision (changed, or
    accepted when set back to the proposed mark).  It is a decision for the edit log either way.

    With ``write_tag``, a change that adds or removes a sentence end (full stop, question or exclamation
    mark) also re-cases the next word, across cues, in the same undo step: after a new sentence end a
    lower-case word gets its capital; after a removed one a word that was Title case only for its place
    goes back to lower case (``positional_capital``).  A word whose form a human chose (changed or edited)
    keeps it.  Without ``write_tag`` no word is re-cased.

    In a Spanish cue (``language`` "es") the opening mark of a "?" or "!" follows it in the same undo step:
    added at the sentence start, switched, or removed (review/pairing.py).  In a French cue a "?" or "!" is
    written after a no-break space as the file spaces its own (``casing.typesetting.french_space``).
    """

    rewrites_words = True  # the words' offsets move with the cue text: an autosave keeps the cue in full
    changes_text = True    # a full stop added or removed moves sentence starts
    on_a_word = True

    def __init__(self, pos: Pos, mark: str, write_tag: TagWriter | None = None, language: str | None = None):
        if mark not in MARKS:
            raise ValueError(f"{mark!r} is not one of {MARKS}")
        self.pos, self.mark, self.write_tag = pos, mark, write_tag
        self.language = language  # the cue's (casing/language.py): a Spanish "?" or "!" has its opening mark
        self.cues = (pos[0],)
        self.focus = pos
        self.label = f"Set mark to {MARK_NAMES[mark]}"
        self._edit: MarkEdit | None = None
        self._mark: MarkReview | None = None
        self._recased: list[tuple[Pos, str]] = []  # each piece of the next word re-cased, and its form before
        self._opening: MarkEdit | None = None  # the Spanish opening mark that followed (review/pairing.py)

    def at(self, pos: Pos) -> SetMark:
        """The same mark after another word (``OnCopies``).  The next spoken word, and all its copies, are
        re-cased by this action: the copy's does not re-case."""
        return SetMark(pos, self.mark, None, self.language)

    @staticmethod
    def word_end(state: ReviewState, pos: Pos) -> int:
        """Where the word at ``pos`` ends in its cue text (a word broken by inline tags: its last piece)."""
        return state.word(state.pieces.get(pos, (pos,))[-1]).end

    @staticmethod
    def applies(doc: Document, state: ReviewState, pos: Pos) -> bool:
        """Whether a mark can follow the word at ``pos`` (not when it ends inside a token: "3" in "3.5")."""
        return doc.can_set_mark(pos[0], SetMark.word_end(state, pos))

    @staticmethod
    def mark_at(doc: Document, state: ReviewState, pos: Pos) -> str:
        """The mark after the word at ``pos`` now (one of MARKS)."""
        return classify(existing_mark(doc.cues[pos[0]].text, SetMark.word_end(state, pos))[1])

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        c = self.pos[0]
        old = self.mark_at(doc, state, self.pos)
        written = self.mark
        if self.language == FRENCH and self.mark in OPENING_OF:  # "?" and "!": spaced as the file spaces them
            written = french_space(doc, [FRENCH] * len(doc.cues)) + self.mark
        self._edit = doc.set_mark(c, self.word_end(state, self.pos), written)
        _move_words(state.cues[c], self._edit)
        owner = state.pieces.get(self.pos, (self.pos,))[0]
        w = state.word(owner)
        self._mark = w.mark
        if w.mark is not None:
            w.mark = w.mark.decided(self.mark)
        out = [Decision("changed_mark" if self.mark != old else "accepted_mark", c, _snap(w), self.mark, old)]
        self._opening = opening_edit(doc, c, w.start, old, self.mark) if self.language == SPANISH else None
        if self._opening is not None:
            doc.change_marks(self._opening)
            _move_words(state.cues[self._opening.cue_index], self._opening)
        self._recased = []
        if self.write_tag is not None and (old in SENTENCE_ENDS) != (self.mark in SENTENCE_ENDS):
            out += self._recase_next(doc, state, self.mark in SENTENCE_ENDS, self._mark)
        # the opening mark may be in an earlier cue and the next word in the next one: each is repainted, and an
        # autosave keeps it
        opening = () if self._opening is None else (self._opening.cue_index,)
        self.cues = tuple(sorted({c, *opening, *(p[0] for p, _ in self._recased)}))
        return out

    def _recase_next(self, doc: Document, state: ReviewState, starts: bool,
                     mark: MarkReview | None) -> list[Decision]:
        assert self.write_tag is not None
        last = state.pieces.get(self.pos, (self.pos,))[-1]
        after = state.next_spoken(last)
        if after is None:
            return []
        places = state.pieces.get(after, (after,))
        words = [state.word(p) for p in places]
        # a word a rolling caption repeats: every copy takes the new form, piece by piece as the first
        copies = [state.pieces.get(p, (p,)) for p in state.copies.get(after, (after,)) if p != after]
        head = words[0]
        if head.status in (Status.CHANGED, Status.EDITED):
            return []
        whole = "".join(w.form for w in words)
        if starts:
            if tag_of(whole) is not Tag.L:
                return []
            new = self.write_tag(whole, Tag.T)
        else:
            if not positional_capital(head, "".join(w.input for w in words), whole, mark):
                return []
            new = self.write_tag(whole, Tag.L)
        if new == whole or len(new) != len(whole):  # a capital of two letters cannot be cut into the pieces
            return []
        out = []
        for copy in (places, *copies):
            at = 0
            for pos in copy:
                w = state.word(pos)
                form = new[at:at + len(w.form)]
                at += len(w.form)
                if form == w.form or len(form) != len(w.form):
                    continue
                self._recased.append((pos, w.form))
                doc.recase(w.cue_index, [(w.start, w.end, form)])
                before, w.form = w.form, form
                out.append(Decision("recased", w.cue_index, _snap(w), form, before, caused_by=0))
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        assert self._edit is not None
        for pos, before in reversed(self._recased):
            w = state.word(pos)
            doc.recase(w.cue_index, [(w.start, w.end, before)])
            w.form = before
        if self._opening is not None:
            doc.revert_marks(self._opening)
            _move_words(state.cues[self._opening.cue_index], self._opening.inverse())
        doc.revert_marks(self._edit)
        _move_words(state.cues[self.pos[0]], self._edit.inverse())
        state.word(state.pieces.get(self.pos, (self.pos,))[0]).mark = self._mark


def positional_capital(w: ReviewWord, input: str, form: str, mark: MarkReview | None) -> bool:
    """Whether ``w`` (``form`` now, ``input`` as opened: the whole word, for one broken by inline tags) is Title
    case only for starting a sentence: written in lower case in the file, and capitalised by the app, not by
    the model's own reading: the model gave it L, or the capital came from the sentence end the head restored
    before it (``mark``; casing then gives it T with the head's probability of that end as its own, see
    ``casing.stream.sentence_start``)."""
    if tag_of(form) is not Tag.T or tag_of(input) is not Tag.L or w.model_tag is None:
        return False
    if w.model_tag is Tag.L:
        return True
    if w.model_tag is not Tag.T or w.probs is None or mark is None:
        return False
    p_end = sentence_end_probability(mark.probs)
    return w.probs[2] == 0.0 and w.probs[3] == 0.0 and abs(w.probs[1] - p_end) < 1e-6


def _move_words(words: list[ReviewWord], edit: MarkEdit) -> None:
    for w in words:
        w.start, w.end = edit.shift_span(w.start, w.end)


def realign(old: list[ReviewWord], tokens, cue_index: int) -> list[ReviewWord]:
    """Review words for a cue's new word tokens, keeping what matches the old words."""
    new_tokens = [(i, t) for i, t in enumerate(tokens) if has_letters(t.text)]
    a = [w.form.lower() for w in old]
    b = [t.text.lower() for _, t in new_tokens]
    out: list[ReviewWord | None] = [None] * len(new_tokens)
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            w = old[block.a + k]
            word_index, tok = new_tokens[block.b + k]
            status = w.status if tok.text == w.form else Status.CHANGED
            if w.status is Status.EDITED:
                status = Status.EDITED
            out[block.b + k] = ReviewWord(cue_index, word_index, tok.start, tok.end, w.input, w.proposed,
                                          tok.text, w.model_tag, w.probs, status, mark=w.mark)
    for k, (word_index, tok) in enumerate(new_tokens):
        if out[k] is None:
            out[k] = ReviewWord(cue_index, word_index, tok.start, tok.end, tok.text, tok.text, tok.text,
                                None, None, Status.EDITED)
    return [w for w in out if w is not None]
