"""The editor on a three-hour stream (issue #56 item 5): open, case with progress, scroll, N, save.

    python bench/long_file_gui.py [--words 150000] [--layout rolling|plain]

The file is made from the dev text (subcase.evaluation.long_files), never committed.  A 10 ms heartbeat on
the GUI thread measures how long the event loop was kept from the user at each step (gui_bench.py's).  The
file opens as a user opens it (``Opening.open_file``: the size question answered Open), is loaded and cased in
the worker with progress reports, then the view is scrolled from top to bottom, N (next word to review) is
pressed ten times, and the file is saved.  Prints the time of each step, the progress reports seen, the
worst heartbeat gap and each key press's answer time (the bar: under 100 ms).  Numbers, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui_bench import Heartbeat, pct, wait  # noqa: E402


def _gaps(hb: Heartbeat) -> str:
    g = hb.stop()
    return f"gap max {max(g):7.1f} ms, p99 {pct(g, 0.99):6.1f} ms, >100 ms: {sum(1 for x in g if x > 100)}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=150_000)
    ap.add_argument("--layout", choices=("rolling", "plain"), default="rolling")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("SUBCASE_DATA_DIR", str(Path(tmp) / "data"))
        os.environ.setdefault("SUBCASE_CONFIG_DIR", str(Path(tmp) / "config"))
        from PySide6.QtCore import Qt
        from PySide6.QtTest import QTest
        from PySide6.QtWidgets import QMessageBox

        from subcase.evaluation.long_files import write_long_files
        from subcase.gui.app import make_app

        app = make_app()
        from subcase.gui.main_window import MainWindow
        from subcase.gui.workers import EngineHolder

        plain, rolling = write_long_files(Path(tmp) / "long", args.words)
        path = rolling if args.layout == "rolling" else plain
        engines = EngineHolder()
        engines.get()
        window = MainWindow(engines=engines)
        window.ask = lambda *a: QMessageBox.StandardButton.Open  # "Open it anyway?" for a file over the limit
        window.resize(1100, 700)
        window.show()
        wait(lambda: True)
        print(f"{path.name}: {args.words:,} words, {path.stat().st_size / 1e6:.1f} MB")

        hb = Heartbeat(10)
        reports: list[tuple[int, int]] = []
        done: list[object] = []
        window.casing_finished.connect(lambda: done.append(1))
        window.casing_failed.connect(lambda m: done.append(m))
        hb.start()
        t0 = time.perf_counter()
        window.opening.open_file(path)
        if window.task is not None:
            window.task.signals.progress.connect(lambda d, n: reports.append((d, n)))
        wait(lambda: bool(done), timeout_s=1800)
        if done[0] != 1:
            raise SystemExit(f"casing failed: {done[0]}")
        print(f"open and case: {time.perf_counter() - t0:6.1f} s, {len(reports)} progress reports "
              f"(last {reports[-1] if reports else None}); {_gaps(hb)}")

        view = window.view
        model = view.model()
        rows = model.rowCount()
        hb.start()
        t0 = time.perf_counter()
        for k in range(0, 21):
            view.scrollTo(model.index(rows * k // 20 - (k == 20), 0))
            app.processEvents()
        print(f"scroll top to bottom in 20 steps ({rows:,} cues): {time.perf_counter() - t0:6.2f} s; {_gaps(hb)}")

        view.scrollToTop()
        app.processEvents()
        answers = []
        hb.start()
        for _ in range(10):
            t0 = time.perf_counter()
            QTest.keyClick(view, Qt.Key.Key_N)
            app.processEvents()
            answers.append((time.perf_counter() - t0) * 1000)
        print(f"N x10: answered in {min(answers):.1f}-{max(answers):.1f} ms (median {sorted(answers)[5]:.1f} ms; "
              f"bar 100 ms); {_gaps(hb)}")

        hb.start()
        t0 = time.perf_counter()
        saved = window.saving.save_to(Path(tmp) / f"saved{path.suffix}")
        print(f"save: {time.perf_counter() - t0:6.2f} s ({'saved' if saved else 'FAILED'}); {_gaps(hb)}")
        window.close()
        del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
