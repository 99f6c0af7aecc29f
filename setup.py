"""Build hook: the wheel carries the shipped model and resources/.

The model (models/) and the icons, styles and examples (resources/) stay at the
top of the repository, where the training pipeline, PyInstaller and people look
for them.  At build time they are copied into the package as
``subcase/_data/models`` and ``subcase/_data/resources``, where
``subcase.paths`` finds them in an installed wheel.  An editable install
(``pip install -e .``) copies nothing: there ``subcase.paths`` finds the
folders in the source tree.  MANIFEST.in puts the same files in the sdist, so
a wheel built from the sdist carries them too.  Everything else is declared
in pyproject.toml.
"""

from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# one list of the model files, shared with the app (paths.py is standard library only)
MODEL_FILES: tuple[str, ...] = runpy.run_path(str(HERE / "app" / "subcase" / "paths.py"))["MODEL_FILES"]


def _data_files() -> list[tuple[Path, str]]:
    """(source file, path under subcase/_data/) for everything the wheel must carry."""
    missing = [name for name in MODEL_FILES if not (HERE / "models" / name).is_file()]
    if missing:
        raise SystemExit(f"setup.py: models/ lacks {', '.join(missing)}; a wheel without the model "
                         "cannot case anything")
    files = [(HERE / "models" / name, f"models/{name}") for name in MODEL_FILES]
    resources = HERE / "resources"
    files += [(p, f"resources/{p.relative_to(resources).as_posix()}")
              for p in sorted(resources.rglob("*")) if p.is_file()]
    return files


class BuildPyWithData(build_py):
    """build_py that also copies models/ and resources/ into subcase/_data/."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # the source tree is on sys.path; paths.py finds the folders there
            return
        for src, rel in _data_files():
            dest = Path(self.build_lib) / "subcase" / "_data" / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs = list(super().get_outputs(include_bytecode))
        if not self.editable_mode:
            outputs += [str(Path(self.build_lib) / "subcase" / "_data" / rel) for _, rel in _data_files()]
        return outputs


setup(cmdclass={"build_py": BuildPyWithData})
