"""The window's media: which file plays beside the review, the play keys, follow playback.

A mixin for MainWindow.  The media file of a subtitle file is, in order: the
one given (File › Open Media…, ``subcase FILE --media PATH``), the one
remembered for it (settings, autosave), the same-stem file beside it.  What is
remembered is the media's path, name and fingerprint, in the settings and the
crash-recovery snapshot only: nothing about the media goes into the subtitle
or the edit log.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QThreadPool, Qt, QTimer
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout

from subcase.media import MEDIA_SUFFIXES, MediaRef, cue_at, play_span, strip_window

from .cue_view import COL_TEXT
from .media import INSTALL_HINT, MediaController, MediaDock, multimedia_problem
from .workers import MediaProbeTask, WaveformTask

# Arrow keys held down move many cues a second: seek once they pause.
SHOW_FRAME_DELAY_MS = 60


def media_filter() -> str:
    return "Video and audio (" + " ".join(f"*{s}" for s in MEDIA_SUFFIXES) + ");;All files (*)"


class LeadDialog(QDialog):
    def __init__(self, lead_in_ms: int, lead_out_ms: int, parent=None):
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


class MediaMixin:
    """``media`` (a MediaController, None without the extra), ``media_dock``, ``media_ref``."""

    def _init_media(self) -> None:
        self.media_problem = multimedia_problem()
        self.media: MediaController | None = None
        self.media_ref: MediaRef | None = None
        self.media_has_video = False
        self.media_wave = None
        self.pending_media: Path | None = None   # --media PATH, for the next file opened
        self._media_named = False
        self._media_tasks: list = []             # running workers (kept alive until done)
        self._probe_serial = 0
        self._follow_guard = False
        self.media_dock = MediaDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.media_dock)
        self._show_frame_timer = QTimer(self)
        self._show_frame_timer.setSingleShot(True)
        self._show_frame_timer.setInterval(SHOW_FRAME_DELAY_MS)
        self._show_frame_timer.timeout.connect(self._show_current_cue)
        if self.media_problem:
            self.media_dock.show_message(self.media_problem)
        else:
            self.media = MediaController(self)
            self.media.opened.connect(self._on_media_opened)
            self.media.failed.connect(self._on_media_failed)
            self.media.frame.connect(self.media_dock.frame_view.set_image)
            self.media.position.connect(self._on_media_position)
            self.media.stopped.connect(lambda _pos: self._update_media_actions())
            self.media_dock.show_message("No media open.\nFile \u203a Open Media\u2026 picks a video or audio file.")
        self.view.selectionModel().currentRowChanged.connect(self._media_row_changed)
        self.casing_finished.connect(self._open_session_media)

    # ------------------------------------------------------------------ choosing the file
    def open_media_dialog(self) -> None:
        if self.media is None:
            self.notify("Media", self.media_problem or "")
            return
        start = str(self.doc.path.parent) if self.doc is not None and self.doc.path else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open Media", start, media_filter())
        if name:
            self.open_media(Path(name))

    def open_media(self, path: Path | None = None, remembered: MediaRef | None = None) -> None:
        """Find (off the GUI thread) and open the media for the open subtitle file:
        ``path`` if given, else ``remembered``, else the same-stem file."""
        if self.media is None:
            if path is not None:
                self.notify("Media", self.media_problem or "", error=True)
            return
        source = self.session.source if self.session is not None else None
        # a file the user named gets a dialog if it fails; one found by itself only the pane and status bar
        self._media_named = path is not None
        self._probe_serial += 1
        serial = self._probe_serial
        task = MediaProbeTask(source, path, remembered)
        task.signals.found.connect(lambda ref: self._on_media_found(serial, ref))
        task.signals.none.connect(lambda: self._on_media_none(serial))
        task.signals.failed.connect(lambda msg: self._on_media_failed(msg) if serial == self._probe_serial else None)
        self._start_media_task(task)

    def _start_media_task(self, task) -> None:
        self._media_tasks = [t for t in self._media_tasks if not t.done.is_set()] + [task]
        QThreadPool.globalInstance().start(task)

    def _open_session_media(self) -> None:
        """A subtitle file was opened: its media, as given, remembered or beside it."""
        if self.session is None:
            return
        explicit, self.pending_media = self.pending_media, None
        remembered = None if explicit is not None else self.settings.media_for(self.session.source)
        self.open_media(explicit, remembered)

    def _on_media_found(self, serial: int, ref: MediaRef) -> None:
        if serial != self._probe_serial or self.media is None:
            return
        self.cancel_media_tasks()
        self.media_ref = ref
        self.media_has_video, self.media_wave = False, None
        self.media_dock.show_message(f"Opening {ref.name}\u2026")
        self.media_dock.label.setText(ref.name)
        self.media.open(ref.path)
        if self.session is not None:
            self.settings.set_media_for(self.session.source, ref)
        self._update_media_actions()

    def _on_media_none(self, serial: int) -> None:
        if serial != self._probe_serial or self.media is None:
            return
        self.close_media()

    def cancel_media_tasks(self) -> None:
        """Stop waveform extraction in progress (a new file, closing the window)."""
        for task in self._media_tasks:
            if hasattr(task, "cancel"):
                task.cancel()

    def close_media(self) -> None:
        self.cancel_media_tasks()
        if self.media is not None:
            self.media.close()
        self.media_ref, self.media_has_video, self.media_wave = None, False, None
        self.media_dock.label.setText("")
        if self.media is not None:
            self.media_dock.show_message("No media open.\nFile \u203a Open Media\u2026 picks a video or audio file.")
        self._update_media_actions()

    def _on_media_opened(self, has_video: bool, duration_ms: int) -> None:
        ref = self.media_ref
        self.media_has_video = has_video
        if has_video:
            self.media_dock.show_video()
        else:
            self.media_dock.show_wave()
            if ref is not None:
                task = WaveformTask(ref.path)
                task.signals.ready.connect(lambda w, path=ref.path: self._on_wave(path, w))
                task.signals.failed.connect(lambda msg: self.statusBar().showMessage(
                    f"No waveform: {msg.splitlines()[0]}", 8000))
                self._start_media_task(task)
        name = ref.name if ref is not None else "media"
        last = self.doc.cues[-1].end_ms if self.doc is not None and self.doc.cues else 0
        short = (f"; it ends at {duration_ms / 1000:.1f} s, before the last cue ({last / 1000:.1f} s)"
                 if duration_ms and last > duration_ms else "")
        self.media_dock.label.setText(f"{name} \u2014 {duration_ms / 1000:.1f} s{short}")
        self.statusBar().showMessage(f"Media: {name}{short}", 8000)
        self._update_media_actions()
        self._show_current_cue()
        self.media_opened.emit(name)

    def _on_wave(self, path: Path, wave) -> None:
        if self.media_ref is None or self.media_ref.path != path:
            return
        self.media_wave = wave
        self.media_dock.wave_view.set_wave(wave)
        self._show_current_cue()

    def _on_media_failed(self, message: str) -> None:
        """One clear message; the review goes on without media."""
        ref = self.media_ref
        if self.media is not None:
            self.media.close()
        self.media_ref, self.media_has_video, self.media_wave = None, False, None
        if ref is not None and self.session is not None:
            self.settings.set_media_for(self.session.source, None)
        text = f"The media cannot be played, the review goes on without it.\n{message.strip()}"
        self.media_dock.show_message(text)
        self.media_dock.label.setText("")
        if self._media_named:
            self.notify("Cannot open media", text, error=True)
        else:
            self.last_error = text
            self.statusBar().showMessage(text.replace("\n", " "), 15000)
        self._update_media_actions()
        self.media_failed.emit(message)

    # ------------------------------------------------------------------ playing
    def _cue_times(self) -> tuple[list[int], list[int]]:
        cues = self.doc.cues if self.doc is not None else []
        return [c.start_ms for c in cues], [c.end_ms for c in cues]

    def _current_row(self) -> int | None:
        if self.session is None:
            return None
        if self.session.state.current is not None:
            return self.session.state.current[0]
        row = self.view.currentIndex().row()
        return row if row >= 0 else None

    def media_ready(self) -> bool:
        return self.media is not None and self.media.ready and self.doc is not None

    def play_cue(self, row: int | None = None) -> bool:
        """Play the cue (the current one by default) from its start to its end, with the lead-in and lead-out.
        Pressed again while playing, it stops."""
        if not self.media_ready():
            self._say_no_media()
            return False
        if self.media.playing and row is None:
            self.media.stop()
            return False
        row = self._current_row() if row is None else row
        if row is None:
            return False
        cue = self.doc.cues[row]
        span = play_span(cue.start_ms, cue.end_ms, self.settings.lead_in_ms, self.settings.lead_out_ms,
                         self.media.duration_ms or None)
        if span.empty:
            self.statusBar().showMessage(
                f"Cue {row + 1} starts after the media ends ({self.media.duration_ms / 1000:.1f} s)", 8000)
            return False
        self.media.play_span(span)
        self._update_media_actions()
        return True

    def replay(self) -> bool:
        if not self.media_ready():
            self._say_no_media()
            return False
        if self.media.last_span is None:
            return self.play_cue()
        self.media.play_span(self.media.last_span)
        return True

    def play_on(self) -> bool:
        """Play from the current cue's start (less the lead-in) on, until stopped."""
        if not self.media_ready():
            self._say_no_media()
            return False
        row = self._current_row()
        if row is None:
            return False
        self.media.play_on(max(0, self.doc.cues[row].start_ms - self.settings.lead_in_ms))
        self._update_media_actions()
        return True

    def stop_media(self) -> None:
        if self.media is not None:
            self.media.stop()

    def _say_no_media(self) -> None:
        text = self.media_problem or "No media open: File \u203a Open Media\u2026"
        self.statusBar().showMessage(text, 8000)

    def _after_next(self) -> None:
        """N: play the cue of the flagged word reached, when the user turned that on."""
        if self.settings.play_at_flagged and self.media_ready() and self.session is not None \
                and self.session.state.current is not None:
            self.play_cue(self.session.state.current[0])

    def _on_media_position(self, ms: int) -> None:
        self.media_dock.wave_view.set_cursor(ms)
        if not self.settings.follow_playback or self.doc is None:
            return
        starts, ends = self._cue_times()
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
    def _media_row_changed(self, current, _previous) -> None:
        if self._follow_guard or self.media is None:
            if self._follow_guard and self.media_wave is not None:
                self._show_wave_window(current.row())
            return
        self._show_frame_timer.start()

    def _show_current_cue(self) -> None:
        row = self._current_row()
        if row is None or self.doc is None or not self.doc.cues or self.media is None or not self.media.ready:
            return
        if not self.media.playing:
            self.media.show_at(self.doc.cues[row].start_ms)
        self._show_wave_window(row)

    def _show_wave_window(self, row: int) -> None:
        if self.media_wave is None or self.doc is None or not (0 <= row < len(self.doc.cues)):
            return
        starts, ends = self._cue_times()
        self.media_dock.wave_view.set_span(strip_window(starts, ends, row))

    # ------------------------------------------------------------------ settings
    def lead_dialog(self) -> LeadDialog:
        dialog = LeadDialog(self.settings.lead_in_ms, self.settings.lead_out_ms, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            self.settings.lead_in_ms = round(dialog.lead_in.value() * 1000)
            self.settings.lead_out_ms = round(dialog.lead_out.value() * 1000)

        dialog.accepted.connect(apply)
        dialog.open()
        return dialog

    def _update_media_actions(self) -> None:
        if not hasattr(self, "act_play_cue"):
            return
        ready = self.media is not None and self.media.ready and self.session is not None
        for a in (self.act_play_cue, self.act_replay, self.act_play_on, self.act_stop_media):
            a.setEnabled(ready)
        # without the extra it stays enabled: choosing it says how to add the extra
        self.act_open_media.setEnabled(self.media is None or not self.busy)


__all__ = ["MediaMixin", "INSTALL_HINT"]
