"""How what was taught is applied: the unreviewed words it re-cases or settles in one learning step.

Each function adds ``Change``s to the step (``step.Step``) and never touches a word a human
decided, one this step already changes, or a word of a sound cue or speaker label (those follow
the house style, ``styles``).  A rule taught by one fix is thin evidence: where it would change a
word the model is sure of, the word is raised for review instead (``Change.raised``).
"""

from __future__ import annotations

from subcase.casing import Tag, tag_of

from ..changes import OPEN, Change
from .step import Step

# A word-wide UPPER form is not written over an occurrence the model is sure is lower case: an
# ordinary word the editor wrote in capitals was a sound cue or a shout ("[KNOCKING ON DOOR]"), not an
# acronym.  ``raise_sure_phrases`` does the same for learned phrases.  0.95 rather than 0.99: it
# also keeps sound-cue words the model is a little less sure of, for about one more visit
# (docs/research/2026-11-24-learning-rules.md).
SURE_LOWER = 0.95


def with_case(word: str, form: str) -> str:
    """``word`` with the letter case of ``form`` (same letters)."""
    return "".join(f if a.lower() == f.lower() else a for a, f in zip(word, form)) if len(word) == len(form) else word


def apply_agreeing(step: Step, lower: str, form: str) -> None:
    """One fix's UPPER or Mixed form, carried to the occurrences inside sentences where the model
    too reads the word as capitalised (P(lower) under a half): the context agrees."""
    layout = step.layout
    for other in layout.index.get(lower, ()):
        w = step.state.word(other)
        if (other in step.decided or other in step.changes or w.status not in OPEN or other in layout.cats
                or step.initial(other) or other in layout.line_starts
                or w.probs is None or w.probs[0] >= 0.5):
            continue
        new = with_case(w.form, form)
        if new != w.form:
            step.changes[other] = Change(other, w.form, w.status, new)


def apply_phrase(step: Step, left: str | None, forms: tuple[str, ...], right: str | None, cue: int,
                 thin: bool = False) -> None:
    """Re-case a phrase where it appears whole between the same neighbours (taught in ``cue``).

    With ``raise_sure_phrases`` (on) a word the model is sure is lower case (``SURE_LOWER``) is
    raised for review instead: a phrase written both ways in one file (a talk writes the spoken
    command "Place order." twice and then "Place Order."; the fix of the third had capitalised the
    first two) is never broken, and a repeated title the model is sure is prose ("Easy Checks")
    costs the editor a visit per repeat instead of nothing
    (docs/research/2026-11-23-simulated-review.md)."""
    state, changes = step.state, step.changes
    lowers = [f.lower() for f in forms]
    for start in step.layout.index.get(lowers[0], ()):
        c, s = start
        words = state.cues[c]
        if s + len(lowers) > len(words) or [w.form.lower() for w in words[s:s + len(lowers)]] != lowers:
            continue
        if (step.neighbours(start)[0], step.neighbours((c, s + len(lowers) - 1))[1]) != (left, right):
            continue
        for k, f in enumerate(forms):
            pos = (c, s + k)
            w = words[s + k]
            if pos in step.decided or w.status not in OPEN or step.layout.cats.get(pos) is not None:
                continue
            if k == 0 and step.initial(pos) and tag_of(f) is Tag.L:
                continue
            new = with_case(w.form, f)
            if (thin and new != w.form and not w.needs_review(state.threshold)) or (
                    step.settings.raise_sure_phrases and new != w.form and new != new.lower() and w.probs is not None
                    and w.probs[0] >= SURE_LOWER):
                if not w.needs_review(state.threshold):
                    changes[pos] = Change(pos, w.form, w.status, w.form,
                                          raised=f"you wrote '{' '.join(forms)}' in cue {cue + 1}")
                continue
            if new != w.form:
                changes[pos] = Change(pos, w.form, w.status, new)


def settle(step: Step, lower: str, form: str) -> None:
    """Take off the review list the occurrences of the word written ``form`` already, away from sentence
    starts and outside sound cues and labels (their form is kept; Status.LEARNED, undone with the fix)."""
    state = step.state
    for pos in step.layout.index.get(lower, ()):
        w = state.word(pos)
        if (pos in step.decided or pos in step.changes or w.status not in OPEN
                or step.layout.cats.get(pos) is not None
                or step.initial(pos) or w.form != form or not w.needs_review(state.threshold)):
            continue
        step.changes[pos] = Change(pos, w.form, w.status, w.form)


def apply_rules(step: Step, lower: str) -> None:
    """The context rules and the word-wide form of ``lower``, applied to its unreviewed occurrences."""
    state, known, layout, settings = step.state, step.known, step.layout, step.settings
    anywhere = known.words.get(lower)
    centre = settings.width
    if anywhere is None and not any(len(ctx) > centre and ctx[centre] == lower for ctx in known.rules):
        return  # nothing taught for this word: no occurrence of it changes (one look at each, on a long file)
    for pos in layout.index.get(lower, ()):
        if pos in step.decided or layout.cats.get(pos) is not None:
            continue
        w = state.word(pos)
        if w.status not in OPEN:
            continue  # never touch what a human reviewed (or what was already learned)
        ctx = step.context(pos)
        if ctx in known.opening and pos not in layout.line_starts:
            continue  # taught at a line start: a capital there may be the position's
        form = known.rules.get(ctx)
        if form is None and ctx not in known.rules and anywhere is not None:
            if tag_of(anywhere) is Tag.U and w.probs is not None and w.probs[0] >= SURE_LOWER:
                continue  # the model is sure this one is lower case: see SURE_LOWER
            form = anywhere
        if form is None:
            continue
        if step.initial(pos) and tag_of(form) in (Tag.L, Tag.T):
            continue  # a sentence start's capital is positional: neither lowered nor "learned"
        new = with_case(w.form, form)
        support = known.support.get(ctx)
        if (settings.thin_rules_raise and form is not anywhere and support is not None and support[0] < 2
                and new != w.form):
            if not w.needs_review(state.threshold):
                step.changes[pos] = Change(pos, w.form, w.status, w.form,
                                           raised=f"you wrote '{form}' between the same words in cue {support[1] + 1}")
            continue
        settles = form is anywhere and settings.settle_acronyms and tag_of(form) in (Tag.U, Tag.M)
        if new == w.form and not (settles and w.needs_review(state.threshold)):
            continue
        step.changes[pos] = Change(pos, w.form, w.status, new)


__all__ = ["SURE_LOWER", "apply_agreeing", "apply_phrase", "apply_rules", "settle", "with_case"]
