"""``subcase simulate-review --series``: the simulated editor works through a series file after file.

The files are taken in the order of their names.  Each is cased once; then
it is reviewed twice by the simulated editor of ``simulate``:

- *without profile*: the app as it is today, learning within the file only;
- *with profile*: before the file is opened, the profile is rebuilt from the
  edit logs of the files reviewed so far (``profile.build_from_logs``, as
  ``subcase profile build`` does) and applied as the app applies it; the
  session writes a real edit log, which the next file's profile reads.

Per file it reports the counts of ``simulate-review`` for both runs and the
F1 and SER of the file *before any review*: the model's output, and the same
with the profile applied (what the profile alone fixes).  Totals cover the
files from the second on: the first file has no profile yet.
"""

from __future__ import annotations

import tempfile
from functools import partial
from pathlib import Path
from typing import Callable

from subcase.casing import CasingEngine
from subcase.review import ReviewSession, ReviewState
from subcase.review.state import Pos
from subcase.review.positions import sentence_initial
from subcase.review.profiles.profile import Profile
from subcase.review.profiles.build import build_from_logs, updated
from subcase.subtitles import Document

from .metrics import WordOutcome, score
from .simulate import DEFAULTS, LEARNING, Counts, Opening, Prepared, SimulateOptions, prepare, simulate_file
from .skipped import Skips, report_lines

Progress = Callable[[str], None]
Log = Callable[[str], None]


def _outcomes(prep: Prepared, doc: Document, state: ReviewState, before: dict[Pos, str] | None = None
              ) -> list[WordOutcome]:
    """Each word's outcome as the file stands; ``before``: forms a profile replaced, put back."""
    initial = sentence_initial(doc, state)
    before = before or {}
    return [WordOutcome(r, before.get((c, s), w.form), initial.get((c, s), False))
            for c, (ws, rs) in enumerate(zip(state.cues, prep.ref_words)) for s, (w, r) in enumerate(zip(ws, rs))]


def _scores(outcomes: list[WordOutcome]) -> dict:
    s = score(outcomes)
    return {"f1": s["f1"], "ser": s["ser"], "intrinsic_f1": s["intrinsic_f1"], "intrinsic_ser": s["intrinsic_ser"]}


def run_series(paths: list[Path], engine: CasingEngine, options: SimulateOptions = DEFAULTS,
               name: str = "series", log_dir: Path | None = None, progress: Progress | None = None,
               log: Log = lambda s: None) -> dict:
    """Both runs over the series; the edit logs go to ``log_dir`` (a temporary folder if None).  Of
    ``options``, ``threshold``, ``strip_punct``, ``upper`` and ``punctuate`` (where marks are restored, and so
    counted) apply, as in ``simulate``.
    A file that cannot be read is left out of the series (evaluation/skipped.py), logged and listed."""
    # threshold None: each file's model's own (as the app uses it)
    ordered = sorted(paths, key=lambda p: Path(p).name)
    if log_dir is None:
        with tempfile.TemporaryDirectory(prefix="subcase-series-") as tmp:
            return _run(ordered, engine, options, name, Path(tmp), progress, log)
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    return _run(ordered, engine, options, name, Path(log_dir), progress, log)


def _run(paths: list[Path], engine: CasingEngine, options: SimulateOptions, name: str, log_dir: Path,
         progress: Progress | None, log: Log) -> dict:
    threshold = options.threshold
    # each file cased as the editor opens it, with only these choices of simulate-review's
    casing = SimulateOptions(strip_punct=options.strip_punct, upper=options.upper, punctuate=options.punctuate)
    version = engine.info.version
    logs: list[Path] = []
    # The first file opens with an empty profile; after each file the profile is updated from
    # that file's log, as the app does when the editor saves (profile.updated).
    profile: Profile = build_from_logs(name, version, [])
    totals = {"with_profile": Counts(), "without_profile": Counts()}
    pooled: dict[str, list[WordOutcome]] = {"with_profile": [], "without_profile": []}
    files: list[dict] = []
    skips = Skips(log)
    for k, path in enumerate(paths):
        if progress is not None:
            progress(f"{k + 1}/{len(paths)} {Path(path).name}")
        prep = skips.attempt(Path(path), partial(prepare, path, engine, casing))
        if prep is None:
            continue
        i = len(files)  # the file's place in the series (skipped files have none)
        before: dict[str, list[WordOutcome]] = {}
        applied: dict[str, int] = {}
        log_path = log_dir / f"{i + 1:03d}-{Path(path).stem}.jsonl"

        def opened(session: ReviewSession, prep: Prepared = prep, before: dict[str, list[WordOutcome]] = before,
                   applied: dict[str, int] = applied) -> None:
            app = session.profile
            forms = app.before if app is not None else {}
            before["without_profile"] = _outcomes(prep, session.doc, session.state, forms)
            before["with_profile"] = _outcomes(prep, session.doc, session.state)
            applied["words"] = len(app.by_pos) if app is not None else 0

        entries = profile.size()  # what the file opened with
        # a reference whose words do not line up with it is skipped here, before any edit log is written
        without = skips.attempt(Path(path), partial(simulate_file, prep, engine, threshold, LEARNING))
        if without is None:
            continue
        saved = log_path.with_name(log_path.stem + "-reviewed" + Path(prep.name).suffix)
        opening = Opening(profile=profile, log_path=log_path, save_to=saved)
        runs = {"with_profile": simulate_file(prep, engine, threshold, opening, opened), "without_profile": without}
        logs.append(log_path)
        profile = updated(profile, log_path)
        row: dict = {"file": prep.name, "profile_entries": entries, "profile_changed": applied.get("words", 0)}
        for key, n in runs.items():
            row[key] = n.as_dict() | {"before_review": _scores(before["with_profile" if key == "with_profile"
                                                                       else "without_profile"])}
            if i >= 1:
                totals[key].add(n)
                pooled[key] += before["with_profile" if key == "with_profile" else "without_profile"]
        files.append(row)
    out: dict = {}
    for key in ("with_profile", "without_profile"):
        out[key] = totals[key].as_dict() | {"before_review": _scores(pooled[key]) if pooled[key] else None}
    out["files"] = files
    out["skipped"] = skips.as_json()
    # Rebuilt from the same logs in one go, the profile is the same, byte for byte.
    rebuilt = build_from_logs(name, version, logs)
    assert rebuilt.to_bytes() == profile.to_bytes(), "a profile updated file by file differs from its rebuild"
    out["final_profile"] = profile.to_bytes().decode("utf-8")
    return out


def format_series(result: dict) -> str:
    hdr = (f"{'file':34} {'entr':>4} {'prof':>4} | {'actions':>7} {'resid':>5} {'l.fix':>5} {'l.brk':>5} "
           f"{'F1 0':>6} {'SER 0':>6} | {'actions':>7} {'resid':>5} {'l.fix':>5} {'l.brk':>5} {'F1 0':>6} {'SER 0':>6}")
    lines = [f"{'':44} | {'with profile':^50} | {'without profile':^50}", hdr, "-" * len(hdr)]

    def cols(r: dict) -> str:
        a = r["actions"]
        b = r["before_review"] or {"f1": 0.0, "ser": 0.0}
        return (f"{a['accepts'] + a['tag_changes'] + a['edits']:7d} {r['residual_errors']:5d} {r['learned_fixed']:5d} "
                f"{r['learned_broken']:5d} {b['f1']:6.4f} {b['ser']:6.4f}")

    for f in result["files"]:
        lines.append(f"{f['file'][-34:]:34} {f['profile_entries']:4d} {f['profile_changed']:4d} | "
                     f"{cols(f['with_profile'])} | {cols(f['without_profile'])}")
    lines.append("-" * len(hdr))
    lines.append(f"{'total, files 2..' + str(len(result['files'])):34} {'':4} {'':4} | "
                 f"{cols(result['with_profile'])} | {cols(result['without_profile'])}")
    w, wo = result["with_profile"], result["without_profile"]
    lines.append(f"review load {100 * w['review_load']:.2f}% vs {100 * wo['review_load']:.2f}%, "
                 f"residual rate {100 * w['residual_rate']:.3f}% vs {100 * wo['residual_rate']:.3f}% "
                 f"(with vs without profile, files 2..{len(result['files'])})")
    lines += report_lines(result)
    return "\n".join(lines)
