"""Take the screenshots of the README and docs/ from the real window (run under Xvfb, not offscreen).

    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot FILE resources/screenshot-light.png [light|dark] [tags]

Opens the file with the real model and default settings in a 1280x800 window (SHOT_SIZE),
makes a few review decisions so the looks show (to review, accepted,
changed), moves to the next flagged word with the details panel open, and
grabs the window.
    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot --learning tests/gui/data/sdh.srt resources/screenshot-learning.png

With ``--learning`` it instead fixes the first word of a sound cue (to UPPER,
or to lower if the model wrote it UPPER), so the other sound cues show as
"changed by what you taught", and leaves the cursor on one of them so the
details panel and the status bar show why.

    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot --profile LOG_DIR FILE resources/screenshot-profile.png

With ``--profile LOG_DIR`` it builds a profile from the edit logs in LOG_DIR
(earlier files of a series, e.g. ``simulate-review --series ... --keep-logs``),
opens the file with it, and leaves the cursor on a word the profile asks about
(else one it changed), so the details panel shows the profile's reason.

    PYTHONPATH=app python -c "import sys; from subcase.evaluation.simulate import input_text; \
        from subcase.subtitles import load; d = load(sys.argv[1]); [d.set_cue_text(c, input_text(q.text, \
        q.tokens(), strip_punct=True, upper=False)) for c, q in enumerate(d.cues)]; \
        sys.stdout.buffer.write(d.to_bytes())" FILE > /tmp/asr/FILE
    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot --marks /tmp/asr/FILE resources/screenshot-marks.png

With ``--marks`` the file (one without punctuation, as speech recognition writes it: the first command
strips a subtitle file's) is opened with the default setting, which restores its marks; the first restored
mark to review is accepted, the second cycled to the next mark, and the cursor left on the third, so the cue
view shows the marks' looks and Word Details the mark's probabilities.

    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot --media FILM.srt resources/screenshot-media.png

With ``--media`` the subtitle file's same-stem video (FILM.mkv...) is copied beside it
too; the window opens both, selects the first cue, waits for the media pane
to show the frame at its start, and checks in /proc/self/fd that the process holds the
media file open.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

# The docs show a screenshot about 760 px wide: taken at this size its text stays about 9 px high there
# (at 1600x1000 it was about 7 px, too small to read), and the cue text still has room.
SHOT_SIZE = (1280, 800)

if TYPE_CHECKING:
    from PySide6.QtCore import QEventLoop


def main(argv: list[str]) -> int:
    learning = "--learning" in argv
    media = "--media" in argv
    marks = "--marks" in argv
    argv = [a for a in argv if a not in ("--learning", "--media", "--marks")]
    logs = None
    if "--profile" in argv:
        k = argv.index("--profile")
        logs = Path(argv[k + 1])
        argv = argv[:k] + argv[k + 2:]
    src, out = Path(argv[0]), Path(argv[1])
    theme_name = argv[2] if len(argv) > 2 else "light"
    show_tags = "tags" in argv[3:]  # View › Show All Tags on
    with tempfile.TemporaryDirectory() as tmp:
        # Never touch the real settings or edit logs, nor the input file.
        os.environ["SUBCASE_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["SUBCASE_CONFIG_DIR"] = str(Path(tmp) / "config")
        work = Path(tmp) / src.name
        work.write_bytes(src.read_bytes())
        if media:
            from subcase.media import same_stem_media
            found = same_stem_media(src)
            if found is None:
                print(f"screenshot: no same-stem media beside {src}", file=sys.stderr)
                return 1
            shutil.copy(found, Path(tmp) / f"{work.stem}{found.suffix}")

        from PySide6.QtCore import QEventLoop, QTimer
        from PySide6.QtWidgets import QMessageBox

        from subcase.casing import Tag

        from .application import make_app
        from .main_window import MainWindow

        app = make_app()
        window = MainWindow()
        if logs is not None:
            _store_profile(window, logs)
        window.ask = lambda *a: QMessageBox.StandardButton.Discard
        window.view_options.set_theme(theme_name)
        window.view_options.set_show_tags(show_tags)
        window.show()
        window.setGeometry(0, 0, *SHOT_SIZE)  # at the screen's corner (Xvfb has no window manager)
        if media:
            return _media_shot(app, window, work, out)
        window.playback.media_dock.hide()  # no media in these pictures: the review and Word Details get the room
        loop = QEventLoop()
        window.review.casing_finished.connect(loop.quit)
        window.review.casing_failed.connect(lambda m: _fail(m, loop))
        window.opening.open_file(work)
        loop.exec()
        if window.session is None:
            return 1
        state = window.session.state
        if state.to_review() < 6 and not marks:  # make sure the picture shows words to review
            confs = sorted(w.confidence for w in state.all_words())
            window.threshold.spin.setDecimals(3)
            window.threshold.spin.setValue(min(1.0, confs[min(len(confs) - 1, 7)] + 0.001))
        if logs is not None:
            _show_a_profile_reason(window)
        elif marks:
            _review_marks(window)
        elif learning:
            _teach_a_sound_cue(window)
        else:
            window.navigation.next_to_review()
            window.decisions.accept_word()          # accepted (green, thin underline); moves to the next flagged word
            pos = state.current
            if pos is not None:
                w = state.word(pos)
                window.decisions.set_tag(Tag.U if w.tag is not Tag.U else Tag.T)  # changed (blue, dashed), moves on
            # the current word is now a flagged one: framed, its cue selected, its details in the panel
        window.view.setFocus()
        QTimer.singleShot(800, loop.quit)
        loop.exec()
        pixmap = window.grab()  # exactly the window, painted by the platform's real fonts
        out.parent.mkdir(parents=True, exist_ok=True)
        ok = pixmap.save(str(out))
        print(f"{'saved' if ok else 'could not save'} {out} ({pixmap.width()}x{pixmap.height()}, "
              f"platform {app.platformName()})")
        window.close()
        return 0 if ok else 1


def _media_shot(app, window, work: Path, out: Path) -> int:
    """Open ``work`` with its same-stem media; the first cue selected, the frame at its start shown."""
    from PySide6.QtCore import QEventLoop, Qt, QTimer

    window.setGeometry(0, 0, *SHOT_SIZE)
    window.resizeDocks([window.playback.media_dock], [520], Qt.Orientation.Horizontal)
    window.details.hide()
    loop = QEventLoop()
    window.playback.media_opened.connect(lambda _n: loop.quit())
    window.playback.media_failed.connect(lambda m: _fail(m, loop))
    window.review.casing_failed.connect(lambda m: _fail(m, loop))
    window.opening.open_file(work)
    loop.exec()
    if window.session is None or window.playback.media_ref is None:
        return 1
    window.view.selectRow(0)
    window.view.setFocus()
    start = window.review.doc.cues[0].start_ms
    deadline = QTimer()
    deadline.setSingleShot(True)
    deadline.timeout.connect(loop.quit)
    deadline.start(10_000)
    window.playback.media.frame.connect(lambda _img: loop.quit() if abs(window.playback.media.position_ms() - start) < 50 else None)
    window.playback.show_current_cue()
    loop.exec()
    QTimer.singleShot(300, loop.quit)
    loop.exec()
    held = sorted(target for target in _open_files() if target == str(window.playback.media_ref.path))
    print(f"screenshot: media at {window.playback.media.position_ms()} ms (first cue starts at {start} ms); "
          f"the process holds {held or 'NOT the media file'} open")
    pixmap = window.grab()
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = pixmap.save(str(out))
    print(f"{'saved' if ok else 'could not save'} {out} ({pixmap.width()}x{pixmap.height()}, "
          f"platform {app.platformName()})")
    window.close()
    return 0 if ok and held else 1


def _open_files() -> list[str]:
    """What this process has open (Linux: /proc/self/fd)."""
    out = []
    fds = Path("/proc/self/fd")
    if fds.is_dir():
        for fd in fds.iterdir():
            try:
                out.append(os.readlink(fd))
            except OSError:
                pass
    return out


def _store_profile(window, logs: Path) -> None:
    """A profile built from the logs, chosen for the next file opened."""
    from subcase.casing import CasingEngine
    from subcase.review.profiles import store as profile_store
    from subcase.review.profiles.build import build_from_logs

    profile = build_from_logs("Series", CasingEngine().info.version, [logs])
    profile_store.save(profile)
    window.settings.profile = profile.name


def _show_a_profile_reason(window) -> None:
    """The cursor on a word the profile asks about, else on one it changed."""
    app = window.review.profile_app
    if app is None:
        return
    places = sorted(app.asked) or sorted(p for p in app.by_pos if app.before[p] != window.session.state.word(p).form)
    if places:
        window.navigation.goto(places[0])
    window.statusBar().clearMessage()


def _review_marks(window) -> None:
    """Accept the first restored mark to review, cycle the second, and stop on the third."""
    state = window.session.state
    doubtful = [p for p in state.positions() if state.word(p).mark_needs_review(state.mark_threshold)]
    if not doubtful:
        print("screenshot: no restored mark to review", file=sys.stderr)
        return
    window.navigation.goto(doubtful[0])
    window.decisions.accept_word()
    if len(doubtful) > 2:
        window.navigation.goto(doubtful[1])
        window.decisions.cycle_mark()
    window.navigation.goto(doubtful[min(2, len(doubtful) - 1)])
    window.statusBar().clearMessage()


def _teach_a_sound_cue(window) -> None:
    """Fix the first sound-cue word the model wrote lower case (or else UPPER) to the other style."""
    from subcase.casing import Tag
    from subcase.review import Status
    from subcase.casing.housestyle import Category, categories_of

    session = window.session
    cats = categories_of(session.doc, session.state.cues)
    sound = sorted(p for p, c in cats.items() if c is Category.SOUND)
    if not sound:
        return
    lower = [p for p in sound if session.state.word(p).tag is Tag.L]
    pos = lower[0] if lower else sound[0]
    window.navigation.goto(pos)
    window.decisions.set_tag(Tag.U if lower else Tag.L, advance=False)
    learned = [p for p in session.state.positions() if session.state.word(p).status is Status.LEARNED]
    if learned:
        window.navigation.goto(learned[len(learned) // 2])
    window.statusBar().clearMessage()  # the word label (with its reasons) instead of "Cased N words"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def _fail(message: str, loop: QEventLoop) -> None:
    print(message, file=sys.stderr)
    loop.quit()
