"""The long fuzz run: each target of targets.py for as long as asked, with fresh random seeds.

    python tests/fuzz/run.py --minutes 10                  # every target, the time shared out
    python tests/fuzz/run.py srt vtt --seconds 120         # some targets, so long each
    python tests/fuzz/run.py --minutes 10 --corpus DIR     # keep the corpus and the crashes in DIR

Run it from the repository with subcase installed (the test extra).  It keeps a corpus: each input
that ran a line of subcase no earlier input of its target ran (line coverage, traced in subcase's own
files only), saved as a Python literal in DIR/TARGET/; an input that breaks the target's property is
saved in DIR/TARGET/crashes/ with the error, and reported once per place it was raised.  At the end it
prints a table (executions, corpus, lines covered, slowest input, crashes) for the research log; the
exit status is 1 if any target crashed.  One process: the machine it runs on is shared.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, so fuzz.targets imports as in pytest

from hypothesis import HealthCheck, given, settings  # noqa: E402

import subcase  # noqa: E402
from fuzz.targets import SLOWEST_S, TARGETS, Target  # noqa: E402

PACKAGE = str(Path(subcase.__file__).resolve().parent)
BATCH = 50  # examples per Hypothesis run; each run starts from a new random seed


@dataclass
class Result:
    target: str
    seconds: float = 0.0
    executions: int = 0
    corpus: int = 0
    lines: set[tuple[str, int]] = field(default_factory=set)
    slowest: float = 0.0
    crashes: dict[str, str] = field(default_factory=dict)  # where it was raised -> the error


def _lines_of(check, case) -> tuple[set[tuple[str, int]], float]:
    """Run the check on one input; the lines of subcase it ran, and how long it took."""
    seen: set[tuple[str, int]] = set()

    def local(frame: FrameType, event: str, arg: object):
        if event == "line":
            seen.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def outer(frame: FrameType, event: str, arg: object):
        return local if frame.f_code.co_filename.startswith(PACKAGE) else None

    start = time.perf_counter()
    sys.settrace(outer)
    try:
        check(case)
    finally:
        sys.settrace(None)
    return seen, time.perf_counter() - start


def _where(exc: BaseException) -> str:
    """The place a failure was raised: its type and its innermost frame in subcase (or anywhere)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if f.filename.startswith(PACKAGE)] or frames
    last = ours[-1] if ours else None
    place = f"{Path(last.filename).name}:{last.lineno}" if last else "?"
    return f"{type(exc).__name__} at {place}"


def fuzz(target: Target, seconds: float, corpus: Path) -> Result:
    result = Result(target.name)
    folder = corpus / target.name
    (folder / "crashes").mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + seconds
    start = time.monotonic()

    def one(case: object) -> None:
        if time.monotonic() > deadline:
            return
        result.executions += 1
        try:
            lines, took = _lines_of(target.check, case)
        except Exception as exc:  # the property broke: keep the input, then go on looking for others
            where = _where(exc)
            if where not in result.crashes:
                result.crashes[where] = f"{type(exc).__name__}: {str(exc)[:300]}"
                name = f"{len(result.crashes):03d}.txt"
                (folder / "crashes" / name).write_text(f"# {where}\n# {str(exc)[:300]!r}\n{case!r}\n",
                                                       encoding="utf-8")
            return
        result.slowest = max(result.slowest, took)
        if took > SLOWEST_S:
            result.crashes.setdefault(f"slow input ({took:.1f} s)", repr(case)[:300])
        if not lines <= result.lines:
            result.lines |= lines
            result.corpus += 1
            (folder / f"{result.corpus:05d}.txt").write_text(repr(case) + "\n", encoding="utf-8")

    run = settings(max_examples=BATCH, deadline=None, derandomize=False, database=None,
                   suppress_health_check=list(HealthCheck))(given(target.strategy)(one))
    while time.monotonic() < deadline:
        run()
    result.seconds = time.monotonic() - start
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"targets to run (default: all of {', '.join(TARGETS)})")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="seconds per target")
    budget.add_argument("--minutes", type=float, help="minutes in all, shared out between the targets")
    parser.add_argument("--corpus", type=Path, help="folder for the corpus and crashes (default: a new temporary one)")
    args = parser.parse_args(argv)
    from PySide6.QtCore import qInstallMessageHandler
    qInstallMessageHandler(lambda *message: None)  # Qt's warnings on damaged settings files: expected, and many
    names = args.targets or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s) {', '.join(unknown)}; the targets are {', '.join(TARGETS)}")
    per_target = args.seconds if args.seconds else (args.minutes or 5.0) * 60 / len(names)
    corpus = args.corpus or Path(tempfile.mkdtemp(prefix="subcase-fuzz-"))
    print(f"fuzz: {len(names)} target(s), {per_target:.0f} s each; corpus in {corpus}", flush=True)
    results = []
    for name in names:
        result = fuzz(TARGETS[name], per_target, corpus)
        results.append(result)
        print(f"fuzz: {name}: {result.executions} executions, {len(result.crashes)} crash(es)", flush=True)
    print()
    print("| target | reader | seconds | executions | per second | corpus | lines covered | slowest input | crashes |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in results:
        rate = r.executions / r.seconds if r.seconds else 0.0
        print(f"| {r.target} | `{TARGETS[r.target].reader}` | {r.seconds:.0f} | {r.executions} | {rate:.1f} | "
              f"{r.corpus} | {len(r.lines)} | {r.slowest:.2f} s | {len(r.crashes)} |")
    crashed = [r for r in results if r.crashes]
    for r in crashed:
        for where, error in r.crashes.items():
            print(f"fuzz: {r.target}: {where}: {error}")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
