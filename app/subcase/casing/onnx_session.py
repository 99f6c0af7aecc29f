"""The one place that owns the ONNX Runtime session: providers, threads, errors.

The model takes ``input_ids`` and ``attention_mask`` (int64, batch x tokens)
and returns ``probs`` (float32, batch x tokens x 4): softmax over the tags
L, T, U, M for every sub-token.  A model with a third input, ``positions``
(int64, n: places in the batch's rows laid end to end), returns them for
those sub-tokens only (n x 4).  A model with a punctuation head also returns ``mark_parts``
(n x 10, float32) at the same sub-tokens: the head's scores for the mark after a word, in two halves
that ``casing.punctuation`` adds up across neighbouring words.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import chain, islice
from pathlib import Path
from typing import Generator, Iterable

import numpy as np

from subcase.errors import SubcaseError

from .heap import return_large_buffers


# onnxruntime's recent PyPI builds for Linux and macOS (1.32.0 here) carry Microsoft's 1DS
# telemetry, on by default: `import onnxruntime` writes a device id and an event queue to
# ~/.cache/Microsoft/DeveloperTools/.onnxruntime and an uploader thread looks up
# mobile.events.data.microsoft.com right after a session is created (measured with 1.32.0,
# see docs/privacy.md).  disable_telemetry_events() comes after the import has written the
# files; only an environment variable read when onnxruntime initializes stops it all: 1.32.0
# reads ORT_DISABLE_TELEMETRY (docs/Privacy.md), the current source ORT_TELEMETRY_DISABLED.
# Forced, not defaulted: subtitles may be unreleased work, and subcase talks to no one.
TELEMETRY_SWITCHES = {"ORT_DISABLE_TELEMETRY": "1", "ORT_TELEMETRY_DISABLED": "1"}


def disable_onnxruntime_telemetry() -> None:
    """Switch onnxruntime's telemetry off for this process and its children.

    Must run before onnxruntime is first imported: this module is the only one that
    imports it, and it calls this at import time and again right before the import."""
    os.environ.update(TELEMETRY_SWITCHES)


disable_onnxruntime_telemetry()


class ModelError(SubcaseError):
    """The shipped model is missing, damaged or cannot run here."""


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS has one)."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def default_threads() -> int:
    # Inference is the only heavy work while it runs; use every core we have,
    # but leave ORT's own spinning off so a GUI thread is never starved.
    return available_cores()


class OnnxSession:
    """The model's one ONNX Runtime session, run on ``threads`` cores.

    Each ``run`` uses one intra-op thread, and ``run_all`` puts up to ``threads``
    batches through the session at once, from as many Python threads (a session may
    be run concurrently, and ONNX Runtime lets go of the GIL while it runs).  Two
    intra-op threads per batch instead wake the second thread for each of the graph's
    many small operators, which costs more than it brings; a session per thread is no
    faster and holds a second copy of the pre-packed weights (docs/research/2026-11-28-measurements-behind-code-comments.md).
    """

    def __init__(self, model_path: Path, threads: int | None = None):
        disable_onnxruntime_telemetry()
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelError(f"onnxruntime is not installed or failed to load: {exc}") from exc
        ort.disable_telemetry_events()  # the documented API too (it alone does not stop the uploader)
        if not model_path.is_file():
            raise ModelError(f"model file not found: {model_path}")
        return_large_buffers()  # a long file's outputs and hidden states are given back when freed
        opts = ort.SessionOptions()
        self.threads = max(1, threads or default_threads())
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            # The model is exported with LayerNormalization and its residual Add apart:
            # ORT's fused SkipLayerNormalization is slower than the two ops on this int8 graph,
            # so the session must not re-fuse them (docs/research/2026-11-28-measurements-behind-code-comments.md).
            self._session = ort.InferenceSession(str(model_path), sess_options=opts,
                                                 providers=["CPUExecutionProvider"],
                                                 disabled_optimizers=["SkipLayerNormFusion"])
        except Exception as exc:  # ORT raises its own exception types
            raise ModelError(f"cannot load model {model_path.name}: {exc}") from exc
        names = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= names:
            raise ModelError(f"{model_path.name} is not a subcase tagger (inputs: {sorted(names)})")
        # A model with a ``positions`` input computes its last layer only at the sub-tokens whose tags are
        # read (training/gather.py), and ``probs`` is positions x 4; without it, every sub-token's.
        self.gathers = "positions" in names
        self.output_names = tuple(o.name for o in self._session.get_outputs())

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray,
            positions: np.ndarray | None = None) -> np.ndarray:
        """The tag probabilities (``probs``) of one batch."""
        return self.run_outputs(("probs",), input_ids, attention_mask, positions)[0]

    def run_outputs(self, names: tuple[str, ...], input_ids: np.ndarray, attention_mask: np.ndarray,
                    positions: np.ndarray | None = None) -> list[np.ndarray]:
        """The outputs ``names`` of one batch, in that order."""
        feed = {"input_ids": input_ids, "attention_mask": attention_mask}
        if self.gathers:
            if positions is None:
                raise ValueError("this model needs the positions of the sub-tokens to tag")
            feed["positions"] = positions
        return self._session.run(list(names), feed)

    def shrink_arena(self) -> None:
        """Give the memory onnxruntime's arena holds for activations back to the system: one run of a single
        word piece, with the arena shrunk at its end (every chunk no run is using is freed).

        The arena grows to a chunk of batches' worst moment and, unshrunk, keeps it for the life of the
        session: after a three-hour stream's pass, some 150 MB beside the per-word results made from it.
        Shrinking after every run instead costs a quarter of the pass's time; once after a long pass, about
        10 ms.  The outputs of later runs are the same: the arena places tensors, it does not change them.
        """
        import onnxruntime as ort

        options = ort.RunOptions()
        options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
        feed: dict[str, np.ndarray] = {"input_ids": np.zeros((1, 1), dtype=np.int64),
                                       "attention_mask": np.ones((1, 1), dtype=np.int64)}
        if self.gathers:
            feed["positions"] = np.zeros(1, dtype=np.int64)
        self._session.run([self.output_names[0]], feed, options)

    def run_all(self, batches: Iterable[tuple[np.ndarray, ...]],
                names: tuple[str, ...] = ("probs",)) -> Generator[list[np.ndarray], None, None]:
        """Each batch's outputs ``names`` (a list, in that order), in order, with up to ``threads`` batches
        running at once.

        One more batch than there are threads waits, ready, so a thread that finishes
        starts the next batch at once, not when the caller has taken the output.
        ``batches`` is read lazily, so the caller may stop between two outputs: closing
        the generator drops the waiting batch and waits for those running."""
        rest = iter(batches)
        head = list(islice(rest, 2))
        if self.threads == 1 or len(head) < 2:  # one batch (a cue re-cased): no threads to start
            for batch in chain(head, rest):
                yield self.run_outputs(names, *batch)
            return
        pending: deque[Future[list[np.ndarray]]] = deque()
        with ThreadPoolExecutor(self.threads, thread_name_prefix="subcase-onnx") as pool:
            try:
                for batch in chain(head, rest):
                    pending.append(pool.submit(self.run_outputs, names, *batch))
                    if len(pending) > self.threads:
                        yield pending.popleft().result()
                while pending:
                    yield pending.popleft().result()
            finally:
                for f in pending:
                    f.cancel()
