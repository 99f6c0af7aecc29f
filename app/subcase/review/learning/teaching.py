"""What one human decision teaches: the rules it adds to the drafted knowledge, and what they
change and raise at once (the rules themselves are described in the package docstring)."""

from __future__ import annotations

from subcase.casing import Tag, tag_of

from ..actions import Decision
from ..changes import OPEN
from ..state import Pos
from .applying import SURE_LOWER, apply_agreeing, apply_phrase, apply_rules, settle
from .knowledge import Context
from .raising import (UNPUNCTUATED_SURE_LOWER, lower_raised, raise_after_title, raise_disagreeing, raise_quoted_title,
                      raise_title_gaps)
from .step import Step
from .styles import learn_style


def teach(step: Step, pos: Pos, d: Decision) -> None:
    """Learn from the decision ``d`` on the word at ``pos`` and apply what it taught."""
    state, known, layout, settings = step.state, step.known, step.layout, step.settings
    w = state.word(pos)
    form = w.form
    # A change is evidence that the model was wrong here: accepting a profile's form the model
    # did not propose teaches as much as typing it.
    changed = d.final != d.before or (d.word is not None and d.final != d.word.proposed)
    cat = layout.cats.get(pos)
    if cat is not None:
        learn_style(step, pos, d, cat)
        return  # a word of a sound cue or label teaches its category's style, not a phrase
    if step.initial(pos):
        return  # a sentence start's capital is positional: no evidence about the word
    lower = form.lower()
    t = tag_of(form)
    if changed and t is not Tag.L and pos in layout.line_starts and not _intrinsic(step, lower, form, pos):
        # A capital given at a line or cue start the file does not mark as a sentence start (a full
        # stop left out, rolling captions) may be the position's, not the word's: it teaches only
        # line starts between the same neighbours, and nothing word-wide.
        at = step.context(pos)
        known.rules[at] = form if known.rules.get(at, form) == form else None
        _count(step, at, pos)
        known.opening.add(at)
        apply_rules(step, lower)
        return
    run = _run(step, pos)
    if len(run) >= 2 and changed:
        # A multi-word name or title is learned as a whole and applies only as a whole.
        words = tuple(state.word(p).form for p in run)
        left = step.neighbours(run[0])[0]
        right = step.neighbours(run[-1])[1]
        pkey = (left, *(x.lower() for x in words), right)
        known.phrases[pkey] = words
        known.phrase_support[pkey] = known.phrase_support.get(pkey, 0) + 1
        apply_phrase(step, left, words, right, pos[0],
                     thin=settings.thin_rules_raise and known.phrase_support[pkey] < 2)
    key: Context | None = step.context(pos) if len(run) < 2 or not changed else None
    if key is not None and changed and t is Tag.T and not layout.punctuated and not settings.is_rare(lower):
        # Without sentence punctuation a common word fixed to Title is most often a sentence start
        # the file does not mark ("all right That's it"): positional, so no context rule carries it
        # to the same words elsewhere ("all right, that's it"); the raises below still apply.  Nor does
        # the file's own "So" inside a cue make it intrinsic there: that may be a sentence start too.
        key = None
    if key is None:
        pass
    elif key in known.rules and known.rules[key] not in (form, None):
        known.rules[key] = None  # the editor wrote this context two ways: no rule
    elif changed:
        known.rules[key] = form
        _count(step, key, pos)
    # Word-level evidence: the forms the editor gave this word away from sentence starts.
    forms = known.count_form(lower, form)
    if len(forms) == 1 and ((changed or settings.settle_acronyms) and t in (Tag.U, Tag.M)
                            and (forms[form] >= settings.word_evidence or _intrinsic(step, lower, form, pos))
                            or (changed and t is Tag.T and forms[form] >= 2 and settings.is_rare(lower))):
        # UPPER/Mixed forms from their second decision, or at once where the file writes the word so
        # elsewhere too (accepted ones count, with settle_acronyms); a Title form only for a word the
        # model barely knows (a name), from its second fix: common words are Title only in titles.
        known.words[lower] = form
    elif len(forms) == 1 and changed and t in (Tag.U, Tag.M) and settings.word_evidence > 1:
        # One fix is thin evidence: carried only where the model reads the word as a name or
        # term too; the rest are raised for review (``raise_disagreeing`` below).
        apply_agreeing(step, lower, form)
    elif len(forms) > 1:
        known.words.pop(lower, None)
        if len(forms) == 2 and forms[form] == 1:
            lower_raised(step, lower)
    apply_rules(step, lower)
    if settings.settle_titles and layout.punctuated and t is Tag.T and len(forms) == 1 and forms[form] >= 2:
        settle(step, lower, form)
    if (changed and settings.raise_disagreeing and len(run) < 2  # not from titles: written both ways
            and not (t is Tag.T and pos in layout.line_starts)):  # a line's capital may be positional
        raise_disagreeing(step, pos, form, sure_lower=SURE_LOWER if t in (Tag.U, Tag.M) else
                          None if layout.punctuated else UNPUNCTUATED_SURE_LOWER)
    if changed and settings.raise_title_gaps and t is Tag.T:
        raise_title_gaps(step, pos)
    if changed and settings.raise_after_title and t is Tag.T:
        raise_after_title(step, pos)
    if changed and settings.raise_quoted_titles and t is Tag.T:
        raise_quoted_title(step, pos)


def _run(step: Step, pos: Pos) -> list[Pos]:
    """The capitalised run around ``pos`` in its cue (small lower words allowed inside)."""
    c, s = pos
    words = step.state.cues[c]
    if tag_of(words[s].form) is Tag.L:
        return [pos]

    def cap(k: int) -> bool:
        return tag_of(words[k].form) is not Tag.L

    lo = s
    while lo > 0 and (cap(lo - 1) or (len(words[lo - 1].form) <= 3 and lo > 1 and cap(lo - 2))):
        lo -= 1 if cap(lo - 1) else 2
    # A sentence start's capital is positional: it is no part of a name ("The Web").
    while lo < s and step.initial((c, lo)):
        lo += 1
    while lo < s and tag_of(words[lo].form) is Tag.L:
        lo += 1
    hi = s
    n = len(words)
    while hi + 1 < n and (cap(hi + 1) or (len(words[hi + 1].form) <= 3 and hi + 2 < n and cap(hi + 2))):
        hi += 1 if cap(hi + 1) else 2
    return [(c, k) for k in range(lo, hi + 1)]


def _count(step: Step, key: Context, pos: Pos) -> None:
    n, cue = step.known.support.get(key, (0, pos[0]))
    step.known.support[key] = (n + 1, cue)


def _intrinsic(step: Step, lower: str, form: str, pos: Pos) -> bool:
    """Whether the file writes the word ``form`` inside a sentence elsewhere (not at a sentence or line
    start, not in a sound cue or label), where a human decided it or the model is sure: then the
    form is the word's own (intrinsic), not its position's."""
    layout, state = step.layout, step.state
    for other in layout.index.get(lower, ()):
        if other == pos or step.initial(other) or other in layout.line_starts or other in layout.cats:
            continue
        w = state.word(other)
        if w.form == form and (w.status not in OPEN or not w.needs_review(state.threshold)):
            return True
    return False


__all__ = ["teach"]
