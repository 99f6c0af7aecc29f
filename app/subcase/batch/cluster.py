"""Archives beyond one machine: ``subcase convert --cluster ADDRESS`` on Dask distributed.

A back catalogue of thousands of films goes to an existing Dask cluster
(``dask scheduler`` / ``dask worker`` by hand, SLURM through dask-jobqueue,
Kubernetes through dask-kubernetes; see docs/guide/command-line.md).  We only submit one task
per file; Dask schedules them.  From Python::

    from subcase.batch import ConvertOptions, convert_batch, plan_outputs
    plan = plan_outputs(files, Path("/shared/out"), None)
    result = convert_batch(plan, ConvertOptions(cluster="tcp://scheduler:8786"))
    for r in result.failed: print(r.src, r.error)

``cluster`` may also be a ``distributed.Client`` you already hold.

- Every worker needs subcase installed (with the same model) and must see the
  inputs and the output folder at the same paths as this machine: a shared
  file system (NFS, Lustre, a mounted bucket) that the user names.
- Each worker process loads the model once (``EnginePlugin``), with as many
  onnxruntime threads as the worker has task threads, and checks that its
  model is the one this machine has (different weights would silently give
  different outputs).
- Each file is converted by ``convert.convert_file``, the code of a
  single process; results come back as ``FileResult``s, reported in input
  order with the paths as the user wrote them, so FAILED lines and the exit
  status are those of a local run.
- Progress is per finished file.  Cancel (or Ctrl-C) drops the files not yet
  started and tells running ones to stop between two batches of windows.

Dask is an optional extra (``pip install 'subcase[cluster]'``): it adds about
0.45 s of imports and 40 MB, which no other command should pay.
"""

from __future__ import annotations

import dataclasses
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from subcase.casing.engine import ModelInfo, ShouldCancel
from subcase.errors import SubcaseError

from .convert import BatchResult, FileResult, adapter, convert_file, unconverted
from .options import ConvertOptions
from .plan import OutputPlan, PlannedOutput
from .pool import FileDoneFn, InOrder, ProgressFn

PLUGIN_NAME = "subcase-engine"
CANCEL_POLL_S = 0.5  # a running file asks the scheduler whether to stop at most this often


class ClusterError(SubcaseError):
    """The cluster cannot be used (Dask missing, scheduler unreachable)."""


def _engine_plugin_class() -> type:
    from distributed.diagnostics.plugin import WorkerPlugin

    class EnginePlugin(WorkerPlugin):
        """Loads the casing engine once per worker process, on the first file it gets.

        Lazily, not in ``setup``: an error there would be logged on the worker
        only, while an error in a task reaches the user as a FAILED run.
        """

        name = PLUGIN_NAME

        def __init__(self, model_dir: str | None, sha256: str):
            self.model_dir = model_dir
            self.sha256 = sha256
            self.threads = 1
            self.worker_address = "?"

        def setup(self, worker: Any) -> None:
            self.threads = max(1, int(getattr(worker.state, "nthreads", 1)))
            self.worker_address = worker.address

        def engine(self) -> Any:
            return _process_engine(self.model_dir, self.sha256, self.threads, self.worker_address)

    return EnginePlugin


# The engine outlives the plugin: every batch registers its plugin again (Dask
# replaces it), but a worker process loads a given model only once.
_engines: dict[tuple[str | None, int], Any] = {}
_engines_lock = threading.Lock()


def _process_engine(model_dir: str | None, sha256: str, threads: int, worker_address: str) -> Any:
    from subcase.casing import CasingEngine, ModelError

    with _engines_lock:
        key = (model_dir, threads)
        if key not in _engines:
            _engines[key] = CasingEngine(Path(model_dir) if model_dir else None, threads=threads)
        engine = _engines[key]
    if engine.info.sha256 != sha256:
        raise ModelError(f"worker {worker_address} has model {engine.info.sha256[:12]}, not {sha256[:12]} as on "
                         "the submitting machine; install the same subcase on every worker")
    return engine


def convert_remote(planned: PlannedOutput, options: ConvertOptions, out_format: str | None,
                   cancel_event: str) -> FileResult:
    """Runs on a Dask worker: one file of the plan (with absolute paths), with the worker's engine."""
    from distributed import Event, get_worker

    plugin: Any = get_worker().plugins[PLUGIN_NAME]  # our EnginePlugin, registered by the client
    engine = plugin.engine()
    event = Event(cancel_event)
    checked = [0.0, False]

    def should_cancel() -> bool:
        now = time.monotonic()
        if now - checked[0] >= CANCEL_POLL_S:
            checked[0], checked[1] = now, event.is_set()
        return bool(checked[1])

    return convert_file(engine, planned, options, out_format, None, should_cancel, adapter(options.profile, engine))


def _as_local(r: FileResult, src: Path, abs_src: Path, out_dir: Path, abs_out: Path) -> FileResult:
    """Paths back as the user wrote them, so messages match a local run."""
    r.src = src
    if r.dst is not None:
        r.dst = out_dir / Path(r.dst).relative_to(abs_out)
    if r.error and str(abs_src) != str(src):
        r.error = r.error.replace(str(abs_src), str(src))
    if r.error and str(abs_out) != str(out_dir):  # an output named in the error (a link refused, a name taken)
        r.error = r.error.replace(str(abs_out), str(out_dir))
    return r


def _client(address: Any) -> tuple[Any, bool]:
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'subcase[cluster]'") from None
    if isinstance(address, Client):
        return address, False
    try:
        # the connect timeout is Dask's own setting (distributed.comm.timeouts.connect,
        # or DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT), 30 s unless the user says otherwise
        return Client(address, set_as_default=False), True
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def run_on_cluster(plan: OutputPlan, options: ConvertOptions, info: ModelInfo,
                   progress: ProgressFn | None = None, on_file_done: FileDoneFn | None = None,
                   cancel: ShouldCancel | None = None) -> BatchResult:
    """Convert what ``plan`` says on the Dask cluster of ``options.cluster`` (an address or a
    ``Client``); ``info`` is the model's card, read once by the driver: the weights every worker
    must have.

    Raises ``ClusterError`` when the cluster cannot be used, ``ModelError``
    when a worker cannot load the model, KeyboardInterrupt after cancelling.
    """
    from subcase.casing import CasingCancelled

    model_dir = options.model_dir
    client, owned = _client(options.cluster)
    sent = dataclasses.replace(options, cluster=None)  # the workers need no client, and it does not pickle
    out_dir = plan.out_dir
    abs_out = out_dir.resolve()
    srcs = plan.sources
    abs_srcs = [p.resolve() for p in srcs]
    n = len(srcs)
    order = InOrder(on_file_done)
    from distributed import Event, KilledWorker, as_completed

    cancel_name = f"subcase-cancel-{uuid.uuid4().hex}"
    stop = Event(cancel_name, client=client)
    futures: list[Any] = []
    try:
        plugin = _engine_plugin_class()(str(Path(model_dir).resolve()) if model_dir else None, info.sha256)
        client.register_plugin(plugin, name=PLUGIN_NAME)
        # pure=False: converting the same file twice is two tasks, never a cached result
        # The plan was made before any file is sent (plan.py): an input it does not
        # convert gets its result here, in input order, as in run_in_process.
        index: dict[Any, int] = {}
        for i, planned in enumerate(plan):
            if not planned.converts:
                order.add(i, unconverted(planned))
                if progress is not None:
                    progress(i, n, 1, 1)
                continue
            # the workers see the same files under absolute paths (a shared file system)
            remote = dataclasses.replace(planned, src=abs_srcs[i], folder=abs_out,
                                         dst=abs_out / planned.relative if planned.relative else None)
            f = client.submit(convert_remote, remote, sent, plan.out_format, cancel_name, pure=False,
                              key=f"subcase-{i}-{uuid.uuid4().hex[:8]}")
            futures.append(f)
            index[f.key] = i
        done_iter = as_completed(futures, loop=client.loop, with_results=False)
        cancelled = False
        while not cancelled and not done_iter.is_empty():
            if cancel is not None and cancel():
                cancelled = True
                break
            for f in _wait_one(done_iter):
                i = index[f.key]
                try:
                    r = _as_local(f.result(), srcs[i], abs_srcs[i], out_dir, abs_out)
                except CasingCancelled:
                    cancelled = True
                    continue
                except KilledWorker as exc:
                    # Dask retried the file on other workers and each died with it (out of memory?)
                    r = FileResult(srcs[i], error=f"every worker that tried it died ({exc})")
                order.add(i, r)
                if progress is not None:
                    progress(i, n, 1, 1)
        if cancelled:
            _cancel(client, stop, futures)
            return BatchResult(order.flush(), cancelled=True)
        return BatchResult(order.released)
    except KeyboardInterrupt:
        _cancel(client, stop, futures)
        order.flush()  # the files that did finish are reported, so "N of M files written" is true
        raise
    finally:
        if owned:
            client.close()


def _wait_one(done_iter: Any) -> list[Any]:
    """The next finished file, or none within a short while (so ``cancel`` is looked at)."""
    deadline = time.monotonic() + 0.1
    while time.monotonic() < deadline:
        batch = done_iter.next_batch(block=False)
        if batch or done_iter.is_empty():
            return list(batch)
        time.sleep(0.01)
    return []


def _cancel(client: Any, stop: Any, futures: list[Any]) -> None:
    stop.set()
    if futures:
        client.cancel(futures)
