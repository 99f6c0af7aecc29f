"""What the editor's fixes put back on the review list: words raised for review, never changed.

A fix is evidence about words the model was sure of, but often not enough to change them: the
word is raised (``Change.raised``, its form kept) with the reason the editor sees, and one undo
takes the raise back with the fix.  A raise is kept only where it finds errors for fewer visits
than moving the review threshold would (measured with ``subcase simulate-review``; the figures are
in docs/research/2026-11-24-learning-rules.md):

- the other occurrences of a fixed word cased otherwise (``raise_disagreeing``), lowered again
  once the editor has written the word both ways.  Not after a fix to Title of a word that opens a
  line, whose capital may be the line's (a song's "Get well soon / We wish you", a sentence whose
  full stop was left out).  In a file without sentence punctuation a fix to Title raises only the
  occurrences the model doubts (P(lower) under ``UNPUNCTUATED_SURE_LOWER``): a sentence start
  inside a cue looks like any other place there, so "you" fixed to "You" is the sentence's
  capital, and raising every sure "you", "the", "a" would send the editor to hundreds of right words;
- the longer lower-case words between two words the editor fixed to Title in one cue
  (``raise_title_gaps``): a title the model read as prose ("Web projects for better easier
  Accessibility");
- in English, the longer lower-case word right after a fix to Title (``raise_after_title``): the
  rest of a name the model missed ("Mountain dew", "Tower records").  Spanish, French, German and
  Portuguese names and titles do not capitalise every word, so ``learning.make_learner`` turns it
  off there;
- in English, after a fix to Title inside quotation marks, the longer lower-case words of the same
  quotation (``raise_quoted_titles``): a quoted title the model read as prose ("involving users in
  web projects for better, easier accessibility"); the other four languages capitalise a title's
  first word only;
- measured and left out: the words on each side of any change (see the research log).

A mixin of ``learning.Learner``, whose fields it uses (the ``raise_*`` settings, ``_index``,
``_cats``, ``_quoted``, ``initial``, ``neighbours``).
"""

from __future__ import annotations

from subcase.casing import Tag, tag_of
from subcase.casing.housestyle import Category
from subcase.subtitles import Document

from .changes import OPEN, Change
from .state import Pos, ReviewState, ReviewWord, Status

# Words this short stay lower case inside English titles and names ("for", "of", "the"): never raised.
SMALL_WORD = 3
# Without punctuation, a Title fix raises only the occurrences the model gives lower case less than this.
UNPUNCTUATED_SURE_LOWER = 0.99
# English quotation marks: a straight one opens or closes, a curly one says which.
QUOTE_MARKS = {'"': None, "\u201c": True, "\u201d": False}


def quoted_spans(doc: Document, state: ReviewState) -> dict[Pos, list[Pos]]:
    """Each word inside quotation marks, with the words of its quotation (one list shared by them
    all); a quotation ends with its cue, whether or not it is closed there."""
    out: dict[Pos, list[Pos]] = {}
    for c, cue in enumerate(doc.cues):
        quotation: list[Pos] | None = None  # the words of the open quotation
        slots = {w.start: s for s, w in enumerate(state.cues[c])}
        for t in cue.tokens():
            if t.text in QUOTE_MARKS:
                opens = QUOTE_MARKS[t.text]
                quotation = [] if (quotation is None if opens is None else opens) else None
            elif quotation is not None and t.is_word and t.start in slots:
                pos = (c, slots[t.start])
                quotation.append(pos)
                out[pos] = quotation
    return out


def pos_of(state: ReviewState, w: ReviewWord) -> Pos | None:
    """Where a decided word sits in ``state.cues`` now (cue, slot); None once its cue was re-read."""
    for s, x in enumerate(state.cues[w.cue_index]):
        if x.word_index == w.word_index:
            return (w.cue_index, s)
    return None


class RaisingRules:
    raise_disagreeing: str
    raise_title_gaps: int
    raise_after_title: bool
    raise_quoted_titles: bool
    _index: dict[str, list[Pos]]
    _cats: dict[Pos, Category]
    _quoted: dict[Pos, list[Pos]]

    def initial(self, pos: Pos) -> bool:
        raise NotImplementedError  # Learner's: whether the word starts a sentence

    def neighbours(self, state: ReviewState, pos: Pos) -> tuple[str | None, str | None]:
        raise NotImplementedError  # Learner's: the lowercased words on each side in the cue

    @staticmethod
    def _raise_at(state: ReviewState, pos: Pos, why: str, changes: dict[Pos, Change], decided: set[Pos]) -> None:
        """Put the word at ``pos`` on the review list with ``why``, unless a human decided it, this step
        already changes it, or it is on the list anyway.  A profile's word (``OPEN``) may be raised too:
        one it confirmed is off the list until then."""
        if pos in changes or pos in decided:
            return
        w = state.word(pos)
        if w.status in OPEN and not w.needs_review(state.threshold):
            changes[pos] = Change(pos, w.form, w.status, w.form, raised=why)

    def _lower_raised(self, state: ReviewState, lower: str, changes: dict[Pos, Change], decided: set[Pos]) -> None:
        """The editor has now written the word two ways: the occurrences raised because of
        one of them go back to what their confidence says (a film's "station" fixed once to
        "Station" must not keep every other "station" on the review list)."""
        for other in self._index.get(lower, ()):
            w = state.word(other)
            if (other in decided or other in changes or w.status not in OPEN
                    or not (w.raised or "").startswith("you wrote ")):
                continue
            changes[other] = Change(other, w.form, w.status, w.form, raised="")

    def _raise_disagreeing(self, state: ReviewState, pos: Pos, form: str, changes: dict[Pos, Change],
                           decided: set[Pos], sure_lower: float | None = None) -> None:
        """Raise for review the other occurrences cased otherwise than the editor just wrote it
        (away from sentence starts; with "bigram", only where a neighbour matches too; with
        ``sure_lower``, only those the model gives lower case less than that probability)."""
        left, right = self.neighbours(state, pos)
        for other in self._index.get(form.lower(), ()):
            if other == pos or self._cats.get(other) is not None:
                continue
            w = state.word(other)
            if w.form == form or self.initial(other):
                continue
            if sure_lower is not None and w.probs is not None and w.probs[0] >= sure_lower:
                continue
            if self.raise_disagreeing == "bigram":
                l2, r2 = self.neighbours(state, other)
                if not ((left is not None and l2 == left) or (right is not None and r2 == right)):
                    continue
            self._raise_at(state, other, f"you wrote '{form}' in cue {pos[0] + 1}", changes, decided)

    def _raise_title_gaps(self, state: ReviewState, pos: Pos, changes: dict[Pos, Change],
                          decided: set[Pos]) -> None:
        """Raise the lower-case words between a word just fixed to Title and the nearest Title word
        on either side in its cue, when the editor fixed that one to Title too, no more than
        ``raise_title_gaps`` words lie between and none starts a sentence.  Small words (three
        letters or fewer: "for", "of", "the") stay lower in a title and are left alone."""
        c, s = pos
        words = state.cues[c]
        for step in (-1, 1):
            gap: list[int] = []
            k = s + step
            while 0 <= k < len(words) and len(gap) <= self.raise_title_gaps:
                if self.initial((c, k)) or (c, k) in self._cats:
                    break
                t = tag_of(words[k].form)
                if t is Tag.T and gap and words[k].status in (Status.CHANGED, Status.EDITED):
                    a, b = sorted((s, k))  # in reading order
                    why = f"between '{words[a].form}' and '{words[b].form}', which you capitalised: part of a title?"
                    for g in gap:
                        if len(words[g].form) > SMALL_WORD:
                            self._raise_at(state, (c, g), why, changes, decided)
                    break
                if t is not Tag.L:
                    break
                gap.append(k)
                k += step

    def _may_be_title_word(self, state: ReviewState, pos: Pos) -> bool:
        """A lower-case word longer than a small one, starting no sentence, outside sound cues and
        labels: one that a title or a name around it would capitalise."""
        form = state.word(pos).form
        return (tag_of(form) is Tag.L and len(form) > SMALL_WORD and not self.initial(pos)
                and pos not in self._cats)

    def _raise_after_title(self, state: ReviewState, pos: Pos, changes: dict[Pos, Change],
                           decided: set[Pos]) -> None:
        """Raise the lower-case word right after a word just fixed to Title, in its cue: a name the
        model missed one word of is often missing the next too ("Ichabod crane", "Mountain dew").
        Small words (three letters or fewer) are left alone, as between two Title fixes."""
        after = (pos[0], pos[1] + 1)
        if after[1] < len(state.cues[pos[0]]) and self._may_be_title_word(state, after):
            self._raise_at(state, after, f"after '{state.word(pos).form}', which you capitalised: part of a name?",
                           changes, decided)

    def _raise_quoted_title(self, state: ReviewState, pos: Pos, changes: dict[Pos, Change],
                            decided: set[Pos]) -> None:
        """Raise the longer lower-case words of the quotation holding a word just fixed to Title:
        in English a quoted title capitalises its words ("Involving Users in Web Projects")."""
        why = f"in the same quotation as '{state.word(pos).form}', which you capitalised: a title?"
        for other in self._quoted.get(pos, ()):
            if other != pos and self._may_be_title_word(state, other):
                self._raise_at(state, other, why, changes, decided)
