"""Where the shipped model and resources live, from a source tree, an installed
wheel or a PyInstaller bundle alike."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def _roots() -> list[Path]:
    roots = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # PyInstaller puts data files under the bundle root
        roots.append(Path(bundle))
    # source tree / editable install: app/subcase/paths.py -> repo root
    roots.append(Path(__file__).resolve().parents[2])
    # wheel install: data shipped inside the package
    roots.append(Path(__file__).resolve().parent / "_data")
    return roots


def _find(name: str, env: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    for root in _roots():
        if (root / name).is_dir():
            return root / name
    return _roots()[0] / name


def models_dir() -> Path:
    """The folder holding model.onnx, tokenizer.json, lexicon.json and model.json."""
    return _find("models", "SUBCASE_MODEL_DIR")


def resources_dir() -> Path:
    """The folder holding icons, styles and the .desktop file."""
    return _find("resources", "SUBCASE_RESOURCES_DIR")


def resource_path(relative: str) -> Path:
    return resources_dir() / relative
