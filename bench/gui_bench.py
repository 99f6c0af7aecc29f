"""Does the window stay responsive while a film-length file opens and cases?

    PYTHONPATH=app python bench/gui_bench.py [--cues 1500] [--runs 1]

A 10 ms QTimer heartbeat runs on the GUI thread; every gap between two beats
is time the event loop could not serve the user.  Two ways to open the same
1,500-cue file are measured side by side in one run, with the engine already
loaded for both:

- app: ``MainWindow.open_file`` (load and case in a QThreadPool worker, the
  cues shown as soon as they are parsed);
- baseline: load, case and show on the GUI thread, as a naive app would.

Prints, per scenario: time until the first cues are on screen, time until
casing is done, and the max / p99 / p95 heartbeat gap and the number of gaps
over 100 ms.  Numbers, not a pass/fail test: the machine may be busy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QElapsedTimer, QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

SHARED = ROOT.parent / "shared" / "data" / "dev-subtitles"
FALLBACK = ["i told john we would meet at the station in london.", "the fbi never called back about the iphone.",
            "where were you on tuesday night, mr. brown?", "nasa says the launch is delayed until march.",
            "we can't stay here, they know about paris.", "dr. jones and sarah left for new york yesterday."]


def film_lines() -> list[str]:
    """Real subtitle lines (the shared dev files), lowercased as ASR would give them."""
    from subcase.subtitles import load

    lines: list[str] = []
    if SHARED.is_dir():
        for p in sorted(SHARED.iterdir()):
            if p.suffix in (".srt", ".vtt"):
                try:
                    lines += [c.plain_text().lower() for c in load(p).cues if c.plain_text().strip()]
                except Exception:
                    continue
    return lines or FALLBACK


def make_film(path: Path, cues: int) -> Path:
    lines = film_lines()
    out = []
    for i in range(cues):
        s, e = 1000 + i * 2500, 3000 + i * 2500

        def t(ms: int) -> str:
            return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"

        out.append(f"{i + 1}\n{t(s)} --> {t(e)}\n{lines[i % len(lines)]}\n")
    path.write_text("\n".join(out), encoding="utf-8")
    return path


class Heartbeat:
    def __init__(self, interval_ms: int = 10):
        self.timer = QTimer()
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._beat)
        self.clock = QElapsedTimer()
        self.beats: list[float] = []

    def _beat(self) -> None:
        self.beats.append(self.clock.nsecsElapsed() / 1e6)

    def start(self) -> None:
        self.beats = []
        self.clock.start()
        self.timer.start()
        self.beats.append(0.0)

    def stop(self) -> list[float]:
        self.timer.stop()
        self._beat()
        return [b - a for a, b in zip(self.beats, self.beats[1:])]


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def wait(loop_until, timeout_s: float = 900) -> None:
    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    check = QTimer()
    check.setInterval(5)
    check.timeout.connect(lambda: loop.quit() if loop_until() or time.perf_counter() > deadline else None)
    check.start()
    loop.exec()
    check.stop()


def run_app(window, path: Path, hb: Heartbeat) -> dict:
    t0 = time.perf_counter()
    marks: dict[str, float] = {}
    done = []
    window.review.casing_finished.connect(lambda: done.append(1))
    window.review.casing_failed.connect(lambda m: done.append(m))
    hb.start()
    window.opening.open_file(path)
    from subcase.gui.workers import PREVIEW

    # the first report of the loading task is its preview: the cues shown, uncased
    window.review.task.signals.progress.connect(
        lambda values: marks.setdefault("first", time.perf_counter() - t0) if values[0] == PREVIEW else None)
    wait(lambda: bool(done))
    marks["done"] = time.perf_counter() - t0
    # let the first paint of the finished view happen inside the measurement
    wait(lambda: time.perf_counter() - t0 > marks["done"] + 0.2)
    gaps = hb.stop()
    window.review.casing_finished.disconnect()
    if done[0] != 1:
        raise SystemExit(f"casing failed: {done[0]}")
    return {"first": marks.get("first", float("nan")), "done": marks["done"], "gaps": gaps}


def run_idle(hb: Heartbeat, seconds: float = 3.0) -> dict:
    """The noise floor: the heartbeat alone, nothing opening (the machine may be busy)."""
    hb.start()
    end = time.perf_counter() + seconds
    wait(lambda: time.perf_counter() > end)
    return {"first": 0.0, "done": 0.0, "gaps": hb.stop()}


def run_baseline(window, engines, path: Path, hb: Heartbeat) -> dict:
    from subcase.casing import Mode, apply_casing, case_document
    from subcase.review import ReviewState
    from subcase.subtitles import load

    marks: dict[str, float] = {}

    def blocking() -> None:
        t0 = time.perf_counter()
        doc = load(path)
        engine = engines.get()
        casing = case_document(engine, doc, Mode.RESTORE, punctuate="never")
        apply_casing(doc, casing)
        state = ReviewState.from_casing(len(doc.cues), casing)
        window.view.set_document(doc, state)
        marks["first"] = marks["done"] = time.perf_counter() - t0

    hb.start()
    QTimer.singleShot(30, blocking)
    wait(lambda: "done" in marks)
    end = time.perf_counter() + 0.2
    wait(lambda: time.perf_counter() > end)
    gaps = hb.stop()
    return {"first": marks["first"], "done": marks["done"], "gaps": gaps}


def report(name: str, r: dict) -> str:
    g = r["gaps"]
    return (f"{name:<30} first cues {r['first'] * 1000:8.0f} ms   cased {r['done'] * 1000:8.0f} ms   "
            f"beats {len(g):5d}   gap max {max(g):7.1f} ms   p99 {pct(g, 0.99):6.1f}   p95 {pct(g, 0.95):6.1f}   "
            f"median {statistics.median(g):5.1f}   >100ms {sum(1 for x in g if x > 100):3d}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cues", type=int, default=1500)
    ap.add_argument("--runs", type=int, default=1)
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("SUBCASE_DATA_DIR", str(Path(tmp) / "data"))
        os.environ.setdefault("SUBCASE_CONFIG_DIR", str(Path(tmp) / "config"))
        from PySide6.QtWidgets import QMessageBox

        from subcase.gui.application import make_app

        app = make_app()  # exactly as the app starts (incl. the GIL switch interval)

        from subcase.gui.main_window import MainWindow
        from subcase.gui.workers import EngineHolder

        film = make_film(Path(tmp) / "film.srt", args.cues)
        engines = EngineHolder()
        t = time.perf_counter()
        engine = engines.get()
        print(f"model {engine.info.version} sha256 {engine.info.sha256[:12]}, loaded in "
              f"{(time.perf_counter() - t) * 1000:.0f} ms; file {args.cues} cues; platform "
              f"{QApplication.platformName()}; {os.cpu_count()} CPUs")
        window = MainWindow(engines=engines)
        window.ask = lambda *a: QMessageBox.Discard
        window.resize(1100, 700)
        window.show()
        hb = Heartbeat(10)
        wait(lambda: True)
        print(report("idle (noise floor)", run_idle(hb)))
        for i in range(args.runs):
            print(report(f"app (worker thread) #{i + 1}", run_app(window, film, hb)))
            window.view.set_document(None, None)
            print(report(f"baseline (GUI thread) #{i + 1}", run_baseline(window, engines, film, hb)))
            window.view.set_document(None, None)
        window.close()
        del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
