"""The window's media: which file plays beside the review, the play keys, follow playback.

The media file of a subtitle file is, in order: the
one given (File › Open Media…, ``subcase FILE --media PATH``), the one
remembered for it (settings, autosave), the same-stem file beside it.  What is
remembered is the media's path, name and fingerprint, in the settings and the
crash-recovery snapshot only: nothing about the media goes into the subtitle
or the edit log.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout, QMainWindow, \
    QWidget

from subcase.media import MEDIA_SUFFIXES, MediaRef, Waveform, cue_at, play_span, strip_window
from subcase.subtitles import Document

from .cue_view import COL_TEXT, CueView
from .media import FRAME_MIN_WIDTH, INSTALL_HINT, cue_times, MediaController, MediaDock, multimedia_problem
from .open_review import OpenReview
from .prompts import Prompts
from .media_tasks import MediaTasks
from .settings import Settings
from .tasks import run_task
from .workers import MediaFound, probe_media

# Arrow keys held down move many cues a second: seek once they pause.
SHOW_FRAME_DELAY_MS = 60


def media_filter() -> str:
    return "Video and audio (" + " ".join(f"*{s}" for s in MEDIA_SUFFIXES) + ");;All files (*)"


class LeadDialog(QDialog):
    def __init__(self, lead_in_ms: int, lead_out_ms: int, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Lead-in and Lead-out")
        form = QFormLayout(self)
        self.lead_in, self.lead_out = QDoubleSpinBox(self), QDoubleSpinBox(self)
        for box, value in ((self.lead_in, lead_in_ms), (self.lead_out, lead_out_ms)):
            box.setRange(0.0, 5.0)
            box.setSingleStep(0.1)
            box.setDecimals(2)
            box.setSuffix(" s")
            box.setValue(value / 1000)
        form.addRow("Play from before the cue's start:", self.lead_in)
        form.addRow("Play on after the cue's end:", self.lead_out)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    @classmethod
    def open_for(cls, settings: Settings, parent: QWidget) -> LeadDialog:
        """The dialog over ``parent``, the settings' lead-in and lead-out changed when it is accepted."""
        dialog = cls(settings.lead_in_ms, settings.lead_out_ms, parent)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            settings.lead_in_ms = round(dialog.lead_in.value() * 1000)
            settings.lead_out_ms = round(dialog.lead_out.value() * 1000)

        dialog.accepted.connect(apply)
        dialog.open()
        return dialog


class WindowMedia(QObject):
    """``media`` (a MediaController, None without the extra), ``media_dock``, ``media_ref``."""

    media_opened = Signal(str)  # the media file's name, once the player has it loaded
    media_failed = Signal(str)  # the one message shown for media that cannot be played
    state_changed = Signal()    # opened, closed, playing or stopped: which play keys apply may have changed

    def __init__(self, parent: QMainWindow, review: OpenReview, prompts: Prompts, settings: Settings, view: CueView):
        super().__init__(parent)
        self.review = review
        self.prompts = prompts
        self.parent_window = parent  # the dock's window and the dialogs' parent
        self.settings = settings
        self.view = view
        self.status_bar = prompts.status_bar
        self.media_problem = multimedia_problem()
        self.media: MediaController | None = None
        self.media_ref: MediaRef | None = None
        self.media_has_video = False
        self.media_wave: Waveform | None = None
        self.pending_media: Path | None = None   # --media PATH, for the next file opened
        self._media_named = False
        self._probe_serial = 0
        self._follow_guard = False
        self.media_dock = MediaDock(parent)
        self.tasks = MediaTasks(self.media_dock, self.status_bar)
        parent.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.media_dock)
        self._show_frame_timer = QTimer(parent)
        self._show_frame_timer.setSingleShot(True)
        self._show_frame_timer.setInterval(SHOW_FRAME_DELAY_MS)
        self._show_frame_timer.timeout.connect(self.show_current_cue)
        if self.media_problem:
            self.media_dock.show_message(self.media_problem)
        else:
            self.media = MediaController(parent)
            self.media.opened.connect(self._on_media_opened)
            self.media.failed.connect(self._on_media_failed)
            self.media.frame.connect(self.media_dock.frame_view.set_image)
            self.media.position.connect(self._on_media_position)
            self.media.stopped.connect(self._show_moment)
            self.media.stopped.connect(lambda _pos: self.state_changed.emit())
            self.media_dock.show_message("No media open.\nFile \u203a Open Media\u2026 picks a video or audio file.")
        self.view.selectionModel().currentRowChanged.connect(self._media_row_changed)
        review.casing_finished.connect(self.open_session_media)

    # ------------------------------------------------------------------ choosing the file
    def open_media_dialog(self) -> None:
        if self.media is None:
            self.prompts.notify("Media", self.media_problem or "")
            return
        start = str(self.review.doc.path.parent) if self.review.doc is not None and self.review.doc.path else ""
        name, _ = QFileDialog.getOpenFileName(self.parent_window, "Open Media", start, media_filter())
        if name:
            self.open_media(Path(name))

    def open_media(self, path: Path | None = None, remembered: MediaRef | None = None) -> None:
        """Find (off the GUI thread) and open the media for the open subtitle file:
        ``path`` if given, else ``remembered``, else the same-stem file."""
        if self.media is None:
            if path is not None:
                self.prompts.notify("Media", self.media_problem or "", error=True)
            return
        source = self.review.session.source if self.review.session is not None else None
        # a file the user named gets a dialog if it fails; one found by itself only the pane and status bar
        self._media_named = path is not None
        self._probe_serial += 1
        serial = self._probe_serial
        task = run_task(partial(probe_media, source, path, remembered), lambda found: self._on_media_probed(serial, found),
                        lambda msg: self._on_media_failed(msg) if serial == self._probe_serial else None)
        self.tasks.keep(task)

    def _on_media_probed(self, serial: int, found: MediaFound) -> None:
        if found.mismatch:
            self.status_bar.showMessage(f"Remembered media not opened: {found.mismatch} is no longer the file "
                                        "chosen for these subtitles", 10000)
        if found.ref is None:
            self._on_media_none(serial)
        else:
            self._on_media_found(serial, found.ref)

    def open_session_media(self) -> None:
        """A subtitle file was opened: its media, as given, remembered or beside it."""
        if self.review.session is None:
            return
        explicit, self.pending_media = self.pending_media, None
        remembered = None if explicit is not None else self.settings.media_for(self.review.session.source)
        self.open_media(explicit, remembered)

    def _on_media_found(self, serial: int, ref: MediaRef) -> None:
        if serial != self._probe_serial or self.media is None:
            return
        self.tasks.cancel()
        self.media_ref = ref
        self.media_has_video, self.media_wave = False, None
        self.media_dock.show_message(f"Opening {ref.name}\u2026")
        self.media_dock.label.setText(ref.name)
        self.media.open(ref.path)
        if self.review.session is not None:
            self.settings.set_media_for(self.review.session.source, ref)
        self.state_changed.emit()

    def _on_media_none(self, serial: int) -> None:
        if serial != self._probe_serial or self.media is None:
            return
        self.close_media()

    def close_media(self) -> None:
        self.tasks.cancel()
        if self.media is not None:
            self.media.close()
        self.media_ref, self.media_has_video, self.media_wave = None, False, None
        self.media_dock.label.setText("")
        if self.media is not None:
            self.media_dock.show_message("No media open.\nFile \u203a Open Media\u2026 picks a video or audio file.")
        self.state_changed.emit()

    def _on_media_opened(self, has_video: bool, duration_ms: int) -> None:
        ref = self.media_ref
        self.media_has_video = has_video
        if has_video:  # a picture whose cue can be read: two fifths of the window, at least the frame's least
            self.media_dock.show_video()
            self.parent_window.resizeDocks([self.media_dock], [max(FRAME_MIN_WIDTH + 24, self.parent_window.width() * 2 // 5)],
                                           Qt.Orientation.Horizontal)
        else:
            self.media_dock.show_wave()
            if ref is not None:
                self.tasks.read_wave(ref.path, lambda path: self.media_ref is not None and self.media_ref.path == path,
                                     self._on_wave)
        name = ref.name if ref is not None else "media"
        last = self.review.doc.cues[-1].end_ms if self.review.doc is not None and self.review.doc.cues else 0
        short = (f"; it ends at {duration_ms / 1000:.1f} s, before the last cue ({last / 1000:.1f} s)"
                 if duration_ms and last > duration_ms else "")
        self.media_dock.label.setText(f"{name} \u2014 {duration_ms / 1000:.1f} s{short}")
        self.status_bar.showMessage(f"Media: {name}{short}", 8000)
        self.state_changed.emit()
        self.show_current_cue()
        self.media_opened.emit(name)

    def _on_wave(self, path: Path, wave) -> None:
        if self.media_ref is None or self.media_ref.path != path:
            return
        self.media_wave = wave
        self.media_dock.wave_view.set_wave(wave)
        self.show_current_cue()

    def _on_media_failed(self, message: str) -> None:
        """One clear message; the review goes on without media."""
        ref = self.media_ref
        if self.media is not None:
            self.media.close()
        self.media_ref, self.media_has_video, self.media_wave = None, False, None
        if ref is not None and self.review.session is not None:
            self.settings.set_media_for(self.review.session.source, None)
        text = f"The media cannot be played, the review goes on without it.\n{message.strip()}"
        self.media_dock.show_message(text)
        self.media_dock.label.setText("")
        if self._media_named:
            self.prompts.notify("Cannot open media", text, error=True)
        else:
            self.prompts.last_error = text
            self.status_bar.showMessage(text.replace("\n", " "), 15000)
        self.state_changed.emit()
        self.media_failed.emit(message)

    # ------------------------------------------------------------------ playing
    def _current_row(self) -> int | None:
        if self.review.session is None:
            return None
        if self.review.session.state.current is not None:
            return self.review.session.state.current[0]
        row = self.view.currentIndex().row()
        return row if row >= 0 else None

    def _ready(self) -> tuple[MediaController, Document] | None:
        """The player and the document, when media is loaded beside an open file."""
        media, doc = self.media, self.review.doc
        return (media, doc) if media is not None and media.ready and doc is not None else None

    def play_cue(self, row: int | None = None) -> bool:
        """Play the cue (the current one by default) from its start to its end, with the lead-in and lead-out.
        Pressed again while playing, it stops."""
        ready = self._ready()
        if ready is None:
            self._say_no_media()
            return False
        media, doc = ready
        if media.playing and row is None:
            media.stop()
            return False
        row = self._current_row() if row is None else row
        if row is None:
            return False
        cue = doc.cues[row]
        span = play_span(cue.start_ms, cue.end_ms, self.settings.lead_in_ms, self.settings.lead_out_ms,
                         media.duration_ms or None)
        if span.empty:
            self.status_bar.showMessage(
                f"Cue {row + 1} starts after the media ends ({media.duration_ms / 1000:.1f} s)", 8000)
            return False
        media.play_span(span)
        self.state_changed.emit()
        return True

    def replay(self) -> bool:
        ready = self._ready()
        if ready is None:
            self._say_no_media()
            return False
        media = ready[0]
        if media.last_span is None:
            return self.play_cue()
        media.play_span(media.last_span)
        return True

    def play_on(self) -> bool:
        """Play from the current cue's start (less the lead-in) on, until stopped."""
        ready = self._ready()
        if ready is None:
            self._say_no_media()
            return False
        media, doc = ready
        row = self._current_row()
        if row is None:
            return False
        media.play_on(max(0, doc.cues[row].start_ms - self.settings.lead_in_ms))
        self.state_changed.emit()
        return True

    def stop_media(self) -> None:
        if self.media is not None:
            self.media.stop()

    def _say_no_media(self) -> None:
        text = self.media_problem or "No media open: File \u203a Open Media\u2026"
        self.status_bar.showMessage(text, 8000)

    def after_next(self) -> None:
        """N: play the cue of the flagged word reached, when the user turned that on."""
        if self.settings.play_at_flagged and self._ready() is not None and self.review.session is not None \
                and self.review.session.state.current is not None:
            self.play_cue(self.review.session.state.current[0])

    def _show_moment(self, ms: int) -> None:
        """The cue shown at ``ms`` over the frame; the time and whether it plays."""
        if self.media is not None:
            self.media_dock.show_moment(self.review.doc, ms, self.media.duration_ms, self.media.playing)

    def _on_media_position(self, ms: int) -> None:
        self.media_dock.wave_view.set_cursor(ms)
        self._show_moment(ms)
        if not self.settings.follow_playback or self.review.doc is None:
            return
        starts, ends = cue_times(self.review.doc)
        row = cue_at(starts, ends, ms)
        if row is None or row == self.view.currentIndex().row():
            return
        self._follow_guard = True
        try:
            index = self.view.cue_model.index(row, COL_TEXT)
            self.view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            self.view.scrollTo(index)
        finally:
            self._follow_guard = False

    # ------------------------------------------------------------------ the pane follows the cue
    def _media_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._follow_guard or self.media is None:
            if self._follow_guard and self.media_wave is not None:
                self._show_wave_window(current.row())
            return
        self._show_frame_timer.start()

    def show_current_cue(self) -> None:
        row = self._current_row()
        if row is None or self.review.doc is None or not self.review.doc.cues or self.media is None or not self.media.ready:
            return
        if not self.media.playing:
            self.media.show_at(self.review.doc.cues[row].start_ms)
            self._show_moment(self.review.doc.cues[row].start_ms)
        self._show_wave_window(row)

    def _show_wave_window(self, row: int) -> None:
        if self.media_wave is None or self.review.doc is None or not (0 <= row < len(self.review.doc.cues)):
            return
        starts, ends = cue_times(self.review.doc)
        self.media_dock.wave_view.set_span(strip_window(starts, ends, row))



__all__ = ["WindowMedia", "INSTALL_HINT"]
