"""Crash recovery: the snapshots of an unsaved review (``autosaving``), offered back after a crash.

A mixin for MainWindow.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from subcase.review import ReviewSession, autosave, log_path_for
from subcase.subtitles import SubtitleError

from .workers import LoadAndCaseTask

if TYPE_CHECKING:
    from .window_parts import WindowParts as _Window
else:
    _Window = object


class RecoveryMixin(_Window):
    """Restore after a crash."""
    def check_recovery(self) -> bool:
        """Offer to restore a review the app lost in a crash; True if one was restored."""
        for rec in autosave.find_recoverable():
            answer = self.ask("Restore unsaved review",
                              f"subcase closed unexpectedly while you were reviewing\n{rec.source}\n"
                              f"(autosaved {rec.time}).\n\nRestore that review?",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
            if answer != QMessageBox.StandardButton.Yes:
                rec.path.unlink(missing_ok=True)
                continue
            try:
                self.restore_snapshot(rec.data)
            except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
                self.notify("Cannot restore", f"{rec.source}: {exc}", error=True)
                continue
            return True
        return False

    def restore_snapshot(self, data: dict) -> None:
        """Restore a snapshot; one of the changed cues only first cases its origin again in a
        worker (``finish_restore`` ends it), a complete one is restored at once."""
        if autosave.needs_casing(data):
            autosave.check_files(data)  # RestoreError now, before any casing
            from subcase.casing.housestyle import Category, Style
            styles = {Category(k): Style(v) for k, v in (data.get("styles") or {}).items()}
            self.start_casing(LoadAndCaseTask(Path(data["origin"]), self.engines, data.get("origin_mode", data["mode"]),
                                              float(data["threshold"]), styles, restoring=data))
            self.statusBar().showMessage("Restoring the unsaved review…")
            return
        doc, state = autosave.restore(data)
        self._resume(data, doc, state)

    def finish_restore(self, data: dict, result) -> None:
        try:
            doc, state = autosave.restore(data, (result.doc, result.state))
            self._resume(data, doc, state, result.cue_languages)
        except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
            self._show_session()
            self.notify("Cannot restore", f"{data.get('source')}: {exc}", error=True)
            self.casing_failed.emit(str(exc))
            return
        self.casing_finished.emit()

    def _resume(self, data: dict, doc, state, cue_languages: list[str] | None = None) -> None:
        go_on, log = self.edit_log.open_edit_log(Path(data["log"]) if data.get("log")
                                                 else log_path_for(Path(data["source"])))
        if not go_on:
            raise autosave.RestoreError("restoring was cancelled: the edit log could not be opened")
        self._close_session()
        self.session = ReviewSession(doc, state, Path(data["source"]), model_version=data["model_version"],
                                     model_sha256=data["model_sha256"], mode=data["mode"], log=log,
                                     base_sha256=data["base_sha256"], cue_languages=cue_languages)
        if autosave.needs_casing(data):  # later snapshots stay proportional too
            self.session.set_origin(Path(data["origin"]), data["origin_sha256"], data["origin_fingerprint"],
                                    data.get("styles"))
            self.session.origin_mode = data.get("origin_mode", data["mode"])
            self.session.changed_cues.update(e["cue"] for e in data["cues"])
            self.session.rewritten_cues.update(e["cue"] for e in data["cues"] if "words" in e)
        self._attach_learner()
        if self.session.learner is not None:  # go on learning from the decisions already made
            self.session.learner.learn_from_reviewed(doc, state)
        self.session.listeners.append(self._on_session_changed)
        self.restored_unsaved = True
        self._set_spin(state.threshold)
        self._show_session()
        self._update_actions()
        if state.current is not None:
            self.goto(state.current)
        self.autosaving.save_now()  # the snapshot now belongs to this process
        from subcase.media import MediaRef
        self.playback.open_media(remembered=MediaRef.from_dict(data.get("media")) or self.settings.media_for(self.session.source))
        self.statusBar().showMessage("Restored the unsaved review", 8000)
