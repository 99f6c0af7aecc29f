"""Media beside the review: the real window offscreen, the real QtMultimedia player, media made here.

Sound is a WAV written with numpy (always); video is a colour source (red to
2 s, green to 3.8 s, blue to 6 s: each cue starts well inside one colour) with
espeak-ng speech muxed by ffmpeg, when both Debian tools are present.  With no sound device Qt plays against a silent
sink, in real time.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import time
import wave
from pathlib import Path

import numpy as np
import pytest

from subcase.gui.media import multimedia_problem

# the app's own words: the extra missing, or a system library it needs (libpulse0 on a bare Debian)
if multimedia_problem():
    pytest.skip(multimedia_problem(), allow_module_level=True)

from .conftest import needs_model, open_and_wait  # noqa: E402

pytestmark = needs_model

RATE = 16000
# Three cues; the sound is loud only inside the middle one.
SRT = """1
00:00:00,500 --> 00:00:01,800
hello bill, is that you?

2
00:00:02,100 --> 00:00:03,400
i went to paris with john.

3
00:00:04,000 --> 00:00:05,500
the end of the film in london.
"""
CUES = [(500, 1800), (2100, 3400), (4000, 5500)]
HAVE_FFMPEG = shutil.which("ffmpeg") is not None
HAVE_ESPEAK = shutil.which("espeak-ng") is not None
needs_video_tools = pytest.mark.skipif(not (HAVE_FFMPEG and HAVE_ESPEAK),
                                       reason="making a test video needs ffmpeg and espeak-ng (Debian packages)")


def tone(seconds: float = 6.0) -> np.ndarray:
    """Silence with a 440 Hz tone inside the middle cue, at RATE."""
    n = int(seconds * RATE)
    t = np.arange(n) / RATE
    samples = np.zeros(n)
    a, b = int(2.1 * RATE), int(3.4 * RATE)
    samples[a:b] = 0.8 * np.sin(2 * np.pi * 440 * t[a:b])
    return samples


def write_float_wav(path: Path) -> Path:
    """The tone as a 32-bit float WAV (format 3, with its fact chunk), which the standard library's wave
    module refuses: the strip then takes it from QtMultimedia's decoder (gui/sound_decoding.py)."""
    data = tone().astype("<f4").tobytes()
    fmt = struct.pack("<HHIIHHH", 3, 1, RATE, RATE * 4, 4, 32, 0)
    fact = struct.pack("<I", len(data) // 4)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"fact" + struct.pack("<I", 4) + fact
            + b"data" + struct.pack("<I", len(data)) + data)
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def write_wav(path: Path, seconds: float = 6.0) -> Path:
    samples = tone(seconds)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.round(samples * 32767).astype("<i2").tobytes())
    return path


def make_video(folder: Path, name: str = "film.mkv") -> Path:
    speech = folder / "speech.wav"
    subprocess.run(["espeak-ng", "-w", str(speech), "Hello Bill. I went to Paris with John. The end."],
                   check=True, capture_output=True)
    out = folder / name
    subprocess.run(["ffmpeg", "-v", "error", "-y",
                    *[a for c, d in (("red", 2), ("green", 1.8), ("blue", 2.2))
                      for a in ("-f", "lavfi", "-i", f"color=c={c}:size=160x90:rate=25:duration={d}")],
                    "-i", str(speech),
                    "-filter_complex", "[0][1][2]concat=n=3:v=1:a=0[v];[3]apad=whole_dur=6[a]",
                    "-map", "[v]", "-map", "[a]", "-c:v", "libx264", "-g", "50", "-pix_fmt", "yuv420p",
                    "-c:a", "aac", "-t", "6", str(out)], check=True, capture_output=True)
    return out


def subtitle(folder: Path, stem: str = "film") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / f"{stem}.srt"
    p.write_text(SRT, encoding="utf-8")
    return p


def open_with_media(qtbot, window, path: Path, timeout: int = 20_000) -> None:
    with qtbot.waitSignal(window.playback.media_opened, timeout=timeout):
        open_and_wait(qtbot, window, path)


def select_row(qtbot, window, row: int) -> None:
    window.view.selectRow(row)
    qtbot.wait(10)


def play_and_wait_stop(qtbot, window, start) -> tuple[float, int]:
    """Run ``start()``, wait for the span to end; (seconds it played, position where it stopped)."""
    stops: list[int] = []
    window.playback.media.stopped.connect(stops.append)
    t0 = time.monotonic()
    assert start()
    qtbot.waitUntil(lambda: bool(stops), timeout=10_000)
    elapsed = time.monotonic() - t0
    window.playback.media.stopped.disconnect(stops.append)
    qtbot.wait(50)  # let the pause settle: the position must stay where playing stopped
    return elapsed, window.playback.media.position_ms()


# ---------------------------------------------------------------- playing a cue
@pytest.mark.parametrize("lead", [0, 300])
def test_playing_a_cue_ends_within_100_ms_of_its_end(qtbot, make_window, tmp_path, lead):
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))            # same stem: opens by itself
    window = make_window()
    window.settings.lead_in_ms = window.settings.lead_out_ms = lead
    window.settings.follow_playback = False
    open_with_media(qtbot, window, sub)
    assert window.playback.media_ref.name == "film.wav" and not window.playback.media_has_video
    select_row(qtbot, window, 1)
    start, end = CUES[1][0] - lead, CUES[1][1] + lead
    elapsed, pos = play_and_wait_stop(qtbot, window, window.playback.play_cue)
    assert abs(pos - end) <= 100, (pos, end)
    # it played in real time, not a jump to the end
    assert elapsed * 1000 >= (end - start) - 100, elapsed
    # replay plays the same span again
    elapsed, pos = play_and_wait_stop(qtbot, window, window.playback.replay)
    assert abs(pos - end) <= 100 and elapsed * 1000 >= (end - start) - 100


@needs_video_tools
def test_video_cue_by_key_and_the_frame_at_the_cue_start(qtbot, make_window, tmp_path):
    from PySide6.QtCore import Qt

    sub = subtitle(tmp_path / "films")
    make_video(sub.parent)
    window = make_window()
    window.settings.follow_playback = False
    open_with_media(qtbot, window, sub)
    assert window.playback.media_has_video and window.playback.media_dock.stack.currentWidget() is window.playback.media_dock.frame_view

    def colour_shown():
        img = window.playback.media_dock.frame_view.image
        if img is None:
            return None
        c = img.pixelColor(img.width() // 2, img.height() // 2)
        return max((c.red(), "red"), (c.green(), "green"), (c.blue(), "blue"))[1]

    # paused: the frame at each cue's start (0.5 s red, 2.1 s green, 4.0 s blue)
    for row, colour in ((0, "red"), (1, "green"), (2, "blue"), (0, "red")):
        select_row(qtbot, window, row)
        qtbot.waitUntil(lambda colour=colour: colour_shown() == colour, timeout=5000)
    # K plays the current cue, by keyboard on the cue view
    select_row(qtbot, window, 1)
    window.view.setFocus()
    stops: list[int] = []
    window.playback.media.stopped.connect(stops.append)
    qtbot.keyClick(window.view, Qt.Key_K)
    qtbot.waitUntil(lambda: bool(stops), timeout=10_000)
    assert abs(window.playback.media.position_ms() - (CUES[1][1] + window.settings.lead_out_ms)) <= 100


# ---------------------------------------------------------------- follow playback
@pytest.mark.parametrize("follow", [True, False])
def test_follow_playback_selects_the_cue_being_played(qtbot, make_window, tmp_path, follow):
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    window = make_window()
    window.settings.follow_playback = follow
    open_with_media(qtbot, window, sub)
    select_row(qtbot, window, 0)
    rows: list[int] = []
    window.view.selectionModel().currentRowChanged.connect(lambda cur, _prev: rows.append(cur.row()))
    assert window.playback.play_on()
    qtbot.waitUntil(lambda: window.playback.media.position_ms() >= 5200, timeout=10_000)
    window.playback.stop_media()
    assert rows == ([1, 2] if follow else [])
    assert window.view.currentIndex().row() == (2 if follow else 0)


def test_n_plays_the_flagged_words_cue_only_when_asked(qtbot, make_window, tmp_path):
    from PySide6.QtCore import Qt

    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    window = make_window()
    window.settings.follow_playback = False
    window.menus.act_play_flagged.setChecked(False)
    open_with_media(qtbot, window, sub)
    window.session.state.threshold = 1.01   # every word is flagged: N always moves
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.wait(200)
    assert not window.playback.media.playing
    window.menus.act_play_flagged.trigger()        # the menu option, as the user turns it on
    assert window.settings.play_at_flagged
    qtbot.keyClick(window.view, Qt.Key_N)
    assert window.playback.media.playing
    row = window.session.state.current[0]
    assert window.playback.media.last_span.start_ms == max(0, CUES[row][0] - window.settings.lead_in_ms)
    window.playback.stop_media()


# ---------------------------------------------------------------- the waveform strip
def test_waveform_strip_spans_the_cue_and_its_neighbours(qtbot, make_window, tmp_path):
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    window = make_window()
    open_with_media(qtbot, window, sub)
    qtbot.waitUntil(lambda: window.playback.media_wave is not None, timeout=10_000)   # extracted in a worker
    view = window.playback.media_dock.wave_view
    assert window.playback.media_dock.stack.currentWidget() is view
    select_row(qtbot, window, 1)
    qtbot.waitUntil(lambda: view.span is not None and view.span.cue_start_ms == 2100, timeout=5000)
    # previous cue's start to next cue's end, in samples at 16 kHz
    assert view.shown_samples() == (500 * 16, 5500 * 16)
    assert (view.span.cue_start_ms, view.span.cue_end_ms) == CUES[1]
    select_row(qtbot, window, 0)
    qtbot.waitUntil(lambda: view.span.cue_start_ms == 500, timeout=5000)
    assert view.shown_samples() == (0, 3400 * 16)
    # what is drawn: the tone fills the marked cue's columns, silence the rest
    select_row(qtbot, window, 1)
    qtbot.waitUntil(lambda: view.span.cue_start_ms == 2100, timeout=5000)
    view.resize(500, 100)
    image = view.grab().toImage()
    text = view.palette().color(view.foregroundRole()).name()

    def inked_height(x: int) -> int:
        return sum(image.pixelColor(x, y).name() == text for y in range(image.height()))

    inside = int(view.x_of(2750))
    outside = int(view.x_of(1000))
    assert inked_height(inside) > 0.6 * image.height() and inked_height(outside) <= 3


def test_audio_other_than_wav_is_decoded_for_the_strip(qtbot, make_window, tmp_path):
    if not HAVE_FFMPEG:
        pytest.skip("making an MP3 needs ffmpeg (Debian package)")
    sub = subtitle(tmp_path / "films")
    wav = write_wav(tmp_path / "tone.wav")
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(wav), "-c:a", "libmp3lame", str(sub.with_suffix(".mp3"))],
                   check=True)
    window = make_window()
    open_with_media(qtbot, window, sub)
    qtbot.waitUntil(lambda: window.playback.media_wave is not None, timeout=20_000)
    w = window.playback.media_wave
    # the decoder's 8 kHz samples: loud inside the middle cue, silent well outside it
    assert abs(w.duration_ms - 6000) < 150
    loud = np.abs(w.samples[w.index(2300):w.index(3200)]).max()
    quiet = np.abs(w.samples[w.index(500):w.index(1800)]).max()
    assert loud > 0.5 and quiet < 0.05


def test_a_wav_the_reader_refuses_is_decoded_for_the_strip(qtbot, make_window, tmp_path):
    """The window's own path to the decoder, which it imports only here (QtMultimedia, the media extra)."""
    from subcase.media import MediaError, read_wav

    sub = subtitle(tmp_path / "films")
    wav = write_float_wav(sub.with_suffix(".wav"))
    with pytest.raises(MediaError):
        read_wav(wav)  # the worker's reader refuses it: the decoder takes over
    window = make_window()
    open_with_media(qtbot, window, sub)
    qtbot.waitUntil(lambda: window.playback.media_wave is not None, timeout=20_000)
    w = window.playback.media_wave
    assert abs(w.duration_ms - 6000) < 150
    assert np.abs(w.samples[w.index(2300):w.index(3200)]).max() > 0.5
    assert np.abs(w.samples[w.index(500):w.index(1800)]).max() < 0.05


def test_the_decoder_is_driven_from_the_gui_thread_and_no_python_runs_off_it(qtbot, tmp_path):
    """Driven from a pool thread (a nested event loop holding the GIL) the decoder could deadlock against the GUI
    thread; each of its results, and its buffers, are handled on the GUI thread now.  A float WAV, which the
    standard library cannot read, is decoded the same way; cancelling stops a decoding, which then reports
    nothing; a file that is not sound fails with a message naming it."""
    import threading

    from PySide6.QtCore import Qt

    from subcase.gui.sound_decoding import SoundDecoding

    float_wav = write_float_wav(tmp_path / "float.wav")
    gui = threading.get_ident()
    threads: list[int] = []
    results: list = []
    decoding = SoundDecoding(float_wav)
    # a direct connection runs in the emitting thread: it tells where the decoding's Python code ran
    decoding.signals.ready.connect(lambda w: (threads.append(threading.get_ident()), results.append(w)),
                                   Qt.ConnectionType.DirectConnection)
    decoding._decoder.bufferReady.connect(lambda: threads.append(threading.get_ident()),
                                          Qt.ConnectionType.AutoConnection)
    decoding.start()
    qtbot.waitUntil(lambda: decoding.done.is_set(), timeout=20_000)
    assert results and set(threads) == {gui}
    w = results[0]
    assert abs(w.duration_ms - 6000) < 150
    assert np.abs(w.samples[w.index(2300):w.index(3200)]).max() > 0.5
    assert np.abs(w.samples[w.index(500):w.index(1800)]).max() < 0.05

    cancelled = SoundDecoding(float_wav)
    heard: list = []
    cancelled.signals.ready.connect(heard.append)
    cancelled.signals.failed.connect(heard.append)
    cancelled.start()
    cancelled.cancel()
    assert cancelled.done.is_set()
    qtbot.wait(300)
    assert heard == []

    junk = tmp_path / "junk.mp3"
    junk.write_bytes(b"not sound at all" * 100)
    broken = SoundDecoding(junk)
    failures: list[str] = []
    broken.signals.failed.connect(failures.append)
    broken.start()
    qtbot.waitUntil(lambda: bool(failures), timeout=20_000)
    assert failures[0].startswith(f"{junk}: the sound cannot be decoded (")


# ---------------------------------------------------------------- choosing and remembering
def test_open_media_is_remembered_but_never_written_into_the_subtitle_or_log(qtbot, make_window, tmp_path):
    from PySide6.QtCore import Qt

    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    (tmp_path / "elsewhere").mkdir()
    other = write_wav(tmp_path / "elsewhere" / "dub.wav")
    window = make_window()
    open_with_media(qtbot, window, sub)
    assert window.playback.media_ref.name == "film.wav"
    with qtbot.waitSignal(window.playback.media_opened, timeout=20_000):
        window.playback.open_media(other)                 # File > Open Media... without the dialog
    ref = window.settings.media_for(sub)
    assert ref is not None and ref.name == "dub.wav" and ref.path == other.resolve()
    # an edit: the snapshot carries the media, the edit log and the saved file do not
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)
    snap = window.autosaving.save_now(wait=True)
    import json
    data = json.loads(snap.read_text(encoding="utf-8"))
    assert data["media"]["name"] == "dub.wav" and data["media"]["fingerprint"] == ref.fingerprint
    window.saving.save()
    log = window.session.log.path
    assert "dub.wav" not in log.read_text(encoding="utf-8") and "film.wav" not in log.read_text(encoding="utf-8")
    assert "wav" not in sub.read_text(encoding="utf-8")
    window.close()
    # a new window remembers dub.wav for this subtitle file, over the same-stem film.wav
    again = make_window()
    with qtbot.waitSignal(again.playback.media_opened, timeout=20_000):
        open_and_wait(qtbot, again, sub)
    assert again.playback.media_ref.name == "dub.wav"


@pytest.mark.parametrize("kind, named", [("missing", True), ("folder", True), ("corrupt", True),
                                         ("corrupt", False)])
def test_unusable_media_gives_one_message_and_review_goes_on(qtbot, make_window, tmp_path, kind, named):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    sub = subtitle(tmp_path / "films")
    media = sub.with_suffix(".mkv")
    if kind == "corrupt":
        media.write_bytes(b"\x1aE\xdf\xa3" + os.urandom(40_000))   # an EBML magic, then noise
    elif kind == "folder":
        media.mkdir()
    window = make_window()
    messages: list[str] = []
    window.playback.media_failed.connect(messages.append)
    if named:
        window.playback.pending_media = media              # as `subcase FILE --media PATH`; else found by its stem
    open_and_wait(qtbot, window, sub)
    qtbot.waitUntil(lambda: bool(messages), timeout=20_000)
    qtbot.wait(500)                               # a second error signal would come by now
    assert len(messages) == 1
    expected = {"missing": "no such media file", "folder": "not a media file", "corrupt": "film.mkv"}[kind]
    assert expected in messages[0]
    assert window.playback.media_ref is None and not window.menus.act_play_cue.isEnabled()
    assert "review goes on" in window.last_error
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    # a file the user named: one dialog; one found beside the subtitle: the pane and status bar only
    assert len(boxes) == (1 if named else 0)
    assert "review goes on" in window.playback.media_dock.message.text()
    for b in boxes:
        b.accept()
    window.activateWindow()  # the box had the keyboard
    qtbot.waitUntil(lambda: window.isActiveWindow(), timeout=5000)
    # the review goes on
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)
    assert window.review.is_modified()
    assert window.playback.play_cue() is False             # says "no media" in the status bar, plays nothing


def test_media_shorter_than_the_subtitles(qtbot, make_window, tmp_path):
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"), seconds=4.5)   # ends inside the last cue (4.0-5.5 s)
    window = make_window()
    window.settings.follow_playback = False
    open_with_media(qtbot, window, sub)
    assert "before the last cue" in window.playback.media_dock.label.text()
    select_row(qtbot, window, 2)
    elapsed, pos = play_and_wait_stop(qtbot, window, window.playback.play_cue)
    assert window.playback.media.last_span.clipped and window.playback.media.last_span.end_ms == 4500
    assert abs(pos - 4500) <= 100
    # a cue wholly past the end plays nothing and says so
    window.review.doc.cues[2].start_ms, window.review.doc.cues[2].end_ms = 7000, 8000
    assert window.playback.play_cue(2) is False and "after the media ends" in window.statusBar().currentMessage()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/fd is Linux's")
def test_the_process_holds_the_media_file_open(qtbot, make_window, tmp_path):
    sub = subtitle(tmp_path / "films")
    media = write_wav(sub.with_suffix(".wav"))
    window = make_window()
    open_with_media(qtbot, window, sub)

    def open_files() -> set[str]:
        out = set()
        for fd in os.listdir("/proc/self/fd"):
            try:
                out.add(os.readlink(f"/proc/self/fd/{fd}"))
            except OSError:
                pass
        return out

    qtbot.waitUntil(lambda: str(media.resolve()) in open_files(), timeout=5000)


# ---------------------------------------------------------------- without the extra
def test_without_the_extra_the_app_works_and_says_how_to_add_it(qtbot, make_window, tmp_path, monkeypatch):
    """The window's behaviour without a player, keys and all.  QtMultimedia is blocked only after the app's
    modules were imported (with the extra): whether they import at all without it is for
    tests/packaging/test_plain_install.py (the plain wheel) and tests/test_architecture.py."""
    from PySide6.QtCore import Qt

    monkeypatch.setitem(sys.modules, "PySide6.QtMultimedia", None)   # import fails as if not installed
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    window = make_window()
    assert window.playback.media is None
    media_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Media")
    first = media_menu.actions()[0]
    assert "pip install 'subcase[media]'" in first.text() and not first.isEnabled()
    open_and_wait(qtbot, window, sub)
    assert not window.menus.act_play_cue.isEnabled() and window.playback.play_cue() is False
    assert "subcase[media]" in window.statusBar().currentMessage()
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)
    assert window.review.is_modified()


def test_help_lists_the_media_keys(qtbot, make_window):
    from subcase.gui.help import shortcut_rows

    window = make_window()
    rows = {(menu, action): keys for menu, action, keys in shortcut_rows(window.menuBar())}
    assert rows[("Media", "Play Cue")] == "K"
    assert rows[("Media", "Replay")] == "R"
    assert rows[("Media", "Play On from Cue")] == "O"
    assert rows[("Media", "Follow Playback")] == "Ctrl+Shift+F"
    assert rows[("File", "Open Media\u2026")] == "Ctrl+Shift+O"
    keys = [k for _m, _a, ks in shortcut_rows(window.menuBar()) for k in ks.split(", ")]
    assert len(keys) == len(set(keys)), "a key is bound twice"


@pytest.mark.model  # the smoke test cases the subtitle
def test_smoke_test_entry_point_opens_the_media(tmp_path):
    sub = subtitle(tmp_path / "films")
    write_wav(sub.with_suffix(".wav"))
    env = dict(os.environ, SUBCASE_CONFIG_DIR=str(tmp_path / "cfg"), SUBCASE_DATA_DIR=str(tmp_path / "data"))
    run = subprocess.run([sys.executable, "-m", "subcase", str(sub), "--smoke-test"], capture_output=True,
                         text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "smoke-test: media film.wav opened (audio, 6.0 s)" in run.stdout
    bad = tmp_path / "nothing.mkv"
    run = subprocess.run([sys.executable, "-m", "subcase", str(sub), "--smoke-test", "--media", str(bad)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 1 and "no such media file" in run.stderr


@needs_video_tools
def test_the_media_pane_is_big_enough_and_draws_the_cue_over_the_frame(qtbot, make_window, tmp_path):
    """Issue #57: the pane was about 250x160, with no cue over the video and no time or playing state."""
    from subcase.gui.media import FRAME_MIN_WIDTH

    sub = subtitle(tmp_path / "films")
    make_video(sub.parent)
    window = make_window()
    window.settings.follow_playback = False
    open_with_media(qtbot, window, sub)
    dock, frame = window.playback.media_dock, window.playback.media_dock.frame_view
    qtbot.waitUntil(lambda: frame.width() >= FRAME_MIN_WIDTH and frame.height() >= FRAME_MIN_WIDTH * 9 // 16,
                    timeout=5000)
    select_row(qtbot, window, 1)
    text = window.session.doc.cues[1].text
    qtbot.waitUntil(lambda: frame.caption == text, timeout=5000)
    duration = window.playback.media.duration_ms
    assert dock.clock.text() == f"0:02.100 / 0:0{duration // 1000}.{duration % 1000:03d} \u00b7 paused"
    # drawn over the picture as a player shows it: light text on a dark box
    qtbot.waitUntil(lambda: frame.image is not None, timeout=5000)
    img = frame.grab().toImage()
    box = frame.caption_rect().toRect().intersected(frame.rect())
    light = sum(img.pixelColor(x, y).lightness() > 200 for x in range(box.left(), box.right(), 2)
                for y in range(box.top(), box.bottom(), 2))
    assert light > 20, light
    # playing, the clock says so; paused again after the lead-out, past the cue's end: no cue over the frame
    stops: list[int] = []
    window.playback.media.stopped.connect(stops.append)
    assert window.playback.play_cue()
    qtbot.waitUntil(lambda: "playing" in dock.clock.text(), timeout=5000)
    qtbot.waitUntil(lambda: bool(stops), timeout=10_000)
    assert stops[-1] > CUES[1][1] and dock.clock.text().endswith("paused") and frame.caption == ""
