"""Saving: Save and Save As, through the review session.

``ReviewSession.write`` does the work (the document core's render and atomic
save), in the review's one background task while the review takes no edit,
then ``ReviewSession.took_save`` and the edit-log record on the GUI thread;
the controller asks for a file name, reports errors and warnings, and marks
the undo stack clean.

A save that fails (a read-only folder, a full disk, a name the file system
refuses) says why and offers Save As, so the edits can go somewhere that
works; until a save succeeds the autosave snapshot holds them (written at
once when the save fails, removed only by a save that succeeds).
"""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEventLoop, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from subcase.casing import CasingCancelled
from subcase.casing.gcpause import paused_gc
from subcase.digest import file_sha256
from subcase.errors import ReadOnlyError, SubcaseError
from subcase.review import ReviewSession
from subcase.subtitles import FORMATS, Saved, format_for, formats
from subcase.subtitles.losses import conversion_losses
from subcase.subtitles.saving import ReaderCheck

from .autosaving import Autosaving
from .edit_log_recovery import EditLogRecovery
from .open_review import OpenReview
from .prompts import Prompts
from .settings import Settings
from .tasks import Task, run_task


def on_read_only_file_system(path: Path) -> bool:
    """True when the file system that holds ``path`` is mounted read-only (a CD, a read-only share)."""
    statvfs = getattr(os, "statvfs", None)  # not on Windows, where read-only media fail the write itself
    if statvfs is None:
        return False
    try:
        return bool(statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _write(session: ReviewSession, path: Path, fmt: str | None, allow_read_only: bool,
           task: Task) -> tuple[Saved, str] | BaseException:
    """The save's work, on a worker thread: render, encode, write atomically, hash what was written.

    The review takes no edit meanwhile (``OpenReview.busy``), so the document it renders is the one the
    user asked to save.  Errors come back as the result, not as the task's one line of text: the
    controller answers a read-only file with a question, any other failure with the Save As offer."""
    try:
        if task.cancelled():  # cancelled before the render began (it and the write are one call): nothing written
            raise CasingCancelled
        with paused_gc():  # a three-hour file's render makes millions of short-lived strings
            saved = session.write(path, fmt, allow_read_only=allow_read_only, check_now=False)
        return saved, file_sha256(saved.path)
    except (CasingCancelled, SubcaseError, UnicodeError) as exc:
        return exc


def _read_back(check: ReaderCheck, _task: Task) -> list[str]:
    # The parser's objects are short-lived and many (a three-hour file): no collection walks them meanwhile.
    with paused_gc():
        return check.run()


class Saving:
    """Save (Ctrl+S) and Save As (Ctrl+Shift+S), which may change the format; whether to drop unsaved work."""

    def __init__(self, review: OpenReview, prompts: Prompts, settings: Settings, edit_log: EditLogRecovery,
                 autosaving: Autosaving):
        self.review = review
        self.prompts = prompts
        self.parent = prompts.parent  # the file dialog's parent
        self.settings = settings
        self.status_bar = prompts.status_bar
        self.edit_log = edit_log
        self.autosaving = autosaving
        # offer_save_as(text) -> True to choose another file; tests and scripts replace it
        self.offer_save_as: Callable[[str], bool] = self._save_as_box
        self.save_failed_box: QMessageBox | None = None  # while it is showing, for tests
        self.check_task: Task | None = None  # the last save's check against the format's reference parser
        self.write_task: Task | None = None  # the save being written, while it is

    def confirm_discard(self) -> bool:
        """True when it is fine to drop the current review (saved, or the user says so)."""
        doc = self.review.doc
        if not self.review.is_modified() or doc is None:  # modified means a file is open
            return True
        if self.write_task is not None:  # closing or opening another file while it is saved: not now
            self.status_bar.showMessage("Wait for the save to end", 8000)
            return False
        buttons = QMessageBox.StandardButton
        answer = self.prompts.ask("Unsaved review", f"Save the changes to {doc.path.name if doc.path else 'the file'}?",
                                  buttons.Save | buttons.Discard | buttons.Cancel, buttons.Save)
        if answer == buttons.Save:
            return self.save()
        if answer == buttons.Discard:
            self.autosaving.discard()
            return True
        return False

    def save(self) -> bool:
        session = self.review.session
        if session is None:
            return False
        if session.doc.path is None:
            return self.save_as_dialog()
        return self.save_to(session.doc.path)

    def save_as_dialog(self) -> bool:
        session = self.review.session
        if session is None:
            return False
        doc = session.doc
        start = str(doc.path) if doc.path else ""
        filters = {f.dialog_filter(): f for f in FORMATS.values()}
        current = next(label for label, f in filters.items() if f.name == doc.format)
        path, chosen = QFileDialog.getSaveFileName(self.parent, "Save subtitles as", start, ";;".join(filters),
                                                   current)
        if not path:
            return False
        p = Path(path)
        if not formats.is_subtitle_path(p):
            p = p.with_suffix(filters.get(chosen, formats.get(doc.format)).suffix)
        return self.save_to(p)

    def save_to(self, path: Path, fmt: str | None = None) -> bool:
        """Save the review's document to ``path`` (in ``fmt``, or the format its suffix names)."""
        session = self.review.session
        if session is None:
            return False
        if self.review.busy:  # a save being written, a file being cased: the document may still change
            self.status_bar.showMessage("Wait for the running task to end before saving", 8000)
            return False
        target_format = format_for(session.doc, Path(path), fmt).name
        losses = conversion_losses(session.doc, target_format)
        try:
            saved = self._write_and_record(session, Path(path), fmt)
            if saved is not None:
                self._after_save(saved, losses)
        except (SubcaseError, UnicodeError) as exc:
            self._end_write()
            return self._save_failed(str(exc))
        finally:
            # The review takes edits again only now that the save is done with: an edit held back meanwhile
            # (``OpenReview.when_idle``) comes after it, leaves the review modified and starts the autosave.
            self._end_write()
        return saved is not None

    def _after_save(self, saved: Saved, losses: list[str]) -> None:
        """The file is written and recorded: the autosave goes, the profile learns, the players' check runs."""
        self.autosaving.discard()
        self.settings.add_recent(saved.path)
        profile_note = self._update_profile()  # whatever the warnings, the profile learns from the save
        if saved.unchecked is not None:
            # Reading the file back as players' parsers do takes seconds on a long file: in the background.
            check = saved.unchecked
            self.check_task = run_task(partial(_read_back, check), partial(self._warn, saved.path),
                                       lambda _message: None)
        if losses:
            self.prompts.notify("Saved with losses",
                               f"Saved {saved.path}{profile_note}, but:\n" + "\n".join(losses))
        else:
            self.status_bar.showMessage(f"Saved {saved.path}" + profile_note, 5000)

    def _write_and_record(self, session: ReviewSession, path: Path, fmt: str | None) -> Saved | None:
        """Write the file (asking before writing over a read-only one), then tell the session, the edit log
        and the undo stack; None when nothing was saved (the user said no, cancelled, or the review was
        closed meanwhile).  Raises what the write raised."""
        try:
            written = self._write_in_task(session, path, fmt, allow_read_only=False)
        except ReadOnlyError as exc:
            if on_read_only_file_system(exc.path or path):
                # nothing can be written there, whatever the user answers: no "save over it anyway?"
                raise SubcaseError("cannot save: the file system is read-only", exc.path) from None
            # The core never replaces a read-only file on its own; the user decides.
            answer = self.prompts.ask("Read-only file",
                                     f"{exc.path} is read-only.\n\nSave over it anyway? "
                                     "It stays read-only afterwards.",
                                     QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                     QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                self.status_bar.showMessage(f"Not saved: {exc.path} is read-only", 8000)
                return None
            written = self._write_in_task(session, path, fmt, allow_read_only=True)
        except CasingCancelled:
            self.status_bar.showMessage("Not saved: cancelled", 8000)
            return None
        if written is None or self.review.session is not session:
            return None  # the review was closed while it was written (Ctrl-C): its snapshot keeps the edits
        saved, sha256 = written
        session.took_save(saved, sha256, log=False)
        # The file is written; its record in the edit log must be too (or the user says otherwise).
        self.edit_log.run_logged(lambda: session.log_saved(saved), can_cancel=False)
        self.review.mark_saved(saved.path)
        return saved

    def _write_in_task(self, session: ReviewSession, path: Path, fmt: str | None,
                       allow_read_only: bool) -> tuple[Saved, str] | None:
        """``_write`` in the review's one background task, waited for in a local event loop: the window
        paints, scrolls and answers meanwhile, but takes no edit (the review is busy, as while a file is
        cased), so what is written is what the user saved.  Raises what the write raised; None when the
        task ended otherwise (a bug, reported in a box, or the window closed meanwhile).  The review stays
        busy until ``_end_write``."""
        outcome: list[object] = []
        loop = QEventLoop()

        def ended(result: object) -> None:
            if task is self.review.task:  # not cancelled by the window closing, say
                outcome.append(result)
            loop.quit()

        def failed(message: str) -> None:  # not a SubcaseError: a bug, with its traceback
            self.prompts.notify("Cannot save", message, error=True)
            loop.quit()

        task = run_task(partial(_write, session, path, fmt, allow_read_only), ended, failed)
        self.write_task = task
        self.review.begin_task(task)
        name = path.name
        self.status_bar.showMessage(f"Saving {name}… (no edits until it is written)")
        loop.exec()  # the task's end is a queued signal: it cannot have come before this loop runs
        if not outcome:
            return None
        result = outcome[0]
        if isinstance(result, BaseException):
            raise result
        return result  # type: ignore[return-value]

    def _end_write(self) -> None:
        """The save's task is over: the review takes edits again (and those held back meanwhile)."""
        task, self.write_task = self.write_task, None
        if task is not None:
            self.review.end_task(task)

    def _warn(self, path: Path, warnings: list[str]) -> None:
        """The reference parser's check of a saved file (``ReaderCheck``) found that players may misread it."""
        if warnings:
            self.prompts.notify("Saved, but players may misread the file", f"{path}:\n" + "\n".join(warnings),
                                error=True)

    def _save_failed(self, reason: str) -> bool:
        """Say why the save failed and offer Save As; True when the review got saved elsewhere."""
        self.autosaving.save_now()  # the edits are on disk in the snapshot until a save succeeds
        self.status_bar.showMessage(f"Not saved: {reason}", 8000)
        if self.offer_save_as(reason):
            return self.save_as_dialog()
        return False

    def _save_as_box(self, reason: str) -> bool:
        """The message box of a failed save: Save As… or Cancel."""
        box = QMessageBox(QMessageBox.Icon.Warning, "Cannot save",
                          f"{reason}\n\nSave the subtitles under another name or in another folder? "
                          "Until a save succeeds, the edits are kept in the autosave.",
                          QMessageBox.StandardButton.NoButton, self.parent)
        box.setTextFormat(Qt.TextFormat.PlainText)  # file names and error text are untrusted
        save_as = box.addButton("Save As…", QMessageBox.ButtonRole.AcceptRole)
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(save_as)
        box.setEscapeButton(cancel)
        self.save_failed_box = box
        try:
            box.exec()
        finally:
            self.save_failed_box = None
        return box.clickedButton() is save_as

    def _update_profile(self) -> str:
        """The open file's profile learns from this file's log (review/profiles/build.py, ``updated``)."""
        from subcase.review.profiles import store as profile_store
        from subcase.review.profiles.profile import ProfileError
        from subcase.review.profiles.build import updated

        app = self.review.profile_app
        session = self.review.session
        if app is None or session is None or session.log is None:
            return ""
        try:
            app.profile = updated(app.profile, session.log.path)
            profile_store.save(app.profile)
        except ProfileError as exc:
            return f"; profile not updated: {exc}"
        return f"; profile {app.profile.name} updated ({app.profile.size()} entries)"
