"""The waveform strip's samples for sound other than PCM WAV, from QtMultimedia's decoder.

The decoder is driven from the GUI thread.  It decodes on its own FFmpeg threads and hands each
buffer over through a queued signal; turning a buffer into a few hundred thinned samples is all
that runs here.  Driven from a worker thread instead (a nested event loop in a pool thread, as
before), it deadlocked now and then: the worker, holding the GIL, called into the decoder, whose
FFmpeg plugin waited for Qt's signal-slot mutex, which the GUI thread held while it waited for the
GIL to finish deallocating a Python object.  Here no Python code runs off the GUI thread.

This module imports QtMultimedia, which only the optional media extra installs: import it only where a
player exists (``media_tasks.MediaTasks._decode``), never at the top of a module the window loads
(tests/test_architecture.py).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, QTimer, QUrl, Signal
from PySide6.QtMultimedia import QAudioDecoder, QAudioFormat

from subcase.media import Thinning


# a decoder that gives nothing for this long has stalled (a file it cannot finish): the strip is given up
DECODER_SILENCE_S = 30

# how each sample format the decoder hands over becomes floats in [-1, 1] (None: unsigned 8-bit)
_SCALE = {QAudioFormat.SampleFormat.UInt8: None, QAudioFormat.SampleFormat.Int16: ("<i2", 32768.0),
          QAudioFormat.SampleFormat.Int32: ("<i4", 2147483648.0), QAudioFormat.SampleFormat.Float: ("<f4", 1.0)}


class WaveformSignals(QObject):
    ready = Signal(object)       # a media.Waveform
    failed = Signal(str)


class SoundDecoding(QObject):
    """One sound file decoded for the strip: ``signals.ready`` with a ``media.Waveform``, or
    ``signals.failed`` with a message; ``cancel`` stops it (a new file, the window closing).
    Made, started and cancelled on the GUI thread; ``done`` is set once it has ended either way."""

    def __init__(self, path: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.path = Path(path)
        self.signals = WaveformSignals()
        self.done = threading.Event()
        self._thinning = Thinning()
        self._last = 0.0
        # The decoder's own format: asking QAudioDecoder (FFmpeg back-end, Qt 6.11) for another
        # rate or sample format makes it decode nothing and never finish.
        self._decoder = QAudioDecoder(self)
        self._decoder.bufferReady.connect(self._take)
        self._decoder.finished.connect(self._finish)
        self._decoder.error.connect(self._fail)
        self._watch = QTimer(self)
        self._watch.setInterval(500)
        self._watch.timeout.connect(self._check)

    def start(self) -> None:
        self._last = time.monotonic()
        self._decoder.setSource(QUrl.fromLocalFile(str(self.path)))
        self._decoder.start()
        self._watch.start()

    def cancel(self) -> None:
        if not self.done.is_set():
            self._end()

    def _take(self) -> None:
        if self.done.is_set():
            return
        self._last = time.monotonic()
        buf = self._decoder.read()
        if not buf.isValid():
            return
        fmt = buf.format()
        raw = bytes(buf.constData())
        kind = _SCALE.get(fmt.sampleFormat())
        if kind is None:
            data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
        else:
            data = np.frombuffer(raw, dtype=kind[0]).astype(np.float32) / kind[1]
        channels = max(1, fmt.channelCount())
        mono = data[:len(data) - len(data) % channels].reshape(-1, channels).mean(axis=1)
        self._thinning.add(mono, fmt.sampleRate())

    def _finish(self) -> None:
        if self.done.is_set():
            return
        self._end()
        self.signals.ready.emit(self._thinning.waveform())

    def _fail(self, *_error: object) -> None:
        self._give_up(self._decoder.errorString() or "unknown format")

    def _check(self) -> None:
        if time.monotonic() - self._last > DECODER_SILENCE_S:
            self._give_up(f"the decoder gave nothing for {DECODER_SILENCE_S} s")

    def _give_up(self, why: str) -> None:
        if self.done.is_set():
            return
        self._end()
        self.signals.failed.emit(f"{self.path}: the sound cannot be decoded ({why})")

    def _end(self) -> None:
        self.done.set()  # first: stopping the decoder can emit ``finished`` at once, which must report nothing
        self._watch.stop()
        self._decoder.stop()
