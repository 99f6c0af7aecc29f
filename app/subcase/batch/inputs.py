"""The inputs of a batch: the subtitle files named or found in folders, each with its place below
the output folder; paths that cannot be used become failed results, reported before any work."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Sequence

from subcase.subtitles import formats

from .convert import FileResult
from .plan import BatchInput, is_within, special_kind

__all__ = ["collect_batch_inputs", "collect_inputs"]


def collect_inputs(paths: Sequence[Path | str], exclude: Sequence[Path | str] = ()
                   ) -> tuple[list[Path], list[FileResult]]:
    """Expand folders (recursively) into subtitle files (every suffix ``formats`` reads); report paths that
    cannot be used.

    Files under a folder in ``exclude`` (the output folder) are left out of
    folder walks, so a second run into ``FOLDER/cased`` does not take the
    first run's outputs as inputs.  Special files are reported, never opened.
    A file met under two names (a link to it) is taken once: scoring and
    learning must not count it twice.
    """
    found, bad = _walk(paths, exclude, lambda f: str(f.resolve()))
    return [f.path for f in found], bad


def collect_batch_inputs(paths: Sequence[Path | str], exclude: Sequence[Path | str] = ()
                         ) -> tuple[list[BatchInput], list[FileResult]]:
    """``collect_inputs`` for a conversion: each file with its place below the output folder (its
    path below the folder it was found in), so the output tree mirrors the input tree.  Only the
    same name given twice is taken once; a link to a file is an input of its own (a second name in
    the output folder, or a clear collision when both land on one output name)."""
    def same_entry(f: Path) -> str:
        return os.path.join(os.path.realpath(f.parent), f.name)
    return _walk(paths, exclude, same_entry)


def _walk(paths: Sequence[Path | str], exclude: Sequence[Path | str], key: Callable[[Path], str]
          ) -> tuple[list[BatchInput], list[FileResult]]:
    files: list[BatchInput] = []
    bad: list[FileResult] = []
    seen: set[str] = set()
    excluded = [Path(e) for e in exclude]
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if formats.is_subtitle_path(f) and f.is_file()
                           and not any(is_within(f, e) for e in excluded))
            if not found:
                bad.append(FileResult(p, error=f"folder holds no {formats.suffix_list()} files"
                                      + (" outside the output folder" if excluded else "")))
            candidates = [BatchInput(f, f.relative_to(p)) for f in found]
        elif (kind := special_kind(p)) is not None:
            bad.append(FileResult(p, error=f"is {kind}, not a regular file; subcase only reads regular files"))
            continue
        elif p.is_file():
            if not formats.is_subtitle_path(p):
                bad.append(FileResult(p, error=f"not a subtitle file (expected {formats.suffix_list()}, "
                                                  f"got {p.suffix or 'no extension'})"))
                continue
            candidates = [BatchInput.named(p)]
        elif os.path.lexists(p):
            bad.append(FileResult(p, error="is a broken symbolic link"))
            continue
        else:
            bad.append(FileResult(p, error="no such file or folder"))
            continue
        for f in candidates:
            k = key(f.path)
            if k not in seen:
                seen.add(k)
                files.append(f)
    return files, bad
