"""The programme beside the review: a player, a dockable video pane or waveform strip.

A thin layer over QtMultimedia (the optional ``subcase[media]`` extra,
PySide6-Addons) and ``subcase.media`` (which file, which span, which cue,
which samples).  Without the extra ``multimedia_problem()`` says how to add it
and the window works as before.

Nothing here blocks the GUI thread: finding and fingerprinting the file and
extracting a waveform run in tasks (``workers.probe_media``,
``read_wave``); QMediaPlayer opens and seeks on its own threads and reports
back by signals.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QPainter, QPalette
from PySide6.QtWidgets import QDockWidget, QLabel, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from subcase.media import PlaySpan, Waveform, WaveformWindow, cue_at, peaks
from subcase.subtitles import Document

INSTALL_HINT = "pip install 'subcase[media]'"
# The system libraries QtMultimedia links against that a bare Linux may lack, and their Debian and Ubuntu
# packages: PySide6-Addons' QtMultimedia and its FFmpeg plugin need PulseAudio's client library, which a
# desktop has and a server or container without sound does not (ldd on Debian 12; nothing else was missing).
SYSTEM_LIBRARIES = {"libpulse.so.0": "libpulse0"}
# The video frame's least size: a picture whose cue can be read (the pane used to start about 250x160).
FRAME_MIN_WIDTH = 384
# How often a playing span's end is checked: a cue stops within this (plus the
# back-end's own position step) of its end.
STOP_POLL_MS = 10


def multimedia_problem() -> str | None:
    """Why media cannot play here, or None.  Only the import is tried (cheap: ~10 ms)."""
    import importlib.util

    try:
        import PySide6.QtMultimedia  # noqa: F401
    except ImportError as exc:
        if importlib.util.find_spec("PySide6.QtMultimedia") is None:
            return f"Playing video and audio needs the media extra: {INSTALL_HINT}"
        return broken_multimedia(str(exc))
    return None


def broken_multimedia(error: str) -> str:
    """What to do when QtMultimedia is installed but its import fails with ``error``."""
    library = error.split(":")[0].strip()
    if "cannot open shared object file" in error:
        # reinstalling the extra does not bring a system library: name it, and its package where known
        package = SYSTEM_LIBRARIES.get(library)
        where = f" (Debian and Ubuntu: apt-get install {package})" if package else ""
        return f"Playing video and audio needs the system library {library}, which is missing{where}"
    # a file missing from the install or a bundle: say what broke
    return f"QtMultimedia is installed but cannot be loaded ({error}); reinstall it: {INSTALL_HINT}"


def cue_times(doc: Document | None) -> tuple[list[int], list[int]]:
    """The cues' starts and ends (none without a document)."""
    cues = doc.cues if doc is not None else []
    return [c.start_ms for c in cues], [c.end_ms for c in cues]


def clock_text(ms: int) -> str:
    """A player's time: minutes, seconds and milliseconds (hours when there are any)."""
    ms = max(0, int(ms))
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    return (f"{h}:" if h else "") + f"{m:0{2 if h else 1}d}:{rest // 1000:02d}.{rest % 1000:03d}"


class MediaController(QObject):
    """One QMediaPlayer, a silent-if-need-be audio output and a video sink.

    ``play_span`` plays a cue's span and pauses at its end (checked every
    ``STOP_POLL_MS``); ``play_on`` plays until told to stop; ``show_at`` moves
    the paused player so the sink shows the frame there."""

    opened = Signal(bool, int)     # has video, duration in ms
    failed = Signal(str)
    frame = Signal(QImage)
    position = Signal(int)         # while playing, every poll
    stopped = Signal(int)          # a span ended (position) or playing was stopped

    def __init__(self, parent=None):
        super().__init__(parent)
        from PySide6.QtMultimedia import QAudioOutput, QMediaPlayer, QVideoSink

        self._QMediaPlayer = QMediaPlayer
        self.player = QMediaPlayer(self)
        self.audio = QAudioOutput(self)
        self.player.setAudioOutput(self.audio)
        self.sink = QVideoSink(self)
        self.player.setVideoSink(self.sink)
        self.sink.videoFrameChanged.connect(self._on_frame)
        self.player.mediaStatusChanged.connect(self._on_status)
        self.player.errorOccurred.connect(self._on_error)
        self.path: Path | None = None
        self.ready = False
        self.stop_at: int | None = None
        self.last_span: PlaySpan | None = None
        self._reported = False
        self.poll = QTimer(self)
        self.poll.setTimerType(Qt.TimerType.PreciseTimer)
        self.poll.setInterval(STOP_POLL_MS)
        self.poll.timeout.connect(self._on_poll)

    # ---------------------------------------------------------------- state
    @property
    def duration_ms(self) -> int:
        return max(0, self.player.duration())

    @property
    def has_video(self) -> bool:
        return self.player.hasVideo()

    @property
    def playing(self) -> bool:
        return self.player.playbackState() == self._QMediaPlayer.PlaybackState.PlayingState

    def position_ms(self) -> int:
        return self.player.position()

    # ---------------------------------------------------------------- opening
    def open(self, path: Path) -> None:
        from PySide6.QtCore import QUrl

        self.stop()
        self.path, self.ready, self._reported = Path(path), False, False
        self.player.setSource(QUrl.fromLocalFile(str(path)))

    def close(self) -> None:
        from PySide6.QtCore import QUrl

        self.stop()
        self.path, self.ready = None, False
        self.player.setSource(QUrl())

    def _on_status(self, status) -> None:
        P = self._QMediaPlayer
        if status in (P.MediaStatus.LoadedMedia, P.MediaStatus.BufferedMedia) and not self.ready and self.path is not None:
            self.ready = True
            self.player.pause()  # paused, not stopped: a seek then shows its frame
            self.opened.emit(self.player.hasVideo(), self.duration_ms)
        elif status == P.MediaStatus.InvalidMedia:
            self._fail(self.player.errorString() or "not a video or audio file this player can decode")
        elif status == P.MediaStatus.EndOfMedia:
            self._finish()

    def _on_error(self, _error, text: str = "") -> None:
        self._fail(text or self.player.errorString())

    def _fail(self, text: str) -> None:
        if self._reported:  # InvalidMedia and errorOccurred both come for one bad file: one message
            return
        self._reported = True
        self.ready = False
        self.poll.stop()
        name = self.path.name if self.path is not None else "media"
        self.failed.emit(f"{name}: {text}")

    # ---------------------------------------------------------------- playing
    def play_span(self, span: PlaySpan) -> None:
        self.last_span = span
        self.stop_at = span.end_ms
        self.player.setPosition(span.start_ms)
        self.player.play()
        self.poll.start()

    def play_on(self, start_ms: int) -> None:
        self.stop_at = None
        self.player.setPosition(max(0, start_ms))
        self.player.play()
        self.poll.start()

    def stop(self) -> None:
        if self.playing:
            self.player.pause()
        self._finish()

    def show_at(self, ms: int) -> None:
        if self.ready and not self.playing:
            self.player.setPosition(max(0, min(ms, self.duration_ms)))

    def _on_poll(self) -> None:
        pos = self.player.position()
        if self.stop_at is not None and pos >= self.stop_at:
            self.player.pause()
            self._finish()
            return
        self.position.emit(pos)

    def _finish(self) -> None:
        was = self.poll.isActive()
        self.poll.stop()
        self.stop_at = None
        if was:
            self.stopped.emit(self.player.position())

    def _on_frame(self, frame) -> None:
        if frame.isValid():
            self.frame.emit(frame.toImage())


class FrameView(QWidget):
    """The last video frame, scaled to fit, on black, with the cue shown at that moment drawn over its foot
    as a player would (plain text: drawText never reads markup)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.image: QImage | None = None
        self.caption = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_image(self, image: QImage | None) -> None:
        self.image = image
        self.update()

    def set_caption(self, text: str) -> None:
        if text != self.caption:
            self.caption = text
            self.update()

    def picture_rect(self) -> QRectF:
        """Where the frame is drawn (the whole view before the first frame)."""
        if self.image is None or self.image.isNull():
            return QRectF(self.rect())
        size = self.image.size().scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio)
        return QRectF((self.width() - size.width()) / 2, (self.height() - size.height()) / 2,
                      size.width(), size.height())

    def caption_rect(self) -> QRectF:
        """The box the caption is drawn in: centred near the foot of the picture, as wide as its text."""
        pic = self.picture_rect()
        font = self.caption_font()
        flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom) | int(Qt.TextFlag.TextWordWrap)
        area = pic.adjusted(pic.width() * 0.05, 0, -pic.width() * 0.05, -pic.height() * 0.04)
        text = QFontMetricsF(font).boundingRect(area, flags, self.caption)
        return text.adjusted(-6, -2, 6, 2)

    def caption_font(self) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(max(12, int(self.picture_rect().height() / 16)))  # as on a screen: about 1/16 of the picture
        return font

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), Qt.GlobalColor.black)
        if self.image is not None and not self.image.isNull():
            p.drawImage(self.picture_rect(), self.image)
        if self.caption:
            box = self.caption_rect()
            p.fillRect(box, QColor(0, 0, 0, 170))  # legible over any picture
            p.setFont(self.caption_font())
            p.setPen(Qt.GlobalColor.white)
            p.drawText(box, int(Qt.AlignmentFlag.AlignCenter) | int(Qt.TextFlag.TextWordWrap), self.caption)
        p.end()


class WaveformView(QWidget):
    """The current cue's sound with its neighbours; the cue's span shaded, the playing position a line."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.wave: Waveform | None = None
        self.span: WaveformWindow | None = None
        self.cursor_ms: int | None = None
        self.setMinimumSize(200, 80)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_wave(self, wave: Waveform | None) -> None:
        self.wave = wave
        self.update()

    def set_span(self, span: WaveformWindow | None) -> None:
        self.span = span
        self.update()

    def set_cursor(self, ms: int | None) -> None:
        self.cursor_ms = ms
        self.update()

    def shown_samples(self) -> tuple[int, int] | None:
        """The first and one-past-last sample the strip draws."""
        if self.wave is None or self.span is None:
            return None
        return self.span.samples(self.wave)

    def x_of(self, ms: int) -> float:
        w = self.span
        if w is None or w.end_ms <= w.start_ms:
            return 0.0
        return (ms - w.start_ms) * self.width() / (w.end_ms - w.start_ms)

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        pal = self.palette()
        p.fillRect(self.rect(), pal.color(QPalette.ColorRole.Base))
        if self.span is not None:
            x0, x1 = self.x_of(self.span.cue_start_ms), self.x_of(self.span.cue_end_ms)
            span = QColor(pal.color(QPalette.ColorRole.Highlight))
            span.setAlpha(70)
            p.fillRect(QRectF(x0, 0, max(1.0, x1 - x0), self.height()), span)
        shown = self.shown_samples()
        if shown is not None and self.wave is not None and shown[1] > shown[0]:
            lo, hi = peaks(self.wave.samples[shown[0]:shown[1]], self.width())
            mid, half = self.height() / 2, self.height() / 2 - 2
            p.setPen(pal.color(QPalette.ColorRole.Text))
            for x in range(len(lo)):
                p.drawLine(x, int(mid - hi[x] * half), x, int(mid - lo[x] * half))
        if self.cursor_ms is not None and self.span is not None:
            p.setPen(QColor(220, 40, 40))
            x = int(self.x_of(self.cursor_ms))
            p.drawLine(x, 0, x, self.height())
        p.end()


class MediaDock(QDockWidget):
    """The dockable pane: the frame for video, the waveform strip for sound, or a message."""

    def __init__(self, parent=None):
        super().__init__("Media", parent)
        self.setObjectName("media-dock")
        body = QWidget(self)
        box = QVBoxLayout(body)
        box.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("")
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # file names and errors are untrusted text
        self.label.setWordWrap(True)
        self.clock = QLabel("")  # the player's position and whether it plays
        self.clock.setTextFormat(Qt.TextFormat.PlainText)
        self.stack = QStackedWidget(body)
        self.message = QLabel("")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.frame_view = FrameView(self.stack)
        self.wave_view = WaveformView(self.stack)
        for w in (self.message, self.frame_view, self.wave_view):
            self.stack.addWidget(w)
        box.addWidget(self.stack, 1)
        box.addWidget(self.clock)
        box.addWidget(self.label)
        self.setWidget(body)

    def show_moment(self, doc: Document | None, ms: int, duration_ms: int, playing: bool) -> None:
        """The cue of ``doc`` shown at ``ms`` over the frame, and the time and playing state under it."""
        row = cue_at(*cue_times(doc), ms) if doc is not None else None
        self.frame_view.set_caption(doc.cues[row].text if doc is not None and row is not None else "")
        self.clock.setText(f"{clock_text(ms)} / {clock_text(duration_ms)} \u00b7 {'playing' if playing else 'paused'}")

    def _show(self, page: QWidget) -> None:
        # the frame's least size only while a video shows: a message or the strip leaves the review its room
        video = page is self.frame_view
        self.frame_view.setMinimumSize(FRAME_MIN_WIDTH if video else 160, FRAME_MIN_WIDTH * 9 // 16 if video else 90)
        self.stack.setCurrentWidget(page)

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self._show(self.message)

    def show_video(self) -> None:
        self._show(self.frame_view)

    def show_wave(self) -> None:
        self._show(self.wave_view)
