"""What the app changes by itself after a human decision (review/learning/)."""

from __future__ import annotations

from dataclasses import dataclass

from .state import Pos, Status

# Words the learner may re-case: nobody reviewed them; a profile's change yields to
# what the editor teaches in this file.
OPEN = (Status.UNTOUCHED, Status.PROFILE)


@dataclass
class Change:
    pos: Pos
    before_form: str
    before_status: Status
    after_form: str
    raised: str | None = None  # only raised for review (the form stays), with this reason; "" lowers it again
    before_raised: str | None = None  # the word's reason before, for undo
    after_status: Status = Status.LEARNED  # a style put back returns its words to what they were
    ask: str | None = None  # a changed word also raised for review (a house-style check), with this reason
