"""File handling: open (dialog, recent, drops), casing in a worker, save, save as, autosave and crash restore, batch.

A mixin for MainWindow.  Loading and casing run in a LoadAndCaseTask; the
window only sees finished objects through its queued signals, and ignores
signals from a task it has since replaced or cancelled.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QThreadPool, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.review import ReviewSession, log_path_for
from subcase.review import autosave
from subcase.review.actions import realign
from subcase.errors import ReadOnlyError, SubcaseError
from subcase.outputs import special_kind
from subcase.subtitles import Document, SubtitleError
from subcase.subtitles.convert import conversion_losses

from .batch_dialog import BatchDialog
from .workers import CaseResult, LoadAndCaseTask

SUBTITLE_SUFFIXES = (".srt", ".vtt")
FILE_FILTER = "Subtitles (*.srt *.vtt);;SubRip (*.srt);;WebVTT (*.vtt);;All files (*)"


class FileHandlingMixin:
    """Opening and casing, saving, autosave and recovery, batch conversion and drops."""

    # ------------------------------------------------------------------ opening
    def open_dialog(self) -> None:
        start = str(Path(self.settings.recent_files[0]).parent) if self.settings.recent_files else ""
        path, _ = QFileDialog.getOpenFileName(self, "Open subtitles", start, FILE_FILTER)
        if path:
            self.open_file(Path(path))

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self.settings.recent_files:
            a = self.recent_menu.addAction(p.replace("&", "&&"))
            a.triggered.connect(lambda _c=False, p=p: self.open_file(Path(p)))
        self.recent_menu.setEnabled(bool(self.settings.recent_files))

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        if not self.is_modified():
            return True
        answer = self.ask("Unsaved review", f"Save the changes to {self.doc.path.name if self.doc.path else 'the file'}?",
                          QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel, QMessageBox.Save)
        if answer == QMessageBox.Save:
            return self.save()
        if answer == QMessageBox.Discard:
            self.discard_autosave()
            return True
        return False

    def open_file(self, path: Path) -> bool:
        path = Path(path)
        kind = special_kind(path)
        if kind is not None:
            # Checked here, not only in the worker: reading a FIFO blocks until
            # someone writes to it, and no Cancel can interrupt that read.
            message = f"{path}: is {kind}, not a regular file; subcase only opens regular files"
            self.notify("Cannot open file", message, error=True)
            self.casing_failed.emit(message)
            return False
        if not self.confirm_discard():
            return False
        if self.task is not None:
            self.cancel_casing()
        threshold = self.settings.threshold
        task = LoadAndCaseTask(path, self.engines, self.settings.mode, threshold)
        s = task.signals
        s.loaded.connect(lambda doc, t=task: self._on_loaded(t, doc))
        s.progress.connect(lambda d, n, t=task: self._on_progress(t, d, n))
        s.cased.connect(lambda r, t=task: self._on_cased(t, r))
        s.cancelled.connect(lambda t=task: self._on_cancelled(t))
        s.failed.connect(lambda msg, t=task: self._on_failed(t, msg))
        self.task = task
        self.progress.setRange(0, 0)  # busy until the first progress report
        self.progress.show()
        self.cancel_button.show()
        self.statusBar().showMessage(f"Opening {path.name}\u2026")
        self._update_actions()
        QThreadPool.globalInstance().start(task)
        return True

    def cancel_casing(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.statusBar().showMessage("Cancelling\u2026")

    def _on_loaded(self, task, doc: Document) -> None:
        if task is not self.task:
            return
        # Show the cues right away, uncased and read-only, while the model runs.
        self.view.set_document(doc, None)
        self.setWindowTitle(f"{Path(task.path).name} (casing\u2026) \u2014 subcase")
        self._update_actions()

    def _on_progress(self, task, done: int, total: int) -> None:
        if task is not self.task:
            return
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)

    def _end_task(self) -> None:
        self.task = None
        self.progress.hide()
        self.cancel_button.hide()
        self._update_actions()

    def _on_cancelled(self, task) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()  # back to what was open before, if anything
        self.statusBar().showMessage("Casing cancelled", 5000)
        self.casing_cancelled.emit()

    def _on_failed(self, task, message: str) -> None:
        if task is not self.task:
            return
        self._end_task()
        self._show_session()
        self.notify("Cannot open file", f"{task.path}:\n{message}", error=True)
        self.casing_failed.emit(message)

    def _on_cased(self, task, result: CaseResult) -> None:
        if task is not self.task:
            return
        self._end_task()
        # The log first: if the user cancels, what was open before stays open.
        go_on, log = self.open_edit_log(log_path_for(result.path))
        if not go_on:
            self._show_session()
            self.statusBar().showMessage(f"Opening {result.path.name} cancelled: no edit log", 8000)
            self.casing_cancelled.emit()
            return
        self._close_session()
        if self.settings.threshold is None:
            self._set_spin(result.state.threshold)  # the model's calibrated default
        else:
            result.state.threshold = self.threshold_spin.value()
        self.base_sha256 = autosave.file_sha256(result.path)
        self.session = ReviewSession(result.doc, result.state, result.path, model_version=result.model_version,
                                     model_sha256=result.model_sha256, mode=result.mode, log=log)
        self.session.listeners.append(self._on_session_changed)
        self.settings.add_recent(result.path)
        self._show_session()
        self._update_actions()
        if self.view.cue_model.rowCount():
            self.view.selectRow(0)
        self.view.setFocus()
        left = result.state.to_review()
        self.statusBar().showMessage(f"Cased {result.words} words; {left} to review (press N)", 8000)
        self.casing_finished.emit()

    def _close_session(self) -> None:
        self.undo_stack.clear()
        self.restored_unsaved = False
        self.autosave_timer.stop()
        if self.session is not None:
            self.session.close()
        self.session = None

    # ------------------------------------------------------------------ saving
    def save(self) -> bool:
        if self.doc is None:
            return False
        if self.doc.path is None:
            return self.save_as_dialog()
        return self.save_to(self.doc.path)

    def save_as_dialog(self) -> bool:
        if self.doc is None:
            return False
        start = str(self.doc.path) if self.doc.path else ""
        path, chosen = QFileDialog.getSaveFileName(self, "Save subtitles as", start,
                                                   "SubRip (*.srt);;WebVTT (*.vtt)",
                                                   "WebVTT (*.vtt)" if self.doc.format == "vtt" else "SubRip (*.srt)")
        if not path:
            return False
        p = Path(path)
        if p.suffix.lower() not in SUBTITLE_SUFFIXES:
            p = p.with_suffix(".vtt" if "vtt" in chosen else ".srt")
        return self.save_to(p)

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Save through the document core (atomic, format and encoding kept unless converting)."""
        session = self.session
        if session is None:
            return False
        doc = session.doc
        texts_before = [c.text for c in doc.cues]
        target_format = fmt or (Path(path).suffix.lower()[1:] if Path(path).suffix.lower() in SUBTITLE_SUFFIXES
                                else doc.format)
        losses = conversion_losses(doc, target_format)
        try:
            try:
                written = doc.save(path, format=fmt)
            except ReadOnlyError as exc:
                # The core never replaces a read-only file on its own; the user decides.
                answer = self.ask("Read-only file",
                                  f"{exc.path} is read-only.\n\nSave over it anyway? "
                                  "It stays read-only afterwards.",
                                  QMessageBox.Yes | QMessageBox.No, QMessageBox.No)
                if answer != QMessageBox.Yes:
                    self.statusBar().showMessage(f"Not saved: {exc.path} is read-only", 8000)
                    return False
                written = doc.save(path, format=fmt, allow_read_only=True)
        except (SubcaseError, UnicodeError) as exc:
            self.notify("Cannot save", str(exc), error=True)
            return False
        # A format change re-reads the document; realign words whose cue text moved.
        for c, cue in enumerate(doc.cues):
            if c < len(texts_before) and cue.text != texts_before[c]:
                session.state.cues[c] = realign(session.state.cues[c], cue.words(), c)
        self.run_logged(lambda: session.log_saved(written, doc.format), can_cancel=False)
        self.base_sha256 = autosave.file_sha256(written)
        self.restored_unsaved = False
        self.undo_stack.setClean()
        self.discard_autosave()
        self.settings.add_recent(written)
        self._show_session()
        self.statusBar().showMessage(f"Saved {written}", 5000)
        if losses:
            self.notify("Saved with losses", f"Saved {written}, but:\n" + "\n".join(losses))
        return True

    # ------------------------------------------------------------------ autosave / recovery
    def _on_clean_changed(self, clean: bool) -> None:
        self._set_title()
        if clean and not self.restored_unsaved:
            self.discard_autosave()

    def autosave_now(self, wait: bool = False) -> Path | None:
        """Snapshot the unsaved review; the writing happens on a background thread."""
        s = self.session
        if s is None or not self.is_modified():
            return None
        data = autosave.snapshot(s.doc, s.state, s.source, s.doc.path or s.source, self.base_sha256, mode=s.mode,
                                 model_version=s.model_version, model_sha256=s.model_sha256,
                                 session_id=s.session_id, log_path=s.log.path if s.log else None)
        self.autosaver.submit(data)
        if wait:
            self.autosaver.flush()
            if self.autosaver.last_error:
                self.statusBar().showMessage(f"Autosave failed: {self.autosaver.last_error}", 8000)
        return autosave.snapshot_path_for(s.source)

    def discard_autosave(self) -> None:
        self.autosave_timer.stop()
        if self.session is not None:
            self.autosaver.discard(self.session.source)

    def check_recovery(self) -> bool:
        """Offer to restore a review the app lost in a crash; True if one was restored."""
        for rec in autosave.find_recoverable():
            answer = self.ask("Restore unsaved review",
                              f"subcase closed unexpectedly while you were reviewing\n{rec.source}\n"
                              f"(autosaved {rec.time}).\n\nRestore that review?",
                              QMessageBox.Yes | QMessageBox.No, QMessageBox.Yes)
            if answer != QMessageBox.Yes:
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
        doc, state = autosave.restore(data)
        go_on, log = self.open_edit_log(Path(data["log"]) if data.get("log")
                                        else log_path_for(Path(data["source"])))
        if not go_on:
            raise autosave.RestoreError("restoring was cancelled: the edit log could not be opened")
        self._close_session()
        self.session = ReviewSession(doc, state, Path(data["source"]), model_version=data["model_version"],
                                     model_sha256=data["model_sha256"], mode=data["mode"], log=log)
        self.session.listeners.append(self._on_session_changed)
        self.base_sha256 = data["base_sha256"]
        self.restored_unsaved = True
        self._set_spin(state.threshold)
        self._show_session()
        self._update_actions()
        if state.current is not None:
            self.goto(state.current)
        self.autosave_now()  # the snapshot now belongs to this process
        self.statusBar().showMessage("Restored the unsaved review", 8000)

    # ------------------------------------------------------------------ batch, drops
    def batch_dialog_from_picker(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Folder to convert")
        if folder:
            self.open_batch([Path(folder)])

    def open_batch(self, paths: list[Path]) -> BatchDialog:
        dialog = BatchDialog(paths, self.engines, self.settings, self)
        dialog.setAttribute(Qt.WA_DeleteOnClose)
        self.batch_dialogs.append(dialog)
        dialog.destroyed.connect(lambda _o=None, d=dialog: self.batch_dialogs.remove(d)
                                 if d in self.batch_dialogs else None)
        dialog.show()
        self.batch_opened.emit(dialog)
        return dialog

    @staticmethod
    def _dropped_paths(event) -> list[Path]:
        md = event.mimeData()
        if md is None or not md.hasUrls():
            return []
        return [Path(u.toLocalFile()) for u in md.urls() if u.isLocalFile()]

    def dragEnterEvent(self, event) -> None:
        if self._dropped_paths(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = self._dropped_paths(event)
        if not paths:
            event.ignore()
            return
        event.acceptProposedAction()
        self.handle_paths(paths)

    def handle_paths(self, paths: list[Path]) -> None:
        """One subtitle file opens for review; anything more (or a folder) is a batch."""
        if len(paths) == 1 and paths[0].is_file() and paths[0].suffix.lower() in SUBTITLE_SUFFIXES:
            self.open_file(paths[0])
        else:
            self.open_batch(paths)
