"""A review session: one document, its review state, and its edit log.

The session is the only place that runs actions, so every human decision
passes through ``_log`` and reaches the disk before the UI moves on.  It also
saves the document (``save``): the edit log records it, and the session
remembers the hash of what it wrote, which crash recovery checks.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import subcase
from subcase.digest import file_sha256
from subcase.casing import TAGS
from subcase.subtitles import Document, Saved, save

from . import autosave
from .actions import Action, Decision, realign
from .editlog import EDITLOG_SCHEMA, EditLog
from .state import ReviewState

if TYPE_CHECKING:
    from .learning import Learner

Listener = Callable[[tuple[int, ...]], None]


class ReviewSession:
    def __init__(self, doc: Document, state: ReviewState, source: Path, *, model_version: str,
                 model_sha256: str, mode: str = "restore", log: EditLog | None = None,
                 session_id: str | None = None, base_sha256: str | None = None):
        self.doc = doc
        self.state = state
        self.source = Path(source).resolve()
        self.model_version = model_version
        self.model_sha256 = model_sha256
        self.mode = mode
        self.log = log
        self.session_id = session_id or uuid.uuid4().hex
        self.listeners: list[Listener] = []
        # What the editor taught so far (review/learning.py); None: nothing is learned.
        self.learner: Learner | None = None
        self._taught: dict[int, Action] = {}  # id(human action) -> the Taught action that ran it
        self._seqs: dict[int, list[int]] = {}  # id(action) -> seqs of its records
        self._seq = int(time.time() * 1000) * 1000  # unique across sessions without reading the log
        # sha256 of the file the document was last read from or saved to: a
        # crash-recovery snapshot only applies to that exact file.
        self.base_sha256 = base_sha256 if base_sha256 is not None else file_sha256(doc.path or self.source)

    # -- running actions -------------------------------------------------------
    def perform(self, action: Action) -> None:
        """Do (or redo) an action and log its decisions.

        With a learner, the action runs inside a ``Taught`` action, so what the
        app learns from it is done and undone with it as one step."""
        if self.learner is not None:
            from .learning import Taught
            action = self._taught.setdefault(id(action), Taught(action, self.learner))
        decisions = action.do(self.doc, self.state)
        if action.focus is not None:
            self.state.current = action.focus
        self.state.clamp_current()
        self._seqs[id(action)] = self._log([self._record(d) for d in decisions])
        self._notify(action.cues)

    def revert(self, action: Action) -> None:
        """Undo an action; the log gets an "undo" record for each of its records."""
        action = self._taught.pop(id(action), action)
        action.undo(self.doc, self.state)
        if action.focus is not None:
            self.state.current = action.focus
        self.state.clamp_current()
        undone = self._seqs.pop(id(action), [])
        self._log([self._base("undo", action.cues[0] if action.cues else None) | {"undoes": s}
                   for s in undone])
        self._notify(action.cues)

    # -- saving ----------------------------------------------------------------
    def save(self, path: Path | str | None = None, format: str | None = None) -> Saved:
        """Write the document (SubtitleError if it cannot be), log it, remember its hash.

        Saved in another format, the session goes on with the converted
        document; a cue whose text the conversion changed (escaped or dropped
        markup) gets its review words matched again, keeping their decisions.
        """
        saved = save(self.doc, path, format=format)
        if saved.document is not self.doc:
            for c, cue in enumerate(saved.document.cues):
                if cue.text != self.doc.cues[c].text:
                    self.state.cues[c] = realign(self.state.cues[c], cue.words(), c)
            self.doc = saved.document
            self.state.clamp_current()
        self._log([self._base("saved", None) | {"saved_to": str(saved.path.resolve()),
                                                 "saved_format": self.doc.format}])
        self.base_sha256 = file_sha256(saved.path)
        return saved

    def snapshot(self) -> dict:
        """A crash-recovery snapshot of the unsaved review (see ``autosave``)."""
        return autosave.snapshot(self.doc, self.state, self.source, self.doc.path or self.source, self.base_sha256,
                                 mode=self.mode, model_version=self.model_version, model_sha256=self.model_sha256,
                                 session_id=self.session_id, log_path=self.log.path if self.log else None)

    def _notify(self, cues: tuple[int, ...]) -> None:
        for listener in list(self.listeners):
            listener(cues)

    # -- records ---------------------------------------------------------------
    def _base(self, action: str, cue_index: int | None) -> dict:
        cue = self.doc.cues[cue_index] if cue_index is not None and cue_index < len(self.doc.cues) else None
        return {
            "schema": EDITLOG_SCHEMA,
            "seq": 0,
            "time": datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            "session": self.session_id,
            "file": str(self.source),
            "action": action,
            "cue_index": cue_index,
            "cue_id": cue.identifier if cue is not None else None,
            "app_version": subcase.__version__,
            "model_version": self.model_version,
            "model_sha256": self.model_sha256,
            "mode": self.mode,
            "threshold": round(self.state.threshold, 4),
        }

    def _record(self, d: Decision) -> dict:
        r = self._base(d.action, d.cue_index)
        w = d.word
        if w is None:  # a whole-cue text edit
            r.update(word_index=None, start=None, end=None, input=d.before, model_tag=None, model_probs=None,
                     confidence=None, proposed=None, before=d.before, final=d.final, final_tag=None)
        else:
            r.update(word_index=w.word_index, start=w.start, end=w.end, input=w.input,
                     model_tag=w.model_tag.value if w.model_tag else None,
                     model_probs=dict(zip((t.value for t in TAGS), (round(p, 6) for p in w.probs)))
                     if w.probs else None,
                     confidence=round(w.confidence, 6) if w.probs else None,
                     proposed=w.proposed, before=d.before, final=d.final, final_tag=w.tag.value)
        if d.caused_by is not None:
            r["_cause"] = d.caused_by
        return r

    def _log(self, records: list[dict]) -> list[int]:
        seqs = []
        for r in records:
            self._seq += 1
            r["seq"] = self._seq
            seqs.append(self._seq)
        for r in records:
            if "_cause" in r:  # an app change links to the human decision of the same action
                r["caused_by"] = seqs[r.pop("_cause")]
        if self.log is not None and records:
            self.log.append(records)
        return seqs

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
