"""A review session: one document, its review state, and its edit log.

The session is the only place that runs actions, so every human decision
passes through ``_log`` and reaches the disk before the UI moves on.  It also
saves the document (``save``): the edit log records it, and the session
remembers the hash of what it wrote, which crash recovery checks.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable, NamedTuple

import subcase
from subcase.digest import file_sha256
from subcase.casing import TAGS
from subcase.casing.marks import MARK_NAMES, MARKS
from subcase.subtitles import Document, Saved, save

from . import autosave
from .actions import Action, Decision, on_copies, realign
from .editlog import (EDITLOG_SCHEMA, CausedGroup, DecisionRecord, EditLog, EditLogError, EditRecord, LearnedRecord,
                      MarkRecord, RecordBase, SavedRecord, UndoRecord)
from .logcontext import record_context
from .state import ReviewState
from .structure import DocumentStructure
from .tally import Tally

if TYPE_CHECKING:
    from .learning import Learner
    from .profiles.apply import ProfileApplication

Listener = Callable[[tuple[int, ...]], None]
MARK_ACTIONS = ("accepted_mark", "changed_mark")
# The app's own changes, listed in the record of the decision that caused them: what it learned, and the word
# it re-cased after a sentence end the editor added or took out.
CAUSED = ("learned", "recased")


class Performed(NamedTuple):
    """An action the session did and has not undone."""

    human: Action     # the action as the caller gave it (what it reverts)
    ran: Action       # what ran: the human action, or with a learner the ``Taught`` step around it
    seqs: list[int]   # the seqs of its edit-log records, which the undo record names


class ReviewSession:
    def __init__(self, doc: Document, state: ReviewState, source: Path, *, model_version: str,
                 model_sha256: str, mode: str = "restore", log: EditLog | None = None,
                 base_sha256: str | None = None):
        self.doc = doc
        self.state = state
        self.source = Path(source).resolve()
        self.model_version = model_version
        self.model_sha256 = model_sha256
        self.mode = mode
        self.log = log
        # each cue's language (casing/language.py), recorded with each decision; set by whoever cased the file
        self.cue_languages: list[str] | None = None
        self.session_id = uuid.uuid4().hex
        self.listeners: list[Listener] = []
        # What the editor taught so far (review/learning/); None: nothing is learned.
        self.learner: Learner | None = None
        # The profile as applied when the file was opened (review/opening.py); None: no profile.
        self.profile: ProfileApplication | None = None
        self.casing_summary = ""  # the file's language and how it was cased, when it was opened
        # Sentence starts, categories and word positions of the document as it stands (review/structure.py):
        # the edit log's record context and the flag reasons read them.
        self.structure = DocumentStructure()
        self.tally = Tally(state)  # the review counts, counted again for the cues each step changes
        # The actions done and not undone, oldest first: what ran for each and the seqs of its records.
        self._done: list[Performed] = []
        self._seq = int(time.time() * 1000) * 1000  # unique across sessions without reading the log
        # sha256 of the file the document was last read from or saved to: a
        # crash-recovery snapshot only applies to that exact file.
        self.base_sha256 = base_sha256 if base_sha256 is not None else file_sha256(doc.path or self.source)
        # Crash recovery is proportional to what changed: the cues any step touched since the file was
        # opened, and the file it was opened from, which a restore cases again (see ``autosave``).
        # Without an origin (set by whoever cased the file, with ``set_origin``) snapshots hold every cue.
        self.changed_cues: set[int] = set()
        self.rewritten_cues: set[int] = set()  # cues whose words were rebuilt (a text edit): kept in full
        self.origin: autosave.Origin | None = None

    def set_origin(self, origin: autosave.Origin, punctuate: str | None = None) -> None:
        """The file the review was cased from and how (``autosave.Origin``), and the punctuation restoring
        used (None: as the state says, ``ReviewState.punctuate``)."""
        self.origin = origin
        if punctuate is not None:
            self.punctuate = punctuate

    @property
    def punctuate(self) -> str:
        """Where missing marks were restored when the file was opened (``casing.restoring.Punctuate``): a
        restore cases the origin again with it, or the marks (and every offset after them) would be lost."""
        return self.state.punctuate

    @punctuate.setter
    def punctuate(self, value: str) -> None:
        self.state.punctuate = value

    # -- running actions -------------------------------------------------------
    def perform(self, action: Action) -> None:
        """Do (or redo) an action and log its decisions.

        With a learner, the action runs inside a ``Taught`` action, so what the
        app learns from it is done and undone with it as one step.

        A decision counts only once it is on disk: if the log cannot be
        written, the action is undone again, nobody is notified, and
        EditLogError propagates for the editor to ask the user.
        """
        human = action
        action = on_copies(action, self.state)  # a word a rolling caption repeats: all its copies, one step
        if self.learner is not None:
            from .learning import Taught
            action = Taught(action, self.learner)
        current = self.state.current
        decisions = action.do(self.doc, self.state)
        try:
            seqs = self._log(self._records(decisions))
        except EditLogError:
            action.undo(self.doc, self.state)
            self.state.current = current
            raise
        if action.focus is not None:
            self.state.current = action.focus
        self.state.clamp_current()
        self._done.append(Performed(human, action, seqs))
        self.changed_cues.update(action.cues)
        if getattr(human, "rewrites_words", False):
            self.rewritten_cues.update(human.cues)
        new_mode = getattr(human, "new_mode", None)
        if isinstance(new_mode, str):  # a mode change (remode.ChangeMode): later records say so
            self.mode = new_mode
        self._notify(action.cues)

    def revert(self, action: Action) -> None:
        """Undo an action; the log gets an "undo" record for each of its records.

        As in perform, the undo stands only once its records are on disk;
        otherwise the action is done again and EditLogError propagates.
        """
        human = action
        at = next((i for i in range(len(self._done) - 1, -1, -1) if self._done[i].human is human), None)
        done = self._done[at] if at is not None else Performed(human, human, [])
        action = done.ran
        current = self.state.current
        action.undo(self.doc, self.state)
        try:
            if done.seqs:  # one record per undo step, whatever it takes back
                self._log([UndoRecord(**self._base("undo", action.cues[0] if action.cues else None),
                                      undoes=done.seqs)])
        except EditLogError:
            action.do(self.doc, self.state)
            self.state.current = current
            raise
        if at is not None:
            del self._done[at]
        if action.focus is not None:
            self.state.current = action.focus
        self.state.clamp_current()
        self.changed_cues.update(action.cues)
        old_mode = getattr(human, "old_mode", None)
        if isinstance(old_mode, str):
            self.mode = old_mode
        self._notify(action.cues)

    def replace_log(self, log: EditLog | None) -> None:
        """Continue in another log file (or, with None, without one); the
        user chose this after the current log failed."""
        if self.log is not None:
            try:
                self.log.close()
            except OSError:
                pass  # the old log is already failing; closing it must not stop the switch
        self.log = log

    # -- saving ----------------------------------------------------------------
    def save(self, path: Path | str | None = None, format: str | None = None, *,
             allow_read_only: bool = False, log: bool = True, check_now: bool = True) -> Saved:
        """Write the document (SubtitleError if it cannot be), log it, remember its hash.

        Saved in another format, the session goes on with the converted
        document; a cue whose text the conversion changed (escaped or dropped
        markup) gets its review words matched again, keeping their decisions.
        A read-only file raises ReadOnlyError unless ``allow_read_only``.  With
        ``log`` False the caller writes the "saved" record itself with
        ``log_saved`` (the editor does, to ask the user if the log fails after
        the file was written).  With ``check_now`` False the reference parser's check is the caller's to run
        (``Saved.unchecked``).
        """
        saved = self.write(path, format, allow_read_only=allow_read_only, check_now=check_now)
        self.took_save(saved, file_sha256(saved.path), log=log)
        return saved

    def write(self, path: Path | str | None = None, format: str | None = None, *,
              allow_read_only: bool = False, check_now: bool = True) -> Saved:
        """The first half of ``save``: render and write the document atomically, nothing else.  The editor
        runs it on a worker thread while the review takes no edit (``OpenReview.busy``), then ``took_save``
        on its own thread."""
        return save(self.doc, path, format=format, allow_read_only=allow_read_only, check_now=check_now)

    def took_save(self, saved: Saved, sha256: str, *, log: bool = True) -> None:
        """The second half of ``save``: the session goes on with what ``write`` wrote (``sha256``, its
        file's digest), and logs it unless ``log`` is False."""
        if saved.document is not self.doc:
            for c, cue in enumerate(saved.document.cues):
                if cue.text != self.doc.cues[c].text:
                    self.state.cues[c] = realign(self.state.cues[c], cue.words(), c)
                    self.rewritten_cues.add(c)
                    self.changed_cues.add(c)
            self.doc = saved.document
            self.state.clamp_current()
            self.origin = None  # another format: the opened file no longer cases into this document
        if self.origin is not None and saved.path.resolve() == self.origin.path:
            # written over the opened file: its content lives on in the backup the save kept, if any
            self.origin = replace(self.origin, path=saved.backup) if saved.backup is not None else None
        self.base_sha256 = sha256
        if log:
            self.log_saved(saved)

    def log_saved(self, saved: Saved) -> None:
        """The "saved" record; EditLogError if it cannot be written.

        A profile reads how the editor left every word, not only the ones they decided (a form
        the file also writes otherwise is no evidence); it reads the saved file back from disk,
        so the record names it by path and sha256 rather than holding a copy of it.
        """
        path = saved.path.resolve()
        try:
            size = path.stat().st_size
        except OSError:
            size = -1
        self._log([SavedRecord(**self._base("saved", None), saved_to=str(path), saved_format=saved.document.format,
                               saved_sha256=self.base_sha256, saved_bytes=size)])

    def snapshot(self) -> dict:
        """A crash-recovery snapshot of the unsaved review (see ``autosave``)."""
        identity = autosave.ReviewIdentity(self.source, self.doc.path or self.source, self.base_sha256, self.mode,
                                           self.model_version, self.model_sha256, self.session_id)
        return autosave.snapshot(self.doc, self.state, identity, self.origin, self.changed_cues, self.rewritten_cues)

    def counts(self) -> dict[str, int]:
        """``ReviewState.counts`` of the review as it stands, counting only the cues changed since the last."""
        return self.tally.counts()

    def _notify(self, cues: tuple[int, ...]) -> None:
        self.tally.touch(cues)
        for listener in list(self.listeners):
            listener(cues)

    # -- records ---------------------------------------------------------------
    def _base(self, action: str, cue_index: int | None) -> RecordBase:
        cue = self.doc.cues[cue_index] if cue_index is not None and cue_index < len(self.doc.cues) else None
        return RecordBase(
            schema=EDITLOG_SCHEMA,
            seq=0,
            time=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            session=self.session_id,
            file=str(self.source),
            action=action,
            cue_index=cue_index,
            cue_id=cue.identifier if cue is not None else None,
            app_version=subcase.__version__,
            model_version=self.model_version,
            model_sha256=self.model_sha256,
            mode=self.mode,
            language=self.cue_language(cue_index) if cue_index is not None else None,
            threshold=round(self.state.threshold, 4),
        )

    def cue_language(self, cue_index: int) -> str | None:
        """The language the cue was cased in (casing/language.py); None when the casing did not say."""
        langs = self.cue_languages
        return langs[cue_index] if langs is not None and 0 <= cue_index < len(langs) else None

    def _record(self, d: Decision) -> DecisionRecord | MarkRecord:
        base = self._base(d.action, d.cue_index)
        w = d.word
        if d.action in MARK_ACTIONS and w is not None:
            m = w.mark
            return MarkRecord(**base, word_index=w.word_index, start=w.start, end=w.end, input=w.input, word=w.form,
                              mark_proposed=m.proposed if m is not None else None,
                              mark_probs=dict(zip((MARK_NAMES[k] for k in MARKS), (round(p, 6) for p in m.probs)))
                              if m is not None else None,
                              mark_confidence=round(m.confidence, 6) if m is not None else None,
                              before=d.before, final=d.final)
        if w is None:  # a whole-cue text edit
            return DecisionRecord(**base, word_index=None, start=None, end=None, input=d.before, model_tag=None,
                                  model_probs=None, confidence=None, proposed=None, before=d.before, final=d.final,
                                  final_tag=None)
        r = DecisionRecord(**base, word_index=w.word_index, start=w.start, end=w.end, input=w.input,
                           model_tag=w.model_tag.value if w.model_tag else None,
                           model_probs=dict(zip((t.value for t in TAGS), (round(p, 6) for p in w.probs)))
                           if w.probs else None,
                           confidence=round(w.confidence, 6) if w.probs else None,
                           proposed=w.proposed, before=d.before, final=d.final, final_tag=w.tag.value)
        if self.log is not None:  # neighbours, sentence start, category: a profile reads them
            r["context"] = record_context(self.doc, self.state, self.structure.of(self.doc, self.state), w)
        return r

    def _records(self, decisions: list[Decision]) -> list[EditRecord]:
        """One record per human decision; the app's own changes ("learned") are listed, compactly,
        in the record of the decision that caused them (``editlog.CausedGroup``)."""
        human = [(i, d) for i, d in enumerate(decisions) if d.action not in CAUSED]
        records: dict[int, DecisionRecord | MarkRecord | LearnedRecord] = {i: self._record(d) for i, d in human}
        caused: dict[int | None, list[Decision]] = {}
        for d in decisions:
            if d.action in CAUSED:
                caused.setdefault(d.caused_by if d.caused_by in records else None, []).append(d)
        for cause, learned in caused.items():
            groups = caused_groups(learned)
            if cause is None:  # nothing human to hang them on: a record of their own
                first = learned[0].cue_index
                records[len(decisions)] = LearnedRecord(**self._base("learned", first), caused_by=None, caused=groups,
                                                        caused_count=len(learned))
            else:
                records[cause]["caused"] = groups
                records[cause]["caused_count"] = len(learned)
        return [records[k] for k in sorted(records)]

    def _log(self, records: list[EditRecord]) -> list[int]:
        seqs = []
        seq = self._seq
        for r in records:
            seq += 1
            r["seq"] = seq
            seqs.append(seq)
        if self.log is not None and records:
            self.log.append(records)  # EditLogError: nothing was recorded, seq is not advanced
        self._seq = seq
        return seqs

    def close(self) -> None:
        if self.log is not None:
            self.log.close()


def caused_groups(learned: list[Decision]) -> list[CausedGroup]:
    """The words the app changed, grouped by their status and the tag of their final form: a
    restyle of hundreds of words is a few short lists of positions, not a record per word."""
    groups: dict[tuple[str, str], CausedGroup] = {}
    for d in learned:
        w = d.word
        if w is None:
            continue
        tag = w.tag.value
        g = groups.setdefault((w.status.value, tag), CausedGroup(status=w.status.value, tag=tag, at=[]))
        g["at"].append([w.cue_index, w.word_index])
        if tag == "M":  # the only tag whose form the word and the tag do not tell
            g.setdefault("forms", []).append(d.final)
        if w.raised is not None:
            g.setdefault("asked", []).append([w.cue_index, w.word_index])
    return list(groups.values())
