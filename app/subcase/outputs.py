"""Where a run's outputs go, checked against everything else the run touches.

Decided once, before any file is read or converted, so a conflict never
shows up halfway through a batch and no output ever replaces an input, an
earlier output of the same run, or the ``--details``/``--json`` report.

Rules (README, "Batch conversion"):

- Each input's output is ``OUTDIR/<input stem>.<format>``.
- Two inputs that map to the same output (``a/x.srt`` and ``b/x.srt``, or
  ``x.srt`` and ``x.vtt`` under ``--format srt``): the first, in the order
  the inputs were listed and walked, is converted; every later one fails
  with a line that names the input that owns the output.  Outputs are never
  renamed behind the user's back: a script that expects ``OUTDIR/x.srt``
  finds exactly the file it asked for.
- An output that is itself an input of the run fails the same way.
- On a file system that ignores case in names (macOS and Windows by default,
  exFAT and SMB shares anywhere), ``Film.srt`` and ``film.srt`` are one file:
  the output folder is probed, and there names that differ only in case
  conflict as above.  An output that already exists and is an input under
  another spelling (case, hard link) is caught by comparing the files.
- A report file (``--details``, ``--json``) must not be an input or an
  output, and its folder must exist and be writable; otherwise the whole
  run stops before it starts, with one line.
- Files inside the output folder are not inputs: converting a folder again
  into ``FOLDER/cased`` must not pick up the previous run's outputs.
- FIFOs, devices and sockets are refused by looking at them (stat), never by
  opening them, since opening a FIFO blocks until someone writes to it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from subcase.errors import OutputConflictError, SpecialFileError, SubcaseError
from subcase.subtitles import formats
from subcase.subtitles.files import check_readable_file, special_kind

__all__ = ["check_readable_file", "check_report_path", "ignores_case", "is_within", "output_path", "plan_outputs",
           "PlannedOutput", "same_file_key", "special_kind"]


def same_file_key(path: Path) -> str:
    """A key under which two spellings of one file compare equal (symlinks,
    "..", relative paths); the file need not exist yet."""
    return os.path.normcase(os.path.realpath(path))


def is_within(path: Path, folder: Path) -> bool:
    """True when path is folder or lies somewhere below it (after resolving links)."""
    p, f = same_file_key(path), same_file_key(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def output_path(src: Path, out_dir: Path, out_format: str | None) -> Path:
    fmt = formats.get(out_format) if out_format else (formats.for_path(src) or formats.SRT)
    return out_dir / (src.stem + fmt.suffix)


@dataclass(frozen=True)
class PlannedOutput:
    src: Path
    dst: Path | None   # None when the input must not be converted
    error: str | None  # why not, one line without the input's name


def ignores_case(folder: Path) -> bool:
    """True when the file system that holds ``folder`` (or its nearest existing parent) treats names
    that differ only in case as one file.  Probed by looking up an existing name with its case
    swapped: nothing is written, and a folder whose path has no letters is probed by an entry."""
    p = Path(os.path.realpath(folder))
    while not p.exists() and p != p.parent:
        p = p.parent
    candidates = [p] if p.name.swapcase() != p.name else []
    if not candidates:
        try:
            with os.scandir(p) as entries:
                candidates = [p / e.name for e in entries if e.name.swapcase() != e.name][:1]
        except OSError:
            return False
    for c in candidates:
        other = c.with_name(c.name.swapcase())
        try:
            return os.path.samefile(c, other)
        except OSError:  # the other spelling does not exist: names are case-sensitive here
            return False
    return False


def _file_ids(paths: Sequence[Path]) -> dict[tuple[int, int], Path]:
    """(device, inode) of each path that exists: one file under any spelling (case, hard link)."""
    ids: dict[tuple[int, int], Path] = {}
    for p in paths:
        try:
            st = os.stat(p)
        except OSError:
            continue
        ids.setdefault((st.st_dev, st.st_ino), p)
    return ids


def plan_outputs(inputs: Sequence[Path], out_dir: Path, out_format: str | None) -> list[PlannedOutput]:
    """The output of every input, in input order; conflicting ones get an error instead."""
    fold = ignores_case(out_dir)

    def output_key(path: Path) -> str:
        key = same_file_key(path)
        return key.casefold() if fold else key

    input_keys = {output_key(p): p for p in inputs}
    input_ids = _file_ids(inputs)
    owner: dict[str, Path] = {}
    plan: list[PlannedOutput] = []
    for src in inputs:
        dst = output_path(src, out_dir, out_format)
        key = output_key(dst)
        existing = _file_ids([dst])  # an output that exists already may be an input under another spelling
        other = input_keys.get(key) or next((input_ids[i] for i in existing if i in input_ids), None)
        if other is not None:
            what = "the input itself" if other == src else f"the input {other}"
            plan.append(PlannedOutput(src, None, f"the output {dst} would overwrite {what}; "
                                                 "choose another output folder"))
        elif key in owner:
            plan.append(PlannedOutput(src, None, f"the output {dst} is already the output of {owner[key]} "
                                                 "(same name); rename one of them or convert them separately"))
        else:
            owner[key] = src
            plan.append(PlannedOutput(src, dst, None))
    return plan


def check_report_path(path: Path, option: str, inputs: Iterable[Path], outputs: Iterable[Path],
                      folders: Iterable[Path] = ()) -> None:
    """Refuse a report file (``--details``, ``--json``) that would replace an
    input or an output of the run, or that cannot be written at all.

    Raises OutputConflictError or SubcaseError with one line naming the option.
    """
    path = Path(path)
    key = same_file_key(path)
    for p in inputs:
        if same_file_key(p) == key:
            raise OutputConflictError(f"{option} would overwrite the input {p}; choose another file name", path)
    for p in outputs:
        if same_file_key(p) == key:
            raise OutputConflictError(f"{option} would overwrite the output {p}; choose another file name", path)
    for folder in folders:  # the output folder, which may not exist yet
        if same_file_key(folder) == key:
            raise OutputConflictError(f"{option} names the output folder {folder}; give a file name", path)
    if path.is_dir():
        raise SubcaseError(f"{option} names a folder; give a file name", path)
    kind = special_kind(path)
    if kind is not None:
        raise SpecialFileError(f"{option} names {kind}, not a regular file", path)
    from subcase.subtitles.atomic import is_read_only
    if is_read_only(path):
        raise SubcaseError(f"{option} names a read-only file; it is not replaced", path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise SubcaseError(f"{option}: the folder {parent} does not exist", path)
    if not os.access(parent, os.W_OK | os.X_OK):
        raise SubcaseError(f"{option}: the folder {parent} is not writable", path)
