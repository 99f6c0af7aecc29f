"""``subcase FILE`` as the console script runs it, plus one hook: once the file is cased and shown, say what
the window shows (one JSON line on stdout) and close it.  test_plain_install.py runs this in a venv of the
plain wheel; it is not a test module itself.

    python open_editor.py FILE SCREENSHOT.png

The start-up is the app's own (``subcase.cli.main`` -> ``gui.app.run_gui``): this only makes the
QApplication first, which ``gui.application.make_app`` takes over as it finds it, so that the hook's timer is
set before the entry point starts the event loop.  Exit status: the entry point's (0 once the window
closed), 3 on a time-out, 4 when casing failed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

TIMEOUT_MS = 60_000


def main() -> int:
    path, screenshot = Path(sys.argv[1]), Path(sys.argv[2])
    app = QApplication(["subcase"])
    facts: dict[str, object] = {}

    def window():
        # by name: importing subcase.gui.main_window here would load the app before its entry point does
        return next(w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow")

    def shown() -> None:
        from subcase.gui.cue_model import COL_TEXT as text  # loaded by now: the window is up

        w = window()
        model = w.view.cue_model
        media = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "Media")
        first = media.actions()[0]
        facts.update(
            visible=w.isVisible(),
            cues=len(w.session.doc.cues) if w.session is not None else None,
            rows=model.rowCount(),
            shown=[model.index(row, text).data() for row in range(model.rowCount())],
            text_shown=not w.view.visualRect(model.index(0, text)).isEmpty(),
            media_menu_first=first.text(),
            media_menu_first_enabled=first.isEnabled(),
            media_pane=w.playback.media_dock.message.text(),
            player=w.playback.media is not None,
            multimedia_loaded="PySide6.QtMultimedia" in sys.modules,
        )
        w.grab().save(str(screenshot))
        facts["closed"] = w.close()  # the way a user quits: nothing was edited, so nothing is asked
        print(json.dumps(facts), flush=True)

    def fail(code: int, why: str) -> None:
        print(json.dumps({"error": why}), flush=True)
        app.exit(code)

    def hook() -> None:
        # the first zero timer, so it runs before run_gui's own start-up timer opens the file
        w = window()
        w.review.casing_finished.connect(lambda: QTimer.singleShot(0, shown))  # after the window has laid out the rows
        w.review.casing_failed.connect(lambda message: fail(4, f"casing failed: {message}"))

    QTimer.singleShot(0, hook)
    QTimer.singleShot(TIMEOUT_MS, lambda: fail(3, f"not cased and shown within {TIMEOUT_MS // 1000} s"))
    sys.argv = ["subcase", str(path)]
    from subcase.cli import main as subcase_main

    return subcase_main()


if __name__ == "__main__":
    sys.exit(main())
