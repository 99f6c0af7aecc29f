"""The media's background work: finding the file, the waveform strip's samples; each kept until it is done.

A PCM WAV is read in a task (``workers.read_wave``); any other sound, or a WAV
that reader refuses, is decoded by QtMultimedia's decoder on its own threads,
driven from the GUI thread (gui/sound_decoding.py says why).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from PySide6.QtWidgets import QStatusBar, QWidget

from subcase.media import Waveform

from .tasks import Task, run_task
from .workers import read_wave

if TYPE_CHECKING:
    # it imports QtMultimedia (the optional media extra) as it loads: imported where used, in _decode
    from .sound_decoding import SoundDecoding


class MediaTasks:
    """``keep`` a running task, ``cancel`` them all (a new file, the window closing), ``read_wave``."""

    def __init__(self, parent: QWidget, status_bar: QStatusBar):
        self.parent = parent  # the decoder's parent
        self.status_bar = status_bar
        self.running: list[Task | SoundDecoding] = []

    def keep(self, task: Task | SoundDecoding) -> None:
        """Keep a running task alive (and cancellable) until it is done."""
        self.running = [t for t in self.running if not t.done.is_set()] + [task]

    def cancel(self) -> None:
        for task in self.running:
            task.cancel()

    def read_wave(self, path: Path, wanted: Callable[[Path], bool], on_wave: Callable[[Path, Waveform], None]) -> None:
        """The samples of ``path`` for the strip, to ``on_wave`` while ``wanted(path)`` (another file may have
        been opened meanwhile); a failure is said in the status bar."""
        if path.suffix.lower() == ".wav":
            self.keep(run_task(partial(read_wave, path),
                               lambda wave: on_wave(path, wave) if wave is not None else self._decode(path, wanted,
                                                                                                      on_wave),
                               self._no_wave))
        else:
            self._decode(path, wanted, on_wave)

    def _decode(self, path: Path, wanted: Callable[[Path], bool], on_wave: Callable[[Path, Waveform], None]) -> None:
        if not wanted(path):
            return
        # here, not at the top: it imports QtMultimedia, which only the media extra installs, and the
        # window must start without it (issue #53); a player exists, so the extra is there
        from .sound_decoding import SoundDecoding

        decoding = SoundDecoding(path, self.parent)
        decoding.signals.ready.connect(lambda w: on_wave(path, w))
        decoding.signals.failed.connect(self._no_wave)
        decoding.signals.ready.connect(decoding.deleteLater)
        decoding.signals.failed.connect(decoding.deleteLater)
        self.keep(decoding)
        decoding.start()

    def _no_wave(self, message: str) -> None:
        self.status_bar.showMessage(f"No waveform: {message.splitlines()[0]}", 8000)
