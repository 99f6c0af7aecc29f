"""Batch conversion of subtitle files, shared by ``subcase convert`` and the GUI's batch dialog.

Inputs are never touched: every output goes to the output folder under the
input's own file name (with the extension of the chosen format), written
atomically.  A bad file becomes a failed ``FileResult`` with a one-line reason;
the other files still convert.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from subcase.casing import CasingCancelled, CasingEngine, DocumentCasing, Mode, case_file
from subcase.casing.engine import OnProgress, ShouldCancel
from subcase.subtitles import SubtitleError, formats, save


@dataclass
class FileResult:
    src: Path
    dst: Path | None = None
    ok: bool = False
    error: str | None = None
    words: int = 0
    changed: int = 0
    warnings: list[str] = field(default_factory=list)       # problems the reader worked around
    save_warnings: list[str] = field(default_factory=list)  # why players may misread the output
    casing: DocumentCasing | None = None


@dataclass
class BatchResult:
    results: list[FileResult]
    cancelled: bool = False

    @property
    def failed(self) -> list[FileResult]:
        return [r for r in self.results if not r.ok]

    @property
    def succeeded(self) -> list[FileResult]:
        return [r for r in self.results if r.ok]


def collect_inputs(paths: Sequence[Path | str]) -> tuple[list[Path], list[FileResult]]:
    """Expand folders (recursively) into .srt/.vtt files; report paths that cannot be used."""
    files: list[Path] = []
    bad: list[FileResult] = []
    seen: set[Path] = set()
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and formats.is_subtitle_path(f))
            if not found:
                bad.append(FileResult(p, error="folder holds no .srt or .vtt files"))
            candidates = found
        elif p.is_file():
            if not formats.is_subtitle_path(p):
                bad.append(FileResult(p, error=f"not a subtitle file (expected .srt or .vtt, got {p.suffix or 'no extension'})"))
                continue
            candidates = [p]
        else:
            bad.append(FileResult(p, error="no such file or folder"))
            continue
        for f in candidates:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                files.append(f)
    return files, bad


def output_path(src: Path, out_dir: Path, out_format: str | None) -> Path:
    fmt = formats.get(out_format) if out_format else (formats.for_path(src) or formats.SRT)
    return out_dir / (src.stem + fmt.suffix)


def convert_file(engine: CasingEngine, src: Path, out_dir: Path, mode: Mode | str = Mode.RESTORE,
                 out_format: str | None = None, progress: OnProgress | None = None,
                 cancel: ShouldCancel | None = None, keep_casing: bool = False,
                 styles: dict | None = None) -> FileResult:
    """Case one file into ``out_dir``.  Raises only ``CasingCancelled``.

    ``styles`` maps a house-style category (sound cues, speaker labels) to its
    style (casing/housestyle.py); None or "model" keeps the model's casing."""
    result = FileResult(Path(src))
    try:
        dst = output_path(result.src, out_dir, out_format)
        if dst.resolve() == result.src.resolve():
            raise SubtitleError(f"{src.name}: output would overwrite the input; choose another output folder")
        cased = case_file(engine, result.src, mode, progress, cancel)
        result.warnings = [str(w) for w in cased.doc.warnings]
        result.changed = cased.changed
        if styles:
            from subcase.casing.housestyle import apply_styles, words_of
            words = words_of(cased.casing, len(cased.doc.cues))
            result.changed += apply_styles(cased.doc, words, styles, engine)
        result.words = len(cased.casing.words)
        if keep_casing:
            result.casing = cased.casing
        out_dir.mkdir(parents=True, exist_ok=True)
        saved = save(cased.doc, dst, format=out_format, backup=False)
        result.dst, result.save_warnings = saved.path, saved.warnings
        result.ok = True
    except CasingCancelled:
        raise
    except SubtitleError as exc:
        result.error = str(exc)
    except OSError as exc:
        result.error = f"{exc.strerror or exc}: {exc.filename or src}"
    return result


def run_batch(engine: CasingEngine, inputs: Sequence[Path], out_dir: Path, mode: Mode | str = Mode.RESTORE,
              out_format: str | None = None,
              progress: Callable[[int, int, int, int], None] | None = None,
              on_file_done: Callable[[FileResult], None] | None = None,
              cancel: ShouldCancel | None = None, keep_casing: bool = False,
              styles: dict | None = None) -> BatchResult:
    """Convert every input; ``progress(file_index, n_files, done_in_file, total_in_file)``."""
    results: list[FileResult] = []
    n = len(inputs)
    for i, src in enumerate(inputs):
        if cancel is not None and cancel():
            return BatchResult(results, cancelled=True)

        def file_progress(done: int, total: int, i: int = i) -> None:
            if progress is not None:
                progress(i, n, done, total)

        try:
            r = convert_file(engine, Path(src), out_dir, mode, out_format, file_progress, cancel, keep_casing,
                             styles)
        except CasingCancelled:
            return BatchResult(results, cancelled=True)
        results.append(r)
        if progress is not None:
            progress(i + 1, n, 1, 1)
        if on_file_done is not None:
            on_file_done(r)
    return BatchResult(results)


def write_details(path: Path, results: Sequence[FileResult], threshold: float, cue_ids: dict | None = None) -> None:
    """One JSON line per word: file, cue, position, input, output, tag, probabilities, highlighted."""
    from subcase.casing import TAGS
    from subcase.subtitles.atomic import write_atomic

    lines = []
    for r in results:
        if not r.ok or r.casing is None:
            continue
        for w in r.casing.words:
            lines.append(json.dumps({
                "file": str(r.src), "cue": w.cue_index, "word": w.word_index, "start": w.start, "end": w.end,
                "input": w.input, "output": w.output, "tag": w.tag.value,
                "probs": {t.value: round(p, 5) for t, p in zip(TAGS, w.probs)},
                "confidence": round(w.confidence, 5), "highlighted": w.confidence < threshold,
            }, ensure_ascii=False))
    write_atomic(path, ("\n".join(lines) + ("\n" if lines else "")).encode("utf-8"))
