"""The edit log: one JSON Lines record per human decision, never lost.

Every record is written, flushed and fsynced before the action returns, so a
crash (or a power cut) loses at most the decision being made.  Records are
only ever appended.  A reader skips a torn last line.

File naming (docs/reference/edit-log.md): ``<data dir>/edit-logs/<key>.jsonl``
where ``<key>`` is ``<subtitle file stem>.<first 12 hex digits of the sha256
of its absolute path>`` (see ``storage.file_key``), one log per opened file,
appended to across sessions; each record names its session.

The records are described by the typed dicts below (``DecisionRecord``,
``CausedGroup``, ``MarkRecord``, ``UndoRecord``, ``SavedRecord``, ``LearnedRecord``); each field
carries its description (``field_docs``), from which the reference page is made.
The log stays proportional to what the editor did: what the app re-cased
because of a decision is a list of word positions in that decision's record,
and a save names the file written (path and sha256), never a copy of it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Iterable, Mapping, TypedDict, get_type_hints

from subcase.errors import SubcaseError

from .storage import data_dir, file_key

EDITLOG_SCHEMA = 5
# Earlier schemas, still read (profiles.build.KNOWN_LOG_SCHEMAS):
# 2: one "learned" record per word the app changed, with "caused_by" (the seq of the human decision);
# 3: as 2, and word records carry "context"; "undoes" is one seq; "saved" holds the whole document.
# 4: what the app changed is listed in the causing decision ("caused"), one "undo" record per undo
#    ("undoes" is a list), and "saved" names the saved file by path and sha256 instead of holding it.
# 5: as 4, with the punctuation decisions ("accepted_mark", "changed_mark", ``MarkRecord``); a word re-cased
#    after a changed sentence end is listed in "caused" of the mark's record.


class RecordBase(TypedDict):
    """The fields every edit-log record has (schema 5)."""

    schema: Annotated[int, "Edit-log schema of this record: 5 (4, 3 and 2 are still read)."]
    seq: Annotated[int, "Unique, increasing number of the record; undo records and caused_by refer to it."]
    time: Annotated[str, "UTC time of the record, ISO 8601 with milliseconds."]
    session: Annotated[str, "Id of the editing session (one per opening of the file)."]
    file: Annotated[str, "Absolute path of the subtitle file under review."]
    action: Annotated[str, 'What happened: "accepted", "changed_tag", "edited_text", "accepted_mark", '
                           '"changed_mark", "learned", "undo", "saved".']
    cue_index: Annotated[int | None, "Index of the cue (0-based), or None for a record about the whole file."]
    cue_id: Annotated[str | None, "The cue's identifier as written in the file (SRT number, VTT id), if any."]
    app_version: Annotated[str, "subcase version that wrote the record."]
    model_version: Annotated[str, "Version of the casing model the file was cased with."]
    model_sha256: Annotated[str, "sha256 of that model file."]
    mode: Annotated[str, 'Casing mode of the file: "restore", "keep" or "caps".']
    language: Annotated[str | None, "Language of the cue, as detected or chosen, or None."]
    threshold: Annotated[float, "Review threshold at the time of the record."]


class WordContext(TypedDict):
    """Where a decided word stands, which is what a profile learns from."""

    left: Annotated[list[str], "Up to two words before it in the cue, as written there."]
    right: Annotated[list[str], "Up to two words after it in the cue."]
    sep: Annotated[list[str], 'What separates it from its neighbours, spaces left out, a line break as "/".']
    initial: Annotated[bool, "True if it starts a sentence (its capital is positional)."]
    category: Annotated[str | None, 'House-style category: "sound-cues", "speaker-labels" or None.']


class CausedGroup(TypedDict, total=False):
    """Words the app re-cased or settled because of one human decision, grouped by result."""

    status: Annotated[str, 'Review status the words got: "learned" (or the status a style put back restores); '
                           'for the word after a sentence end the editor added or took out, the status it kept.']
    tag: Annotated[str, 'Tag of their final form: "L" lower, "T" Title, "U" UPPER, "M" Mixed.']
    at: Annotated[list[list[int]], "[cue_index, word_index] of each word."]
    forms: Annotated[list[str], 'Final form of each word, in the order of "at"; only in a group of tag "M".']
    asked: Annotated[list[list[int]], "The subset of at that the app also raised for a check."]


class DecisionRecord(RecordBase, total=False):
    """A human decision on a word ("accepted", "changed_tag") or on a cue's text ("edited_text").

    For a whole-cue text edit the word fields are None and ``before``/``final`` are cue texts.
    """

    word_index: Annotated[int | None, "Index of the word among the cue's words."]
    start: Annotated[int | None, "Offset of the word in the cue text."]
    end: Annotated[int | None, "Offset just past the word."]
    input: Annotated[str | None, "The word as written in the opened file."]
    model_tag: Annotated[str | None, "The tag the model chose, or None for a word typed by hand."]
    model_probs: Annotated[dict[str, float] | None, "The model's probability of each tag."]
    confidence: Annotated[float | None, "The model's probability of its own tag."]
    proposed: Annotated[str | None, "The form casing put into the document."]
    before: Annotated[str, "The form (or cue text) before the decision."]
    final: Annotated[str, "The form (or cue text) after it."]
    final_tag: Annotated[str | None, "Tag of the final form."]
    context: Annotated[WordContext | None, "Where the word stands (only when a log is written)."]
    caused: Annotated[list[CausedGroup], "What the app changed because of this decision (learning from it)."]
    caused_count: Annotated[int, "How many words caused lists."]


class MarkRecord(RecordBase, total=False):
    """A human decision on the punctuation mark after a word: kept ("accepted_mark") or set ("changed_mark").

    ``before`` and ``final`` are marks: "" (none), ",", ".", "?" or "!".  When the change adds or takes out a
    sentence end, the word after it that the app re-cased is listed in ``caused``.
    """

    word_index: Annotated[int, "Index of the word among the cue's words (its last piece's mark, for a word "
                               "broken by inline tags, is recorded at its first piece)."]
    start: Annotated[int, "Offset of the word in the cue text."]
    end: Annotated[int, "Offset just past the word."]
    input: Annotated[str, "The word as written in the opened file."]
    word: Annotated[str, "The word's form at the time of the decision."]
    mark_proposed: Annotated[str | None, "The mark the punctuation head restored after the word, or None when it "
                                         "restored none there."]
    mark_probs: Annotated[dict[str, float] | None, 'The head\'s probability of each mark ("none", "comma", '
                                                   '"full stop", "question mark", "exclamation mark").']
    mark_confidence: Annotated[float | None, "The head's probability of the mark it restored."]
    before: Annotated[str, "The mark after the word before the decision."]
    final: Annotated[str, "The mark after it."]
    caused: Annotated[list[CausedGroup], "The word after it the app re-cased (a sentence end added or taken out)."]
    caused_count: Annotated[int, "How many words caused lists."]


class LearnedRecord(RecordBase):
    """What the app changed when no human decision of the action can carry it (rare)."""

    caused_by: Annotated[int | None, "seq of the decision that caused it, if any."]
    caused: Annotated[list[CausedGroup], "The words, as in a decision record."]
    caused_count: Annotated[int, "How many words caused lists."]


class UndoRecord(RecordBase):
    """One undo step: every record it takes back, with what they caused."""

    undoes: Annotated[list[int], "seq of each record undone (schema 3: a single int per undo record)."]


class SavedRecord(RecordBase, total=False):
    """The document was saved.  A profile reads the saved file back from disk."""

    saved_to: Annotated[str, "Absolute path of the file written."]
    saved_format: Annotated[str, 'Its format, a name of the format registry: "srt", "vtt", "ass".']
    saved_sha256: Annotated[str, "sha256 of the bytes written; a profile reads the file only if it still matches."]
    saved_bytes: Annotated[int, "Size of the file written."]


# Any record the log holds, as written (review/session.py builds each from its type, checked by mypy).
EditRecord = DecisionRecord | MarkRecord | LearnedRecord | UndoRecord | SavedRecord

RECORD_TYPES: dict[str, type] = {"accepted": DecisionRecord, "changed_tag": DecisionRecord,
                                 "edited_text": DecisionRecord, "accepted_mark": MarkRecord,
                                 "changed_mark": MarkRecord, "learned": LearnedRecord, "undo": UndoRecord,
                                 "saved": SavedRecord}


def field_docs(record_type: type) -> list[tuple[str, str, str]]:
    """(field, type, description) of every field of a record type, for the reference docs."""
    hints = get_type_hints(record_type, include_extras=True)
    out = []
    for name, hint in hints.items():
        meta = getattr(hint, "__metadata__", ("",))
        base = getattr(hint, "__origin__", hint)
        shown = base.__name__ if type(base) is type else str(base).replace("typing.", "")
        out.append((name, shown.replace(f"{__name__}.", ""), str(meta[0])))
    return out


def log_dir() -> Path:
    return data_dir() / "edit-logs"


def log_path_for(source: Path) -> Path:
    return log_dir() / f"{file_key(source)}.jsonl"


class EditLogError(SubcaseError):
    """The edit log cannot be created or written; ``path`` is the log file.

    Never swallowed: the session rolls back the decision it could not log and
    the editor asks the user what to do (docs/reference/edit-log.md).
    """


class EditLog:
    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Binary append: one write() per batch, no newline translation.
            self._f = open(self.path, "ab", buffering=0)
        except OSError as exc:
            raise EditLogError(f"cannot create the edit log: {exc.strerror or exc}", self.path) from None

    def append(self, records: Iterable[Mapping[str, object]]) -> None:
        """Write records and fsync; EditLogError if they are not all on disk.

        On failure the file is cut back to where it was, so a half-written
        record (a full disk accepts part of a write) cannot fuse with the next
        one into an unreadable line.
        """
        data = b"".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"
                        for r in records)
        if not data:
            return
        fd = self._f.fileno()
        try:
            start = os.fstat(fd).st_size
        except OSError as exc:
            raise EditLogError(f"cannot write the edit log: {exc.strerror or exc}", self.path) from None
        try:
            view = memoryview(data)
            while view:  # an unbuffered write may be partial
                n = self._f.write(view)
                if not n:
                    raise OSError(28, os.strerror(28))
                view = view[n:]
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass  # the reader still skips a torn line; the caller is told either way
            raise EditLogError(f"cannot write the edit log: {exc.strerror or exc}", self.path) from None

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()

    def __enter__(self) -> EditLog:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def read_records(path: Path) -> list[dict]:
    """All complete records of a log; a torn last line (crash mid-write) is skipped."""
    out = []
    with open(path, "rb") as f:
        for line in f:
            if not line.endswith(b"\n"):
                break
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out
