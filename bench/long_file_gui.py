"""The editor on a three-hour stream (issue #56 item 5): open, case with progress, scroll, N, save.

    python bench/long_file_gui.py [--words 150000] [--layout rolling|plain] [--baseline 3000] [--profile N]

The file is made from the dev text (subcase.evaluation.long_files), never committed.  A 10 ms heartbeat on
the GUI thread measures how long the event loop was kept from the user at each step (gui_bench.py's).  The
file opens as a user opens it (``Opening.open_file``: the size question answered Open), is loaded and cased in
the worker with progress reports, then the view is scrolled from top to bottom, N (next word to review) is
pressed ten times, then T, L, U and Enter on the flagged words N reached, one cue's text is edited (as F2
does: the new words cased in a task), and the file is saved.  Prints the time of each step, the progress
reports seen, the worst heartbeat gap and each key press's answer time (the bar: under 100 ms), and the
install of the cased review into the views (its time and worst gap, from the casing task's end to
``casing_finished``).  With
``--baseline N`` the same steps run first on an N-word file of the same layout, in the same process, so the
long file's numbers stand beside a short file's taken under the same load.  ``--profile N`` prints the N
costliest functions (cProfile, cumulative) of all the key presses and the cue edit, after the GUI thread's own
costliest ones while the file opened and while it was saved.  Numbers, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from gui_bench import Heartbeat, pct, wait  # noqa: E402


def _gaps(hb: Heartbeat) -> str:
    g = hb.stop() or [0.0]
    return f"gap max {max(g):7.1f} ms, p99 {pct(g, 0.99):6.1f} ms, >100 ms: {sum(1 for x in g if x > 100)}"


def _answers(name: str, answers: list[float]) -> str:
    if not answers:
        return f"{name}: no word to press it on"
    a = sorted(answers)
    return (f"{name} x{len(a)}: answered in {a[0]:.1f}-{a[-1]:.1f} ms (median {a[len(a) // 2]:.1f} ms; "
            f"bar 100 ms)")


def run(words: int, layout: str, tmp: Path, engines, profiler) -> None:
    """Open, case, scroll, press keys, edit a cue and save one ``words``-word file, printing each step."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMessageBox

    from subcase.evaluation.long_files import write_long_files
    from subcase.gui.main_window import MainWindow

    app = QApplication.instance()
    assert app is not None
    plain, rolling = write_long_files(tmp / f"long-{words}", words)
    path = rolling if layout == "rolling" else plain
    window = MainWindow(engines=engines)
    window.ask = lambda *a: QMessageBox.StandardButton.Open  # "Open it anyway?" for a file over the limit
    window.resize(1100, 700)
    window.show()
    wait(lambda: True)
    review = window.review
    print(f"-- {path.name}: {words:,} words, {path.stat().st_size / 1e6:.1f} MB")

    hb = Heartbeat(10)
    reports: list[tuple[int, int]] = []
    done: list[object] = []
    finished_at: list[float] = []  # the clock at casing_finished (wait() returns a turn of the event loop later)
    review.casing_finished.connect(lambda: (done.append(1), finished_at.append(hb.clock.nsecsElapsed() / 1e6)))
    review.casing_failed.connect(lambda m: done.append(m))
    review.progress.connect(lambda d, n: reports.append((d, n)))
    # When the casing task ended and its result began to be installed: the clock, the beats till then.
    installed: list[tuple[float, int]] = []
    review.busy_changed.connect(lambda busy: busy or installed.append((hb.clock.nsecsElapsed() / 1e6,
                                                                       len(hb.beats))))
    hb.start()
    t0 = time.perf_counter()
    opening = cProfile.Profile() if profiler is not None else None  # the GUI thread's part of opening
    if opening is not None:
        opening.enable()
    window.opening.open_file(path)
    wait(lambda: bool(done), timeout_s=3600)
    if opening is not None:
        opening.disable()
        print("-- the GUI thread while the file opened and was cased:")
        pstats.Stats(opening).sort_stats("tottime").print_stats(15)
    if done[0] != 1:
        raise SystemExit(f"casing failed: {done[0]}")
    # The install: from the casing task's end to casing_finished (the edit log, the session, the views laying its
    # rows out); its gaps are the heartbeat's from the last beat before it to the first beat after it (a pass in
    # one call is one gap).
    ended = finished_at[-1]
    wait(lambda: hb.beats[-1] > ended, timeout_s=60)
    at, k = installed[-1]
    after = next(i for i, b in enumerate(hb.beats) if b > ended)
    beats = hb.beats[max(0, k - 1):after + 1]
    install_gaps = [b - a for a, b in zip(beats, beats[1:])]
    install = (f"install into the views: {ended - at:6.0f} ms; worst gap {max(install_gaps):6.1f} ms, "
               f">100 ms: {sum(1 for x in install_gaps if x > 100)}")
    print(f"open and case: {time.perf_counter() - t0:6.1f} s, {len(reports)} progress reports "
          f"(last {reports[-1] if reports else None}); {_gaps(hb)}")
    print(install)

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
    view.setFocus()

    def press(key) -> float:
        t = time.perf_counter()
        if profiler is not None:
            profiler.enable()
        QTest.keyClick(view, key)
        app.processEvents()
        if profiler is not None:
            profiler.disable()
        return (time.perf_counter() - t) * 1000

    hb.start()
    answers = [press(Qt.Key.Key_N) for _ in range(10)]
    print(f"{_answers('N', answers)}; {_gaps(hb)}")
    assert review.session is not None
    state = review.session.state
    hb.start()
    decided = []
    for name, key in (("T", Qt.Key.Key_T), ("L", Qt.Key.Key_L), ("U", Qt.Key.Key_U), ("Enter", Qt.Key.Key_Return)):
        if state.current is None:  # no flagged word left (a short file): nothing to decide
            break
        decided.append((name, press(key)))
    print(f"{_answers('T/L/U/Enter', [ms for _n, ms in decided])} "
          f"({', '.join(f'{n} {ms:.1f}' for n, ms in decided)}); {_gaps(hb)}")

    # An edit of one cue, as the F2 box's OK does: the new words cased in a task, then one undo step.
    row = rows // 2
    edited: list[int] = []
    review.cue_text_edited.connect(edited.append)
    text = review.session.doc.cues[row].text
    hb.start()
    t0 = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    window.cue_editing.edit_cue_text_cased(row, text.replace(" ", "  ", 1) if " " in text else text + " so")
    wait(lambda: bool(edited), timeout_s=120)
    if profiler is not None:
        profiler.disable()
    print(f"edit cue {row + 1} (cased in a task, then applied): {(time.perf_counter() - t0) * 1000:6.1f} ms; "
          f"{_gaps(hb)}")

    # The autosave snapshot follows 1.5 s after the last change: its cost on the GUI thread shows as a gap here.
    hb.start()
    t0 = time.perf_counter()
    wait(lambda: time.perf_counter() - t0 > 2.5, timeout_s=10)
    print(f"autosave after the last key (2.5 s idle): {_gaps(hb)}")

    hb.start()
    saving = cProfile.Profile() if profiler is not None else None  # the GUI thread's part of the save
    t0 = time.perf_counter()
    if saving is not None:
        saving.enable()
    saved = window.saving.save_to(tmp / f"saved-{words}{path.suffix}")
    if saving is not None:
        saving.disable()
    print(f"save: {time.perf_counter() - t0:6.2f} s ({'saved' if saved else 'FAILED'}); {_gaps(hb)}")
    if saving is not None:
        print("-- the GUI thread's own costliest functions while the file was saved (the write is a task's):")
        pstats.Stats(saving).sort_stats("tottime").print_stats(15)
    check = window.saving.check_task  # the reference parser reads the saved file back, in the background
    if check is not None:
        hb.start()
        t0 = time.perf_counter()
        wait(check.done.is_set, timeout_s=600)
        print(f"the saved file read back by the reference parser (background): {time.perf_counter() - t0:6.2f} s; "
              f"{_gaps(hb)}")
    window.ask = lambda *a: QMessageBox.StandardButton.Discard
    window.close()
    wait(lambda: True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--words", type=int, default=150_000)
    ap.add_argument("--layout", choices=("rolling", "plain"), default="rolling")
    ap.add_argument("--baseline", type=int, default=3000, help="words of the short file run first (0: none)")
    ap.add_argument("--profile", type=int, default=0, help="print the N costliest functions of the key presses")
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("SUBCASE_DATA_DIR", str(Path(tmp) / "data"))
        os.environ.setdefault("SUBCASE_CONFIG_DIR", str(Path(tmp) / "config"))
        from subcase.gui.app import make_app
        from subcase.gui.workers import EngineHolder

        app = make_app()
        engines = EngineHolder()
        engines.get()
        for words in ([args.baseline] if args.baseline else []) + [args.words]:
            profiler = cProfile.Profile() if args.profile and words == args.words else None
            run(words, args.layout, Path(tmp), engines, profiler)
            if profiler is not None:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
        del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
