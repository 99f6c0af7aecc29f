"""Changing the casing mode of an open review: the file cased again in the new mode, as one undoable step.

The model reads the words as the opened file wrote them (a word's ``input``),
so a mode change cases that text again (``recase_in_mode``, slow: a worker runs
it) and ``ChangeMode`` writes the result over every word nobody has decided:
words the editor accepted, changed or typed keep their form, and so do the
words the app changed from what the editor taught (learned) or from a profile.
"""

from __future__ import annotations

from dataclasses import replace
from subcase.casing import CasingEngine, apply_casing, case_document
from subcase.casing.engine import OnProgress, ShouldCancel
from subcase.subtitles import Document

from .actions import Action, Decision
from .opening import cased_state
from .state import ReviewState, ReviewWord, Status


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
    """The review state casing the opened text in ``mode`` gives (house ``styles`` applied as on opening).
    Reads ``doc`` and ``state`` only: the caller keeps them unchanged meanwhile."""
    scratch = input_document(doc, state)
    casing = case_document(engine, scratch, mode, progress, cancel)
    apply_casing(scratch, casing)
    return cased_state(scratch, casing, engine, state.threshold, styles)


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
                if (n.proposed, n.model_tag, n.probs) == (w.proposed, w.model_tag, w.probs) and w.form == w.proposed:
                    continue
                if changed is None:
                    changed = list(words)
                changed[s] = ReviewWord(c, w.word_index, w.start, w.end, w.input, n.proposed, n.proposed,
                                        n.model_tag, n.probs, Status.UNTOUCHED, raised=w.raised, mark=w.mark)
                if n.proposed != w.form:
                    spans.append((w.start, w.end, n.proposed))
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
