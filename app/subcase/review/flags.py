"""Why a word is flagged, and which look it has: the review core's answer, not the GUI's.

``flag_reasons(state, pos)`` lists the evidence that puts a word on the
review list, as human-readable ``FlagReason`` objects.  Today the only
evidence is a confidence under the threshold; document-level evidence (the
same word cased differently elsewhere in the file, an unknown word, a
disagreement with what the editor taught) is added here as more reasons,
so every front end (the GUI's details panel, a simulated post-editor, a
report) shows the same "why" without computing it.

``look_of(word, threshold)`` names the state a word is drawn in.  The GUI
maps each ``Look`` to its colours and marker; the rules that decide it live
here, next to the statuses they read.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from .state import Status

if TYPE_CHECKING:
    from .state import Pos, ReviewState, ReviewWord


@dataclass(frozen=True, slots=True)
class FlagReason:
    code: str   # stable identifier, for filtering and tests: "low_confidence", ...
    text: str   # shown to the editor as it is

    def __str__(self) -> str:
        return self.text


def _pair(value: float, threshold: float) -> tuple[str, str]:
    """Both numbers with just enough decimals to show that value < threshold."""
    for digits in (2, 3, 4):
        a, b = f"{value:.{digits}f}", f"{threshold:.{digits}f}"
        if a != b:
            return a, b
    return f"{value:.4f}", f"{threshold:.4f}"


def low_confidence(word: ReviewWord, threshold: float) -> FlagReason | None:
    if not word.flagged(threshold):
        return None
    conf, thr = _pair(word.confidence, threshold)
    return FlagReason("low_confidence", f"low confidence {conf} (threshold {thr})")


def flag_reasons(state: ReviewState, pos: Pos) -> list[FlagReason]:
    """Every reason the word at ``pos`` is flagged, strongest first; [] when it is not.

    Reasons stay listed after the editor decided on the word, so the
    details panel can still say why it was shown.
    """
    word = state.word(pos)
    reasons: list[FlagReason] = []
    for check in (low_confidence,):
        reason = check(word, state.threshold)
        if reason is not None:
            reasons.append(reason)
    return reasons


class Look(str, Enum):
    PLAIN = "plain"        # nothing to show
    REVIEW = "review"      # flagged, no human decision yet
    ACCEPTED = "accepted"  # a human kept the proposed form
    CHANGED = "changed"    # a human picked another tag
    LEARNED = "learned"    # changed by the app from what the editor taught
    EDITED = "edited"      # typed by hand in an edited cue


_DECIDED = {Status.ACCEPTED: Look.ACCEPTED, Status.CHANGED: Look.CHANGED, Status.EDITED: Look.EDITED,
            Status.LEARNED: Look.LEARNED}


def look_of(word: ReviewWord, threshold: float) -> Look:
    """Called for every painted word on every repaint: no allocation, no method calls."""
    status = word.status
    if status is Status.UNTOUCHED:
        return Look.REVIEW if word.probs is not None and word.confidence < threshold else Look.PLAIN
    return _DECIDED[status]
