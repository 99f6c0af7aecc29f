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

A mixin of ``learning.Learner``, whose fields it uses (``styles``, ``_checks``, ``_cats``,
``_plain``, ``plain``, ``write_tag``, ``check_styles``, ``settle_styled``).
"""

from __future__ import annotations

from typing import Callable

from subcase.casing import Tag, tag_of
from subcase.casing.housestyle import NAME_DOUBT, Category, Style, StyleMap, style_form, style_of_fix

from .actions import Decision, TagWriter
from .changes import OPEN, Change
from .state import Pos, ReviewState, Status

_CATEGORY_NAMES = {Category.SOUND: "sound cues", Category.LABEL: "speaker labels"}


class HouseStyleLearning:
    styles: StyleMap
    write_tag: TagWriter
    check_styles: bool
    settle_styled: bool
    plain: Callable[[list, dict], dict[Pos, tuple[str, float]]] | None
    _plain: dict[Pos, tuple[str, float]] | None
    _cats: dict[Pos, Category]
    _checks: dict[Category, tuple[Style, int, set[Pos], dict[Pos, tuple[str, Status, str]]]]

    def _learn_style(self, state: ReviewState, pos: Pos, d: Decision, cat: Category, changes: dict[Pos, Change],
                     decided: set[Pos]) -> None:
        """A decision inside a sound cue or speaker label: it may settle a check or set the style."""
        w = state.word(pos)
        if cat in self._checks:
            self._settle_check(state, pos, d, cat, changes)
        elif d.final != d.before and cat not in self.styles and d.final != w.proposed:
            # (putting back the model's own form undoes an app's change, a profile's: it shows
            # no style of the file)
            style = style_of_fix(w, d.before, w.form, cat, first=self._cats.get((pos[0], pos[1] - 1)) != cat)
            if style is not None:
                self.styles[cat] = style
                self._restyle(state, cat, changes, decided, origin=pos[0])

    def _restyle(self, state: ReviewState, cat: Category, changes: dict[Pos, Change], decided: set[Pos],
                 origin: int | None = None) -> None:
        style = self.styles[cat]
        if self._plain is None and self.plain is not None:
            self._plain = self.plain(state.cues, self._cats)
        plain = {pos: form for pos, (form, _) in (self._plain or {}).items()}
        done: dict[Pos, tuple[str, Status, str]] = {}
        for pos, c in self._cats.items():
            if c != cat or pos in decided:
                continue
            w = state.word(pos)
            if w.status not in OPEN:
                continue
            new = style_form(w, style, self.write_tag, plain.get(pos))
            if new != w.form:
                changes[pos] = Change(pos, w.form, w.status, new)
                done[pos] = (w.form, w.status, new)
            elif self.settle_styled and self._settles(state, pos, cat, style):
                changes[pos] = Change(pos, w.form, w.status, w.form)  # kept as it is, off the review list
                done[pos] = (w.form, w.status, w.form)
        # Only an ordinary word can check a style: a name ("[Redis]") keeps its capital in
        # Title and lower style alike, so keeping it says nothing about the file's style.  So a
        # check word is one the model, casing the cue as a plain sentence, is sure is lower case:
        # a name it barely knows comes out lower there too (Portuguese "(Redis)", kept as
        # "Redis", confirmed Title style for every parenthesis of a talk).
        restyled = [pos for pos, (before, _, after) in done.items() if before != after]
        ordinary = {pos for pos in restyled if self._ordinary(pos)
                    or (self._plain is None and tag_of(done[pos][0].lower()) is Tag.L)}
        if origin is None or not self.check_styles or not ordinary:
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
        self._checks[cat] = (style, origin, ordinary, done)

    def _settles(self, state: ReviewState, pos: Pos, cat: Category, style: Style) -> bool:
        """Whether the learned ``style`` settles a flagged word of its category that it leaves as it is.

        In UPPER style every word is written in capitals, names too, so the word's form says it all.
        In lower and Title style a name keeps its capital, so only an ordinary word counts (one the
        model, casing the cue as a plain sentence, is sure is lower case), and in lower style not a
        cue's first word, which a file that writes its sound cues as sentences capitalises
        ("[Screen reader voicing]": settled lower, it was left wrong in a dev file)."""
        w = state.word(pos)
        if w.status is not Status.UNTOUCHED or not w.needs_review(state.threshold) or w.raised is not None:
            return False
        if style is Style.UPPER:
            return True
        if style is Style.LOWER and self._cats.get((pos[0], pos[1] - 1)) != cat:
            return False
        return self._ordinary(pos)

    def _ordinary(self, pos: Pos) -> bool:
        """Whether the model, casing the word's cue as a plain sentence, is sure it is lower case: an
        ordinary word, not a name."""
        plain = (self._plain or {}).get(pos)
        return plain is not None and tag_of(plain[0]) is Tag.L and plain[1] >= 1 - NAME_DOUBT

    def _settle_check(self, state: ReviewState, pos: Pos, d: Decision, cat: Category,
                      changes: dict[Pos, Change]) -> None:
        """A decision on a word the unchecked style changed, outside the fix's own cue, settles it."""
        style, origin, ordinary, done = self._checks[cat]
        if pos not in ordinary or pos[0] == origin:
            return
        del self._checks[cat]
        if d.final == done[pos][2]:  # kept as the style wrote it: the file is written this way
            for other in done:
                w = state.word(other)
                if other != pos and w.raised is not None and w.raised.startswith("check: "):
                    changes[other] = Change(other, w.form, w.status, w.form, raised="")
            return
        # Put back: this file writes the category more than one way.  Every word the style
        # changed and nobody has decided since returns to its form and status before it.
        self.styles[cat] = Style.MODEL
        for other, (before, status, after) in done.items():
            w = state.word(other)
            if other == pos or w.status is not Status.LEARNED or w.form != after:
                continue
            changes[other] = Change(other, w.form, w.status, before, after_status=status)


__all__ = ["HouseStyleLearning"]
