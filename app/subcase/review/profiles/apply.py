"""Applying a profile to a file as it is opened.

The profile's entries re-case the words nobody has reviewed: house style
first, then whole phrases, then words between the same neighbours, then
word-wide forms.  Every word it changes gets ``Status.PROFILE`` ("from your
profile") and names the entry in its flag reasons.  A change from a word
entry (the series writes the word so everywhere) takes the word off the
review list; a change from a context or phrase entry, or a house style's name
guess, that the model doubted stays on it (``CHECK``): the series writes that
word both ways, and the model's doubt is evidence too.  (Measured on the W3C
talks: silently, ``of Web accessibility`` from two talks broke the tools
talk's ``of web accessibility``.)  A word a human reviewed (accepted,
changed, edited, or re-cased by what the editor taught here) is never touched.

Its review hints change no word.  A *confirm* takes a word off the review
list where the model doubts the very form the editor wrote in every earlier
file (it gets ``Status.PROFILE`` with its form unchanged: "confirmed by your
profile").  An *ask* raises for review a word the editor changed between the
same neighbours in an earlier file and the model writes otherwise: evidence
too thin to change a word is enough to show it.  No confirms in a file without
sentence punctuation: any word may start a sentence there.

In-file learning goes on as before and may re-case a profile's word (the
editor's fix in this file wins).  ``RemoveEntry`` takes one wrong entry out:
its words go back to the model's form and the entry is marked removed in the
profile; it is one undo step like any other action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from subcase.casing import TAGS, Tag, tag_of
from subcase.casing.housestyle import STYLE_TAG, Category, Style, plain_forms, style_form
from subcase.subtitles import Document

from ..actions import Action, Decision, TagWriter
from ..changes import OPEN
from ..logcontext import separators
from .profile import Profile, context_key
from ..state import Pos, ReviewState, ReviewWord, Status
from ..structure import Structure


CHECK = "the model was unsure here: check your profile's form"
# An ambiguous term (``apply_terms``) is left alone where the model is at least this sure of the ordinary word.
SURE_ORDINARY = 0.95


@dataclass
class ProfileApplication:
    """Which entry changed which word, for flag reasons, the GUI and removal."""

    profile: Profile
    by_pos: dict[Pos, str] = field(default_factory=dict)   # position -> entry id (changed or confirmed)
    before: dict[Pos, str] = field(default_factory=dict)   # position -> the form before the profile
    asked: dict[Pos, str] = field(default_factory=dict)    # position -> ask entry id (raised for review)

    def reason(self, pos: Pos) -> str | None:
        entry = self.by_pos.get(pos) or self.asked.get(pos)
        return self.profile.describe(entry) if entry is not None else None

    def counts(self) -> dict[str, int]:
        """Words changed, confirmed or asked per entry id."""
        out: dict[str, int] = {}
        for e in [*self.by_pos.values(), *self.asked.values()]:
            out[e] = out.get(e, 0) + 1
        return dict(sorted(out.items()))


def _with_case(word: str, form: str) -> str:
    return "".join(f if a.lower() == f.lower() else a for a, f in zip(word, form)) if len(word) == len(form) else word


def apply_profile(doc: Document, state: ReviewState, profile: Profile, write_tag: TagWriter,
                  is_rare: Callable[[str], bool] = lambda w: False, engine=None,
                  structure: Structure | None = None) -> ProfileApplication:
    """Re-case the unreviewed words of ``doc`` from ``profile``; returns what changed.

    ``is_rare``: a Title form applies word-wide only to a word the model barely
    knows (a name), as in-file learning does; ``engine`` lets house style keep
    the capitals of names inside sound cues (``plain_forms``); ``structure``: the document's, if the
    caller has it (review/structure.py)."""
    app = ProfileApplication(profile)
    layout = structure if structure is not None else Structure.compute(doc, state)
    initial, cats = layout.initial, layout.categories

    def change(pos: Pos, new: str, entry: str, check: bool = True) -> None:
        w = state.word(pos)
        if new == w.form or w.status not in OPEN or pos in app.by_pos:
            return
        if check and w.flagged(state.threshold):
            # The model doubted this word: the profile's form is put in, and the word stays
            # on the review list (a convention one talk keeps and the next does not).
            w.raised = CHECK
        app.before[pos] = w.form
        doc.recase(w.cue_index, [(w.start, w.end, new)])
        w.form = new
        w.status = Status.PROFILE
        app.by_pos[pos] = entry

    styles = profile.active_styles()
    if styles:
        chosen = {Category(c): Style(s) for c, s in styles.items() if s != "model"}
        mine = {p: c for p, c in cats.items() if c in chosen}
        plain = plain_forms(engine, state.cues, mine) if engine is not None and mine else {}
        for pos, cat in sorted(mine.items()):
            w = state.word(pos)
            new = style_form(w, chosen[cat], write_tag, plain.get(pos))
            # A style is sure of its category's case; a word it writes otherwise rests on a guess that
            # the word is a name ("(react)", a gloss, taken for the library React), so that one is
            # checked where the model doubted it.
            change(pos, new, profile.entry_id("style", cat.value), check=tag_of(new) is not STYLE_TAG[chosen[cat]])
            if (new == w.form and chosen[cat] is Style.UPPER and w.status is Status.UNTOUCHED and w.raised is None
                    and w.flagged(state.threshold)):
                # Written in the series' UPPER style already: settled, as a style learned in the file
                # settles its flagged words (review/learning/styles.py); in UPPER style the form says it all.
                app.before[pos] = w.form
                w.status = Status.PROFILE
                app.by_pos[pos] = profile.entry_id("style", cat.value)

    index: dict[str, list[Pos]] = {}
    for pos in state.positions():
        if pos not in cats:
            index.setdefault(state.word(pos).form.lower(), []).append(pos)

    terms = profile.active("term")
    if terms:
        apply_terms(state, terms, index, initial, is_rare, app, change)

    for key, e in sorted(profile.active("phrase").items(), key=lambda kv: -kv[0].count(" ")):  # longest first
        lowers = key.split(" ")
        forms = e.form.split(" ")
        for c, s in index.get(lowers[0], ()):
            words = state.cues[c]
            if s + len(lowers) > len(words) or [w.form.lower() for w in words[s:s + len(lowers)]] != lowers:
                continue
            if any((c, s + k) in cats for k in range(len(lowers))):
                continue
            for k, f in enumerate(forms):
                change((c, s + k), _with_case(words[s + k].form, f), profile.entry_id("phrase", key))

    contexts, asks = profile.active("context"), profile.active("ask")
    # Without sentence punctuation any word may start a sentence, and the model's doubt may be
    # about that, which no earlier file's evidence on the word answers: no confirms there.
    wide = profile.active("word")
    confirms = profile.active("confirm") if layout.punctuated else {}
    for lower, places in sorted(index.items()):
        for pos in places:
            if initial.get(pos, False) or pos in app.by_pos:
                continue
            c, s = pos
            words = state.cues[c]
            left = words[s - 1].form.lower() if s > 0 else ""
            right = words[s + 1].form.lower() if s + 1 < len(words) else ""
            sep = separators(doc.cues[c].text, words, s)
            key = context_key(left, sep[0], lower, sep[1], right)
            if key in contexts:
                change(pos, _with_case(words[s].form, contexts[key].form), profile.entry_id("context", key))
                continue
            anywhere = wide.get(lower)
            if anywhere is not None:
                t = tag_of(anywhere.form)
                if t in (Tag.U, Tag.M) or (t is Tag.T and is_rare(lower)):
                    # the series writes this word so wherever it was seen: no check needed
                    change(pos, _with_case(words[s].form, anywhere.form), profile.entry_id("word", lower), check=False)
                    continue
            # A lower-case confirm is no answer beside a capitalised word (part of a name: "the We Count
            # project" in a series whose other talks wrote "we" a hundred times): there the word stays
            # on the review list.  In the W3C symposium talks as a series: 57 -> 54 errors left for 90
            # more visits (still 8 more than without a profile, for 514 visits fewer).
            beside = [(k, words[k]) for k in (s - 1, s + 1) if 0 <= k < len(words)]
            if lower in confirms and tag_of(confirms[lower].form) is Tag.L and any(
                    tag_of(x.form) is not Tag.L and not initial.get((c, k), False) for k, x in beside):
                _hint(state, pos, key, lower, asks, {}, app)
                continue
            _hint(state, pos, key, lower, asks, confirms, app)
    return app


def apply_terms(state: ReviewState, terms: dict, index: dict[str, list[Pos]], initial: dict[Pos, bool],
                is_rare: Callable[[str], bool], app: ProfileApplication, change: Callable[..., None]) -> None:
    """The profile's imported terms (review/terms.py), longest first so that a phrase wins over its words.

    A term is *ambiguous* when every word it capitalises is one the model knows whole (not
    ``is_rare``) and is sure, somewhere in this file, is the ordinary lower-case word: "May" beside
    "you may", "US" beside "tell us", "Bill" beside "the bill".  Such a
    term is written only where the model reads the word so too (its tag's probability at least a
    half); it is left alone where the model is sure of the ordinary word (``SURE_ORDINARY``) and
    raised for review anywhere else, with a reason naming the list: a list cannot tell "in May"
    from "you may", and the model's context can, or knows that it cannot."""
    for key, e in sorted(terms.items(), key=lambda kv: (-kv[0].count(" "), kv[0])):
        lowers, forms = key.split(" "), e.form.split(" ")
        entry = app.profile.entry_id("term", key)
        ambiguous = all(not is_rare(x) and any(_p_lower(state.word(q)) >= SURE_ORDINARY for q in index.get(x, ()))
                        for x, f in zip(lowers, forms) if f != f.lower())
        for c, s in index.get(lowers[0], ()):
            words = state.cues[c]
            if s + len(lowers) > len(words) or [w.form.lower() for w in words[s:s + len(lowers)]] != lowers:
                continue
            places = [(c, s + k) for k in range(len(lowers))]
            if any(p in app.by_pos or p in app.asked or state.word(p).status not in OPEN for p in places):
                continue  # a longer term, or a human, decided these words already
            wanted = [(p, _with_case(state.word(p).form, f)) for p, f in zip(places, forms)
                      if not (initial.get(p, False) and f == f.lower())]  # a sentence start keeps its capital
            todo = [(p, f) for p, f in wanted if f != state.word(p).form]
            if not todo:
                continue
            if ambiguous:
                agree = [_term_prob(state.word(p), f) for p, f in todo]
                if all(a >= 0.5 for a in agree):
                    pass  # the context reads it as the term too
                elif all(_p_lower(state.word(p)) >= SURE_ORDINARY for p, _ in todo):
                    continue  # the context settles it: the ordinary word
                else:
                    why = (f"'{e.form}' is in the term list '{e.source}', and "
                           f"'{' '.join(lowers)}' is also an ordinary word: check")
                    for p, _ in todo:
                        w = state.word(p)
                        if w.status is Status.UNTOUCHED:
                            app.asked[p] = entry
                            w.raised = why
                    continue
            for p, f in todo:
                change(p, f, entry, check=False)


def _p_lower(w) -> float:
    return 0.0 if w.probs is None else w.probs[0]


def _term_prob(w, form: str) -> float:
    """The model's probability, at this word, of the tag that writes ``form``."""
    if w.probs is None:
        return 0.0
    return w.probs[TAGS.index(tag_of(form))]


def _hint(state: ReviewState, pos: Pos, key: str, lower: str, asks: dict, confirms: dict,
          app: ProfileApplication) -> None:
    """A review hint on an unchanged word: raise it (ask) or take it off the list (confirm)."""
    w = state.word(pos)
    if w.status is not Status.UNTOUCHED or w.probs is None:
        return
    ask = asks.get(key)
    if ask is not None and _with_case(w.form, ask.form) != w.form:
        entry = app.profile.entry_id("ask", key)
        app.asked[pos] = entry
        w.raised = app.profile.describe(entry)
        return
    confirm = confirms.get(lower)
    if confirm is not None and confirm.form == w.form and w.flagged(state.threshold) and w.raised is None:
        app.before[pos] = w.form
        w.status = Status.PROFILE  # decided by the profile, form unchanged: off the review list
        app.by_pos[pos] = app.profile.entry_id("confirm", lower)


def _word_at(state: ReviewState, pos: Pos) -> ReviewWord | None:
    """The word at ``pos``, or None where a text edit has left fewer words."""
    c, s = pos
    return state.cues[c][s] if 0 <= c < len(state.cues) and 0 <= s < len(state.cues[c]) else None


class RemoveEntry(Action):
    """Take one wrong profile entry out: its words that are still the profile's go back to
    their form before the profile, and the entry is marked removed.  Undo puts both back."""

    def __init__(self, app: ProfileApplication, entry_id: str, persist: Callable[[Profile], object] | None = None):
        # persist: writes the profile after each change (the GUI stores it; undo stores it back)
        self.app, self.entry_id, self.persist = app, entry_id, persist
        self.label = f"remove profile entry {entry_id.partition(':')[2]}"
        self._undo: list[tuple[Pos, str, str | None]] = []  # position, the profile's form, its check
        # asks taken back: position, the reason its word was raised with (None: it was not raised then)
        self._unasked: list[tuple[Pos, str | None]] = []
        self._was_removed = entry_id in app.profile.removed

    def do(self, doc: Document, state: ReviewState) -> list[Decision]:
        self._undo, self._unasked = [], []
        for pos, entry in sorted(self.app.asked.items()):
            if entry != self.entry_id:
                continue
            del self.app.asked[pos]
            w = _word_at(state, pos)
            reason = w.raised if w is not None and w.status is Status.UNTOUCHED else None
            self._unasked.append((pos, reason))  # every ask taken back, so that undo gives them all back
            if w is not None and reason is not None:
                w.raised = None
        for pos, entry in sorted(self.app.by_pos.items()):
            w = _word_at(state, pos)
            if entry != self.entry_id or w is None or w.status is not Status.PROFILE:
                continue  # a word the editor (or what they taught here) decided since keeps its form
            before = self.app.before[pos]
            if before.lower() != w.form.lower():
                continue  # a text edit moved another word into this place: not the profile's word
            self._undo.append((pos, w.form, w.raised))
            doc.recase(w.cue_index, [(w.start, w.end, before)])
            w.form, w.status, w.raised = before, Status.UNTOUCHED, None  # the model's form and flag again
            del self.app.by_pos[pos]
        self.app.profile.remove(self.entry_id)
        if self.persist is not None:
            self.persist(self.app.profile)
        touched = [u[0] for u in self._undo] + [p for p, _ in self._unasked]
        self.cues = tuple(sorted({p[0] for p in touched}))
        self.focus = min(touched) if touched else None
        return []

    def undo(self, doc: Document, state: ReviewState) -> None:
        for pos, reason in self._unasked:
            if reason is not None:
                state.word(pos).raised = reason
            self.app.asked[pos] = self.entry_id
        for pos, form, raised in reversed(self._undo):
            w = state.word(pos)
            doc.recase(w.cue_index, [(w.start, w.end, form)])
            w.form, w.status, w.raised = form, Status.PROFILE, raised
            self.app.by_pos[pos] = self.entry_id
        if not self._was_removed:
            self.app.profile.restore(self.entry_id)
            if self.persist is not None:
                self.persist(self.app.profile)


__all__ = ["ProfileApplication", "RemoveEntry", "apply_profile", "apply_terms"]
