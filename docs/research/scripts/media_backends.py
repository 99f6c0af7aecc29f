"""Compare the two candidate media back-ends on files made here with ffmpeg.

    python docs/research/scripts/media_backends.py [qt|mpv|make] [DIR]

``make`` writes the test files (ffmpeg needed); ``qt`` and ``mpv`` print, per
file, whether it opens, the time from creating the player to loaded media, and
for each seek target the position the back-end reports and (for video) the
start time of the frame it shows.  Each back-end runs in its own process so
one's libraries never serve the other.  Figures: docs/research, media back-end.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TARGETS = (1.37, 3.21, 4.05)  # seconds: none on a keyframe (-g 50 at 25 fps: keyframes every 2 s)
FILES = {
    "h264-aac.mkv": ["-c:v", "libx264", "-g", "50", "-c:a", "aac"],
    "h265-aac.mp4": ["-c:v", "libx265", "-g", "50", "-c:a", "aac", "-tag:v", "hvc1"],
    "vp9-opus.webm": ["-c:v", "libvpx-vp9", "-g", "50", "-deadline", "realtime", "-c:a", "libopus"],
    "av1-opus.mkv": ["-c:v", "libsvtav1", "-g", "50", "-c:a", "libopus"],
    "speech.mp3": ["-vn", "-c:a", "libmp3lame"],
    "speech.wav": ["-vn", "-c:a", "pcm_s16le"],
}


def make(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, codec in FILES.items():
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=6",
                        "-f", "lavfi", "-i", "sine=frequency=440:duration=6:sample_rate=48000",
                        "-pix_fmt", "yuv420p", *codec, "-shortest", str(folder / name)], check=True)


def bench_qt(folder: Path) -> None:
    t0 = time.perf_counter()
    from PySide6.QtCore import QEventLoop, QTimer, QUrl
    from PySide6.QtMultimedia import QAudioOutput, QMediaPlayer, QVideoSink
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    print(f"qt: import + QApplication {1000 * (time.perf_counter() - t0):.0f} ms")

    def wait(signal, until, ms=5000) -> bool:
        loop = QEventLoop()
        signal.connect(lambda *_: until() and loop.quit())
        QTimer.singleShot(ms, loop.quit)
        if not until():
            loop.exec()
        return until()

    keep = []
    for name in FILES:
        t1 = time.perf_counter()
        player = QMediaPlayer()
        audio = QAudioOutput()
        player.setAudioOutput(audio)
        sink = QVideoSink()
        player.setVideoSink(sink)
        frames: list[float] = []
        sink.videoFrameChanged.connect(lambda f, frames=frames: frames.append(f.startTime() / 1e6))
        player.setSource(QUrl.fromLocalFile(str(folder / name)))
        ok = wait(player.mediaStatusChanged, lambda player=player: player.mediaStatus() in (
            QMediaPlayer.LoadedMedia, QMediaPlayer.InvalidMedia))
        loaded = 1000 * (time.perf_counter() - t1)
        if not ok or player.mediaStatus() == QMediaPlayer.InvalidMedia:
            print(f"qt: {name}: FAILED {player.errorString()}")
            continue
        player.pause()
        seeks = []
        for t in TARGETS:
            frames.clear()
            player.setPosition(int(t * 1000))
            if player.hasVideo():
                wait(sink.videoFrameChanged, lambda frames=frames: bool(frames), 3000)
            else:
                app.processEvents()
            shown = f"{frames[-1]:.3f}" if frames else "-"
            seeks.append(f"{t:.2f}->pos {player.position() / 1000:.3f} frame {shown}")
        print(f"qt: {name}: loaded in {loaded:.0f} ms, video={player.hasVideo()} audio={player.hasAudio()}, "
              f"duration {player.duration()} ms; " + "; ".join(seeks))
        player.stop()
        keep.append((player, audio, sink))  # deleting a player mid-run crashes PySide6 6.11 at exit
    app.processEvents()


def bench_mpv(folder: Path) -> None:
    t0 = time.perf_counter()
    import mpv
    print(f"mpv: import {1000 * (time.perf_counter() - t0):.0f} ms")
    for name in FILES:
        t1 = time.perf_counter()
        player = mpv.MPV(vo="null", ao="null", pause=True, hr_seek="yes")
        player.play(str(folder / name))
        deadline = time.time() + 5
        while player.duration is None and time.time() < deadline:
            time.sleep(0.005)
        loaded = 1000 * (time.perf_counter() - t1)
        if player.duration is None:
            print(f"mpv: {name}: FAILED (no duration)")
            player.terminate()
            continue
        seeks = []
        for t in TARGETS:
            player.seek(t, "absolute+exact")
            time.sleep(0.2)  # the exact seek settles well within this
            seeks.append(f"{t:.2f}->pos {player.time_pos:.3f}")
        print(f"mpv: {name}: loaded in {loaded:.0f} ms, video={player.video_codec} audio={player.audio_codec_name}, "
              f"duration {player.duration:.3f} s; " + "; ".join(seeks))
        player.terminate()


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "make"
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else "/tmp/subcase-media-bench")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    {"make": make, "qt": bench_qt, "mpv": bench_mpv}[what](folder)
