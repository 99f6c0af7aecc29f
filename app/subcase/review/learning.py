"""Learning from every fix within a file: the app re-cases what the editor taught it.

A human decision is evidence about *this file*: how it writes a phrase, a
name, its sound cues and speaker labels.  ``Learner`` turns each decision into
rules and applies them to the words nobody has reviewed yet.  What it changes
gets ``Status.LEARNED`` and is undone together with the human fix that caused
it (``Taught`` is one compound action), and the edit log records it as the
app's action linked to that fix.

Naive replace-all breaks as many words as it fixes (``And`` fixed at a cue
start, then pushed onto every ``and``), so every rule is narrow:

- **context**: a changed word is learned with two words on each side in its
  cue (lowercased) and applies only where the same five words appear; one
  word each side broke 3 words for 5 fixed on the dev subtitles without
  punctuation.  One fix is thin evidence: a context rule re-cases only from its
  second agreeing fix, and until then raises the occurrences the model is sure
  of (the others are on the review list anyway); a phrase taught once re-cases
  only the occurrences the model doubts and raises the rest (``thin_rules_raise``).  Sentence-initial words are never evidence and never targets
  of a lower-case or Title rule (their capital is positional).
- **phrases**: a run of capitalised words (a name or title; small words such
  as "of" inside) is learned as a whole with its two neighbours and applies
  only where the whole run appears between the same neighbours.
- **positional or intrinsic** (Beaufays & Strope): a capital at a sentence start
  is the position's and teaches nothing; one given at a line or cue start that the
  file does not mark as a sentence start (a full stop left out, rolling captions)
  teaches only line starts between the same neighbours, unless the file writes the
  word so inside a sentence too (``_intrinsic``).  Without sentence punctuation a
  common word fixed to Title anywhere is taken as an unmarked sentence start: no
  context rule (in six held-out Seinfeld episodes without punctuation "All right
  That's it" was carried to "all right, that's it": 2 broken, now none).
- **word-wide**: an UPPER or Mixed form (``EM``, ``QualWeb``), written or
  accepted twice (or once, where the file writes it so inside a sentence
  elsewhere), carries over to every occurrence of the word away from sentence
  starts and settles the flagged ones already written so (``settle_acronyms``);
  after one fix it re-cases only the occurrences the model reads as capitalised
  too, and the others are raised for review;
  a Title form only for a word the model barely knows (split by the tokenizer,
  a name such as ``Proog``), from its second agreeing fix; in a file with
  sentence punctuation, a Title form decided twice only settles the flagged
  ones written so (``settle_titles``).  Two different forms from the editor
  switch the word-wide rule off.
- **raised, not changed** (``raising``): the other occurrences of a fixed word
  cased otherwise, the words between two fixes to Title in one cue, and in
  English the word after a fix to Title are raised for review with the reason.
- **house style**: the first fix inside a sound cue or a speaker label sets
  that category's style for the file (see ``housestyle``); every unreviewed
  word of the category is restyled, names inside a cue keep their capitals,
  and the flagged ones already in that style are settled.
  One fix can mislead, so the next restyled cue is raised for a check
  (``style_learning``).

Confirmations from accepts and raising the neighbours of a change were
measured and left out: they cost more visits than they caught errors
(docs/research/2026-11-24-learning-rules.md).
A learned phrase raises for review, rather than capitalises, a word the model
is sure is lower case (``raise_sure_phrases``).

The learner reads only the document and the review state, so a profile from
other files can seed it through ``rules`` and ``styles``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from subcase.casing import Tag, tag_of
from subcase.subtitles import Document

from subcase.casing.housestyle import Category, Style, StyleMap, categories_of, plain_casing

from .actions import Action, Decision, EditText, TagWriter
from .changes import OPEN, Change
from .state import Pos, ReviewState, Status
from .positions import has_sentence_punctuation, line_starts, sentence_initial
from .raising import UNPUNCTUATED_SURE_LOWER, RaisingRules, pos_of, quoted_spans
from .style_learning import HouseStyleLearning

# A word-wide UPPER form is not written over an occurrence the model is sure is lower case: an
# ordinary word the editor wrote in capitals was a sound cue or a shout ("[KNOCKING ON DOOR]"), not an
# acronym.  ``Learner.raise_sure_phrases`` does the same for learned phrases.  0.95 rather than 0.99: it
# also keeps sound-cue words the model is a little less sure of, for about one more visit
# (docs/research/2026-11-24-learning-rules.md).
SURE_LOWER = 0.95

Context = tuple[str | None, ...]  # lowercased words around and including the word, within the cue
IsRare = Callable[[str], bool]


@dataclass
class Learner(HouseStyleLearning, RaisingRules):
    """What the editor taught in this file so far, and where it applies."""

    write_tag: TagWriter
    is_rare: IsRare = lambda w: False
    rules: dict[Context, str | None] = field(default_factory=dict)  # context -> its middle word's form (None: conflicting)
    # multi-word names and titles: (left neighbour, *lowercased words, right neighbour) -> forms
    phrases: dict[tuple[str | None, ...], tuple[str, ...]] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)            # lowercased word -> form, any context
    styles: StyleMap = field(default_factory=dict)                 # category -> style, learned or chosen
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
    # (``_apply_phrase``): the editor's one fix is not evidence enough against the model's certainty.
    raise_sure_phrases: bool = True
    # After a fix to Title case, raise the lower-case word right after it ("Mountain dew", "Tower records").
    # English only (``make_learner``): names and titles capitalise every content word there.
    raise_after_title: bool = True
    # After a fix to Title inside quotation marks, raise the longer lower-case words of that
    # quotation (a quoted title). English only (``make_learner``), as the raise after a Title fix.
    raise_quoted_titles: bool = True
    # A style learned from one fix is checked on the next restyled cue (see the module docstring).
    check_styles: bool = True
    # A learned style also settles the flagged words of its category that are written that way
    # already (``style_learning``): the editor has said how the category is written, so asking again
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
    plain: Callable[[list, dict], dict[Pos, tuple[str, float]]] | None = None
    _plain: dict[Pos, tuple[str, float]] | None = field(default=None, repr=False)
    # An UPPER or Mixed form goes word-wide from this many agreeing decisions (or one, where the file
    # writes the word so inside a sentence elsewhere); before that one fix re-cases only where the model
    # agrees, and raises the rest.
    word_evidence: int = 2
    _seen: dict[str, dict[str, int]] = field(default_factory=dict, repr=False)  # word -> forms decided
    _opening: set[Context] = field(default_factory=set, repr=False)  # rules taught at a line start
    # A context rule taught by one fix changes no word: where the model is sure of its own form the word
    # is raised for review, the others are on the list anyway (one fix is thin evidence: a heading
    # "Cognitive and Learning Disabilities." taught the sentence "Cognitive and learning disabilities").
    # A phrase taught once changes the words the model doubts and raises the others: a name repeated
    # through a talk costs a visit per repeat otherwise (173 more visits in the W3C symposium talks).
    thin_rules_raise: bool = True
    _support: dict[Context, tuple[int, int]] = field(default_factory=dict, repr=False)  # fixes, first fix's cue
    _phrase_support: dict[tuple[str | None, ...], int] = field(default_factory=dict, repr=False)
    _initial: dict[Pos, bool] = field(default_factory=dict, repr=False)
    _line_starts: set[Pos] = field(default_factory=set, repr=False)
    _punctuated: bool = field(default=True, repr=False)
    _cats: dict[Pos, Category] = field(default_factory=dict, repr=False)
    _index: dict[str, list[Pos]] = field(default_factory=dict, repr=False)
    _quoted: dict[Pos, list[Pos]] = field(default_factory=dict, repr=False)  # word -> its quotation's words
    _prepared_for: int | None = field(default=None, repr=False)
    # house style learned from one fix and not yet checked: category -> (style, the fix's cue,
    # the ordinary words it restyled (no names), {pos: (form before, status before, form after)} it changed)
    _checks: dict[Category, tuple[Style, int, set[Pos], dict[Pos, tuple[str, Status, str]]]] = field(
        default_factory=dict, repr=False)

    # -- the file's structure, computed once per document --------------------
    def prepare(self, doc: Document, state: ReviewState) -> None:
        """Sentence starts, categories and a word index; cheap enough to redo after a text edit."""
        self._initial = sentence_initial(doc, state)
        self._punctuated = has_sentence_punctuation(doc)
        self._line_starts = line_starts(doc, state)
        self._cats = categories_of(doc, state.cues)
        self._index = {}
        self._plain = None
        for pos in state.positions():
            self._index.setdefault(state.word(pos).form.lower(), []).append(pos)
        self._quoted = quoted_spans(doc, state)
        self._prepared_for = id(state)

    def context(self, state: ReviewState, pos: Pos) -> Context:
        """The word with ``width`` neighbours on each side in its cue, lowercased (None past an edge)."""
        c, s = pos
        words = state.cues[c]
        n = self.width
        return tuple(words[k].form.lower() if 0 <= k < len(words) else None for k in range(s - n, s + n + 1))

    def neighbours(self, state: ReviewState, pos: Pos) -> tuple[str | None, str | None]:
        c, s = pos
        words = state.cues[c]
        return (words[s - 1].form.lower() if s > 0 else None,
                words[s + 1].form.lower() if s + 1 < len(words) else None)

    def initial(self, pos: Pos) -> bool:
        return self._initial.get(pos, False)

    # -- learning ----------------------------------------------------------------
    def learn(self, doc: Document, state: ReviewState, decisions: Iterable[Decision]) -> list[Change]:
        """Rules from the human decisions just made, applied to every unreviewed word."""
        if self._prepared_for != id(state):
            self.prepare(doc, state)
        changes: dict[Pos, Change] = {}
        decided: set[Pos] = set()
        for d in decisions:
            if d.word is None:  # a cue text edit: its words were re-read
                self.prepare(doc, state)
                continue
            pos = pos_of(state, d.word)
            if pos is None:
                continue
            decided.add(pos)
            self._learn_one(doc, state, pos, d, changes, decided)
        # a change of form, or of status only (a word settled in the style it already has, or put back)
        return [ch for ch in changes.values()
                if ch.after_form != ch.before_form or ch.after_status is not ch.before_status
                or ch.raised is not None]

    def learn_from_reviewed(self, doc: Document, state: ReviewState) -> None:
        """Rebuild what was taught from the words humans decided, changing nothing: after a
        crash recovery the session goes on learning where it left off (and a profile built
        from a reviewed file can start from the same rules)."""
        self.prepare(doc, state)
        scratch: dict[Pos, Change] = {}
        for pos in state.positions():
            w = state.word(pos)
            if w.status is Status.CHANGED:
                d = Decision("changed_tag", w.cue_index, w, w.form, w.proposed)
            elif w.status is Status.ACCEPTED:
                d = Decision("accepted", w.cue_index, w, w.form, w.form)
            else:
                continue
            self._learn_one(doc, state, pos, d, scratch, {pos})
            scratch.clear()

    def _learn_one(self, doc: Document, state: ReviewState, pos: Pos, d: Decision,
                   changes: dict[Pos, Change], decided: set[Pos]) -> None:
        w = state.word(pos)
        form = w.form
        # A change is evidence that the model was wrong here: accepting a profile's form the model
        # did not propose teaches as much as typing it.
        changed = d.final != d.before or (d.word is not None and d.final != d.word.proposed)
        cat = self._cats.get(pos)
        if cat is not None:
            self._learn_style(state, pos, d, cat, changes, decided)
            return  # a word of a sound cue or label teaches its category's style, not a phrase
        if self.initial(pos):
            return  # a sentence start's capital is positional: no evidence about the word
        lower = form.lower()
        t = tag_of(form)
        if changed and t is not Tag.L and pos in self._line_starts and not self._intrinsic(state, lower, form, pos):
            # A capital given at a line or cue start the file does not mark as a sentence start (a full
            # stop left out, rolling captions) may be the position's, not the word's: it teaches only
            # line starts between the same neighbours, and nothing word-wide.
            at = self.context(state, pos)
            self.rules[at] = form if self.rules.get(at, form) == form else None
            self._count(at, pos)
            self._opening.add(at)
            self._apply(state, lower, changes, decided)
            return
        run = self._run(state, pos)
        if len(run) >= 2 and changed:
            # A multi-word name or title is learned as a whole and applies only as a whole.
            words = tuple(state.word(p).form for p in run)
            left = self.neighbours(state, run[0])[0]
            right = self.neighbours(state, run[-1])[1]
            pkey = (left, *(x.lower() for x in words), right)
            self.phrases[pkey] = words
            self._phrase_support[pkey] = self._phrase_support.get(pkey, 0) + 1
            self._apply_phrase(state, left, words, right, changes, decided, pos[0],
                               thin=self.thin_rules_raise and self._phrase_support[pkey] < 2)
        key: Context | None = self.context(state, pos) if len(run) < 2 or not changed else None
        if key is not None and changed and t is Tag.T and not self._punctuated and not self.is_rare(lower):
            # Without sentence punctuation a common word fixed to Title is most often a sentence start
            # the file does not mark ("all right That's it"): positional, so no context rule carries it
            # to the same words elsewhere ("all right, that's it"); the raises below still apply.  Nor does
            # the file's own "So" inside a cue make it intrinsic there: that may be a sentence start too.
            key = None
        if key is None:
            pass
        elif key in self.rules and self.rules[key] not in (form, None):
            self.rules[key] = None  # the editor wrote this context two ways: no rule
        elif changed:
            self.rules[key] = form
            self._count(key, pos)
        # Word-level evidence: the forms the editor gave this word away from sentence starts.
        forms = self._seen.setdefault(lower, {})
        forms[form] = forms.get(form, 0) + 1
        if len(forms) == 1 and ((changed or self.settle_acronyms) and t in (Tag.U, Tag.M)
                                and (forms[form] >= self.word_evidence or self._intrinsic(state, lower, form, pos))
                                or (changed and t is Tag.T and forms[form] >= 2 and self.is_rare(lower))):
            # UPPER/Mixed forms from their second decision, or at once where the file writes the word so
            # elsewhere too (accepted ones count, with settle_acronyms); a Title form only for a word the
            # model barely knows (a name), from its second fix: common words are Title only in titles.
            self.words[lower] = form
        elif len(forms) == 1 and changed and t in (Tag.U, Tag.M) and self.word_evidence > 1:
            # One fix is thin evidence: carried only where the model reads the word as a name or
            # term too; the rest are raised for review (``_raise_disagreeing`` below).
            self._apply_agreeing(state, lower, form, changes, decided)
        elif len(forms) > 1:
            self.words.pop(lower, None)
            if len(forms) == 2 and forms[form] == 1:
                self._lower_raised(state, lower, changes, decided)
        self._apply(state, lower, changes, decided)
        if self.settle_titles and self._punctuated and t is Tag.T and len(forms) == 1 and forms[form] >= 2:
            self._settle(state, lower, form, changes, decided)
        if (changed and self.raise_disagreeing and len(run) < 2  # not from titles: written both ways
                and not (t is Tag.T and pos in self._line_starts)):  # a line's capital may be positional
            self._raise_disagreeing(state, pos, form, changes, decided,
                                    sure_lower=SURE_LOWER if t in (Tag.U, Tag.M) else
                                    None if self._punctuated else UNPUNCTUATED_SURE_LOWER)
        if changed and self.raise_title_gaps and t is Tag.T:
            self._raise_title_gaps(state, pos, changes, decided)
        if changed and self.raise_after_title and t is Tag.T:
            self._raise_after_title(state, pos, changes, decided)
        if changed and self.raise_quoted_titles and t is Tag.T:
            self._raise_quoted_title(state, pos, changes, decided)

    def _run(self, state: ReviewState, pos: Pos) -> list[Pos]:
        """The capitalised run around ``pos`` in its cue (small lower words allowed inside)."""
        c, s = pos
        words = state.cues[c]
        if tag_of(words[s].form) is Tag.L:
            return [pos]

        def cap(k: int) -> bool:
            return tag_of(words[k].form) is not Tag.L

        lo = s
        while lo > 0 and (cap(lo - 1) or (len(words[lo - 1].form) <= 3 and lo > 1 and cap(lo - 2))):
            lo -= 1 if cap(lo - 1) else 2
        # A sentence start's capital is positional: it is no part of a name ("The Web").
        while lo < s and self.initial((c, lo)):
            lo += 1
        while lo < s and tag_of(words[lo].form) is Tag.L:
            lo += 1
        hi = s
        n = len(words)
        while hi + 1 < n and (cap(hi + 1) or (len(words[hi + 1].form) <= 3 and hi + 2 < n and cap(hi + 2))):
            hi += 1 if cap(hi + 1) else 2
        return [(c, k) for k in range(lo, hi + 1)]

    def _count(self, key: Context, pos: Pos) -> None:
        n, cue = self._support.get(key, (0, pos[0]))
        self._support[key] = (n + 1, cue)

    def _intrinsic(self, state: ReviewState, lower: str, form: str, pos: Pos) -> bool:
        """Whether the file writes the word ``form`` inside a sentence elsewhere (not at a sentence or line
        start, not in a sound cue or label), where a human decided it or the model is sure: then the
        form is the word's own (intrinsic), not its position's."""
        for other in self._index.get(lower, ()):
            if other == pos or self.initial(other) or other in self._line_starts or other in self._cats:
                continue
            w = state.word(other)
            if w.form == form and (w.status not in OPEN or not w.needs_review(state.threshold)):
                return True
        return False

    def _apply_agreeing(self, state: ReviewState, lower: str, form: str, changes: dict[Pos, Change],
                        decided: set[Pos]) -> None:
        """One fix's UPPER or Mixed form, carried to the occurrences inside sentences where the model
        too reads the word as capitalised (P(lower) under a half): the context agrees."""
        for other in self._index.get(lower, ()):
            w = state.word(other)
            if (other in decided or other in changes or w.status not in OPEN or other in self._cats
                    or self.initial(other) or other in self._line_starts
                    or w.probs is None or w.probs[0] >= 0.5):
                continue
            new = _with_case(w.form, form)
            if new != w.form:
                changes[other] = Change(other, w.form, w.status, new)

    def _apply_phrase(self, state: ReviewState, left: str | None, forms: tuple[str, ...], right: str | None,
                      changes: dict[Pos, Change], decided: set[Pos], cue: int, thin: bool = False) -> None:
        """Re-case a phrase where it appears whole between the same neighbours (taught in ``cue``).

        With ``raise_sure_phrases`` (on) a word the model is sure is lower case (``SURE_LOWER``) is
        raised for review instead: a phrase written both ways in one file (a talk writes the spoken
        command "Place order." twice and then "Place Order."; the fix of the third had capitalised the
        first two) is never broken, and a repeated title the model is sure is prose ("Easy Checks")
        costs the editor a visit per repeat instead of nothing
        (docs/research/2026-11-23-simulated-review.md)."""
        lowers = [f.lower() for f in forms]
        for start in self._index.get(lowers[0], ()):
            c, s = start
            words = state.cues[c]
            if s + len(lowers) > len(words) or [w.form.lower() for w in words[s:s + len(lowers)]] != lowers:
                continue
            if (self.neighbours(state, start)[0], self.neighbours(state, (c, s + len(lowers) - 1))[1]) != (left, right):
                continue
            for k, f in enumerate(forms):
                pos = (c, s + k)
                w = words[s + k]
                if pos in decided or w.status not in OPEN or self._cats.get(pos) is not None:
                    continue
                if k == 0 and self.initial(pos) and tag_of(f) is Tag.L:
                    continue
                new = _with_case(w.form, f)
                if (thin and new != w.form and not w.needs_review(state.threshold)) or (
                        self.raise_sure_phrases and new != w.form and new != new.lower() and w.probs is not None
                        and w.probs[0] >= SURE_LOWER):
                    if not w.needs_review(state.threshold):
                        changes[pos] = Change(pos, w.form, w.status, w.form,
                                              raised=f"you wrote '{' '.join(forms)}' in cue {cue + 1}")
                    continue
                if new != w.form:
                    changes[pos] = Change(pos, w.form, w.status, new)

    def _settle(self, state: ReviewState, lower: str, form: str, changes: dict[Pos, Change],
                decided: set[Pos]) -> None:
        """Take off the review list the occurrences of the word written ``form`` already, away from sentence
        starts and outside sound cues and labels (their form is kept; Status.LEARNED, undone with the fix)."""
        for pos in self._index.get(lower, ()):
            w = state.word(pos)
            if (pos in decided or pos in changes or w.status not in OPEN or self._cats.get(pos) is not None
                    or self.initial(pos) or w.form != form or not w.needs_review(state.threshold)):
                continue
            changes[pos] = Change(pos, w.form, w.status, w.form)

    def _apply(self, state: ReviewState, lower: str, changes: dict[Pos, Change], decided: set[Pos]) -> None:
        anywhere = self.words.get(lower)
        for pos in self._index.get(lower, ()):
            if pos in decided or self._cats.get(pos) is not None:
                continue
            w = state.word(pos)
            if w.status not in OPEN:
                continue  # never touch what a human reviewed (or what was already learned)
            ctx = self.context(state, pos)
            if ctx in self._opening and pos not in self._line_starts:
                continue  # taught at a line start: a capital there may be the position's
            form = self.rules.get(ctx)
            if form is None and ctx not in self.rules and anywhere is not None:
                if tag_of(anywhere) is Tag.U and w.probs is not None and w.probs[0] >= SURE_LOWER:
                    continue  # the model is sure this one is lower case: see SURE_LOWER
                form = anywhere
            if form is None:
                continue
            if self.initial(pos) and tag_of(form) in (Tag.L, Tag.T):
                continue  # a sentence start's capital is positional: neither lowered nor "learned"
            new = _with_case(w.form, form)
            support = self._support.get(ctx)
            if (self.thin_rules_raise and form is not anywhere and support is not None and support[0] < 2
                    and new != w.form):
                if not w.needs_review(state.threshold):
                    changes[pos] = Change(pos, w.form, w.status, w.form,
                                          raised=f"you wrote '{form}' between the same words in cue {support[1] + 1}")
                continue
            settles = form is anywhere and self.settle_acronyms and tag_of(form) in (Tag.U, Tag.M)
            if new == w.form and not (settles and w.needs_review(state.threshold)):
                continue
            changes[pos] = Change(pos, w.form, w.status, new)


def _with_case(word: str, form: str) -> str:
    """``word`` with the letter case of ``form`` (same letters)."""
    return "".join(f if a.lower() == f.lower() else a for a, f in zip(word, form)) if len(word) == len(form) else word



class Taught(Action):
    """A human action and everything the app learned from it: one undo step.

    ``do`` runs the human action, asks the learner what follows from its
    decisions and applies those changes as ``Status.LEARNED``; ``undo`` puts
    the learned words back first, then undoes the human action.
    """

    def __init__(self, human: Action, learner: Learner):
        self.human, self.learner = human, learner
        self.label = human.label
        self.cues = human.cues
        self.focus = human.focus
        self._changes: list[Change] = []
        self._styles_before: StyleMap = {}
        self._checks_before: dict = {}
        self._opening_before: set = set()
        self._support_before: dict = {}
        self._phrase_support_before: dict = {}
        self._rules_before: tuple[dict, dict, dict, dict] = ({}, {}, {}, {})

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        self._styles_before = dict(self.learner.styles)
        self._checks_before = dict(self.learner._checks)
        self._opening_before = set(self.learner._opening)
        self._support_before = dict(self.learner._support)
        self._phrase_support_before = dict(self.learner._phrase_support)
        self._rules_before = (dict(self.learner.rules), dict(self.learner.words), dict(self.learner.phrases),
                              {k: dict(v) for k, v in self.learner._seen.items()})
        decisions = self.human.do(doc, state)
        self.focus = self.human.focus
        if isinstance(self.human, EditText):
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
        self.learner.styles = dict(self._styles_before)
        self.learner._checks = dict(self._checks_before)
        self.learner._opening = set(self._opening_before)
        self.learner._support = dict(self._support_before)
        self.learner._phrase_support = dict(self._phrase_support_before)
        (self.learner.rules, self.learner.words, self.learner.phrases,
         self.learner._seen) = self._rules_before
        if isinstance(self.human, EditText):
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


__all__ = ["main_language", "make_learner", "Change", "Learner", "Taught", "Style", "sentence_initial"]
