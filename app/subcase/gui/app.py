"""Application setup and the ``subcase gui [FILE] [--smoke-test]`` entry point."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from subcase.subtitles import formats

from .application import make_app


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="subcase gui", description="The subcase review editor.")
    p.add_argument("file", nargs="?", type=Path, help=f"a subtitle file to open ({formats.suffix_list()})")
    p.add_argument("--smoke-test", action="store_true",
                   help="open FILE, case it, print a one-line summary and exit (0 on success)")
    p.add_argument("--media", type=Path, metavar="PATH",
                   help="play this video or audio file beside the review (default: FILE's same-stem media)")
    return p.parse_args(argv)


def smoke_test(path: Path | None, media: Path | None = None) -> int:
    """Open a file headless, wait for casing, print a summary; used by the bundle's smoke test.

    With ``--media PATH`` (or a same-stem media file beside FILE) it also waits for the
    player to load the media and says so: the bundle carries the media back-end."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QMessageBox

    from .edit_log_recovery import NO_LOG
    from .main_window import MainWindow

    if path is None:
        print("smoke-test: a FILE is required", file=sys.stderr)
        return 2
    make_app()
    window = MainWindow()
    window.ask = lambda *a: QMessageBox.StandardButton.Discard  # never wait for a human

    def no_log(error, *_args) -> str:
        # Headless: nobody can answer the edit-log dialog, so say so and go on without a log.
        print(f"smoke-test: {error}; going on without an edit log", file=sys.stderr)
        return NO_LOG

    window.edit_log.ask_log_failure = no_log
    window.playback.pending_media = media
    loop = QEventLoop()
    outcome: dict[str, str] = {}

    def finish(key: str, value: str) -> None:
        outcome.setdefault(key, value)
        loop.quit()

    window.review.casing_finished.connect(lambda: finish("ok", ""))
    window.review.casing_failed.connect(lambda msg: finish("error", msg))
    window.review.casing_cancelled.connect(lambda: finish("error", "cancelled"))
    QTimer.singleShot(600_000, lambda: finish("error", "timed out after 600 s"))
    window.opening.open_file(path)
    loop.exec()
    code = 0
    if "error" in outcome:
        print(f"smoke-test: failed: {outcome['error'].strip()}", file=sys.stderr)
        code = 1
    else:
        s = window.session
        assert s is not None  # casing_finished: the file is open
        c = s.state.counts()
        print(f"smoke-test: loaded {len(s.doc.cues)} cues, cased {c['words']} words, {c['to_review']} to review "
              f"(model {s.model_version})")
        code = _smoke_media(window, media)
    window.close()
    return code


def _smoke_media(window, media: Path | None) -> int:
    """Wait for the media the window is opening, if any; 0 when it loaded or there was none to load."""
    from PySide6.QtCore import QEventLoop, QTimer

    from subcase.media import same_stem_media

    if media is None and (window.session is None or same_stem_media(window.session.source) is None):
        return 0
    if window.playback.media is None:
        print(f"smoke-test: media: {window.playback.media_problem}", file=sys.stderr)
        return 1
    loop = QEventLoop()
    outcome: dict[str, str] = {}

    def finish(key: str, value: str) -> None:
        outcome.setdefault(key, value)
        loop.quit()

    window.playback.media_opened.connect(lambda name: finish("ok", name))
    window.playback.media_failed.connect(lambda msg: finish("error", msg))
    QTimer.singleShot(60_000, lambda: finish("error", "timed out after 60 s"))
    if window.playback.media_ref is None or not window.playback.media.ready:
        loop.exec()
    if "error" in outcome:
        print(f"smoke-test: media failed: {outcome['error'].strip()}", file=sys.stderr)
        return 1
    kind = "video" if window.playback.media_has_video else "audio"
    print(f"smoke-test: media {outcome.get('ok', window.playback.media_ref.name)} opened ({kind}, "
          f"{window.playback.media.duration_ms / 1000:.1f} s)")
    return 0


INTERRUPTED = 130  # the shell's status for a program ended by Ctrl-C
_WAKE_MS = 200


def install_sigint_handler(app, windows) -> object:
    """Make Ctrl-C in the terminal quit the app cleanly.

    Qt's event loop runs in C++, and Python runs a signal handler only when
    it next executes Python code, which an idle window may not do for a long
    time; a timer that calls into Python every 200 ms gives it that chance.
    The handler does not ask questions (nobody is at the window): unsaved
    work is written to its crash-recovery snapshot, which the next start
    offers to restore, and the app exits with status 130.  Returns the timer
    (keep a reference).
    """
    from PySide6.QtCore import QTimer

    def on_sigint(_signum, _frame) -> None:
        for w in windows():
            w.quit_on_interrupt()
        app.exit(INTERRUPTED)

    signal.signal(signal.SIGINT, on_sigint)
    timer = QTimer()
    timer.timeout.connect(lambda: None)  # only to let Python run its signal handlers
    timer.start(_WAKE_MS)
    return timer


def run_gui(argv: list[str]) -> int:
    args = _parse(argv)
    if args.smoke_test:
        # No display is needed to prove the bundle works.
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    # Qt aborts the process (status 134) when its platform plugin cannot start: say why first
    from .display import display_problem

    problem = display_problem()
    if problem:
        print(f"subcase: {problem}", file=sys.stderr)
        return 1
    if args.smoke_test:
        return smoke_test(args.file, args.media)

    from PySide6.QtCore import QTimer

    from .main_window import MainWindow

    app = make_app()
    window = MainWindow()
    window.playback.pending_media = args.media
    window.show()
    wake = install_sigint_handler(app, lambda: [window])  # noqa: F841 - kept alive until exec returns

    def start() -> None:
        restored = window.recovery.check_recovery()
        if args.file is not None and not restored:
            window.opening.open_file(args.file)

    QTimer.singleShot(0, start)
    return app.exec()


def main() -> int:
    return run_gui(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
