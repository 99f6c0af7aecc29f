"""Where a run's outputs go, checked against everything else the run touches.

Decided once, before any file is read or converted, so a conflict never
shows up halfway through a batch and no output ever replaces an input, an
earlier output of the same run, or the ``--details``/``--json`` report.

Rules (docs/guide/command-line.md and docs/guide/batch.md):

- A file given by name goes to ``OUTDIR/<its stem>.<format>``; a file found
  in a folder the user gave keeps its path below that folder
  (``in/film1/English.srt`` -> ``OUTDIR/film1/English.srt``), so a series
  laid out one folder per episode converts whole.
- Nothing in OUTDIR that the run did not make is replaced unless the user
  says so (``Existing``): by default every output name that is taken is
  listed and the run does not start; ``OVERWRITE`` replaces them,
  ``SKIP`` leaves them and converts the rest.
- No symbolic link below OUTDIR is followed.  A link at an output's name is
  a taken name like any file (with OVERWRITE the link itself is replaced and
  the file it points to is never written); a link or a file where a subfolder
  of OUTDIR would go fails that input, whatever the user said.
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
- The output folder must be writable (or, when it does not exist yet, the
  folder it is to be made in): a file is created there and removed at once,
  since permission bits alone say nothing to root or about a read-only
  mount.  Otherwise the whole run stops before the model loads, with one
  line, rather than failing every file after casing it.
- An input folder must not be the output folder or lie inside it: every
  output would land on its input, or the walk, which leaves the output
  folder out, would find nothing.  The run stops with one line naming both.
- Files inside the output folder are not inputs: converting a folder again
  into ``FOLDER/cased`` must not pick up the previous run's outputs.
- FIFOs, devices and sockets are refused by looking at them (stat), never by
  opening them, since opening a FIFO blocks until someone writes to it.
"""

from __future__ import annotations

import dataclasses
import os
import stat
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from subcase.errors import OutputConflictError, SpecialFileError, SubcaseError
from subcase.subtitles import formats, ttml
from subcase.subtitles.files import check_readable_file, special_kind

__all__ = ["BatchInput", "check_input_folders", "check_readable_file", "check_report_path", "Existing",
           "folder_not_writable", "ignores_case", "is_within", "output_path", "OutputPlan", "plan_outputs",
           "PlannedOutput", "same_file_key", "special_kind"]


def same_file_key(path: Path) -> str:
    """A key under which two spellings of one file compare equal (symlinks,
    "..", relative paths); the file need not exist yet."""
    return os.path.normcase(os.path.realpath(path))


def is_within(path: Path, folder: Path) -> bool:
    """True when path is folder or lies somewhere below it (after resolving links)."""
    p, f = same_file_key(path), same_file_key(folder)
    return p == f or p.startswith(f.rstrip(os.sep) + os.sep)


def output_relative(relative: Path, out_format: str | None) -> Path:
    """Where the output of an input placed at ``relative`` goes below the output folder: the same
    place, with the suffix of the format it is written in (the input's own, in lower case, when that is one
    of the format's: x.ssa stays x.ssa; a TTML file keeps .xml too, which only the file's content, not this
    name below another folder, says is TTML)."""
    if out_format is None and relative.suffix.lower() in ttml.SUFFIXES:
        return relative
    fmt = formats.get(out_format) if out_format else (formats.for_path(relative) or formats.SRT)
    own = relative.suffix.lower()
    return relative.with_name(relative.stem + (own if own in fmt.suffixes else fmt.suffix))


def output_path(src: Path, out_dir: Path, out_format: str | None) -> Path:
    """The output of a file given by name (not found in a folder): ``OUTDIR/<stem>.<format>``."""
    return out_dir / output_relative(Path(src.name), out_format)


class Existing(Enum):
    """What a run does with an output name that is taken in the output folder before it starts."""
    REFUSE = "refuse"        # list them all and do nothing (the default)
    OVERWRITE = "overwrite"  # replace them (a link itself, never the file it points to)
    SKIP = "skip"            # leave them as they are and convert only the other inputs


@dataclass(frozen=True)
class BatchInput:
    """An input file and its place below the output folder (before the format's suffix): its name
    when the user gave the file, its path below the folder when it was found in one."""
    path: Path
    relative: Path

    @classmethod
    def named(cls, path: Path | str) -> BatchInput:
        return cls(Path(path), Path(Path(path).name))


@dataclass(frozen=True)
class PlannedOutput:
    src: Path
    dst: Path | None   # None when the input must not be converted
    error: str | None  # why not, one line without the input's name
    folder: Path | None = None    # the output folder; dst is folder / relative
    relative: Path | None = None
    taken: str | None = None      # what stands at dst before the run ("a file", "a symbolic link to X")
    replace: bool = False         # the writer may replace what stands at dst (Existing.OVERWRITE)
    skip: bool = False            # dst is taken and the user chose Existing.SKIP

    @property
    def converts(self) -> bool:
        return self.dst is not None and self.error is None and not self.skip


@dataclass(frozen=True)
class OutputPlan:
    """The one decision of where a batch writes, shared by every back-end (one process, ``--jobs``,
    ``--cluster``, the GUI): each input's output, in input order, or why it gets none."""
    out_dir: Path
    out_format: str | None
    existing: Existing
    entries: tuple[PlannedOutput, ...]
    folder_error: str | None = None  # why nothing at all can be written in out_dir (no run starts)

    def __iter__(self) -> Iterator[PlannedOutput]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def sources(self) -> list[Path]:
        return [e.src for e in self.entries]

    @property
    def taken(self) -> list[PlannedOutput]:
        """The outputs whose name is taken in the output folder already."""
        return [e for e in self.entries if e.error is None and e.taken is not None]

    @property
    def refused(self) -> bool:
        """True when the run must not start: names are taken and the user has not said what to do."""
        return self.existing is Existing.REFUSE and bool(self.taken)

    def taken_lines(self) -> list[str]:
        """One line per taken output name, as ``subcase convert`` lists them before refusing."""
        return [f"exists {e.dst} ({e.taken}; the output of {e.src})" for e in self.taken]

    def check_folder(self) -> None:
        """Raise the one line that says why no output can be written (before the model loads)."""
        if self.folder_error is not None:
            raise SubcaseError(self.folder_error, self.out_dir)

    def with_existing(self, existing: Existing) -> OutputPlan:
        """The same plan with another answer to the outputs that exist (the GUI asks after planning)."""
        entries = tuple(dataclasses.replace(e, replace=existing is Existing.OVERWRITE,
                                            skip=existing is Existing.SKIP and e.taken is not None)
                        for e in self.entries)
        return dataclasses.replace(self, existing=existing, entries=entries)


LINK_REFUSED = "is a symbolic link; subcase never writes through a link in the output folder"


def _what_stands_at(out_dir: Path, relative: Path) -> tuple[str | None, str | None]:
    """(taken, error) for the output ``out_dir/relative``, looked at without following links below
    ``out_dir``: what is there now, or why nothing can be written there whatever the user says."""
    here = out_dir
    for part in relative.parts[:-1]:
        here = here / part
        if here.is_symlink():
            return None, f"{here} {LINK_REFUSED}"
        if not here.exists():
            return None, None  # made by the run
        if not here.is_dir():
            return None, f"{here} is a file, not a folder; the output cannot go inside it"
    dst = out_dir / relative
    try:
        st = os.lstat(dst)
    except FileNotFoundError:
        return None, None
    except OSError as exc:
        return None, f"the output {dst} cannot be looked at: {exc.strerror or exc}"
    if stat.S_ISLNK(st.st_mode):
        return f"a symbolic link to {os.readlink(dst)}", None
    if stat.S_ISDIR(st.st_mode):
        return None, f"the output {dst} is a folder; choose another output folder"
    if stat.S_ISREG(st.st_mode):
        return "a file", None
    return None, f"the output {dst} is {special_kind(dst) or 'not a regular file'}; choose another output folder"


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


def plan_outputs(inputs: Sequence[BatchInput | Path], out_dir: Path, out_format: str | None,
                 existing: Existing = Existing.REFUSE) -> OutputPlan:
    """The output of every input, in input order; conflicting ones get an error instead.  A plain
    path is an input given by name (its output goes straight into ``out_dir``)."""
    out_dir = Path(out_dir)
    batch = [i if isinstance(i, BatchInput) else BatchInput.named(i) for i in inputs]
    sources = [i.path for i in batch]
    fold = ignores_case(out_dir)

    def output_key(path: Path) -> str:
        key = same_file_key(path)
        return key.casefold() if fold else key

    input_keys = {output_key(p): p for p in sources}
    input_ids = _file_ids(sources)
    owner: dict[str, Path] = {}
    plan: list[PlannedOutput] = []
    for item in batch:
        src = item.path
        relative = output_relative(item.relative, out_format)
        dst = out_dir / relative
        key = output_key(dst)
        existing_ids = _file_ids([dst])  # an output that exists already may be an input under another spelling
        other = input_keys.get(key) or next((input_ids[i] for i in existing_ids if i in input_ids), None)
        if other is not None:
            what = "the input itself" if other == src else f"the input {other}"
            plan.append(PlannedOutput(src, None, f"the output {dst} would overwrite {what}; "
                                                 "choose another output folder"))
            continue
        if key in owner:
            plan.append(PlannedOutput(src, None, f"the output {dst} is already the output of {owner[key]} "
                                                 "(same name); rename one of them or convert them separately"))
            continue
        taken, error = _what_stands_at(out_dir, relative)
        if error is not None:
            plan.append(PlannedOutput(src, None, error))
            continue
        owner[key] = src
        plan.append(PlannedOutput(src, dst, None, out_dir, relative, taken))
    folder_error = folder_not_writable(out_dir) if any(e.dst is not None for e in plan) else None
    return OutputPlan(out_dir, out_format, Existing.REFUSE, tuple(plan), folder_error).with_existing(existing)


WRITE_CHECK_NAME = "subcase-write-check"


def folder_not_writable(out_dir: Path) -> str | None:
    """Why no output can be written in ``out_dir``, or None when one can.

    Tried for real in the first folder the run writes to: ``out_dir``, or the
    nearest folder above it that exists (where ``out_dir`` will be made).  A
    file is created there and removed at once: ``os.access`` says yes to root
    on a read-only mount.  The file is created exclusively (never through a
    link) under the atomic writer's temporary name, so even a kill between the
    two steps leaves only what the next save sweeps away."""
    from subcase.subtitles.atomic import temp_name

    out_dir = Path(out_dir)
    here = out_dir
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    if not here.is_dir():
        return f"the output folder cannot be made: {here} is not a folder"
    probe = temp_name(here / WRITE_CHECK_NAME)
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if here == out_dir:
            return f"the output folder is not writable ({reason}); nothing was converted"
        return f"the output folder cannot be made in {here} ({reason}); nothing was converted"
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass  # the name is a temporary's: the next save in this folder sweeps it
    return None


def check_input_folders(paths: Iterable[Path | str], out_dir: Path) -> None:
    """Refuse an output folder that is an input folder or holds one, before the inputs are walked.

    Outputs mirror an input folder below the output folder, so with ``-o`` at
    the input folder every output would be its own input; and the walk leaves
    the output folder out (so a second run into ``FOLDER/cased`` does not take
    the first run's outputs as inputs), which would leave nothing to convert.
    An output folder inside an input folder is fine.  Raises
    ``OutputConflictError`` with one line naming both."""
    out_dir = Path(out_dir)
    for p in map(Path, paths):
        if not p.is_dir() or not is_within(p, out_dir):
            continue
        if same_file_key(p) == same_file_key(out_dir):
            raise OutputConflictError(f"the output folder is the input folder {p}, so every output would replace "
                                      f"its input; choose another output folder (such as {p / 'cased'})", out_dir)
        raise OutputConflictError(f"the input folder {p} is inside the output folder; choose an output folder "
                                  "that does not hold the inputs", out_dir)


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
