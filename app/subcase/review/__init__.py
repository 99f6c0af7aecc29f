"""The review core: what the post-editor decided, word by word, with no Qt.

- ``state``: every cased word with its model tag, confidence and review status, and
  the punctuation mark restored after it (``MarkReview``), if any.
- ``actions``: undoable edits (set tag, accept, accept cue, accept mark, edit text, set mark) on a
  document and its review state; the GUI wraps each in a QUndoCommand.
- ``session``: runs actions, writes one edit-log record per human decision.
- ``flags``: why a word is flagged (human-readable reasons) and which look it has.
- ``editlog``: the append-only JSON Lines log (versioned schema).
- ``autosave``: crash-recovery snapshots of an unsaved review.
- ``opening``: the one way a review is opened (``open_review`` with ``OpenOptions``).
"""

from .actions import Accept, AcceptCue, AcceptMark, Action, EditText, SetMark, SetTag
from .flags import FlagReason, Look, flag_reasons, look_of, mark_look_of
from .editlog import EDITLOG_SCHEMA, EditLog, EditLogError, log_path_for, read_records
from .opening import OpenOptions, open_review
from .session import ReviewSession
from .state import MARK_THRESHOLD, MarkReview, ReviewState, ReviewWord, Status
from .storage import data_dir

__all__ = [
    "Accept", "AcceptCue", "AcceptMark", "FlagReason", "Look", "flag_reasons", "look_of", "Action", "EditText", "SetMark", "SetTag", "EDITLOG_SCHEMA", "EditLog", "EditLogError", "log_path_for",
    "read_records", "ReviewSession", "ReviewState", "ReviewWord", "Status", "data_dir", "MARK_THRESHOLD", "MarkReview",
    "mark_look_of", "OpenOptions", "open_review",
]
