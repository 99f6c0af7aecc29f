"""Where the shipped model and resources live: in a PyInstaller bundle, an
installed wheel or a source tree (editable install).

* PyInstaller bundle: ``models/`` and ``resources/`` under the bundle root
  (``sys._MEIPASS``), put there by packaging/subcase.spec;
* installed wheel: ``subcase/_data/models`` and ``subcase/_data/resources``
  inside the package, copied there at build time by setup.py;
* source tree (``pip install -e .``, or ``PYTHONPATH=app``): ``models/`` and
  ``resources/`` at the top of the repository.

``SUBCASE_MODEL_DIR`` and ``SUBCASE_RESOURCES_DIR`` override the search.
Standard library only: setup.py reads ``MODEL_FILES`` from here.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# The files of models/ that every build ships (wheel and sdist; see setup.py and
# MANIFEST.in): the network, the tokenizer, the case-mask lexicon, the machine-
# readable card (version, calibration, window) and the model card for people.
MODEL_FILES = ("model.onnx", "tokenizer.json", "lexicon.json", "model.json", "MODEL_CARD.md",
               # the companion model of other languages (casing/engine.py, COMPANION), loaded only when needed
               "multilingual/model.onnx", "multilingual/tokenizer.json", "multilingual/lexicon.json",
               "multilingual/model.json", "multilingual/MODEL_CARD.md",
               # the words its languages write only capitalised (casing/capitalised.py)
               "multilingual/capitalised.json.gz",
               # each model's punctuation head (casing/punctuation.py): without it the graph's ``hidden``
               # output is read by nothing and no mark is restored
               "punctuation.npz", "multilingual/punctuation.npz")

_PACKAGE = Path(__file__).resolve().parent


def _source_root() -> Path | None:
    """The repository root when this module runs from a source tree (app/subcase/)."""
    root = _PACKAGE.parents[1]
    if _PACKAGE.parent.name == "app" and (root / "pyproject.toml").is_file():
        return root
    return None


def _roots() -> list[Path]:
    """The places to look, most specific first."""
    roots = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        roots.append(Path(bundle))
    roots.append(_PACKAGE / "_data")
    source = _source_root()
    if source is not None:
        roots.append(source)
    return roots


def _find(name: str, env: str) -> Path:
    override = os.environ.get(env)
    if override:
        return Path(override)
    roots = _roots()
    for root in roots:
        if (root / name).is_dir():
            return root / name
    # Nothing found: name the place this kind of install should have, so that the
    # error the caller reports ("... model.onnx is missing") points at it.
    expected = roots[0] if getattr(sys, "_MEIPASS", None) else roots[-1]
    return expected / name


def models_dir() -> Path:
    """The folder holding model.onnx, tokenizer.json, lexicon.json and model.json."""
    return _find("models", "SUBCASE_MODEL_DIR")


def resources_dir() -> Path:
    """The folder holding icons, styles, examples and the .desktop file."""
    return _find("resources", "SUBCASE_RESOURCES_DIR")


def resource_path(relative: str) -> Path:
    return resources_dir() / relative
