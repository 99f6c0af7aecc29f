"""subcase.paths finds the model and resources in each layout the app runs from.

Each test loads a copy of the real paths.py placed in a fake layout (a wheel
in site-packages, a source tree, a PyInstaller bundle), so the layouts are
checked whichever way the test environment itself installed subcase.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

import subcase.paths


def _load(paths_py: Path) -> ModuleType:
    paths_py.parent.mkdir(parents=True, exist_ok=True)
    paths_py.write_bytes(Path(subcase.paths.__file__).read_bytes())
    spec = importlib.util.spec_from_file_location(f"_paths_copy_{abs(hash(paths_py))}", paths_py)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _no_overrides(monkeypatch):
    monkeypatch.delenv("SUBCASE_MODEL_DIR", raising=False)
    monkeypatch.delenv("SUBCASE_RESOURCES_DIR", raising=False)
    monkeypatch.delattr(sys, "_MEIPASS", raising=False)


def test_wheel_layout_uses_the_data_inside_the_package(tmp_path):
    site = tmp_path / "lib" / "python3.11" / "site-packages"
    paths = _load(site / "subcase" / "paths.py")
    (site / "subcase" / "_data" / "models").mkdir(parents=True)
    (site / "subcase" / "_data" / "resources").mkdir(parents=True)
    # a stray models/ two levels up (where the old lookup went first) is never used
    (tmp_path / "lib" / "python3.11" / "models").mkdir()
    assert paths.models_dir() == site / "subcase" / "_data" / "models"
    assert paths.resource_path("icons/x.png") == site / "subcase" / "_data" / "resources" / "icons" / "x.png"


def test_wheel_without_data_names_the_place_it_should_be(tmp_path):
    site = tmp_path / "site-packages"
    paths = _load(site / "subcase" / "paths.py")
    (tmp_path / "models").mkdir()  # not a source tree (no pyproject.toml): ignored
    assert paths.models_dir() == site / "subcase" / "_data" / "models"


def test_source_tree_layout_uses_the_top_level_folders(tmp_path):
    paths = _load(tmp_path / "app" / "subcase" / "paths.py")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'subcase'\n")
    (tmp_path / "models").mkdir()
    (tmp_path / "resources").mkdir()
    assert paths.models_dir() == tmp_path / "models"
    assert paths.resources_dir() == tmp_path / "resources"


def test_bundle_layout_uses_the_bundle_root(tmp_path, monkeypatch):
    bundle = tmp_path / "_internal"
    paths = _load(bundle / "subcase" / "paths.py")
    (bundle / "models").mkdir()
    (bundle / "resources").mkdir()
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    assert paths.models_dir() == bundle / "models"
    assert paths.resources_dir() == bundle / "resources"


def test_environment_overrides_win(tmp_path, monkeypatch):
    paths = _load(tmp_path / "site" / "subcase" / "paths.py")
    monkeypatch.setenv("SUBCASE_MODEL_DIR", str(tmp_path / "elsewhere"))
    assert paths.models_dir() == tmp_path / "elsewhere"


@pytest.mark.model
def test_the_running_package_finds_a_complete_model():
    """Whatever way this environment installed subcase, every shipped model file is there."""
    missing = [name for name in subcase.paths.MODEL_FILES if not (subcase.paths.models_dir() / name).is_file()]
    assert not missing, f"{subcase.paths.models_dir()} lacks {missing}"
    assert subcase.paths.resource_path("styles/light.qss").is_file()
    assert subcase.paths.resource_path("icons/subcase.png").is_file()


def test_every_punctuation_head_is_among_the_shipped_files():
    """A model whose card names a head ships it: a wheel or bundle without it restores no mark."""
    import json

    root = Path(__file__).resolve().parents[2] / "models"
    heads = []
    for card in sorted(root.rglob("model.json")):
        head = json.loads(card.read_text(encoding="utf-8")).get("punctuation")
        if head:
            heads.append((card.parent / head["head"]).relative_to(root).as_posix())
    assert len(heads) == 2  # the English model's and the multilingual model's
    assert not set(heads) - set(subcase.paths.MODEL_FILES)
