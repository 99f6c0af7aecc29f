"""How the model should use the cores: one session with N intra-op threads, or N one-thread sessions.

    python bench/session_pool.py [--runs 5] [--cues 1500] [--threads N]
    python bench/avx2_only.py python bench/session_pool.py      # the users' AVX2 int8 kernel

Casing one film (``make_film``, the film ``subcase bench`` uses), in this process, alternating
the systems run by run:

- ``1 session, N intra-op threads``: how the engine ran the model before;
- ``1 session, N batches at once``: ``OnnxSession.run_all``, as the engine runs it now;
- ``N sessions, N batches at once``: the same with a session per thread;
- ``1 session, 1 thread``: the baseline all are measured against.

It prints the model-only time on the film's own batches and the whole ``case_file`` (tokenizing,
windows, the model, writing the casing back), median of the runs, the memory each system
added to the process when it was made and first used, and the CPU as ``subcase bench`` reads it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))

from subcase.casing import CasingEngine, case_file  # noqa: E402
from subcase.casing.onnx_session import OnnxSession, available_cores  # noqa: E402
from subcase.evaluation.bench import cpu_info, make_film  # noqa: E402
from subcase.paths import models_dir  # noqa: E402


class IntraOp:
    """One session, each batch on ``threads`` intra-op threads, batches one after the other
    (how the engine ran the model before ``OnnxSession.run_all``)."""

    def __init__(self, model: Path, threads: int):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self.session = ort.InferenceSession(str(model), sess_options=opts, providers=["CPUExecutionProvider"],
                                            disabled_optimizers=["SkipLayerNormFusion"])
        self.gathers = "positions" in {i.name for i in self.session.get_inputs()}  # as OnnxSession

    def run_all(self, batches: Iterable[tuple[np.ndarray, ...]],
                outputs: tuple[str, ...] = ("probs",)) -> Iterator[list[np.ndarray]]:
        names = ["input_ids", "attention_mask", "positions"]
        for batch in batches:
            yield self.session.run(list(outputs), dict(zip(names, batch)))


class Sessions:
    """``n`` one-thread sessions of the model, ``n`` batches at once: the same parallelism as
    ``OnnxSession.run_all``, with a copy of the pre-packed weights per session."""

    def __init__(self, model: Path, n: int):
        self.sessions = [OnnxSession(model, 1) for _ in range(n)]
        self.gathers = self.sessions[0].gathers

    def run_all(self, batches: Iterable[tuple[np.ndarray, ...]],
                outputs: tuple[str, ...] = ("probs",)) -> Iterator[list[np.ndarray]]:
        todo = list(batches)
        with ThreadPoolExecutor(len(self.sessions)) as pool:
            yield from pool.map(lambda ib: self.sessions[ib[0] % len(self.sessions)].run_outputs(outputs, *ib[1]),
                                enumerate(todo))


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cues", type=int, default=1500)
    ap.add_argument("--threads", type=int, default=available_cores())
    args = ap.parse_args()
    n = args.threads
    info = cpu_info()
    hidden = f" (hidden from this process: {', '.join(info['hidden'])})" if info["hidden"] else ""
    print(f"CPU: {info['model']}, {info['cores']} cores; {info['onnxruntime']}: int8 kernel {info['int8_kernel']}{hidden}")
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(tmp) / "film.srt"
        make_film(film, args.cues)
        model = models_dir() / "model.onnx"
        engine = CasingEngine(threads=n)
        recorded: list[tuple[np.ndarray, ...]] = []
        pool_run = engine.session.run_outputs
        engine.session.run_outputs = lambda names, *batch: (recorded.append(batch), pool_run(names, *batch))[1]
        case_file(engine, film, punctuate="never")
        del engine.session.run_outputs
        words = sum(1 for _ in film.read_text(encoding="utf-8").split())
        builders = {f"1 session, {n} intra-op threads": lambda: IntraOp(model, n),
                    f"1 session, {n} batches at once": lambda: OnnxSession(model, n),
                    f"{n} sessions, {n} batches at once": lambda: Sessions(model, n),
                    "1 session, 1 thread": lambda: OnnxSession(model, 1)}
        systems, added = {}, {}
        for name, build in builders.items():  # made and warmed up one by one: what each adds to the process
            before = rss_mb()
            systems[name] = build()
            engine.session = systems[name]  # type: ignore[assignment]
            case_file(engine, film, punctuate="never")
            added[name] = rss_mb() - before
        model_s: dict[str, list[float]] = {k: [] for k in systems}
        whole_s: dict[str, list[float]] = {k: [] for k in systems}
        for _ in range(args.runs):
            for name, system in systems.items():
                t = time.perf_counter()
                for _ in system.run_all(recorded):
                    pass
                model_s[name].append(time.perf_counter() - t)
                engine.session = system  # type: ignore[assignment]
                t = time.perf_counter()
                case_file(engine, film, punctuate="never")
                whole_s[name].append(time.perf_counter() - t)
    base = "1 session, 1 thread"
    print(f"film: {args.cues} cues, {words} whitespace words, {len(recorded)} batches; median of {args.runs} runs")
    print(f"{'system':<34} {'model s':>8} {'vs 1 thread':>11} {'case_file s':>12} {'vs 1 thread':>11} {'words/s':>9} {'RSS added':>10}")
    for name in systems:
        m, w = statistics.median(model_s[name]), statistics.median(whole_s[name])
        bm, bw = statistics.median(model_s[base]), statistics.median(whole_s[base])
        print(f"{name:<34} {m:>8.3f} {bm / m:>10.2f}x {w:>12.3f} {bw / w:>10.2f}x {words / w:>9,.0f} {added[name]:>7.0f} MB")


if __name__ == "__main__":
    main()
