"""House style learned from the editor's fixes in sound cues and speaker labels, and its check.

The first fix inside a category (casing/housestyle.py) sets its style for the file and every
unreviewed word of the category is restyled; a flagged word it leaves as it is (already written
that way) is settled too, off the review list ("confirmed by what you taught", ``_settles``).
One fix can mislead: a file may write its on-screen text "(DEADLINE)" in capitals and its
descriptions "(both scream)" in lower case, and one fix in the first would put every
description in capitals, unseen.  So the ordinary
words (not names) of the next restyled cue are also raised for a check; the editor's decision
there settles it: kept, the style stands; put back, every word the style changed goes back
to what it was and the category is left to the model.  Measured on the multilingual dev
files (docs/research/2026-11-23-simulated-review.md).

The learned styles and their checks are part of the knowledge (``knowledge.Knowledge``:
``styles``, ``checks``); each function here is one part of a learning step (``step.Step``).
"""

from __future__ import annotations

from subcase.casing import Tag, tag_of
from subcase.casing.housestyle import NAME_DOUBT, Category, Style, style_form, style_of_fix

from ..actions import Decision
from ..changes import OPEN, Change
from ..state import Pos, Status
from .knowledge import StyleCheck
from .step import Step

_CATEGORY_NAMES = {Category.SOUND: "sound cues", Category.LABEL: "speaker labels"}


def learn_style(step: Step, pos: Pos, d: Decision, cat: Category) -> None:
    """A decision inside a sound cue or speaker label: it may settle a check or set the style."""
    w = step.state.word(pos)
    known = step.known
    if cat in known.checks:
        _settle_check(step, pos, d, cat)
    elif d.final != d.before and cat not in known.styles and d.final != w.proposed:
        # (putting back the model's own form undoes an app's change, a profile's: it shows
        # no style of the file)
        style = style_of_fix(w, d.before, w.form, cat, first=step.layout.cats.get((pos[0], pos[1] - 1)) != cat)
        if style is not None:
            known.styles[cat] = style
            restyle(step, cat, origin=pos[0])


def restyle(step: Step, cat: Category, origin: int | None = None) -> None:
    state, changes, decided, settings = step.state, step.changes, step.decided, step.settings
    style = step.known.styles[cat]
    plain_cased = step.layout.plain(settings.plain)
    plain = {pos: form for pos, (form, _) in (plain_cased or {}).items()}
    done: dict[Pos, tuple[str, Status, str]] = {}
    for pos, c in step.layout.cats.items():
        if c != cat or pos in decided:
            continue
        w = state.word(pos)
        if w.status not in OPEN:
            continue
        new = style_form(w, style, settings.write_tag, plain.get(pos))
        if new != w.form:
            changes[pos] = Change(pos, w.form, w.status, new)
            done[pos] = (w.form, w.status, new)
        elif settings.settle_styled and _settles(step, pos, cat, style):
            changes[pos] = Change(pos, w.form, w.status, w.form)  # kept as it is, off the review list
            done[pos] = (w.form, w.status, w.form)
    # Only an ordinary word can check a style: a name ("[Redis]") keeps its capital in
    # Title and lower style alike, so keeping it says nothing about the file's style.  So a
    # check word is one the model, casing the cue as a plain sentence, is sure is lower case:
    # a name it barely knows comes out lower there too (Portuguese "(Redis)", kept as
    # "Redis", confirmed Title style for every parenthesis of a talk).
    restyled = [pos for pos, (before, _, after) in done.items() if before != after]
    ordinary = {pos for pos in restyled if _ordinary(step, pos)
                or (plain_cased is None and tag_of(done[pos][0].lower()) is Tag.L)}
    if origin is None or not settings.check_styles or not ordinary:
        return
    # The check: the first cue after the fix (reading order, wrapping round) whose ordinary
    # words were restyled has them raised for review too, so the editor's next stop in the
    # category says whether the whole file is written this way.  A cue of two such words or
    # more goes first: a lone word in brackets is often a name the model barely knows, which
    # a plain sentence writes in lower case ("(Redis)" after "(que significa Servidor de
    # Dicionário Remoto)"), and keeping its capital says nothing about the style.
    per_cue: dict[int, int] = {}
    for p in ordinary:
        per_cue[p[0]] = per_cue.get(p[0], 0) + 1
    cues = sorted(c for c, k in per_cue.items() if k >= 2) or sorted(per_cue)
    check = next((c for c in cues if c > origin), cues[0])
    why = f"check: your fix in cue {origin + 1} restyled the {_CATEGORY_NAMES[cat]} ({style.value})"
    for pos in ordinary:
        if pos[0] == check:
            changes[pos].ask = why
    step.known.checks[cat] = StyleCheck(style, origin, frozenset(ordinary), done)


def _settles(step: Step, pos: Pos, cat: Category, style: Style) -> bool:
    """Whether the learned ``style`` settles a flagged word of its category that it leaves as it is.

    In UPPER style every word is written in capitals, names too, so the word's form says it all.
    In lower and Title style a name keeps its capital, so only an ordinary word counts (one the
    model, casing the cue as a plain sentence, is sure is lower case), and in lower style not a
    cue's first word, which a file that writes its sound cues as sentences capitalises
    ("[Screen reader voicing]": settled lower, it was left wrong in a dev file)."""
    state = step.state
    w = state.word(pos)
    if w.status is not Status.UNTOUCHED or not w.needs_review(state.threshold) or w.raised is not None:
        return False
    if style is Style.UPPER:
        return True
    if style is Style.LOWER and step.layout.cats.get((pos[0], pos[1] - 1)) != cat:
        return False
    return _ordinary(step, pos)


def _ordinary(step: Step, pos: Pos) -> bool:
    """Whether the model, casing the word's cue as a plain sentence, is sure it is lower case: an
    ordinary word, not a name."""
    plain = (step.layout.plain(step.settings.plain) or {}).get(pos)
    return plain is not None and tag_of(plain[0]) is Tag.L and plain[1] >= 1 - NAME_DOUBT


def _settle_check(step: Step, pos: Pos, d: Decision, cat: Category) -> None:
    """A decision on a word the unchecked style changed, outside the fix's own cue, settles it."""
    state, changes, known = step.state, step.changes, step.known
    style, origin, ordinary, done = known.checks[cat]
    if pos not in ordinary or pos[0] == origin:
        return
    del known.checks[cat]
    if d.final == done[pos][2]:  # kept as the style wrote it: the file is written this way
        for other in done:
            w = state.word(other)
            if other != pos and w.raised is not None and w.raised.startswith("check: "):
                changes[other] = Change(other, w.form, w.status, w.form, raised="")
        return
    # Put back: this file writes the category more than one way.  Every word the style
    # changed and nobody has decided since returns to its form and status before it.
    known.styles[cat] = Style.MODEL
    for other, (before, status, after) in done.items():
        w = state.word(other)
        if other == pos or w.status is not Status.LEARNED or w.form != after:
            continue
        changes[other] = Change(other, w.form, w.status, before, after_status=status)


__all__ = ["learn_style", "restyle"]
