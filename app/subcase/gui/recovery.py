"""Crash recovery: the snapshots of an unsaved review (``autosaving``), offered back after a crash.

A controller owned by MainWindow.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from subcase.review import autosave, log_path_for
from subcase.review.opening import OpenOptions, resume_review
from subcase.subtitles import SubtitleError

from .autosaving import Autosaving
from .edit_log_recovery import EditLogRecovery
from .media_window import WindowMedia
from .open_review import OpenReview
from .opening import Opening
from .prompts import Prompts
from .settings import Settings
from .workers import CaseResult, EngineHolder, OpenWith


class Recovery:
    """Restore after a crash."""

    def __init__(self, review: OpenReview, prompts: Prompts, engines: EngineHolder, settings: Settings,
                 edit_log: EditLogRecovery, autosaving: Autosaving, playback: WindowMedia, opening: Opening):
        self.review = review
        self.prompts = prompts
        self.engines = engines
        self.settings = settings
        self.status_bar = prompts.status_bar
        self.edit_log = edit_log
        self.autosaving = autosaving
        self.playback = playback
        self.opening = opening  # casing a snapshot's origin again runs as opening a file does

    def check_recovery(self) -> bool:
        """Offer to restore a review the app lost in a crash; True if one was restored.  A snapshot
        that is damaged is moved aside (``NAME.corrupt``), and the user told where."""
        found = autosave.scan()
        for bad in found.set_aside:
            where = (f"moved to {bad.moved_to}" if bad.moved_to is not None
                     else "it could not be moved aside and is left in place")
            self.prompts.notify("Damaged autosave set aside",
                               f"An autosaved review could not be read ({bad.reason}); {where}.", error=True)
        for rec in found.recoverable:
            # Save writes to the file last saved to: named when it is not the one opened, as the snapshot says so
            saved_as = f"last saved as {rec.data['base']}, " if rec.data["base"] != str(rec.source) else ""
            answer = self.prompts.ask("Restore unsaved review",
                              f"subcase closed unexpectedly while you were reviewing\n{rec.source}\n"
                              f"({saved_as}autosaved {rec.time}).\n\nRestore that review?",
                              QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes)
            if answer != QMessageBox.StandardButton.Yes:
                rec.path.unlink(missing_ok=True)
                continue
            try:
                self.restore_snapshot(rec.data)
            except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
                self.prompts.notify("Cannot restore", f"{rec.source}: {exc}", error=True)
                continue
            return True
        return False

    def restore_snapshot(self, data: dict) -> None:
        """Restore a snapshot; one of the changed cues only first cases its origin again in a
        worker (``finish_restore`` ends it), a complete one is restored at once."""
        autosave.validate(data)  # stored state is data: every field in range before any is used
        if autosave.needs_casing(data):
            autosave.check_files(data)  # RestoreError now, before any casing
            from subcase.casing.housestyle import Category, Style
            styles = {Category(k): Style(v) for k, v in (data.get("styles") or {}).items()}
            options = OpenWith(data.get("origin_mode", data["mode"]), float(data["threshold"]), styles,
                               restoring=data, punctuate=autosave.punctuate_of(data))
            self.opening.start_casing(Path(data["origin"]), options, lambda result: self.finish_restore(data, result))
            self.status_bar.showMessage("Restoring the unsaved review…")
            return
        doc, state = autosave.restore(data)
        self._resume(data, doc, state)

    def finish_restore(self, data: dict, result: CaseResult) -> None:
        try:
            doc, state = autosave.restore(data, (result.doc, result.state))
            self._resume(data, doc, state, result.cue_languages)
        except (autosave.RestoreError, SubtitleError, OSError, KeyError, ValueError) as exc:
            self.review.preview_ended.emit()
            self.prompts.notify("Cannot restore", f"{data.get('source')}: {exc}", error=True)
            self.review.casing_failed.emit(str(exc))
            return
        self.opening.finish_when_shown()

    def _resume(self, data: dict, doc, state, cue_languages: list[str] | None = None) -> None:
        # the log's place comes from the data folder and the file's path, never from the snapshot (issue #54)
        go_on, log = self.edit_log.open_edit_log(log_path_for(Path(data["source"])))
        if not go_on:
            raise autosave.RestoreError("restoring was cancelled: the edit log could not be opened")
        engine = self.engines.loaded
        profile = None
        if self.settings.profile and engine is not None:
            from subcase.review.profiles import store as profile_store
            from subcase.review.profiles.profile import ProfileError
            try:
                profile = profile_store.load(self.settings.profile, engine.info.version)
            except ProfileError as exc:
                self.status_bar.showMessage(f"Profile not applied: {exc}", 10000)
        session = resume_review(doc, state, data, engine,
                                     OpenOptions(profile=profile, learning=self.settings.learning),
                                     log=log, cue_languages=cue_languages)
        self.review.install(session, restored=True)  # the views go to its current word
        self.autosaving.save_now()  # the snapshot now belongs to this process
        from subcase.media import MediaRef
        self.playback.open_media(remembered=MediaRef.from_dict(data.get("media")) or self.settings.media_for(session.source))
        self.status_bar.showMessage("Restored the unsaved review", 8000)
