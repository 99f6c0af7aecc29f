"""Stored state is data, never a command (issue #54), in the real window offscreen with the real model.

The repros: a snapshot naming another file as its edit log (2), a remembered media path whose
fingerprint is wrong (3), settings out of range (4) and a corrupt autosave (6, last bullet).
"""

from __future__ import annotations

import json
import wave

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from subcase.review import autosave, log_path_for, read_records
from subcase.review.storage import file_key

from .conftest import needs_model, open_and_wait



def decide_a_word(qtbot, window) -> None:
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)


@needs_model
def test_a_snapshot_never_chooses_the_file_the_edit_log_appends_to(qtbot, make_window, sample, tmp_path):
    """Repro 2: a planted "log" field made every decision after Restore append a JSON line to that file."""
    crashed = make_window()
    open_and_wait(qtbot, crashed, sample)
    decide_a_word(qtbot, crashed)
    snap = crashed.autosaving.save_now(wait=True)
    assert snap is not None
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"the user's own file\n")
    data = json.loads(snap.read_text(encoding="utf-8"))
    data["log"] = str(victim)  # planted, or left by a corrupted write
    snap.write_text(json.dumps(data), encoding="utf-8")
    log = log_path_for(sample)
    n_records = len(read_records(log))

    window = make_window()
    window.ask = lambda *a: QMessageBox.Yes
    with qtbot.waitSignal(window.review.casing_finished, timeout=180_000):
        assert window.recovery.check_recovery()
    decide_a_word(qtbot, window)
    qtbot.keyClick(window.view, Qt.Key_Return)
    assert victim.read_bytes() == b"the user's own file\n"
    assert window.session.log is not None and window.session.log.path == log
    assert len(read_records(log)) > n_records  # the decisions went to the file's own log
    crashed.ask = lambda *a: QMessageBox.Discard


def write_wav(path) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"\x00\x10" * 16000 * 3)


@pytest.mark.parametrize("fingerprint", ["x", "0" * 64])
@needs_model
def test_a_remembered_media_path_is_opened_only_with_its_fingerprint(qtbot, make_window, tmp_path, fingerprint):
    """Repro 3: a settings entry pointing at /etc/shadow with fingerprint "x" was opened as media.  Here the
    file it points at is a playable WAV, so the player would open it if asked: it must not be asked."""
    from subcase.gui.media import multimedia_problem
    from subcase.gui.settings import Settings

    if multimedia_problem():
        pytest.skip(multimedia_problem())
    sub = tmp_path / "films" / "film.srt"
    sub.parent.mkdir()
    sub.write_text("1\n00:00:00,500 --> 00:00:01,800\nhello bill, is that you?\n", encoding="utf-8")
    (tmp_path / "private").mkdir()
    secret = tmp_path / "private" / "shadow.wav"
    write_wav(secret)
    Settings().q.setValue(f"media-files/{file_key(sub)}",
                          json.dumps({"path": str(secret), "name": "shadow.wav", "fingerprint": fingerprint}))
    window = make_window()
    opened: list[str] = []
    window.playback.media_opened.connect(opened.append)
    messages: list[str] = []
    window.statusBar().messageChanged.connect(messages.append)
    start_notice = window.statusBar().currentMessage()
    open_and_wait(qtbot, window, sub)
    qtbot.wait(2000)  # the player would have opened the file by now
    assert opened == [] and window.playback.media_ref is None
    if fingerprint == "x":  # not a fingerprint at all: reset with the other damaged settings, and said so
        assert "remembered media" in start_notice
    else:  # a fingerprint, of another file: the probe says so
        assert any("Remembered media not opened: shadow.wav" in m for m in messages)
    assert Settings().media_for(sub) is None or Settings().media_for(sub).fingerprint == fingerprint


@needs_model
def test_bad_settings_are_reset_to_their_defaults_and_the_user_told_once(qtbot, make_window):
    """Repro 4: threshold=NaN became 1.000 (every word to review), font_size=100000 an unusable table."""
    from subcase.gui.settings import Settings

    stored = Settings()
    stored.q.setValue("review/threshold", "nan")
    stored.q.setValue("view/font_size", "100000")
    stored.q.setValue("view/theme", "<b>x</b>")
    stored.q.sync()
    window = make_window()
    # the model's default, not 1.000 (and, with no file open, the model's own: issue #57)
    assert window.threshold.spin.value() == pytest.approx(window.engines.get().info.review_threshold)
    assert window.view.font().pointSize() == 11
    notice = window.statusBar().currentMessage()
    assert "review threshold (was 'nan')" in notice and "font size (was '100000')" in notice
    assert "theme" in notice and "\n" not in notice
    again = Settings()
    assert (again.threshold, again.font_size, again.theme) == (None, 11, "system")  # reset on disk
    assert again.check() == []
    second = make_window()
    assert "reset" not in second.statusBar().currentMessage()  # told once


@needs_model
def test_a_corrupt_autosave_is_moved_aside_and_the_user_told(qtbot, make_window):
    """Repro 6, last bullet: a corrupt autosave was silently ignored and left in place."""
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True)
    snap = folder / "film.0123456789ab.json"
    snap.write_bytes(b'{"schema": 3, "pid": 4206942, "source": "/films/film.srt", "cues": [')
    window = make_window()
    assert not window.recovery.check_recovery()
    assert not snap.exists()
    assert (folder / "film.0123456789ab.json.corrupt").read_bytes().startswith(b'{"schema": 3')
    assert "film.0123456789ab.json.corrupt" in window.statusBar().currentMessage()
    assert "could not be read" in window.last_error
    boxes = [b for b in window.findChildren(QMessageBox) if b.isVisible()]
    assert len(boxes) == 1 and boxes[0].textFormat() == Qt.TextFormat.PlainText
    boxes[0].accept()


BAD = {"review/threshold": "inf", "casing/mode": "rm", "casing/punctuate": 3, "review/learning": "maybe",
       "review/profile": "../../etc/passwd", "batch/output_dir": "x" * 5000, "batch/output_format": "x\0y",
       "batch/jobs": "-1", "view/theme": "", "view/font_size": "11.5", "view/show_tags": "2",
       "view/cpl_limit": "9", "view/cps_limit": "nan", "media/lead_in_ms": "5001", "media/lead_out_ms": "x",
       "media/follow": "", "media/play_at_flagged": "on"}


def test_every_setting_has_a_range_and_a_bad_value_is_reset_to_its_default(private_dirs):
    from subcase.gui.settings import SPECS, Settings

    assert set(BAD) == set(SPECS)  # a new setting gets its bad value here
    stored = Settings()
    for key, value in BAD.items():
        stored.q.setValue(key, value)
    stored.q.setValue("style/sound-cues", "shout")
    stored.q.setValue("files/recent", ["/films/a.srt", "x" * 5000])
    stored.q.sync()
    settings = Settings()
    reset = settings.check()
    assert len(reset) == len(BAD) + 2
    assert [settings.value(key) for key in SPECS] == [spec.default for spec in SPECS.values()]
    assert settings.house_style("sound-cues") == "model" and settings.recent_files == []
    notice = settings.take_notice()
    assert notice is not None and notice.startswith("Settings reset") and "\n" not in notice
    assert settings.take_notice() is None and Settings().check() == []  # told once; fixed on disk


def test_each_setting_is_declared_once_and_round_trips():
    """Issue #57: the table (SPECS) says each key's type, default and range; Settings has one attribute per
    key, no getter and setter of its own, and what is written reads back, through a new QSettings too."""
    from subcase.gui.settings import SPECS, Setting, Settings

    declared = {name: attr.key for name, attr in vars(Settings).items() if isinstance(attr, Setting)}
    assert sorted(declared.values()) == sorted(SPECS)  # every key once, nothing undeclared
    assert not [name for name, attr in vars(Settings).items() if isinstance(attr, property) and attr.fset]
    values = {"threshold": 0.975, "mode": "auto", "punctuate": "always", "learning": False, "profile": "Lupin S1",
              "output_dir": "/films/out", "output_format": "vtt", "batch_jobs": 3, "theme": "dark", "font_size": 14,
              "show_tags": True, "cpl_limit": 37, "cps_limit": 17.0, "lead_in_ms": 250, "lead_out_ms": 0,
              "follow_playback": False, "play_at_flagged": True}
    assert set(values) == set(declared)
    settings = Settings()
    for name, value in values.items():
        assert getattr(settings, name) == SPECS[declared[name]].default
        setattr(settings, name, value)
    settings.sync()
    again = Settings()
    assert {name: getattr(again, name) for name in values} == values and again.check() == []
    again.threshold = None  # back to the model's default
    assert Settings().threshold is None
