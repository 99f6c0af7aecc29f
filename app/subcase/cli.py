"""The ``subcase`` command: the GUI by default, ``convert``, ``evaluate`` and ``bench``.

    subcase [FILE]                      open the editor (same as ``subcase gui [FILE]``)
    subcase convert PATH... -o OUTDIR   case files or folders of .srt/.vtt
    subcase evaluate REF...             score the truecaser on human-cased subtitles
    subcase bench                       speed and memory, side by side with baselines

A user mistake (bad path, bad file, missing model) prints one line and exits
non-zero; it never shows a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from subcase import __version__

COMMANDS = {"convert", "evaluate", "simulate-review", "bench", "gui"}


def _failure(r) -> str:
    """One line for a failed file; the core's errors already start with the file's name."""
    error = r.error or "failed"
    for prefix in (f"{r.src}: ", f"{r.src.name}: "):
        if error.startswith(prefix):
            error = error[len(prefix):]
    return f"FAILED {r.src}: {error}"


class ProgressBar:
    """A one-line progress bar on stderr (plain lines when stderr is not a terminal)."""

    def __init__(self, total: int, quiet: bool = False):
        self.total = max(total, 1)
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.last = -1.0

    def update(self, fraction: float, label: str) -> None:
        if self.quiet:
            return
        if self.tty:
            width = 30
            filled = int(width * fraction)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {100 * fraction:5.1f}% {label[:40]:40}")
            sys.stderr.flush()
        elif fraction - self.last >= 0.1 or (fraction >= 1.0 and self.last < 1.0):
            self.last = fraction
            sys.stderr.write(f"{100 * fraction:5.1f}% {label}\n")

    def close(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def _engine(args):
    from subcase.casing import CasingEngine, ModelError
    try:
        return CasingEngine(args.model) if getattr(args, "model", None) else CasingEngine()
    except ModelError as exc:
        raise SystemExit(f"subcase: {exc}") from None


def _collect(paths: list[Path]):
    """Subtitle files under ``paths``; unusable paths are reported on stderr."""
    from subcase.batch import collect_inputs

    inputs, bad = collect_inputs(paths)
    for r in bad:
        print(_failure(r), file=sys.stderr)
    if not inputs:
        print("subcase: no .srt or .vtt files to work on", file=sys.stderr)
    return inputs, bad


def _styles(args) -> dict:
    """The house style chosen on the command line (casing/housestyle.py)."""
    from subcase.casing.housestyle import Category, Style
    return {Category.SOUND: Style(args.sound_cues), Category.LABEL: Style(args.speaker_labels)}


def _add_style_args(p: argparse.ArgumentParser) -> None:
    styles = ["model", "lower", "upper", "title"]
    p.add_argument("--sound-cues", choices=styles, default="model",
                   help="how to write [sound cues] and (descriptions): as the model says (default), "
                        "lower, UPPER or Title; names inside keep their capitals")
    p.add_argument("--speaker-labels", choices=styles, default="model",
                   help="how to write speaker labels (NAME: at a line start, after a dash, >> NAME:)")


def cmd_convert(args) -> int:
    from subcase.batch import run_batch, write_details

    inputs, bad = _collect(args.paths)
    if not inputs:
        return 1
    out_dir = Path(args.output)
    if out_dir.exists() and not out_dir.is_dir():
        print(f"subcase: output {out_dir} exists and is not a folder", file=sys.stderr)
        return 1
    engine = _engine(args)
    bar = ProgressBar(len(inputs), args.quiet)
    t0 = time.perf_counter()

    def progress(i: int, n: int, done: int, total: int) -> None:
        frac = (i + (done / total if total else 0)) / n
        bar.update(min(frac, 1.0), inputs[min(i, n - 1)].name)

    def on_done(r) -> None:
        if not r.ok:
            bar.close()
            print(_failure(r), file=sys.stderr)
        for w in r.save_warnings:
            bar.close()
            print(f"warning {r.dst}: {w}", file=sys.stderr)

    result = run_batch(engine, inputs, out_dir, args.mode, args.format, progress, on_done,
                       keep_casing=bool(args.details), styles=_styles(args))
    bar.close()
    elapsed = time.perf_counter() - t0
    if args.details:
        write_details(Path(args.details), result.results, engine.info.review_threshold)
    ok = result.succeeded
    words = sum(r.words for r in ok)
    changed = sum(r.changed for r in ok)
    warnings = sum(len(r.warnings) for r in ok)
    failed = len(result.failed) + len(bad)
    print(f"converted {len(ok)} file(s), {failed} failed; {words} words, {changed} recased; "
          f"{warnings} parse warning(s); {elapsed:.1f} s -> {out_dir}")
    if args.verbose:
        for r in ok:
            for w in r.warnings:
                print(f"warning {r.src.name}: {w}", file=sys.stderr)
    return 1 if failed else 0


def cmd_evaluate(args) -> int:
    from subcase.evaluation.runner import evaluate, format_report

    inputs, _ = _collect(args.refs)
    if not inputs:
        return 1
    engine = None if args.baselines_only else _engine(args)
    punct = (True,) if args.punct_only else ((False,) if args.strip_punct else (True, False))
    from subcase.subtitles import SubtitleError
    try:
        results = evaluate(inputs, engine, baselines=not args.no_baselines, per_cue=not args.no_per_cue,
                           punct_settings=punct, log=lambda s: print(s, file=sys.stderr))
    except SubtitleError as exc:
        print(f"subcase: {exc}", file=sys.stderr)
        return 1
    print(format_report(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    return 0


def cmd_simulate_review(args) -> int:
    from subcase.evaluation.simulate import format_table, run_simulation
    from subcase.subtitles import SubtitleError

    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        print("subcase simulate-review: --threshold must be above 0 and at most 1", file=sys.stderr)
        return 2
    inputs, _ = _collect(args.refs)
    if not inputs:
        return 1
    engine = _engine(args)
    try:
        results = run_simulation(inputs, engine, args, _styles(args))
    except SubtitleError as exc:
        print(f"subcase: {exc}", file=sys.stderr)
        return 1
    print(format_table(results, args.per_file))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


def cmd_bench(args) -> int:
    if args.runs < 1 or args.cues < 1:
        print("subcase bench: --runs and --cues must be at least 1", file=sys.stderr)
        return 2
    from subcase.evaluation.bench import run_bench
    return run_bench(args)


def cmd_gui(args) -> int:
    from subcase.gui.app import run_gui
    argv = ([str(args.file)] if args.file else []) + (["--smoke-test"] if args.smoke_test else [])
    return run_gui(argv)


def build_parser() -> argparse.ArgumentParser:
    from subcase.casing import modes
    from subcase.subtitles import formats

    ap = argparse.ArgumentParser(prog="subcase", description="Truecasing editor for subtitles.")
    ap.add_argument("--version", action="version", version=f"subcase {__version__}")
    sub = ap.add_subparsers(dest="command")

    c = sub.add_parser("convert", help="case .srt/.vtt files or folders into an output folder")
    c.add_argument("paths", nargs="+", type=Path, help="files or folders")
    c.add_argument("-o", "--output", required=True, help="output folder (inputs are never touched)")
    c.add_argument("--mode", choices=modes.NAMES, default=modes.Mode.RESTORE.value,
                   help="; ".join(f"{m.value}: {text}" for m, text in modes.HELP.items()))
    c.add_argument("--format", choices=formats.NAMES, help="output format (default: same as input)")
    c.add_argument("--details", metavar="FILE.jsonl", help="also write every word's tag, probabilities and highlight")
    _add_style_args(c)
    c.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("-v", "--verbose", action="store_true", help="list parse warnings")
    c.set_defaults(func=cmd_convert)

    e = sub.add_parser("evaluate", help="lowercase human-cased subtitles, recase them, print metrics")
    e.add_argument("refs", nargs="+", type=Path, help="reference files or folders")
    g = e.add_mutually_exclusive_group()
    g.add_argument("--strip-punct", action="store_true", help="only the punctuation-stripped input (as in the paper)")
    g.add_argument("--punct-only", action="store_true", help="only input that keeps its punctuation")
    e.add_argument("--no-baselines", action="store_true", help="skip the truecase and first-word baselines")
    e.add_argument("--baselines-only", action="store_true", help=argparse.SUPPRESS)
    e.add_argument("--no-per-cue", action="store_true", help="skip the cue-by-cue comparison")
    e.add_argument("--json", metavar="FILE", help="also write all numbers as JSON")
    e.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    e.set_defaults(func=cmd_evaluate)

    s = sub.add_parser("simulate-review", help="play a simulated post-editor through the review of "
                                               "human-cased files; print review load and residual errors")
    s.add_argument("refs", nargs="+", type=Path, help="reference files or folders")
    s.add_argument("--threshold", type=float, help="review threshold (default: the model's)")
    s.add_argument("--strip-punct", action="store_true", help="input without punctuation")
    s.add_argument("--upper", action="store_true", help="input in UPPER case instead of lower case")
    s.add_argument("--no-learning", action="store_true", help="the same run with nothing learned (baseline)")
    s.add_argument("--json", metavar="FILE", help="also write the numbers as JSON")
    s.add_argument("--per-file", action="store_true", help="a row per file, not only the total")
    _add_style_args(s)
    s.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    s.set_defaults(func=cmd_simulate_review)

    b = sub.add_parser("bench", help="throughput, latency, start-up and memory against the truecase baseline")
    b.add_argument("--cues", type=int, default=1500, help="cues in the synthetic feature-length film")
    b.add_argument("--file", type=Path, help="benchmark this subtitle file instead")
    b.add_argument("--runs", type=int, default=3, help="conversions of the film per system (default 3)")
    b.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    b.add_argument("--no-baseline", action="store_true")
    b.add_argument("--long-cue", type=int, default=1000, metavar="KB",
                   help="also convert a file of one cue this large (default 1000 KB; 0 skips it)")
    b.set_defaults(func=cmd_bench)

    gu = sub.add_parser("gui", help="open the editor")
    gu.add_argument("file", nargs="?", type=Path)
    gu.add_argument("--smoke-test", action="store_true", help="open FILE, case it, print a summary and exit")
    gu.set_defaults(func=cmd_gui)
    return ap


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["gui", *argv]
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print("subcase: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
