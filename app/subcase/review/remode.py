"""Changing the casing mode of an open review: the file cased again in the new mode, as one undoable step.

The model reads the words as the opened file wrote them (a word's ``input``),
so a mode change cases that text again (``recase_in_mode``, slow: a worker runs
it) and ``ChangeMode`` writes the result over every word nobody has decided:
words the editor accepted, changed or typed keep their form, and so do the
words the app changed from what the editor taught (learned) or from a profile.

A file opened with its punctuation restored is cased again as it was opened:
the restored marks taken out of the text, the head restoring them in the same
pass (``state.punctuate``), so a word keeps the capital a restored sentence end
gave it, and a change of mode and back gives the proposals the file opened
with.  The marks stay as they stand in the text, with what the editor made of
each; where the editor added or took out a restored sentence end, the next word
is cased as ``SetMark`` cased it then.
"""

from __future__ import annotations

from dataclasses import replace
from subcase.casing import CasingEngine, Tag, apply_casing, case_document
from subcase.casing.engine import OnProgress, ShouldCancel
from subcase.casing.marks import SENTENCE_ENDS
from subcase.casing.restoring import Punctuate
from subcase.casing.tags import TagWriter, tag_of
from subcase.subtitles import Document, MarkEdit, MarkError

from .actions import Action, Decision, SetMark, positional_capital
from .opening import cased_state
from .state import MarkReview, Pos, ReviewState, ReviewWord, Status


def input_document(doc: Document, state: ReviewState) -> Document:
    """A copy of the document's cues with every reviewable word written as the opened file had it."""
    cues = [replace(c, _tokens=None) for c in doc.cues]
    out = Document(doc.format, doc.encoding, doc.bom, doc.newline, list(cues), [], doc.path)
    for c, words in enumerate(state.cues):
        spans = [(w.start, w.end, w.input) for w in words if w.input != w.form and len(w.input) == w.end - w.start]
        try:
            out.recase(c, spans)
        except ValueError:
            pass  # a cue edited by hand whose old words no longer fit: cased as it reads now
    return out


def recase_in_mode(engine: CasingEngine, doc: Document, state: ReviewState, mode: str, styles: dict | None = None,
                   progress: OnProgress | None = None, cancel: ShouldCancel | None = None) -> ReviewState:
    """The review state casing the opened text in ``mode`` gives (house ``styles`` applied as on opening),
    with the punctuation restored as when the file was opened; its offsets are those of ``doc``.
    Reads ``doc`` and ``state`` only: the caller keeps them unchanged meanwhile."""
    scratch = input_document(doc, state)
    punctuate = Punctuate(state.punctuate)
    # the model reads the text as it read it on opening, without the marks it restored itself
    taken = _take_out_restored(scratch, state) if punctuate is not Punctuate.NEVER else {}
    casing = case_document(engine, scratch, mode, progress, cancel, punctuate=punctuate)
    apply_casing(scratch, casing)  # the head's marks are not written: the text keeps the review's
    fresh = cased_state(scratch, casing, engine, state.threshold, styles)
    for c, edits in taken.items():
        for edit in reversed(edits):
            for w in fresh.cues[c]:
                w.start, w.end = edit.inverse().shift_span(w.start, w.end)
    if taken:
        _follow_decided_marks(state, fresh, engine.form)
    fresh.punctuate = state.punctuate
    return fresh


def _take_out_restored(scratch: Document, state: ReviewState) -> dict[int, list[MarkEdit]]:
    """Each mark a restored one stands for now (``MarkReview.now``) taken out of ``scratch``, from the right of
    each cue: the edits, per cue, in the order made."""
    out: dict[int, list[MarkEdit]] = {}
    for c, words in enumerate(state.cues):
        ends = sorted((_word_end(state, (c, s)) for s, w in enumerate(words) if w.mark is not None and w.mark.now),
                      reverse=True)
        for end in ends:
            try:
                edit = scratch.set_mark(c, end, "")
            except MarkError:
                continue  # a cue edited by hand since: the mark stays, read as written
            if edit.changes:
                out.setdefault(c, []).append(edit)
    return out


def _word_end(state: ReviewState, pos: Pos) -> int:
    """Where the mark after the word at ``pos`` goes: after its last piece, as ``SetMark`` puts it (the word's
    own end if its pieces no longer fit the cue, after a hand edit)."""
    try:
        return SetMark.word_end(state, pos)
    except IndexError:
        return state.word(pos).end


def _follow_decided_marks(state: ReviewState, fresh: ReviewState, write_tag: TagWriter) -> None:
    """Where the editor made a restored mark a sentence end or took one away, the next word's form in
    ``fresh`` as ``SetMark`` cased it then: a capital after the new end, lower case where the capital
    was the removed end's.  Its proposal stays the model's."""
    for pos in state.positions():
        m = state.word(pos).mark
        if m is None or m.status is Status.UNTOUCHED or (m.now in SENTENCE_ENDS) == (m.proposed in SENTENCE_ENDS):
            continue
        last = state.pieces.get(pos, (pos,))[-1]
        after = state.step(last, 1)
        if after is None or after == last:
            continue
        places = fresh.pieces.get(after, (after,))
        words = [w for w in (_at(fresh, p) for p in places) if w is not None]
        if len(words) == len(places):
            _recase(words, m.now in SENTENCE_ENDS, m, write_tag)


def _at(state: ReviewState, pos: Pos) -> ReviewWord | None:
    c, s = pos
    return state.cues[c][s] if 0 <= c < len(state.cues) and 0 <= s < len(state.cues[c]) else None


def _recase(words: list[ReviewWord], starts: bool, mark: MarkReview, write_tag: TagWriter) -> None:
    whole = "".join(w.form for w in words)
    if starts:
        if tag_of(whole) is not Tag.L:
            return
        new = write_tag(whole, Tag.T)
    else:
        if not positional_capital(words[0], "".join(w.input for w in words), whole, mark):
            return
        new = write_tag(whole, Tag.L)
    if len(new) != len(whole):  # a capital of two letters cannot be cut into the pieces
        return
    at = 0
    for w in words:
        w.form = new[at:at + len(w.form)]
        at += len(w.form)


class ChangeMode(Action):
    """Write the casing of another mode over every undecided word; undo puts the old mode's back."""

    rewrites_words = True  # tags and proposals change: an autosave keeps these cues in full

    def __init__(self, mode: str, old_mode: str, fresh: ReviewState):
        self.new_mode, self.old_mode, self.fresh = mode, old_mode, fresh
        self.label = f"Change casing mode to {mode}"
        self.focus = None
        self._old: dict[int, list[ReviewWord]] = {}

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        self._old = {}
        for c, words in enumerate(state.cues):
            if c >= len(self.fresh.cues):
                break
            new_by = {w.word_index: w for w in self.fresh.cues[c]}
            changed: list[ReviewWord] | None = None
            spans = []
            for s, w in enumerate(words):
                n = new_by.get(w.word_index)
                if w.status is not Status.UNTOUCHED or n is None or (n.start, n.end) != (w.start, w.end):
                    continue
                # the fresh form is the proposal, or the case a sentence end the editor set gives the word
                if (n.proposed, n.model_tag, n.probs) == (w.proposed, w.model_tag, w.probs) and w.form == n.form:
                    continue
                if changed is None:
                    changed = list(words)
                changed[s] = ReviewWord(c, w.word_index, w.start, w.end, w.input, n.proposed, n.form,
                                        n.model_tag, n.probs, Status.UNTOUCHED, raised=w.raised, mark=w.mark)
                if n.form != w.form:
                    spans.append((w.start, w.end, n.form))
            if changed is not None:
                doc.recase(c, spans)
                self._old[c] = words
                state.cues[c] = changed
        self.cues = tuple(sorted(self._old))
        return []

    def undo(self, doc: Document, state: ReviewState) -> None:
        for c, old in self._old.items():
            spans = [(o.start, o.end, o.form) for o, now in zip(old, state.cues[c]) if o.form != now.form]
            doc.recase(c, spans)
            state.cues[c] = old


__all__ = ["ChangeMode", "input_document", "recase_in_mode"]
