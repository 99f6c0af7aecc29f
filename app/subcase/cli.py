"""The ``subcase`` command: the GUI by default, ``convert``, ``evaluate`` and ``bench``.

    subcase [FILE] [--media PATH]       open the editor (same as ``subcase gui [FILE]``), media beside it
    subcase convert PATH... -o OUTDIR   case subtitle files (SRT, WebVTT, ASS/SSA, TTML, SCC, EBU STL) or folders
    subcase evaluate REF...             score the truecaser on human-cased subtitles
    subcase bench                       speed and memory, side by side with baselines
    subcase profile build|list|show|export|import|delete   profiles: what the editor taught, per series

A user mistake (bad path, bad file, missing model, an output that would
replace an input) prints one line and never shows a traceback.  Exit status:
0 everything converted; 1 a file failed or the run was refused (a
``SubcaseError`` or ``OSError``); 2 a usage error (argparse); 130 Ctrl-C.
Everything printed that came from outside (file names, error text) goes
through ``terminal.safe`` so escape codes in a name are shown, not run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from typing import TYPE_CHECKING

from subcase import __version__
from subcase.errors import SubcaseError, describe_oserror
from subcase.terminal import safe

if TYPE_CHECKING:
    from subcase.batch import ConvertOptions

COMMANDS = {"convert", "evaluate", "simulate-review", "bench", "gui", "profile"}


def _failure(r) -> str:
    """One line for a failed file; the core's errors already start with the file's name."""
    error = r.error or "failed"
    for prefix in (f"{r.src}: ", f"{r.src.name}: "):
        if error.startswith(prefix):
            error = error[len(prefix):]
    return safe(f"FAILED {r.src}: {error}")


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
            label = safe(label)[:40]
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {100 * fraction:5.1f}% {label:40}")
            sys.stderr.flush()
        elif fraction - self.last >= 0.1 or (fraction >= 1.0 and self.last < 1.0):
            self.last = fraction
            sys.stderr.write(f"{100 * fraction:5.1f}% {safe(label)}\n")

    def close(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def _engine(model: Path | None):
    """The casing engine (a ``ModelError``, a ``SubcaseError``, when the model cannot be used)."""
    from subcase.casing import CasingEngine
    return CasingEngine(model) if model else CasingEngine()


def _collect(paths: list[Path], exclude: tuple[Path, ...] = ()):
    """Subtitle files under ``paths``; unusable paths are reported on stderr."""
    from subcase.batch import collect_inputs
    from subcase.subtitles import formats

    inputs, bad = collect_inputs(paths, exclude)
    for r in bad:
        print(_failure(r), file=sys.stderr)
    if not inputs:
        print(f"subcase: no {formats.suffix_list()} files to work on", file=sys.stderr)
    return inputs, bad


def _styles(args) -> dict:
    """The house style chosen on the command line (casing/housestyle.py): a style guide's preset,
    then the categories given one by one."""
    from subcase.casing.housestyle import PRESETS, Category, Style
    out = {Category.SOUND: Style.MODEL, Category.LABEL: Style.MODEL}
    if getattr(args, "style", None):
        out.update(PRESETS[args.style].style_map())
    for cat, value in ((Category.SOUND, args.sound_cues), (Category.LABEL, args.speaker_labels)):
        if value is not None:
            out[cat] = Style(value)
    return out


def _add_style_args(p: argparse.ArgumentParser) -> None:
    from subcase.casing.housestyle import PRESETS, preset_help
    styles = ["model", "lower", "upper", "title"]
    p.add_argument("--style", choices=list(PRESETS), metavar="GUIDE",
                   help="a caption style guide's house style for sound cues and speaker labels ("
                        + preset_help() + "); --sound-cues and --speaker-labels override it")
    p.add_argument("--sound-cues", choices=styles, default=None,
                   help="how to write [sound cues] and (descriptions): as the model says (default), "
                        "lower, UPPER or Title; names inside keep their capitals")
    p.add_argument("--speaker-labels", choices=styles, default=None,
                   help="how to write speaker labels (NAME: at a line start, after a dash, >> NAME:)")


def _existing(args):
    """What ``convert`` does with an output name that is taken (``--overwrite``, ``--skip-existing``)."""
    from subcase.batch import Existing
    return Existing.OVERWRITE if args.overwrite else Existing.SKIP if args.skip_existing else Existing.REFUSE


def _add_terms_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--terms", metavar="FILE", type=Path, action="append",
                   help="a list of names and terms in the form to write: one per line, a CCExtractor "
                        "capitalisation file or a Subtitle Edit names XML (may be given more than once); "
                        "a term that is also an ordinary word is raised for review, not forced")


def convert_options(args) -> ConvertOptions:
    """``subcase convert``'s options as the library takes them."""
    from subcase.batch import ConvertOptions
    return ConvertOptions(mode=args.mode, lang=args.lang, punctuate=args.punctuate, encoding=args.encoding,
                          styles=_styles(args),
                          profile_name=args.profile,
                          terms=tuple(args.terms or ()), details=Path(args.details) if args.details else None,
                          model_dir=args.model, jobs=args.jobs, cluster=args.cluster, max_size_mb=args.max_size,
                          case_signs=args.case_signs)


def cmd_convert(args) -> int:
    from subcase.batch import BatchProgress, check_input_folders, collect_batch_inputs, convert_batch, plan_outputs
    from subcase.subtitles import formats

    out_dir = Path(args.output)
    if out_dir.exists() and not out_dir.is_dir():
        print(safe(f"subcase: output {out_dir} exists and is not a folder"), file=sys.stderr)
        return 1
    check_input_folders(args.paths, out_dir)
    found, bad = collect_batch_inputs(args.paths, (out_dir,))
    for r in bad:
        print(_failure(r), file=sys.stderr)
    if not found:
        print(f"subcase: no {formats.suffix_list()} files to work on", file=sys.stderr)
        return 1
    # The one plan every back-end runs, made before the model loads or any file is read (batch/plan.py).
    plan = plan_outputs(found, out_dir, args.format, _existing(args))
    plan.check_folder()  # an output folder nothing can be written in stops the run here, not after casing
    inputs = plan.sources
    if plan.refused:
        for line in plan.taken_lines():
            print(safe(line), file=sys.stderr)
        print(safe(f"subcase: {len(plan.taken)} output(s) exist already in {out_dir}; nothing was converted. "
                   "Use --overwrite to replace them, --skip-existing to convert only the other files, "
                   "or choose another output folder"), file=sys.stderr)
        return 1
    # a file over the size limit stops the run here, unread, before the model loads (subtitles/files.py)
    too_large = _too_large([p.src for p in plan if p.converts], args.max_size)
    if too_large:
        for line in too_large:
            print(safe(f"subcase: {line}"), file=sys.stderr)
        return 1
    options = convert_options(args)
    bar = ProgressBar(len(inputs), args.quiet)
    overall = BatchProgress(len(inputs))
    t0 = time.perf_counter()

    def progress(i: int, n: int, done: int, total: int) -> None:
        bar.update(overall.update(i, done, total), inputs[min(i, n - 1)].name)

    written = 0

    def on_done(r) -> None:
        nonlocal written
        written += r.ok
        if r.ok and r.not_by_model:  # one line: why (some of) this file was not cased by the model
            bar.close()
            print(f"note {r.src}: {r.casing_summary}", file=sys.stderr)
        if r.skipped:
            bar.close()
            print(safe(f"skipped {r.src}: {r.dst} exists (--skip-existing)"), file=sys.stderr)
        elif not r.ok:
            bar.close()
            print(_failure(r), file=sys.stderr)
        if r.encoding_doubt:  # always shown: the bytes may have been read in the wrong code page
            bar.close()
            print(safe(f"warning {r.src}: {r.encoding_doubt}; give --encoding to choose"), file=sys.stderr)
        for loss in r.losses:  # always shown: the output lacks something the input had
            bar.close()
            print(safe(f"warning {r.src}: {loss}"), file=sys.stderr)
        for w in r.save_warnings:
            bar.close()
            print(safe(f"warning {r.dst}: {w}"), file=sys.stderr)

    try:
        result = convert_batch(plan, options, progress, on_done)
    except KeyboardInterrupt:
        bar.close()
        to_write = sum(e.converts for e in plan)
        print(f"subcase: interrupted; {written} of {to_write} files written; "
              "run again with --skip-existing to finish", file=sys.stderr)
        return 130
    bar.close()
    elapsed = time.perf_counter() - t0
    ok = result.succeeded
    words = sum(r.words for r in ok)
    changed = sum(r.changed for r in ok)
    marks = sum(r.marks for r in ok)
    restored = f", {marks} punctuation mark(s) restored" if marks else ""
    warnings = sum(len(r.warnings) for r in ok)
    failed = len(result.failed) + len(bad)
    skipped = f", {len(result.skipped)} skipped" if result.skipped else ""
    print(safe(f"converted {len(ok)} file(s), {failed} failed{skipped}; {words} words, {changed} recased{restored}; "
               f"{warnings} parse warning(s); {elapsed:.1f} s -> {out_dir}"))
    if args.verbose:
        for r in ok:
            for w in r.warnings:
                print(safe(f"warning {r.src.name}: {w}"), file=sys.stderr)
    return 1 if failed else 0


def cmd_evaluate(args) -> int:
    from subcase.casing.modes import Mode
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.runner import EvaluationOptions, evaluate, format_report

    inputs, _ = _collect(args.refs)
    if not inputs:
        return 1
    if args.json:
        from subcase.batch import check_report_path
        check_report_path(Path(args.json), "--json", inputs, [])  # before hours of evaluation, not after
    engine = None if args.baselines_only else _engine(args.model)
    punct = (True,) if args.punct_only else ((False,) if args.strip_punct else (True, False))
    options = EvaluationOptions(baselines=not args.no_baselines, per_cue=not args.no_per_cue, punct_settings=punct,
                                lang=args.lang, mode=Mode(args.mode), drop=args.drop, seed=args.seed,
                                punctuate=Punctuate(args.punctuate),
                                baseline_engine=_engine(args.baseline_model) if args.baseline_model else None)
    results = evaluate(inputs, engine, options, log=lambda s: print(safe(s), file=sys.stderr))
    return _finish_scoring(results, format_report, args.json)


def _finish_scoring(results: dict, report: Callable[[dict], str], json_path: str | None,
                    json_data: dict | None = None) -> int:
    """The end of ``evaluate``, ``simulate-review`` and its ``--series``: the report, the JSON
    (``json_data``, or the results themselves) and the exit status, 1 when no reference could be
    read or some were skipped (evaluation/skipped.py)."""
    if not results["files"]:
        print("subcase: none of the reference files could be read", file=sys.stderr)
        return 1
    print("\n".join(safe(line) for line in report(results).splitlines()))
    if json_path:
        from subcase.subtitles.atomic import write_atomic
        data = results if json_data is None else json_data
        write_atomic(Path(json_path), (json.dumps(data, indent=2, default=str) + "\n").encode("utf-8"))
    return 1 if results["skipped"] else 0


def cmd_simulate_review(args) -> int:
    from subcase.casing.modes import Mode
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.simulate import SimulateOptions, format_table, run_simulation

    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        print("subcase simulate-review: --threshold must be above 0 and at most 1", file=sys.stderr)
        return 2
    sweep_at = None
    if args.mark_thresholds:
        from subcase.evaluation.mark_sweep import parse_thresholds
        try:
            sweep_at = parse_thresholds(args.mark_thresholds)
        except ValueError as exc:
            print(f"subcase simulate-review: --mark-thresholds: {exc}", file=sys.stderr)
            return 2
        if args.series or args.punctuate == "never":
            print("subcase simulate-review: --mark-thresholds needs restored marks and no --series", file=sys.stderr)
            return 2
    if args.mark_threshold is not None and not 0.0 <= args.mark_threshold <= 1.0:
        print("subcase simulate-review: --mark-threshold must be from 0 to 1", file=sys.stderr)
        return 2
    if args.series and (args.profile or args.no_learning or args.terms):
        print("subcase simulate-review: --series builds its own profile file by file "
              "(no --profile, --terms or --no-learning)", file=sys.stderr)
        return 2
    inputs, _ = _collect(args.refs)
    if not inputs:
        return 1
    if args.json:
        from subcase.batch import check_report_path
        check_report_path(Path(args.json), "--json", inputs, [])  # before the simulation, not after
    engine = _engine(args.model)
    if args.series:
        return _simulate_series(inputs, engine, args)
    from subcase.review.profiles.stored import profile_for
    profile = profile_for(args.profile or None, engine.info.version, args.terms or ())
    options = SimulateOptions(strip_punct=args.strip_punct, upper=args.upper, lang=args.lang, mode=Mode(args.mode),
                              punctuate=Punctuate(args.punctuate),
                              drop=args.drop, seed=args.seed, no_learning=args.no_learning,
                              threshold=args.threshold, mark_threshold=args.mark_threshold)
    if sweep_at is not None:
        from subcase.evaluation.mark_sweep import format_sweep, sweep
        data = sweep(inputs, engine, options, sweep_at, log=lambda s: print(safe(s), file=sys.stderr))
        return _finish_scoring(data, format_sweep, args.json)
    results = run_simulation(inputs, engine, options, _styles(args), profile=profile,
                             log=lambda s: print(safe(s), file=sys.stderr))
    return _finish_scoring(results, lambda r: format_table(r, args.per_file), args.json)


def _simulate_series(inputs: list[Path], engine, args) -> int:
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.series import format_series, run_series
    from subcase.evaluation.simulate import SimulateOptions

    options = SimulateOptions(strip_punct=args.strip_punct, upper=args.upper, threshold=args.threshold,
                              punctuate=Punctuate(args.punctuate))
    result = run_series(inputs, engine, options,
                        log_dir=Path(args.keep_logs) if args.keep_logs else None,
                        progress=None if args.quiet else lambda s: print(safe(s), file=sys.stderr),
                        log=lambda s: print(safe(s), file=sys.stderr))
    return _finish_scoring(result, format_series, args.json,
                           {k: v for k, v in result.items() if k != "final_profile"})


def cmd_profile(args) -> int:
    from subcase.review.profiles import store as profile_store
    return _profile_command(args, profile_store)


def _profile_command(args, store) -> int:
    from subcase.review.editlog import log_dir
    from subcase.review.profiles.profile import KINDS, ProfileError

    what = args.profile_command
    if what == "list":
        for name in store.names():
            try:
                p = store.load(name)
                print(f"{name}\t{p.size()} entries\tmodel {p.model_version}\t{p.sources.get('files', 0)} files")
            except ProfileError as exc:
                print(f"{name}\tunreadable: {exc}")
        return 0
    if what == "delete":
        store.delete(args.name)
        print(f"deleted profile {args.name}")
        return 0
    if what == "export":
        print(f"exported profile {args.name} -> {store.export(args.name, Path(args.dest))}")
        return 0
    if what == "show":
        p = store.load(args.name)
        if args.json:
            sys.stdout.write(p.to_bytes().decode("utf-8"))
            return 0
        print(f"profile {p.name}: model {p.model_version}; built from {p.sources}")
        for cat, style in sorted(p.active_styles().items()):
            print(f"  style:{cat}\t{style}")
        for kind in KINDS:  # the entries that change words, then the review hints (confirm, ask)
            for key, e in sorted(p.active(kind).items()):
                print(f"  {kind}:{key}\t{e.form}\t{e.decisions} decisions, {e.changes} changes, {e.files} files")
        if p.removed:
            print(f"  removed: {', '.join(p.removed)}")
        return 0
    if what == "terms":
        return _import_terms(args, store)
    engine = _engine(args.model)
    if what == "import":
        p = store.import_file(Path(args.file), engine.info.version, args.name, args.replace)
        print(f"imported profile {p.name} ({p.size()} entries)")
        return 0
    # build
    from subcase.review.profiles.stored import build_stored
    store.path_of(args.name)  # an invalid name fails before the subtitles are looked for
    subtitles = _collect(args.from_subtitles)[0] if args.from_subtitles else None
    p, path = build_stored(args.name, engine, [Path(x) for x in args.logs or [log_dir()]], subtitles, args.reset,
                           warn=lambda s: print(f"subcase: {s}", file=sys.stderr))
    sk = p.sources.get("skipped", {})
    print(f"built profile {p.name}: {p.size()} entries from {p.sources.get('files', 0)} files, "
          f"{p.sources.get('decisions', 0)} decisions; skipped {sk.get('corrupt', 0)} corrupt line(s), "
          f"{sk.get('schema', 0)} of an unknown schema, {sk.get('no_context', 0)} without context -> {path}")
    return 0


def _import_terms(args, store) -> int:
    """``subcase profile terms NAME FILE...``: the lists are read first (a bad one changes nothing)."""
    from subcase.casing.engine import load_model_info
    from subcase.review.terms import import_into_profile

    if not store.exists(args.name):
        store.path_of(args.name)  # an invalid name fails before the model is looked at
    version = load_model_info(args.model).version
    p, lists, counts = import_into_profile(args.name, args.files, version)
    for terms, n in zip(lists, counts):
        print(safe(f"{terms.name} ({terms.format}): {len(terms.terms)} terms, {n} new or changed"
                   + (f", {terms.skipped} lines skipped" if terms.skipped else "")))
    print(safe(f"profile {p.name}: {len(p.active('term'))} terms -> {store.path_of(p.name)}"))
    return 0


def cmd_bench(args) -> int:
    if args.runs < 1 or args.cues < 1 or args.films < 0:
        print("subcase bench: --runs and --cues must be at least 1", file=sys.stderr)
        return 2
    from subcase.evaluation.bench import BenchOptions, run_bench
    return run_bench(BenchOptions(cues=args.cues, file=args.file, runs=args.runs, films=args.films, jobs=args.jobs,
                                  model=args.model, no_baseline=args.no_baseline, no_languages=args.no_languages,
                                  long_cue=args.long_cue, no_punctuation=args.no_punctuation,
                                  long_file=args.long_file))


def cmd_gui(args) -> int:
    from subcase.gui.app import run_gui
    argv = ([str(args.file)] if args.file else []) + (["--smoke-test"] if args.smoke_test else []) \
        + (["--media", str(args.media)] if args.media else [])
    return run_gui(argv)


def _add_lang_arg(p: argparse.ArgumentParser) -> None:
    from subcase.casing import LANGUAGES
    p.add_argument("--lang", choices=("auto", *LANGUAGES), default="auto",
                   help="language of the subtitles (default auto: detected per file, and per cue where a file "
                        "mixes languages); languages without a model only get sentence starts capitalised")


def _add_mode_and_drop_args(p: argparse.ArgumentParser) -> None:
    from subcase.casing import modes
    from subcase.evaluation.drop import SEED, parse_share

    p.add_argument("--mode", choices=modes.NAMES, default=modes.DEFAULT.value,
                   help=f"the casing mode to measure (default: {modes.DEFAULT.value}, as convert)")
    p.add_argument("--drop", type=parse_share, metavar="P",
                   help="mixed input: lower-case and strip random runs of cues covering a share P of the words "
                        "(0 to 1), leave the rest as written, and report all words, the runs and the rest")
    p.add_argument("--seed", type=int, default=SEED, help=f"the seed of --drop's runs (default {SEED})")


def _add_punctuate_arg(p: argparse.ArgumentParser) -> None:
    from subcase.casing.restoring import DEFAULT_PUNCTUATE, PUNCTUATE_HELP, Punctuate
    p.add_argument("--punctuate", choices=[x.value for x in Punctuate], default=DEFAULT_PUNCTUATE.value,
                   help="; ".join(f"{x.value}: {text}" for x, text in PUNCTUATE_HELP.items())
                        + f" (default: {DEFAULT_PUNCTUATE.value})")


def _too_large(paths, max_mb: float) -> list[str]:
    """``PATH: reason`` for each of ``paths`` over ``max_mb`` megabytes."""
    from subcase.subtitles.files import FileTooLargeError, check_size

    lines = []
    for path in paths:
        try:
            check_size(path, max_mb)
        except FileTooLargeError as exc:
            lines.append(str(exc))
    return lines


def _megabytes(text: str) -> float:
    try:
        mb = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of megabytes: {text!r}") from None
    if not mb >= 0 or mb == float("inf"):  # NaN fails the comparison
        raise argparse.ArgumentTypeError("must be a number of megabytes, 0 or more")
    return mb


def _word_counts(text: str) -> tuple[int, ...]:
    """``--long-file``'s sizes: whole numbers of words, comma-separated; 0 alone for none."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not whole numbers of words, comma-separated: {text!r}") from None
    if sizes == (0,):
        return ()
    if any(n < 1 for n in sizes):
        raise argparse.ArgumentTypeError("each size must be at least 1 word (0 alone skips the files)")
    return sizes


def _kilobytes(text: str) -> tuple[int, ...]:
    """``--long-cue``'s sizes: whole numbers of KB, comma-separated; 0 alone for none."""
    try:
        sizes = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not whole numbers of KB, comma-separated: {text!r}") from None
    if sizes == (0,):
        return ()
    if any(kb < 1 for kb in sizes):
        raise argparse.ArgumentTypeError("each size must be at least 1 KB (0 alone skips the files)")
    return sizes


def _text_encoding(text: str) -> str:
    """``--encoding``: a text encoding Python knows, else a usage error of one line."""
    from subcase.subtitles.encoding import normalize
    from subcase.subtitles.errors import SubtitleError
    try:
        normalize(text)
    except SubtitleError:
        raise argparse.ArgumentTypeError(f"unknown text encoding {text!r} (try cp1252, latin-1, utf-8)") from None
    return text


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def build_parser() -> argparse.ArgumentParser:
    from subcase.casing import modes
    from subcase.subtitles import formats
    from subcase.evaluation.bench import LONG_CUE_KB, LONG_FILE_WORDS
    from subcase.subtitles.files import MAX_SIZE_MB

    ap = argparse.ArgumentParser(prog="subcase", description="Truecasing editor for subtitles.")
    ap.add_argument("--version", action="version", version=f"subcase {__version__}")
    sub = ap.add_subparsers(dest="command")

    c = sub.add_parser("convert", help="case subtitle files or folders into an output folder")
    c.add_argument("paths", nargs="+", type=Path,
                   help="files or folders; a folder's subfolders are kept under the output folder "
                        "(in/film1/English.srt -> OUTDIR/film1/English.srt)")
    c.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                   help="output folder (inputs are never touched); if any output exists there already, they are "
                        "all listed and nothing is converted, unless --overwrite or --skip-existing")
    existing = c.add_mutually_exclusive_group()
    existing.add_argument("--overwrite", action="store_true",
                          help="replace outputs that exist already in OUTDIR; a symbolic link there is replaced "
                               "by the new file, and the file it points to is never written")
    existing.add_argument("--skip-existing", action="store_true",
                          help="leave outputs that exist already in OUTDIR as they are and convert only the "
                               "other files")
    c.add_argument("--mode", choices=modes.NAMES, default=modes.DEFAULT.value,
                   help="; ".join(f"{m.value}: {text}" for m, text in modes.HELP.items()))
    _add_punctuate_arg(c)
    c.add_argument("--format", choices=formats.NAMES,
                   help="output format (default: same as input); what the target cannot hold is listed, "
                        "one line per kind")
    c.add_argument("--case-signs", action="store_true",
                   help="case ASS/SSA signs and songs (sign, song, karaoke and typesetting styles, karaoke and "
                        "drawing tags) like dialogue; by default they keep their letters as written")
    c.add_argument("--encoding", type=_text_encoding, metavar="NAME",
                   help="read every input in this text encoding (cp1252, utf-8, ...) instead of detecting it")
    c.add_argument("--details", metavar="FILE.jsonl", help="also write every word's tag, probabilities and highlight")
    c.add_argument("--profile", metavar="NAME", help="apply this profile (subcase profile list) after casing")
    _add_terms_arg(c)
    _add_style_args(c)
    _add_lang_arg(c)
    c.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    where = c.add_mutually_exclusive_group()
    where.add_argument("-j", "--jobs", type=_jobs, default=None, metavar="N",
                   help="files converted at a time, each in its own process (default: one per core; one for a batch "
                        "under 512 KB, where starting the workers costs more than they save)")
    where.add_argument("--cluster", metavar="ADDRESS",
                   help="send the files to a Dask cluster (e.g. tcp://host:8786); inputs and output folder "
                        "must be on a path every worker sees (needs the 'cluster' extra)")
    c.add_argument("--max-size", type=_megabytes, default=MAX_SIZE_MB, metavar="MB",
                   help=f"refuse, unread, any input larger than this (default: {MAX_SIZE_MB:g} MB, within 24 GB of "
                        "memory for any file; 0: no limit)")
    c.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    c.add_argument("-v", "--verbose", action="store_true", help="list parse warnings")
    c.set_defaults(func=cmd_convert)

    e = sub.add_parser("evaluate", help="lowercase human-cased subtitles, recase them, print metrics")
    e.add_argument("refs", nargs="+", type=Path, help="reference files or folders")
    g = e.add_mutually_exclusive_group()
    g.add_argument("--strip-punct", action="store_true", help="only the punctuation-stripped input (as in the paper)")
    g.add_argument("--punct-only", action="store_true", help="only input that keeps its punctuation")
    e.add_argument("--no-baselines", action="store_true", help="skip the truecase and first-word baselines")
    _add_mode_and_drop_args(e)
    e.add_argument("--baselines-only", action="store_true", help=argparse.SUPPRESS)
    e.add_argument("--no-per-cue", action="store_true", help="skip the cue-by-cue comparison")
    e.add_argument("--json", metavar="FILE", help="also write all numbers as JSON")
    _add_punctuate_arg(e)
    _add_lang_arg(e)
    e.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    e.add_argument("--baseline-model", type=Path, metavar="DIR",
                   help="also score the marks this model restores, as a baseline row (e.g. the model shipped before)")
    e.set_defaults(func=cmd_evaluate)

    s = sub.add_parser("simulate-review", help="play a simulated post-editor through the review of "
                                               "human-cased files; print review load and residual errors")
    s.add_argument("refs", nargs="+", type=Path, help="reference files or folders")
    s.add_argument("--threshold", type=float, help="review threshold (default: the model's)")
    s.add_argument("--mark-threshold", type=float, metavar="T",
                   help="a restored mark under this probability puts its word on the review list (default: the "
                        "app's)")
    s.add_argument("--mark-thresholds", metavar="T,T,...",
                   help="sweep: the review at each mark threshold (files cased once), with the load, the errors "
                        "left and the threshold the editor's effort chooses")
    s.add_argument("--strip-punct", action="store_true", help="input without punctuation")
    s.add_argument("--upper", action="store_true", help="input in UPPER case instead of lower case")
    _add_mode_and_drop_args(s)
    s.add_argument("--no-learning", action="store_true", help="the same run with nothing learned (baseline)")
    s.add_argument("--json", metavar="FILE", help="also write the numbers as JSON")
    s.add_argument("--per-file", action="store_true", help="a row per file, not only the total")
    _add_punctuate_arg(s)
    s.add_argument("--profile", metavar="NAME", help="apply this profile to every file as it is opened")
    _add_terms_arg(s)
    s.add_argument("--series", action="store_true",
                   help="the files are one series, in name order: after each file a profile is rebuilt from its "
                        "edit log and applied to the next; compared with the same series without a profile")
    s.add_argument("--keep-logs", metavar="DIR", help="with --series: write the edit logs here (default: a temporary folder)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    _add_style_args(s)
    _add_lang_arg(s)
    s.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    s.set_defaults(func=cmd_simulate_review)

    b = sub.add_parser("bench", help="throughput, latency, start-up and memory against the truecase baseline")
    b.add_argument("--cues", type=int, default=1500, help="cues in the synthetic feature-length film")
    b.add_argument("--file", type=Path, help="benchmark this subtitle file instead")
    b.add_argument("--runs", type=int, default=3, help="conversions of the film per system (default 3)")
    b.add_argument("--films", type=int, default=8, help="films in the folder for the --jobs figure (0: skip it)")
    b.add_argument("--jobs", type=_jobs, default=2, help="worker processes for the folder figure (default 2)")
    b.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    b.add_argument("--no-baseline", action="store_true")
    b.add_argument("--no-languages", action="store_true",
                   help="skip the films in Spanish, French, German and Portuguese (the multilingual model)")
    b.add_argument("--no-punctuation", action="store_true",
                   help="skip the film without its marks (converted with --punctuate never and auto)")
    b.add_argument("--long-cue", type=_kilobytes, default=LONG_CUE_KB, metavar="KB[,KB...]",
                   help="also convert a file of one cue of one line of each size, a row each with time and peak "
                        f"memory (default {','.join(map(str, LONG_CUE_KB))}; 0 skips them)")
    b.add_argument("--long-file", type=_word_counts, default=LONG_FILE_WORDS, metavar="WORDS[,WORDS...]",
                   help="also convert a long file of each size, plain SRT and rolling YouTube VTT, a row each with "
                        f"time and peak memory (default {','.join(map(str, LONG_FILE_WORDS))} words; 0 skips them)")
    b.set_defaults(func=cmd_bench)

    pr = sub.add_parser("profile", help="profiles: what the editor taught in one series, for the next file")
    psub = pr.add_subparsers(dest="profile_command", required=True)
    pb = psub.add_parser("build", help="build (or rebuild) a profile from edit logs or corrected subtitles")
    pb.add_argument("name")
    src = pb.add_mutually_exclusive_group()
    src.add_argument("--logs", nargs="+", metavar="LOG", help="edit logs (.jsonl) or folders of them "
                                                             "(default: all of this user's edit logs)")
    src.add_argument("--from-subtitles", nargs="+", type=Path, metavar="PATH",
                     help="corrected subtitle files or folders (each is cased to see what the model gets wrong)")
    pb.add_argument("--reset", action="store_true", help="forget the entries removed from the profile before")
    pb.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    psub.add_parser("list", help="the stored profiles")
    ps = psub.add_parser("show", help="what a profile holds")
    ps.add_argument("name")
    ps.add_argument("--json", action="store_true", help="the profile file itself")
    pe = psub.add_parser("export", help="write a profile to share it")
    pe.add_argument("name")
    pe.add_argument("dest", help="file or folder")
    pi = psub.add_parser("import", help="validate a shared profile and store it")
    pi.add_argument("file")
    pi.add_argument("--name", help="store it under this name")
    pi.add_argument("--replace", action="store_true", help="replace a profile of the same name")
    pi.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    pt = psub.add_parser("terms", help="import a term list into a profile (made if it does not exist)")
    pt.add_argument("name")
    pt.add_argument("files", nargs="+", type=Path, metavar="FILE",
                    help="one term per line, a CCExtractor capitalisation file or a Subtitle Edit names XML")
    pt.add_argument("--model", type=Path, help=argparse.SUPPRESS)
    pd = psub.add_parser("delete", help="delete a stored profile (its edit logs stay)")
    pd.add_argument("name")
    pr.set_defaults(func=cmd_profile)

    gu = sub.add_parser("gui", help="open the editor")
    gu.add_argument("file", nargs="?", type=Path)
    gu.add_argument("--smoke-test", action="store_true", help="open FILE, case it, print a summary and exit")
    gu.add_argument("--media", type=Path, metavar="PATH",
                    help="play this video or audio file beside the review (default: FILE's same-stem media)")
    gu.set_defaults(func=cmd_gui)
    return ap


def mistyped_command(word: str) -> str | None:
    """The command ``word`` was probably meant to be, when it is not a file to open.

    ``subcase FILE`` opens FILE in the editor, so a word that is no command is
    taken as a file name.  A word that names nothing on disk, has no extension
    or folder in it (every subtitle file has one) and is close to a command is
    a typo: opening the editor on a missing file named ``covnert`` helps no one."""
    import difflib
    import os

    if os.path.lexists(word) or "." in word or "/" in word or os.sep in word:
        return None
    close = difflib.get_close_matches(word.lower(), sorted(COMMANDS), n=1)
    return close[0] if close else None


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        meant = mistyped_command(argv[0])
        if meant is not None:
            print(safe(f"subcase: unknown command '{argv[0]}' (did you mean '{meant}'?)"), file=sys.stderr)
            return 2  # a usage error, as argparse's own
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        argv = ["gui", *argv]
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except SubcaseError as exc:  # a user mistake or an unusable file: one line, no traceback
        print(safe(f"subcase: {exc}"), file=sys.stderr)
        return 1
    except OSError as exc:  # the disk, not the program: say which file and why
        print(safe(f"subcase: {describe_oserror(exc)}"), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("subcase: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
