"""Reference files that cannot be read are skipped, not fatal, in ``evaluate`` and ``simulate-review``.

A folder of real subtitles often holds a file or two that cannot be used: an
empty file, a text that is not subtitles, an encoding the reader refuses.
Stopping at the first of them, as both commands did, gave a user with a
hundred files nothing at all.  Each such file is now named with its reason
on one line (``SKIPPED path: reason``, as ``convert`` names its failures),
listed in the JSON under ``"skipped"`` and in the report, and the command
exits with status 1 after scoring the rest.  Only a file's own problems are
skipped: a missing model or language detector still stops the run, since
it would fail every file the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from subcase.errors import SubcaseError, describe_oserror
from subcase.subtitles import SubtitleError

T = TypeVar("T")


class MisalignedReference(SubcaseError):
    """The words cased from a reference's input do not line up with the reference's own words."""


@dataclass(frozen=True, slots=True)
class Skipped:
    file: str
    reason: str

    def line(self) -> str:
        return f"SKIPPED {self.file}: {self.reason}"

    def as_dict(self) -> dict:
        return {"file": self.file, "reason": self.reason}


def _reason(exc: Exception, path: Path) -> str:
    """The error's text without the file name in front (the line names the file once)."""
    if isinstance(exc, SubcaseError) and exc.path is not None:
        return exc.reason
    text = describe_oserror(exc, path) if isinstance(exc, OSError) else str(exc)
    for prefix in (f"{path}: ", f"{path.name}: "):
        if text.startswith(prefix):
            return text[len(prefix):]
    return text


class Skips(list[Skipped]):
    """The files a run left out so far; ``attempt`` adds one and logs its line as it happens."""

    def __init__(self, log: Callable[[str], None] = lambda s: None, already: Iterable[Skipped] = ()):
        super().__init__(already)
        self.log = log

    def attempt(self, path: Path, work: Callable[[], T]) -> T | None:
        """``work()`` on the file at ``path``, or None when the file is unusable (then it is skipped)."""
        try:
            return work()
        except (SubtitleError, MisalignedReference, OSError) as exc:
            skipped = Skipped(str(path), _reason(exc, Path(path)))
        self.append(skipped)
        self.log(skipped.line())
        return None

    def as_json(self) -> list[dict]:
        return [s.as_dict() for s in self]


def read_each(paths: Iterable[Path], read: Callable[[Path], T],
              log: Callable[[str], None] = lambda s: None) -> tuple[list[T], Skips]:
    """``read`` of every path that can be read, in order, and the ones skipped (each logged as it goes)."""
    skips = Skips(log)
    done = [r for r in (skips.attempt(Path(path), partial(read, path)) for path in paths) if r is not None]
    return done, skips


def report_lines(results: dict) -> list[str]:
    """The report's note of the files a run's ``results`` left out (its JSON "skipped"; nothing when none was)."""
    skipped = [Skipped(**s) for s in results.get("skipped", [])]
    if not skipped:
        return []
    return [f"{len(skipped)} file(s) skipped, not scored:"] + [f"  {s.line()}" for s in skipped]
