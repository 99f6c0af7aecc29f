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

Each rule is a function of the learning step (``step.Step``) it raises words in.
"""

from __future__ import annotations

from subcase.casing import Tag, tag_of

from ..changes import OPEN, Change
from ..state import Pos, Status
from .step import Step

# Words this short stay lower case inside English titles and names ("for", "of", "the"): never raised.
SMALL_WORD = 3
# Without punctuation, a Title fix raises only the occurrences the model gives lower case less than this.
UNPUNCTUATED_SURE_LOWER = 0.99


def raise_at(step: Step, pos: Pos, why: str) -> None:
    """Put the word at ``pos`` on the review list with ``why``, unless a human decided it, this step
    already changes it, or it is on the list anyway.  A profile's word (``OPEN``) may be raised too:
    one it confirmed is off the list until then."""
    if pos in step.changes or pos in step.decided:
        return
    state = step.state
    w = state.word(pos)
    if w.status in OPEN and not w.needs_review(state.threshold):
        step.changes[pos] = Change(pos, w.form, w.status, w.form, raised=why)


def lower_raised(step: Step, lower: str) -> None:
    """The editor has now written the word two ways: the occurrences raised because of
    one of them go back to what their confidence says (a film's "station" fixed once to
    "Station" must not keep every other "station" on the review list)."""
    for other in step.layout.index.get(lower, ()):
        w = step.state.word(other)
        if (other in step.decided or other in step.changes or w.status not in OPEN
                or not (w.raised or "").startswith("you wrote ")):
            continue
        step.changes[other] = Change(other, w.form, w.status, w.form, raised="")


def raise_disagreeing(step: Step, pos: Pos, form: str, sure_lower: float | None = None) -> None:
    """Raise for review the other occurrences cased otherwise than the editor just wrote it
    (away from sentence starts; with "bigram", only where a neighbour matches too; with
    ``sure_lower``, only those the model gives lower case less than that probability)."""
    left, right = step.neighbours(pos)
    for other in step.layout.index.get(form.lower(), ()):
        if other == pos or step.layout.cats.get(other) is not None:
            continue
        w = step.state.word(other)
        if w.form == form or step.initial(other):
            continue
        if sure_lower is not None and w.probs is not None and w.probs[0] >= sure_lower:
            continue
        if step.settings.raise_disagreeing == "bigram":
            l2, r2 = step.neighbours(other)
            if not ((left is not None and l2 == left) or (right is not None and r2 == right)):
                continue
        raise_at(step, other, f"you wrote '{form}' in cue {pos[0] + 1}")


def raise_title_gaps(step: Step, pos: Pos) -> None:
    """Raise the lower-case words between a word just fixed to Title and the nearest Title word
    on either side in its cue, when the editor fixed that one to Title too, no more than
    ``raise_title_gaps`` words lie between and none starts a sentence.  Small words (three
    letters or fewer: "for", "of", "the") stay lower in a title and are left alone."""
    c, s = pos
    words = step.state.cues[c]
    for direction in (-1, 1):
        gap: list[int] = []
        k = s + direction
        while 0 <= k < len(words) and len(gap) <= step.settings.raise_title_gaps:
            if step.initial((c, k)) or (c, k) in step.layout.cats:
                break
            t = tag_of(words[k].form)
            if t is Tag.T and gap and words[k].status in (Status.CHANGED, Status.EDITED):
                a, b = sorted((s, k))  # in reading order
                why = f"between '{words[a].form}' and '{words[b].form}', which you capitalised: part of a title?"
                for g in gap:
                    if len(words[g].form) > SMALL_WORD:
                        raise_at(step, (c, g), why)
                break
            if t is not Tag.L:
                break
            gap.append(k)
            k += direction


def _may_be_title_word(step: Step, pos: Pos) -> bool:
    """A lower-case word longer than a small one, starting no sentence, outside sound cues and
    labels: one that a title or a name around it would capitalise."""
    form = step.state.word(pos).form
    return (tag_of(form) is Tag.L and len(form) > SMALL_WORD and not step.initial(pos)
            and pos not in step.layout.cats)


def raise_after_title(step: Step, pos: Pos) -> None:
    """Raise the lower-case word right after a word just fixed to Title, in its cue: a name the
    model missed one word of is often missing the next too ("Ichabod crane", "Mountain dew").
    Small words (three letters or fewer) are left alone, as between two Title fixes."""
    after = (pos[0], pos[1] + 1)
    if after[1] < len(step.state.cues[pos[0]]) and _may_be_title_word(step, after):
        raise_at(step, after, f"after '{step.state.word(pos).form}', which you capitalised: part of a name?")


def raise_quoted_title(step: Step, pos: Pos) -> None:
    """Raise the longer lower-case words of the quotation holding a word just fixed to Title:
    in English a quoted title capitalises its words ("Involving Users in Web Projects")."""
    why = f"in the same quotation as '{step.state.word(pos).form}', which you capitalised: a title?"
    for other in step.layout.quoted.get(pos, ()):
        if other != pos and _may_be_title_word(step, other):
            raise_at(step, other, why)


__all__ = ["SMALL_WORD", "UNPUNCTUATED_SURE_LOWER", "lower_raised", "raise_after_title", "raise_at",
           "raise_disagreeing", "raise_quoted_title", "raise_title_gaps"]
