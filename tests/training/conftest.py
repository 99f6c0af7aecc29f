"""The training pipeline runs from the source tree: the run-time wheel leaves it out.

When the installed subcase has no ``subcase.training`` (CI tests the installed
wheel), it is loaded from app/subcase/training of this repository under its own
name, while every other subcase module stays the installed one.  Nothing else
is added to the import path, so a run-time module the wheel lacks still fails.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2] / "app" / "subcase" / "training"

if importlib.util.find_spec("subcase.training") is None:
    spec = importlib.util.spec_from_file_location("subcase.training", SOURCE / "__init__.py",
                                                  submodule_search_locations=[str(SOURCE)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["subcase.training"] = module
    spec.loader.exec_module(module)
