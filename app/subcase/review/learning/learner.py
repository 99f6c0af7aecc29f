"""The learner: how it learns (its settings), what it knows (a ``Knowledge`` value) and where
(the ``Layout`` of the review state it reads); and ``Taught``, the undo step of a human action
with everything learned from it."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from subcase.casing.housestyle import Category, Style, plain_casing
from subcase.subtitles import Document

from ..actions import Action, Decision, TagWriter
from ..changes import Change
from ..state import Pos, ReviewState, Status
from .knowledge import Context, Knowledge, PhraseKey
from ..structure import DocumentStructure
from .layout import Layout, PlainCasing, pos_of
from .step import IsRare, Step, context, neighbours
from .teaching import teach


@dataclass
class Learner:
    """What the editor taught in this file so far, and where it applies."""

    write_tag: TagWriter
    is_rare: IsRare = lambda w: False
    # What the editor taught so far (a profile from other files may seed it); each learning step
    # replaces it with the next value, and undo puts the previous one back (``Taught``).
    knowledge: Knowledge = field(default_factory=Knowledge)
    width: int = 2           # neighbours on each side in a context rule (1 broke 3 words for 5 fixed)
    # Measured with simulate-review on the dev subtitles and left off by default, because
    # neither beats moving the threshold (docs/research/2026-11-24-learning-rules.md):
    # "word" | "bigram" | "": after a fix, raise for review the other occurrences cased otherwise
    # (never changes them).  "word" catches 7 more errors for 40 more visits at threshold 0.9
    # on the dev subtitles (a better rate than lowering the threshold), and is on.
    raise_disagreeing: str = "word"
    # After a fix to Title case, raise the longer lower-case words sitting between it and another
    # Title word of the same cue (a title the model read as prose: "Tools for scalable Web").
    raise_title_gaps: int = 4  # the longest gap, in words; 0: off
    # A learned phrase raises, rather than capitalises, a word the model is sure is lower case
    # (``applying.apply_phrase``): the editor's one fix is not evidence enough against the model's certainty.
    raise_sure_phrases: bool = True
    # After a fix to Title case, raise the lower-case word right after it ("Mountain dew", "Tower records").
    # English only (``make_learner``): names and titles capitalise every content word there.
    raise_after_title: bool = True
    # After a fix to Title inside quotation marks, raise the longer lower-case words of that
    # quotation (a quoted title). English only (``make_learner``), as the raise after a Title fix.
    raise_quoted_titles: bool = True
    # A style learned from one fix is checked on the next restyled cue (see ``styles``).
    check_styles: bool = True
    # A learned style also settles the flagged words of its category that are written that way
    # already (``styles``): the editor has said how the category is written, so asking again
    # is a wasted visit (docs/research/2026-11-24-learning-rules.md).
    settle_styled: bool = True
    # An UPPER or Mixed form the editor accepted is taken as one they wrote (word-wide, below), and the
    # word-wide form settles the flagged occurrences already written that way: an acronym or product
    # name the model doubts at each occurrence ("W3C" and "WCAG" in the French W3C talks).  Fewer
    # visits, no more errors left (docs/research/2026-11-24-learning-rules.md).
    settle_acronyms: bool = True
    # In a file that marks its sentence ends, a Title form the editor decided twice away from sentence
    # starts, and never another way, settles the flagged occurrences written so: a name the model doubts
    # at each occurrence ("Gammy", "Lopper" in Seinfeld).  It re-cases nothing (a Title form carried to
    # other words broke more than it fixed), and not in a file without sentence punctuation, where a
    # Title word may be a sentence start the file does not mark
    # (docs/research/2026-11-24-learning-rules.md).
    settle_titles: bool = True
    # The category words cased as plain sentences, with P(lower) (housestyle.plain_casing), asked
    # for once when a style is first learned; None: the model's probabilities tell names instead.
    plain: PlainCasing | None = None
    # An UPPER or Mixed form goes word-wide from this many agreeing decisions (or one, where the file
    # writes the word so inside a sentence elsewhere); before that one fix re-cases only where the model
    # agrees, and raises the rest.
    word_evidence: int = 2
    # A context rule taught by one fix changes no word: where the model is sure of its own form the word
    # is raised for review, the others are on the list anyway (one fix is thin evidence: a heading
    # "Cognitive and Learning Disabilities." taught the sentence "Cognitive and learning disabilities").
    # A phrase taught once changes the words the model doubts and raises the others: a name repeated
    # through a talk costs a visit per repeat otherwise (173 more visits in the W3C symposium talks).
    thin_rules_raise: bool = True
    # Where the words of the review state it last read sit (``prepare``); None before the first step.
    layout: Layout | None = field(default=None, repr=False)
    # the session's structure of the document (review/structure.py), shared with the flags and the log
    structure: DocumentStructure | None = field(default=None, repr=False)

    # -- what it knows ------------------------------------------------------------
    @property
    def rules(self) -> Mapping[Context, str | None]:
        return self.knowledge.rules

    @property
    def phrases(self) -> Mapping[PhraseKey, tuple[str, ...]]:
        return self.knowledge.phrases

    @property
    def words(self) -> Mapping[str, str]:
        return self.knowledge.words

    @property
    def styles(self) -> Mapping[Category, Style]:
        return self.knowledge.styles

    # -- the file's structure, read again after a text edit -----------------------
    def prepare(self, doc: Document, state: ReviewState) -> None:
        """Sentence starts, categories and a word index, from the session's one structure of the
        document where the learner has it (``structure``); redone after a text edit."""
        self.layout = Layout.read(doc, state, self.structure)

    def layout_of(self, state: ReviewState) -> Layout | None:
        """The layout the learner last read, if it read it from ``state``; else None."""
        return self.layout if self.layout is not None and self.layout.is_for(state) else None

    def context(self, state: ReviewState, pos: Pos) -> Context:
        """The word with ``width`` neighbours on each side in its cue, lowercased (None past an edge)."""
        return context(state, pos, self.width)

    def neighbours(self, state: ReviewState, pos: Pos) -> tuple[str | None, str | None]:
        return neighbours(state, pos)

    def initial(self, pos: Pos) -> bool:
        """Whether the word starts a sentence, in the layout last read."""
        return self.layout is not None and self.layout.starts_sentence(pos)

    # -- learning ----------------------------------------------------------------
    def learn(self, doc: Document, state: ReviewState, decisions: Iterable[Decision]) -> list[Change]:
        """Rules from the human decisions just made, applied to every unreviewed word; the
        knowledge becomes the next value."""
        layout = self.layout_of(state)
        if layout is None:
            self.prepare(doc, state)
        assert self.layout is not None
        step = Step(self, state, self.layout, self.knowledge.draft())
        for d in decisions:
            if d.action in NOT_TAUGHT:
                continue
            if d.word is None:  # a cue text edit: its words were re-read
                self.prepare(doc, state)
                step.layout = self.layout
                continue
            pos = pos_of(state, d.word)
            if pos is None:
                continue
            step.decided.add(pos)
            teach(step, pos, d)
        self.knowledge = step.known.freeze()
        # a change of form, or of status only (a word settled in the style it already has, or put back)
        return [ch for ch in step.changes.values()
                if ch.after_form != ch.before_form or ch.after_status is not ch.before_status
                or ch.raised is not None]

    def learn_from_reviewed(self, doc: Document, state: ReviewState) -> None:
        """Rebuild what was taught from the words humans decided, changing nothing: after a
        crash recovery the session goes on learning where it left off (and a profile built
        from a reviewed file can start from the same rules)."""
        self.prepare(doc, state)
        assert self.layout is not None
        known = self.knowledge.draft()
        for pos in state.positions():
            w = state.word(pos)
            if w.status is Status.CHANGED:
                d = Decision("changed_tag", w.cue_index, w, w.form, w.proposed)
            elif w.status is Status.ACCEPTED:
                d = Decision("accepted", w.cue_index, w, w.form, w.form)
            else:
                continue
            teach(Step(self, state, self.layout, known, decided={pos}), pos, d)
        self.knowledge = known.freeze()


# Decisions on marks teach no casing; the word re-cased after a changed sentence end is the app's change.
NOT_TAUGHT = frozenset({"accepted_mark", "changed_mark", "recased"})


class Taught(Action):
    """A human action and everything the app learned from it: one undo step.

    ``do`` runs the human action, asks the learner what follows from its
    decisions and applies those changes as ``Status.LEARNED``; ``undo`` puts
    the learned words back first, then undoes the human action and gives the
    learner back the knowledge it had before.
    """

    def __init__(self, human: Action, learner: Learner):
        self.human, self.learner = human, learner
        self.label = human.label
        self.cues = human.cues
        self.focus = human.focus
        self._changes: list[Change] = []
        self._before = learner.knowledge

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        self._before = self.learner.knowledge
        decisions = self.human.do(doc, state)
        self.focus = self.human.focus
        if self.human.changes_text:
            self.learner.prepare(doc, state)
        self._changes = self.learner.learn(doc, state, decisions)
        out = list(decisions)
        cause = _cause_index(decisions)
        for ch in self._changes:
            w = state.word(ch.pos)
            if ch.raised is not None:  # no change, no record: the word is only shown for review (or not)
                ch.before_raised = w.raised
                w.raised = ch.raised or None
                continue
            ch.before_raised = w.raised
            if ch.after_form != w.form:
                doc.recase(w.cue_index, [(w.start, w.end, ch.after_form)])
                w.form = ch.after_form
            w.status = ch.after_status
            w.raised = ch.ask  # a raise for the old form does not hold for the new one
            out.append(Decision("learned", w.cue_index, replace(w), w.form, ch.before_form, caused_by=cause))
        self.cues = tuple(sorted(set(self.human.cues) | {ch.pos[0] for ch in self._changes}))
        return out

    def undo(self, doc: Document, state: ReviewState) -> None:
        for ch in reversed(self._changes):
            w = state.word(ch.pos)
            if ch.raised is not None:
                w.raised = ch.before_raised
                continue
            if w.form != ch.before_form:
                doc.recase(w.cue_index, [(w.start, w.end, ch.before_form)])
            w.form, w.status, w.raised = ch.before_form, ch.before_status, ch.before_raised
        self.human.undo(doc, state)
        self.learner.knowledge = self._before
        if self.human.changes_text:
            self.learner.prepare(doc, state)
        self.focus = self.human.focus

    @property
    def changes(self) -> list[Change]:
        return list(self._changes)


def _cause_index(decisions: list[Decision]) -> int | None:
    """The human decision the learned changes hang on: the first one that changed a word, else the first."""
    for i, d in enumerate(decisions):
        if d.final != d.before:
            return i
    return 0 if decisions else None


def make_learner(engine, language: str | None = None) -> Learner:
    """A learner for a file cased by ``engine``: its forms, and its tokenizer to tell rare words.

    ``language`` is the file's: a Spanish file learns with the model that cased it (its
    lexicon, its tokenizer, its plain-sentence casing of sound cues), not the English one."""
    if language is not None:
        engine = engine.engine_for(language) or engine
    cache: dict[str, bool] = {}

    def is_rare(word: str) -> bool:
        # A word the tokenizer splits is one the model met too rarely to know as a whole; a contraction
        # is split at its apostrophe whatever its stem ("that's"), so its stem decides: a common word
        # fixed to Title twice at sentence starts a file does not mark is no name.
        if word not in cache:
            stem = re.split(r"['\u2019]", word)[0] or word
            cache[word] = len(engine.encoder.pieces([stem])[0]) > 1
        return cache[word]

    # Spanish, French and Portuguese names and titles capitalise their first word only ("Ministerio de
    # cultura", "La Marche turque"), German its nouns: the word after a Title fix is often lower case by
    # rule there, so raising it costs more visits per error caught than moving the threshold; the rest
    # of a quoted title likewise (docs/research/2026-11-24-learning-rules.md).
    english = language in (None, "en")
    return Learner(engine.form, is_rare, plain=lambda cues, cats: plain_casing(engine, cues, cats, language),
                   raise_after_title=english, raise_quoted_titles=english)


def main_language(cue_languages: list[str] | None) -> str | None:
    """The language most of a file's cues are in (None if unknown)."""
    if not cue_languages:
        return None
    return max(set(cue_languages), key=lambda lang: (cue_languages.count(lang), lang))


__all__ = ["Learner", "Taught", "main_language", "make_learner"]
