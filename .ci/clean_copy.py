"""Copy a checkout as a fresh clone of its current state would hold it.

    python .ci/clean_copy.py ROOT DEST

Tracked and new (not ignored) files that exist; nothing git ignores, such as
*.egg-info, build/ or __pycache__, which could otherwise leak into a wheel.
Without git, everything but .git is copied.  Used by .ci/run and by
tests/packaging/test_wheel.py.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def source_files(root: Path) -> list[Path]:
    try:
        out = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], capture_output=True, check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: take it as it is
        return [p for p in root.rglob("*") if ".git" not in p.relative_to(root).parts and p.is_file()]
    # tracked files deleted in the work tree are listed too: a fresh clone of this state lacks them
    return [root / name for name in out.split("\0") if name and (root / name).is_file()]


def clean_copy(root: Path, dest: Path) -> int:
    files = source_files(root)
    for f in files:
        target = dest / f.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, target)
    return len(files)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python .ci/clean_copy.py ROOT DEST")
    n = clean_copy(Path(sys.argv[1]).resolve(), Path(sys.argv[2]))
    print(f"clean_copy: {n} files -> {sys.argv[2]}")
