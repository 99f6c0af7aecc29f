"""The one place that owns the ONNX Runtime session: providers, threads, errors.

The model takes ``input_ids`` and ``attention_mask`` (int64, batch x tokens)
and returns ``probs`` (float32, batch x tokens x 4): softmax over the tags
L, T, U, M for every sub-token.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from subcase.errors import SubcaseError


class ModelError(SubcaseError):
    """The shipped model is missing, damaged or cannot run here."""


def default_threads() -> int:
    # Inference is the only heavy work while it runs; use every core we have,
    # but leave ORT's own spinning off so a GUI thread is never starved.
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


class OnnxSession:
    def __init__(self, model_path: Path, threads: int | None = None):
        try:
            import onnxruntime as ort
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ModelError(f"onnxruntime is not installed or failed to load: {exc}") from exc
        if not model_path.is_file():
            raise ModelError(f"model file not found: {model_path}")
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads or default_threads()
        opts.inter_op_num_threads = 1
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        try:
            # The model is exported with LayerNormalization and its residual Add apart:
            # ORT's fused SkipLayerNormalization took 2.9x as long as the two ops here
            # (0.19 s vs 0.066 s of a 0.9 s film), so the session must not re-fuse them.
            self._session = ort.InferenceSession(str(model_path), sess_options=opts,
                                                 providers=["CPUExecutionProvider"],
                                                 disabled_optimizers=["SkipLayerNormFusion"])
        except Exception as exc:  # ORT raises its own exception types
            raise ModelError(f"cannot load model {model_path.name}: {exc}") from exc
        names = {i.name for i in self._session.get_inputs()}
        if not {"input_ids", "attention_mask"} <= names:
            raise ModelError(f"{model_path.name} is not a subcase tagger (inputs: {sorted(names)})")

    def run(self, input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
        (probs,) = self._session.run(["probs"], {"input_ids": input_ids, "attention_mask": attention_mask})
        return probs
