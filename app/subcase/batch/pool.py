"""The process-pool back-end: ``subcase convert --jobs N`` and the GUI batch's "Files at a time".

Each worker process loads the model once, with one onnxruntime thread (and
the model's card as the parent read it), and converts whole files with
``convert.convert_file`` -- the code a single process runs -- so outputs are
byte-identical.  Two one-thread processes beat
one two-thread process (the encoder's Python, parsing and writing overlap the
other file's model run).

What the caller sees is what ``convert.run_in_process`` gives:

- finished files are reported (``on_file_done``) and listed in input order,
  whatever order the workers finish them in, so FAILED lines come out in the
  same order as in one process;
- ``progress(i, n, done, total)`` is per file (files run side by side; see
  ``convert.BatchProgress`` for the overall fraction);
- ``cancel()`` stops every worker between two batches of windows; files
  already written stay (writes are atomic), and the result says cancelled.
  Ctrl-C does the same and then raises KeyboardInterrupt, as in one process.
  It is taken as a request, not as an exception raised wherever the main
  thread happens to be (``deferred_ctrl_c``): raised inside
  ``concurrent.futures.wait``, it could leave a future's lock held, and the
  pool's shutdown then waited for it forever (1 run in 40 here).

No scheduler of our own: ``concurrent.futures.ProcessPoolExecutor`` with the
``forkserver`` start method (``spawn`` where there is none), so no worker
inherits a running onnxruntime thread pool or a Qt application.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Sequence

from subcase.casing.engine import ModelInfo, ShouldCancel
from subcase.casing.onnx_session import available_cores

from .convert import BatchResult, FileResult, adapter, convert_file, unconverted
from .options import ConvertOptions
from .plan import OutputPlan, PlannedOutput

if TYPE_CHECKING:
    import multiprocessing.context
    from concurrent.futures import Future, ProcessPoolExecutor

# multiprocessing and concurrent.futures are imported where a pool starts: a
# one-file convert (the common case at a prompt) should not pay for their imports

ProgressFn = Callable[[int, int, int, int], None]
FileDoneFn = Callable[[FileResult], None]

WORKER_DIED = "the worker process converting it stopped unexpectedly (killed, or out of memory?)"
POLL_S = 0.05  # how often the parent looks at progress and at ``cancel`` while files run


# Starting the workers costs wall time (a fresh interpreter, the imports, the
# model) that one process has paid already, and a small batch does not earn it
# back (docs/research/2026-11-28-measurements-behind-code-comments.md).  So when the user does not ask for a number, a batch under this
# size stays in one process.
SMALL_BATCH_BYTES = 512 * 1024


def default_jobs() -> int:
    """One worker per core this process may use."""
    return available_cores()


def auto_jobs(inputs: Sequence[Path]) -> int:
    """The default for ``--jobs``: one per core, but one for a batch too small to pay
    for starting the workers."""
    total = 0
    for p in inputs:
        try:
            total += Path(p).stat().st_size
        except OSError:
            pass  # the file's own error is reported when it is converted
        if total >= SMALL_BATCH_BYTES:
            return default_jobs()
    return 1


# -- in each worker process -------------------------------------------------------------

_worker: dict[str, Any] = {}


def _init_worker(options: ConvertOptions, info: ModelInfo, progress_q: Any, stop: Any) -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides what it
    # means (stop between batches), so a worker never dies mid-write with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker.update(options=options, info=info, progress_q=progress_q, stop=stop, engine=None, adapt=None)


def _worker_engine() -> Any:
    if _worker["engine"] is None:
        from subcase.casing import CasingEngine

        options: ConvertOptions = _worker["options"]
        engine = CasingEngine(options.model_dir, threads=1, info=_worker["info"])
        _worker["adapt"] = adapter(options.profile, engine)
        _worker["engine"] = engine
    return _worker["engine"]


def _convert_in_worker(index: int, planned: PlannedOutput, out_format: str | None) -> FileResult:
    engine = _worker_engine()  # loaded on the worker's first file, then kept
    progress_q, stop = _worker["progress_q"], _worker["stop"]

    def progress(done: int, total: int) -> None:
        progress_q.put((index, done, total))

    # CasingCancelled propagates to the parent through the future
    return convert_file(engine, planned, _worker["options"], out_format, progress, stop.is_set, _worker["adapt"])


# -- in the parent ----------------------------------------------------------------------

class InOrder:
    """Hands results on in input order, as soon as every earlier one is in."""

    def __init__(self, on_file_done: FileDoneFn | None):
        self.on_file_done = on_file_done
        self.finished: dict[int, FileResult] = {}
        self.next = 0
        self.released: list[FileResult] = []

    def add(self, index: int, result: FileResult) -> None:
        self.finished[index] = result
        while self.next in self.finished:
            self._release(self.finished[self.next])
            self.next += 1

    def flush(self) -> list[FileResult]:
        """After a cancel: the files that did finish, still in input order."""
        for i in sorted(k for k in self.finished if k >= self.next):
            self._release(self.finished[i])
        self.next = max(self.finished, default=-1) + 1
        return self.released

    def _release(self, r: FileResult) -> None:
        self.released.append(r)
        if self.on_file_done is not None:
            self.on_file_done(r)


def _context() -> multiprocessing.context.BaseContext:
    import multiprocessing

    # a frozen bundle re-runs its own executable as the worker (entry.py calls
    # freeze_support); spawn is the start method PyInstaller documents for that
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods or getattr(sys, "frozen", False):
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    # The fork server imports numpy, onnxruntime and the engine once and every
    # worker is forked from it with them loaded (no model, no thread pool yet), so
    # workers start sooner.
    ctx.set_forkserver_preload(["subcase.batch.pool"])
    return ctx


@contextlib.contextmanager
def deferred_ctrl_c():
    """While the block runs, Ctrl-C sets the event it yields instead of raising KeyboardInterrupt at
    whatever line the main thread is on; the block checks the event where stopping is safe.  Outside
    the main thread (the GUI's batch worker) signals cannot be handled, and the event stays unset."""
    pressed = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield pressed
        return
    previous = signal.signal(signal.SIGINT, lambda _signum, _frame: pressed.set())
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, previous)


def run_in_pool(plan: OutputPlan, options: ConvertOptions, info: ModelInfo, jobs: int,
                progress: ProgressFn | None = None, on_file_done: FileDoneFn | None = None,
                cancel: ShouldCancel | None = None) -> BatchResult:
    """Convert what ``plan`` says in ``jobs`` worker processes (see the module's docstring);
    ``info`` is the model's card, read once by the driver.

    Raises ``ModelError`` when the workers cannot load the model, and
    KeyboardInterrupt after stopping the workers on Ctrl-C.
    """
    with deferred_ctrl_c() as ctrl_c:
        return _run_pool(plan, options, info, jobs, progress, on_file_done, cancel, ctrl_c)


def _run_pool(plan: OutputPlan, options: ConvertOptions, info: ModelInfo, jobs: int,
              progress: ProgressFn | None, on_file_done: FileDoneFn | None,
              cancel: ShouldCancel | None, ctrl_c: threading.Event) -> BatchResult:
    """``run_in_pool``'s work; Ctrl-C (``ctrl_c``) is acted on between two steps of it."""
    import queue
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    from subcase.casing import CasingCancelled

    n = len(plan)
    sources = plan.sources
    ctx = _context()
    progress_q = ctx.Queue()
    stop = ctx.Event()
    order = InOrder(on_file_done)
    cancelled = False
    pool = ProcessPoolExecutor(max_workers=max(1, min(jobs, n)), mp_context=ctx, initializer=_init_worker,
                               initargs=(options, info, progress_q, stop))

    finished: set[int] = set()

    def drain() -> None:
        while True:
            try:
                i, done, total = progress_q.get_nowait()
            except queue.Empty:
                return
            # a file's last messages may arrive after its result: never move its bar back
            if progress is not None and i not in finished:
                progress(i, n, done, total)

    try:
        # The plan was made before any worker reads a file (plan.py): an input it does
        # not convert gets its result here, in input order, as in run_in_process.
        futures: dict[Future[FileResult], int] = {}
        for i, planned in enumerate(plan):
            if ctrl_c.is_set():
                raise KeyboardInterrupt
            if not planned.converts:
                finished.add(i)
                if progress is not None:
                    progress(i, n, 1, 1)
                order.add(i, unconverted(planned))
                continue
            try:
                futures[pool.submit(_convert_in_worker, i, planned, plan.out_format)] = i
            except BrokenProcessPool:
                # a worker died while files were still being handed out (killed, out of memory)
                finished.add(i)
                if progress is not None:
                    progress(i, n, 1, 1)
                order.add(i, FileResult(sources[i], error=WORKER_DIED))
        pending = set(futures)
        while pending:
            if ctrl_c.is_set():
                raise KeyboardInterrupt
            if cancel is not None and cancel():
                cancelled = True
                break
            done, pending = wait(pending, timeout=POLL_S, return_when=FIRST_COMPLETED)
            drain()
            for f in sorted(done, key=futures.__getitem__):
                i = futures[f]
                try:
                    r = f.result()
                except CasingCancelled:
                    cancelled = True
                    continue
                except BrokenProcessPool:
                    # A worker was killed (out of memory, a signal): the pool cannot go on, and
                    # every file not yet converted gets a FAILED line instead of a traceback.
                    r = FileResult(sources[i], error=WORKER_DIED)
                finished.add(i)
                if progress is not None:
                    progress(i, n, 1, 1)
                order.add(i, r)
            if cancelled:
                break
        if cancelled:
            _stop(pool, futures, stop)
            _report_finished(futures, order)
            return BatchResult(order.flush(), cancelled=True)
        if ctrl_c.is_set():
            raise KeyboardInterrupt  # pressed as the last file finished: still an interrupted run
        return BatchResult(order.released)
    except KeyboardInterrupt:
        running = futures if "futures" in locals() else {}
        _stop(pool, running, stop)
        # every file written before the workers stopped is reported, so "N of M files written" is true
        _report_finished(running, order)
        order.flush()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        progress_q.close()
        progress_q.join_thread()


def _report_finished(futures: dict[Future[FileResult], int], order: InOrder) -> None:
    """Hand ``order`` the files that finished while the workers were being stopped."""
    for f, i in futures.items():
        if f.done() and not f.cancelled() and f.exception() is None and i not in order.finished:
            order.add(i, f.result())


def _stop(pool: ProcessPoolExecutor, futures: dict[Future[FileResult], int], stop: Any) -> None:
    """Tell running files to stop between two batches, drop the ones not started, and wait."""
    stop.set()
    for f in futures:
        f.cancel()
    pool.shutdown(wait=True, cancel_futures=True)
