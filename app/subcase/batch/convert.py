"""One file of a batch, and the in-process back-end.

Inputs are never touched: every output goes to the output folder under the
input's own file name (with the extension of the chosen format), below the
same subfolders as in the folder the user gave, written atomically without
following any link in the output folder.  Where is decided once, before any
work starts (``plan.OutputPlan``, checked by the driver); ``convert_file``
only carries out its file's entry.  A bad file becomes a failed
``FileResult`` with a one-line reason; the other files still convert.
Every back-end (this process, ``pool``, ``cluster``) converts each file with
``convert_file``, so their outputs are the same bytes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from subcase.casing import CasingCancelled, CasingEngine, DocumentCasing, Method, case_loaded
from subcase.casing.engine import OnProgress, ShouldCancel
from subcase.errors import SubcaseError, describe_oserror
from subcase.subtitles import Document, load, save
from subcase.subtitles.atomic import OutputExistsError, write_in_folder
from subcase.subtitles.files import check_size
from subcase.subtitles.losses import conversion_losses

from .options import ConvertOptions
from .plan import OutputPlan, PlannedOutput

if TYPE_CHECKING:
    from subcase.review.profiles.profile import Profile

__all__ = ["BatchProgress", "BatchResult", "FileResult", "adapter", "check_plan", "convert_file", "run_in_process",
           "unconverted", "write_details"]

Adapt = Callable[[Document, DocumentCasing], int]  # re-cases a cased document further; words changed
ProgressFn = Callable[[int, int, int, int], None]   # file index, files, done in the file, total in the file


@dataclass
class FileResult:
    src: Path
    dst: Path | None = None
    ok: bool = False
    error: str | None = None
    words: int = 0
    changed: int = 0
    marks: int = 0            # punctuation marks restored (``--punctuate``)
    warnings: list[str] = field(default_factory=list)       # problems the reader worked around
    save_warnings: list[str] = field(default_factory=list)  # why players may misread the output
    losses: list[str] = field(default_factory=list)         # what a format conversion could not carry over
    casing: DocumentCasing | None = None
    casing_summary: str = ""  # the file's language and how it was cased, one line (DocumentCasing.summary)
    not_by_model: bool = False  # some of it is in a language the model cannot case (see casing/rules.py)
    encoding_doubt: str | None = None  # a low-confidence guess of its text encoding, one line (encoding.py)
    skipped: bool = False     # its output existed and the user chose to skip such files: not a failure


@dataclass
class BatchResult:
    results: list[FileResult]
    cancelled: bool = False

    @property
    def failed(self) -> list[FileResult]:
        return [r for r in self.results if not r.ok and not r.skipped]

    @property
    def skipped(self) -> list[FileResult]:
        return [r for r in self.results if r.skipped]

    @property
    def succeeded(self) -> list[FileResult]:
        return [r for r in self.results if r.ok]


class BatchProgress:
    """The overall fraction of a batch whose files may run side by side (``--jobs``)."""

    def __init__(self, n_files: int):
        self.fractions = [0.0] * max(n_files, 1)

    def update(self, i: int, done: int, total: int) -> float:
        if 0 <= i < len(self.fractions):
            self.fractions[i] = max(self.fractions[i], done / total if total else 0.0)
        return min(1.0, sum(self.fractions) / len(self.fractions))


def unconverted(planned: PlannedOutput) -> FileResult:
    """The result of an input the plan does not convert: skipped (its output exists) or failed."""
    if planned.skip:
        return FileResult(planned.src, dst=planned.dst, skipped=True)
    return FileResult(planned.src, error=planned.error or "no output planned")


def adapter(profile: Profile | None, engine: CasingEngine) -> Adapt | None:
    """The profile applied to each cased document as the editor applies it, around ``engine``
    (each worker process builds its own)."""
    if profile is None:
        return None
    from subcase.review.opening import profile_adapter
    return profile_adapter(profile, engine)


def convert_file(engine: CasingEngine, planned: PlannedOutput, options: ConvertOptions,
                 out_format: str | None = None, progress: OnProgress | None = None,
                 cancel: ShouldCancel | None = None, adapt: Adapt | None = None) -> FileResult:
    """Case one file to the output its plan gives.  Raises only ``CasingCancelled``.

    The plan has refused every output that would replace an input; ``adapt``
    (``adapter``) applies the options' profile, resolved by the driver."""
    result = FileResult(Path(planned.src))
    src = result.src
    if not planned.converts or planned.folder is None or planned.relative is None:
        return unconverted(planned)
    folder, relative = Path(planned.folder), Path(planned.relative)
    try:
        dst = folder / relative
        check_size(src, options.max_size_mb)  # the CLI checked before the model loaded; the GUI's batch did not
        cased = case_loaded(engine, load(result.src, options.encoding), options.mode, progress, cancel,
                            options.lang, options.punctuate, keep_signs=not options.case_signs)
        result.encoding_doubt = cased.doc.encoding_doubt
        result.marks = len(cased.casing.marks)
        result.casing_summary = cased.casing.summary()
        result.not_by_model = any(m is not Method.MODEL for m in cased.casing.methods.values())
        result.warnings = [str(w) for w in cased.doc.warnings]
        result.changed = cased.changed
        if options.styles:
            from subcase.casing.housestyle import apply_styles, words_of
            result.changed += apply_styles(cased.doc, words_of(cased.casing, len(cased.doc.cues)),
                                           dict(options.styles), engine)
        if adapt is not None:
            result.changed += adapt(cased.doc, cased.casing)
        result.words = len(cased.casing.words)
        if options.keep_casing:
            result.casing = cased.casing
        # Only the document is written: a long file's per-word results (three per spoken word in a rolling
        # stream) are let go before the save renders the text and reads it back with the format's parser.
        doc = cased.doc
        del cased
        # without --format the output holds the format the input holds, whatever its name says
        written_format = out_format or doc.format
        result.losses = conversion_losses(doc, written_format)

        def write(_path: Path, data: bytes) -> None:
            # never through a link below the output folder, and over a taken name only when planned so
            write_in_folder(folder, relative, data, replace=planned.replace)

        saved = save(doc, dst, format=written_format, backup=False, writer=write)
        result.dst, result.save_warnings = saved.path, saved.warnings
        result.ok = True
    except CasingCancelled:
        raise
    except SubcaseError as exc:
        result.error = str(exc)
    except OSError as exc:
        result.error = describe_oserror(exc, src)
    return result


def check_plan(plan: OutputPlan) -> None:
    """Refuse to run a plan whose taken output names the user has not answered for (a caller's
    mistake: the CLI and the GUI list them and ask first), or one whose output folder cannot be
    written at all (before the model loads, not after every file is cased)."""
    plan.check_folder()
    if plan.refused:
        raise OutputExistsError(f"{len(plan.taken)} output(s) exist already in the output folder and would be "
                                "replaced; say whether to overwrite or skip them", plan.out_dir)


def run_in_process(engine: CasingEngine, plan: OutputPlan, options: ConvertOptions,
                   progress: ProgressFn | None = None,
                   on_file_done: Callable[[FileResult], None] | None = None,
                   cancel: ShouldCancel | None = None) -> BatchResult:
    """The back-end of one process: every input in turn with ``engine`` and all its threads;
    ``progress(file_index, n_files, done_in_file, total_in_file)``.

    ``progress(i, n, 1, 1)`` means file i is finished, so the overall fraction
    is ``(i + done / total) / n`` throughout.
    """
    adapt = adapter(options.profile, engine)
    results: list[FileResult] = []
    n = len(plan)
    for i, planned in enumerate(plan):
        if cancel is not None and cancel():
            return BatchResult(results, cancelled=True)
        if not planned.converts:
            not_converted = unconverted(planned)
            results.append(not_converted)
            if progress is not None:
                progress(i, n, 1, 1)
            if on_file_done is not None:
                on_file_done(not_converted)
            continue

        def file_progress(done: int, total: int, i: int = i) -> None:
            if progress is not None:
                progress(i, n, done, total)

        try:
            r = convert_file(engine, planned, options, plan.out_format, file_progress, cancel, adapt)
        except CasingCancelled:
            return BatchResult(results, cancelled=True)
        results.append(r)
        if progress is not None:
            progress(i, n, 1, 1)  # file i is complete (not "file i+1 started")
        if on_file_done is not None:
            on_file_done(r)
    return BatchResult(results)


def _review_fields(casing: DocumentCasing, w) -> dict:
    """Auto mode's passage for the word's cue, and whether the editor would see the word highlighted: under
    the review threshold, or, in a passage kept as written, where the model is sure of another form, or
    changed in a short passage of a cased file (the reason then says which); for a restored cue, why it
    was restored where more than its letters say (``passage_reason``: casing that carries no signal), for a
    kept one where it says more than "cased, kept" (capitals on purpose); for a word the file's convention
    writes (casing/conventions.py), the convention, and a flag only where the model's form in its style is
    another."""
    passage = casing.passage(w.cue_index)
    if passage is None:
        return {"highlighted": w.confidence < casing.threshold}
    if w.convention is not None:  # written by the file's convention, in any passage: its flag is the convention's
        reason = casing.disagrees(w)
        return {"passage": passage.value, "highlighted": reason is not None, "reason": reason,
                "convention": w.convention.convention}
    if passage.value == "keep":
        reason = casing.disagrees(w)
        return {"passage": passage.value, "highlighted": reason is not None, "reason": reason,
                **({"passage_reason": why} if (why := casing.passage_reason(w.cue_index)) else {})}
    reason = casing.doubted(w)
    return {"passage": passage.value, "highlighted": w.confidence < casing.threshold or reason is not None,
            "reason": reason, "passage_reason": casing.passage_reason(w.cue_index)}


def write_details(path: Path, results: Sequence[FileResult], cue_ids: dict | None = None) -> None:
    """One JSON line per word: file, cue, position, input, output, tag, probabilities, auto mode's
    passage, highlighted (as the editor would see it: under the review threshold of the model that cased
    the file, or, where auto mode kept the input, the model sure of another form, with the reason)."""
    from subcase.casing import TAGS
    from subcase.subtitles.atomic import write_atomic

    lines = []
    for r in results:
        if not r.ok or r.casing is None:
            continue
        guess = r.casing.language
        for w in r.casing.words:
            lang = guess.cue_languages[w.cue_index] if guess is not None else None
            method = r.casing.methods.get(lang) if lang is not None else None
            lines.append(json.dumps({
                "file": str(r.src), "lang": lang, "method": method.value if method is not None else None,
                "cue": w.cue_index, "word": w.word_index, "start": w.start, "end": w.end,
                "input": w.input, "output": w.output, "tag": w.tag.value,
                "probs": {t.value: round(p, 5) for t, p in zip(TAGS, w.probs)},
                "confidence": round(w.confidence, 5), **_review_fields(r.casing, w),
            }, ensure_ascii=False))
    write_atomic(path, ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))
