"""Why a word is highlighted: human-readable reasons from the document, not one probability.

``flag_reasons(state, pos, ...)`` lists every piece of evidence that the word
may be wrong, for the GUI's details and tool tips:

- low confidence (the calibrated probability of the model's tag);
- the model cased the same word differently elsewhere in this file (away
  from sentence starts, where a capital is positional), naming the cue;
- a word the model's vocabulary does not hold whole (split into pieces);
- the lexicon knows a mixed-case form of it;
- its casing disagrees with what the session learned from the editor;
- it was re-cased by the app from what the editor taught.

What is highlighted (and so reviewed) is still the confidence threshold: on
the dev subtitles the document evidence measured no better than moving the
threshold (see the README, "Learning from every fix"), so it explains a
highlight and does not add one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .learning import Learner
from .state import Pos, ReviewState, Status

IsRare = Callable[[str], bool]


@dataclass
class FileEvidence:
    """Per-file facts the reasons read, computed once per document (and after a text edit)."""

    forms: dict[str, dict[str, int]] = field(default_factory=dict)  # lowercased word -> form -> first cue
    initial: dict[Pos, bool] = field(default_factory=dict)

    @classmethod
    def of(cls, state: ReviewState, initial: dict[Pos, bool]) -> FileEvidence:
        ev = cls(initial=initial)
        for pos in state.positions():
            if initial.get(pos, False):
                continue
            w = state.word(pos)
            ev.forms.setdefault(w.form.lower(), {}).setdefault(w.form, pos[0])
        return ev


def flag_reasons(state: ReviewState, pos: Pos, evidence: FileEvidence | None = None,
                 is_rare: IsRare | None = None, lexicon: dict[str, str] | None = None,
                 learner: Learner | None = None) -> list[str]:
    """Reasons, most telling first, why the word at ``pos`` may be cased wrong."""
    w = state.word(pos)
    out: list[str] = []
    if w.status is Status.LEARNED:
        out.append("changed by what you taught" if w.form != w.proposed else "confirmed by what you taught")
    if w.probs is not None and w.confidence < state.threshold:
        out.append(f"low confidence {w.confidence:.2f}")
    if w.raised is not None:
        out.append(w.raised)
    lower = w.form.lower()
    if learner is not None:
        ctx = learner.context(state, pos)
        taught = learner.rules.get(ctx) or learner.words.get(lower)
        if taught is not None and taught != w.form and w.status is not Status.LEARNED:
            out.append(f"you wrote it '{taught}' in the same context")
    if evidence is not None and not evidence.initial.get(pos, False):
        others = {f: c for f, c in evidence.forms.get(lower, {}).items() if f != w.form}
        if others:
            form, cue = min(others.items(), key=lambda fc: fc[1])
            out.append(f"cased differently in cue {cue + 1} ('{form}')")
    if lexicon is not None and lower in lexicon and lexicon[lower] != w.form:
        out.append(f"the lexicon knows it as '{lexicon[lower]}'")
    if is_rare is not None and w.probs is not None and is_rare(lower):
        out.append("a rare word to the model")
    return out
