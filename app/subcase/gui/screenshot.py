"""Take the README screenshots of the real window (run under Xvfb, not offscreen).

    xvfb-run -a -s "-screen 0 1600x1000x24" env PYTHONPATH=app \
        python -m subcase.gui.screenshot FILE resources/screenshot-light.png [light|dark] [tags]

Opens the file with the real model and default settings at 1600x1000,
makes a few review decisions so the looks show (to review, accepted,
changed), moves to the next flagged word with the details panel open, and
grabs the window.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def main(argv: list[str]) -> int:
    src, out = Path(argv[0]), Path(argv[1])
    theme_name = argv[2] if len(argv) > 2 else "light"
    show_tags = "tags" in argv[3:]  # View › Show All Tags on
    with tempfile.TemporaryDirectory() as tmp:
        # Never touch the real settings or edit logs, nor the input file.
        os.environ["SUBCASE_DATA_DIR"] = str(Path(tmp) / "data")
        os.environ["SUBCASE_CONFIG_DIR"] = str(Path(tmp) / "config")
        work = Path(tmp) / src.name
        work.write_bytes(src.read_bytes())

        from PySide6.QtCore import QEventLoop, QTimer
        from PySide6.QtWidgets import QMessageBox

        from subcase.casing import Tag

        from .app import make_app
        from .main_window import MainWindow

        app = make_app()
        window = MainWindow()
        window.ask = lambda *a: QMessageBox.Discard
        window.set_theme(theme_name)
        window.set_show_tags(show_tags)
        window.show()
        window.setGeometry(0, 0, 1600, 1000)  # the whole 1600x1000 screen (Xvfb has no window manager)
        loop = QEventLoop()
        window.casing_finished.connect(loop.quit)
        window.casing_failed.connect(lambda m: (print(m, file=sys.stderr), loop.quit()))
        window.open_file(work)
        loop.exec()
        if window.session is None:
            return 1
        state = window.session.state
        if state.to_review() < 6:  # make sure the picture shows words to review
            confs = sorted(w.confidence for w in state.all_words())
            window.threshold_spin.setDecimals(3)
            window.threshold_spin.setValue(min(1.0, confs[min(len(confs) - 1, 7)] + 0.001))
        window.next_to_review()
        window.accept_word()          # accepted (green, thin underline); moves to the next flagged word
        pos = state.current
        if pos is not None:
            w = state.word(pos)
            window.set_tag(Tag.U if w.tag is not Tag.U else Tag.T)  # changed (blue, dashed), moves on
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
