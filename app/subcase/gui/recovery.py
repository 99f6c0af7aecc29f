"""Crash recovery: the snapshots of an unsaved review (``autosaving``), offered back after a crash.

A mixin for MainWindow.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from subcase.review import autosave, log_path_for
from subcase.review.opening import OpenOptions, resume_review
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
        engine = self.engines.loaded
        profile = None
        if self.settings.profile and engine is not None:
            from subcase.review.profiles import store as profile_store
            from subcase.review.profiles.profile import ProfileError
            try:
                profile = profile_store.load(self.settings.profile, engine.info.version)
            except ProfileError as exc:
                self.statusBar().showMessage(f"Profile not applied: {exc}", 10000)
        self.session = resume_review(doc, state, data, engine,
                                     OpenOptions(profile=profile, learning=self.settings.learning),
                                     log=log, cue_languages=cue_languages)
        self.profile_app = self.session.profile
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
