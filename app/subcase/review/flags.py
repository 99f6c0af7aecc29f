"""Why a word is flagged, and which look it has: the review core's answer, not the GUI's.

``flag_reasons(state, pos)`` lists the evidence that puts a word on the
review list, as human-readable ``FlagReason`` objects, strongest first:

- low confidence (the calibrated probability of the model's tag);
- raised by what the editor taught ("you wrote 'Web' in cue 12": another
  occurrence was fixed to a form this one does not have; review/learning/);
- its casing disagrees with a rule the session learned here;
- the model cased the same word differently elsewhere in this file (away
  from sentence starts, where a capital is positional), naming the cue;
- the lexicon knows a mixed-case form of it;
- a word the profile re-cased names the entry ("your profile writes this 'X'");
- a word the model's vocabulary does not hold whole (split into pieces);
- the first word of a cue after a silence, in a file without sentence
  punctuation (casing/pauses.py weighed the silence into its casing);
- the punctuation mark restored after it, when the head is unsure of it
  (under ``ReviewState.mark_threshold``).

A word the app re-cased from what the editor taught gets "changed by what
you taught" first, flagged or not.  The document-level reasons need the
file and the session's learner: the session puts them in
``state.flag_context`` (a ``FlagContext``); without it only the word's own
evidence is listed.  They explain a highlight and do not add one: measured
with ``subcase simulate-review``, a highlight fitted on them ranked errors no
better than the confidence alone (docs/research/2026-11-23-simulated-review.md).

``look_of(word, threshold)`` names the state a word is drawn in.  The GUI
maps each ``Look`` to its colours and marker; the rules that decide it live
here, next to the statuses they read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Callable, Mapping

from subcase.casing.marks import MARK_NAMES

from .state import Status
from .structure import DocumentStructure, Structure

if TYPE_CHECKING:
    from subcase.subtitles import Document

    from .learning import Learner
    from .profiles.apply import ProfileApplication
    from .state import Pos, ReviewState, ReviewWord


@dataclass(frozen=True, slots=True)
class FlagReason:
    code: str   # stable identifier, for filtering and tests: "low_confidence", ...
    text: str   # shown to the editor as it is

    def __str__(self) -> str:
        return self.text


@dataclass
class FlagContext:
    """What the document-level reasons read: the file, the session's learner, the model's lexicon."""

    doc: Document | None = None
    learner: Learner | None = None
    lexicon: Mapping[str, str] | None = None
    is_rare: Callable[[str], bool] | None = None
    profile: ProfileApplication | None = None  # the profile applied to the file
    # the session's (review/structure.py); one of its own for a context made without a session
    structure: DocumentStructure = field(default_factory=DocumentStructure, repr=False)

    def layout(self, state: ReviewState) -> Structure | None:
        """Where the words of the file sit, as they stand (None without a file)."""
        return self.structure.of(self.doc, state) if self.doc is not None else None

    def silence_before(self, state: ReviewState, cue: int) -> float | None:
        """Seconds of silence before ``cue`` where it makes the cue's first word a likelier sentence start
        (casing/pauses.py: a file without sentence punctuation), else None."""
        layout = self.layout(state)
        return layout.silences.get(cue) if layout is not None else None

    def initial(self, state: ReviewState, pos: Pos) -> bool:
        layout = self.layout(state)
        return layout is not None and layout.initial.get(pos, False)


def _pair(value: float, threshold: float) -> tuple[str, str]:
    """Both numbers with just enough decimals to show that value < threshold, and the threshold as the
    user set it (0.975, not 0.97 beside a box that says 0.975)."""
    own = len(f"{threshold:.4f}".rstrip("0").partition(".")[2])
    for digits in range(max(2, own), 5):
        a, b = f"{value:.{digits}f}", f"{threshold:.{digits}f}"
        if a != b:
            return a, b
    return f"{value:.4f}", f"{threshold:.4f}"


def low_confidence(word: ReviewWord, threshold: float) -> FlagReason | None:
    if word.probs is None or word.confidence >= threshold:
        return None
    conf, thr = _pair(word.confidence, threshold)
    return FlagReason("low_confidence", f"low confidence {conf} (threshold {thr})")


def _cased_differently(state: ReviewState, pos: Pos, ctx: FlagContext) -> FlagReason | None:
    """The first other cue where the same word (away from sentence starts) has another form."""
    layout = ctx.layout(state)
    if layout is None or layout.initial.get(pos, False):
        return None
    word = state.word(pos)
    for other in layout.index.get(word.form.lower(), ()):
        if other == pos or layout.initial.get(other, False):
            continue
        form = state.word(other).form
        if form != word.form:
            return FlagReason("cased_differently", f"cased differently in cue {other[0] + 1} ('{form}')")
    return None


def mark_confidence(word: ReviewWord, threshold: float) -> FlagReason | None:
    """The restored mark after the word, when the head is less sure of it than the mark threshold."""
    m = word.mark
    if m is None or m.confidence >= threshold:
        return None
    conf, thr = _pair(m.confidence, threshold)
    return FlagReason("mark_confidence", f"restored {MARK_NAMES[m.proposed]}: confidence {conf} "
                                         f"(mark threshold {thr})")


def flag_reasons(state: ReviewState, pos: Pos) -> list[FlagReason]:
    """Every reason the word at ``pos`` is flagged, strongest first; [] when it is not.

    Reasons stay listed after the editor decided on the word, so the
    details panel can still say why it was shown.  A doubtful mark restored
    after the word comes last.
    """
    reasons = _word_reasons(state, pos)
    mark = mark_confidence(state.word(pos), state.mark_threshold)
    return reasons + [mark] if mark is not None else reasons


def _word_reasons(state: ReviewState, pos: Pos) -> list[FlagReason]:
    word = state.word(pos)
    reasons: list[FlagReason] = []
    if word.status is Status.LEARNED:
        reasons.append(FlagReason("learned", "changed by what you taught" if word.form != word.proposed
                                  else "confirmed by what you taught"))
    elif word.status is Status.PROFILE:
        ctx0: FlagContext | None = getattr(state, "flag_context", None)
        why = ctx0.profile.reason(pos) if ctx0 is not None and ctx0.profile is not None else None
        reasons.append(FlagReason("profile", f"from your profile: {why}" if why else "from your profile"))
    elif not word.flagged(state.threshold):
        return reasons
    reason = low_confidence(word, state.threshold)
    if reason is not None:
        reasons.append(reason)
    if word.raised is not None:
        reasons.append(FlagReason("raised", word.raised))
    ctx: FlagContext | None = getattr(state, "flag_context", None)
    if ctx is None or word.probs is None:
        return reasons
    lower = word.form.lower()
    learner = ctx.learner
    if learner is not None and word.status is not Status.LEARNED:
        taught = learner.rules.get(learner.context(state, pos)) or learner.words.get(lower)
        if taught is not None and taught != word.form:
            reasons.append(FlagReason("taught", f"you wrote '{taught}' in the same context"))
    reason = _cased_differently(state, pos, ctx)
    if reason is not None:
        reasons.append(reason)
    if ctx.lexicon is not None and lower in ctx.lexicon and ctx.lexicon[lower] != word.form:
        reasons.append(FlagReason("lexicon", f"the lexicon knows it as '{ctx.lexicon[lower]}'"))
    if ctx.is_rare is not None and ctx.is_rare(lower):
        reasons.append(FlagReason("rare", "a rare word to the model"))
    silence = ctx.silence_before(state, pos[0]) if word.word_index == 0 else None
    if silence is not None:
        reasons.append(FlagReason("pause", f"after {silence:.1f} s of silence, a new sentence is likelier"))
    return reasons


class Look(str, Enum):
    PLAIN = "plain"        # nothing to show
    REVIEW = "review"      # flagged, no human decision yet
    ACCEPTED = "accepted"  # a human kept the proposed form
    CHANGED = "changed"    # a human picked another tag
    LEARNED = "learned"    # changed by the app from what the editor taught
    PROFILE = "profile"    # changed by the app from the file's profile (other files)
    EDITED = "edited"      # typed by hand in an edited cue


_DECIDED = {Status.ACCEPTED: Look.ACCEPTED, Status.CHANGED: Look.CHANGED, Status.EDITED: Look.EDITED,
            Status.LEARNED: Look.LEARNED, Status.PROFILE: Look.PROFILE}


def look_of(word: ReviewWord, threshold: float) -> Look:
    """Called for every painted word on every repaint: no allocation, no method calls."""
    status = word.status
    if status is Status.UNTOUCHED:
        return (Look.REVIEW if word.probs is not None and (word.confidence < threshold or word.raised is not None)
                else Look.PLAIN)
    if status is Status.LEARNED and word.raised is not None and word.probs is not None:
        return Look.REVIEW  # learned, and raised for a house-style check: still to review
    return _DECIDED[status]


def mark_look_of(word: ReviewWord, mark_threshold: float) -> Look | None:
    """The look of the mark restored after ``word`` (None: no mark was restored there): to review while the
    head is unsure of it and nobody decided, then accepted or changed; a sure, undecided mark is plain."""
    m = word.mark
    if m is None:
        return None
    if m.status is Status.UNTOUCHED:
        return Look.REVIEW if m.confidence < mark_threshold else Look.PLAIN
    return _DECIDED[m.status]
