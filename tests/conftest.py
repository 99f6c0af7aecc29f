"""Shared test set-up: source root on sys.path, the shipped model, the shared dev data."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

MODELS = ROOT / "models"
DEV_SUBTITLES = ROOT.parent / "shared" / "data" / "dev-subtitles"


@pytest.fixture(scope="session")
def engine():
    """The real shipped ONNX model (loaded once per test session)."""
    if not (MODELS / "model.onnx").is_file():
        pytest.skip(f"the shipped model is missing: {MODELS / 'model.onnx'}")
    from subcase.casing import CasingEngine
    return CasingEngine(MODELS)


@pytest.fixture(scope="session")
def dev_subtitles() -> list[Path]:
    if not DEV_SUBTITLES.is_dir():
        pytest.skip(f"shared dev subtitles not found at {DEV_SUBTITLES} (clone with ../shared beside the repo)")
    return sorted(p for p in DEV_SUBTITLES.iterdir() if p.suffix in (".srt", ".vtt"))
