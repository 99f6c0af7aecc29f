"""Punctuation scoring: the mark after each scored word, P/R/F1 per mark, and the simulated review's counts.

A word's mark is ``casing.marks.mark_after``'s, the one rule shared with the training labels and the model's
output.  The words are the ones ``subcase evaluate`` and ``simulate-review`` score for casing: the words of a
cue (as ``Cue.tokens`` splits its text, markup apart) that contain a letter, in order, so a cue's marks line up
one for one with its casing outcomes.  A mark after a word without letters ("at 5.") is not scored.

Per mark (comma, full stop, question mark, exclamation mark) a word is a true positive when the output writes
the reference's mark, a false positive for the output's mark and a false negative for the reference's when
they differ (a missing mark is only a false negative, an extra one only a false positive); "micro" pools the
four.  Rates are fractions, as in ``metrics.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

from subcase.casing.marks import COMMA, EXCLAMATION, FULL_STOP, MARK_NAMES, MARKS, QUESTION, mark_after
from subcase.casing.restoring import InsertedMark
from subcase.subtitles import markup
from subcase.subtitles.words import Token, has_letters, tokenize

from .intervals import LEVEL, RESAMPLES, ratio_interval
from .metrics import calibration_table

SCORED = (COMMA, FULL_STOP, QUESTION, EXCLAMATION)
# the rule a restorer must beat on stripped input: subtitles mostly end a sentence where a cue ends
CUE_END_BASELINE = "full stop at every cue end"


def cue_marks(text: str) -> list[str]:
    """The mark after each scored word of a cue's text (markup allowed; one of ``marks.MARKS`` each).

    The words are split span by span as ``Cue.tokens`` splits them; the marks are read in the visible text,
    where tags are gone and entities and ASS breaks are what they show: "Hi.</i>" ends with a full stop, and
    "don&#39;t" is two scored words with no mark between them."""
    visible: list[str] = []
    length = 0  # of the visible text so far
    ends: list[int] = []  # each scored word's end in the visible text
    for span in markup.split(text):
        if span.is_markup:
            shown = markup.plain(span.text)
        else:
            shown = span.text
            ends += [length + t.end for t in tokenize(span.text) if t.is_word and has_letters(t.text)]
        visible.append(shown)
        length += len(shown)
    plain = "".join(visible)
    return [mark_after(plain, end) for end in ends]


def _rates(tp: int, fp: int, fn: int) -> dict:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
            "support": tp + fn, "predicted": tp + fp, "tp": tp, "fp": fp, "fn": fn}


@dataclass
class MarkCounts:
    """True and false positives and false negatives per scored mark, over words."""

    words: int = 0
    counts: dict[str, list[int]] = field(default_factory=lambda: {m: [0, 0, 0] for m in SCORED})

    def add(self, ref: str, hyp: str) -> None:
        self.words += 1
        if ref == hyp:
            if ref:
                self.counts[ref][0] += 1
            return
        if hyp:
            self.counts[hyp][1] += 1
        if ref:
            self.counts[ref][2] += 1

    def add_all(self, refs: Sequence[str], hyps: Sequence[str]) -> None:
        if len(refs) != len(hyps):
            raise ValueError(f"{len(refs)} reference marks against {len(hyps)} output marks")
        for ref, hyp in zip(refs, hyps):
            self.add(ref, hyp)

    def summary(self) -> dict:
        """Per mark (by its name, as ``marks.MARK_NAMES``) and "micro": precision, recall, F1 (fractions),
        support (the reference's marks), predicted (the output's), tp, fp, fn; and "words"."""
        out: dict = {"words": self.words}
        for mark in SCORED:
            out[MARK_NAMES[mark]] = _rates(*self.counts[mark])
        out["micro"] = _rates(*(sum(c[i] for c in self.counts.values()) for i in range(3)))
        return out


def score_marks(refs: Sequence[Sequence[str]], hyps: Sequence[Sequence[str]]) -> dict:
    """``MarkCounts.summary`` of per-cue (or per-file) lists of marks, reference against output."""
    n = MarkCounts()
    for ref, hyp in zip(refs, hyps, strict=True):
        n.add_all(ref, hyp)
    return n.summary()


def cue_end_full_stops(written: Sequence[Sequence[str]]) -> list[list[str]]:
    """The rule baseline's marks per cue: the input's own marks, and a full stop after the last scored word
    of every cue that ends without a mark."""
    out = [list(marks) for marks in written]
    for marks in out:
        if marks and not marks[-1]:
            marks[-1] = FULL_STOP
    return out


FileMarks = tuple[Sequence[Sequence[str]], Sequence[Sequence[str]]]   # one file's marks per cue: reference, output


def mark_intervals(files: Sequence[FileMarks], level: float = LEVEL, resamples: int = RESAMPLES,
                   seed: int = 0) -> dict:
    """Per mark and "micro", the central ``level`` interval of F1 over resamples of the files
    (evaluation/intervals.py: a file is one film or talk with its own style, not independent words);
    None under two files.  F1 = 2 TP / (2 TP + FP + FN) is a ratio of sums over the files of a resample."""
    per_file = []
    for refs, hyps in files:
        counts = MarkCounts()
        for ref, hyp in zip(refs, hyps, strict=True):
            counts.add_all(ref, hyp)
        per_file.append(counts)
    out = {}
    for name, marks in [(MARK_NAMES[m], (m,)) for m in SCORED] + [("micro", SCORED)]:
        tps = [sum(c.counts[m][0] for m in marks) for c in per_file]
        wrong = [sum(c.counts[m][1] + c.counts[m][2] for m in marks) for c in per_file]
        out[name] = ratio_interval([2 * tp for tp in tps], [2 * tp + w for tp, w in zip(tps, wrong)],
                                   level, resamples, seed)
    return out


def score_files(files: Sequence[FileMarks]) -> dict:
    """``score_marks`` over the files' cues, with the per-mark ``mark_intervals`` as "intervals"."""
    refs = [cue for ref, _ in files for cue in ref]
    hyps = [cue for _, hyp in files for cue in hyp]
    return score_marks(refs, hyps) | {"intervals": mark_intervals(files)}


def review_counts(ref_marks: Sequence[str], input_marks: Sequence[str], final_marks: Sequence[str],
                  visited: Sequence[bool]) -> dict:
    """The simulated review's ``punctuation`` object, from flat per-word lists (one entry per scored word of
    the file, in order): a word whose mark differs from the reference's is an error the editor must fix.

    ``initial_errors``: words whose mark, in the file as the editor opens it (``input_marks``), is wrong.
    ``visited``: those of them the editor reviewed (``visited`` true: the review order brought the editor to
    the word), each counted once.  ``residual_errors``: words whose mark is wrong when the review ends
    (``final_marks``), visited or not."""
    n = len(ref_marks)
    if not len(input_marks) == len(final_marks) == len(visited) == n:
        raise ValueError(f"per-word lists of different lengths: {n} reference marks, {len(input_marks)} as opened, "
                         f"{len(final_marks)} after review, {len(visited)} visit flags")
    wrong = [r != i for r, i in zip(ref_marks, input_marks)]
    return {"initial_errors": sum(wrong),
            "visited": sum(w and v for w, v in zip(wrong, visited)),
            "residual_errors": sum(r != f for r, f in zip(ref_marks, final_marks)),
            "reference_marks": sum(1 for r in ref_marks if r)}  # what "marks left" is a share of


def add_review_counts(total: dict, other: dict) -> dict:
    """Two ``review_counts`` objects added key by key."""
    keys = ("initial_errors", "visited", "residual_errors", "reference_marks") + \
        (("changes",) if "changes" in other else ())
    return {k: total.get(k, 0) + other.get(k, 0) for k in keys}


def restored_outcomes(cues: Sequence[Sequence[Token]], marks: Sequence[Sequence[str]],
                      restored: Sequence[InsertedMark]) -> list[tuple[tuple[float, ...], str]]:
    """Each restored mark on a scored word of the reference (its ``cues`` of tokens, the ``marks`` after their
    scored words): (the head's probabilities, the reference's mark after the word).  What the mark threshold
    reads (evaluation/mark_calibration.py)."""
    scored = [{t.end: k for k, t in enumerate(t for t in tokens if t.is_word and has_letters(t.text))}
              for tokens in cues]
    out = []
    for m in restored:
        k = scored[m.cue_index].get(m.offset)
        if k is not None:
            out.append((tuple(m.prediction.probs), marks[m.cue_index][k]))
    return out


def mark_ece(outcomes: Sequence[tuple[tuple[float, ...], str]]) -> dict:
    """ECE (10 bins) of the restored marks' confidence against the reference, with its reliability table."""
    conf = [max(p) for p, _ in outcomes]
    right = [MARKS[int(np.argmax(p))] == gold for p, gold in outcomes]
    ece, table = calibration_table(conf, right)
    return {"marks": len(outcomes), "right": sum(right), "ece": ece, "reliability": table}


# -- the text report ----------------------------------------------------------------------------------

HEADER = f"{'files':8} {'input':8} {'mark':16} {'P':>6} {'R':>6} {'F1':>6} {'support':>8} {'output':>8}"


def mark_rows(label: str, key: str, summary: dict) -> list[str]:
    """One row per mark and "micro" for one scored run, in %, in the style of ``runner.format_report``."""
    rows = []
    for name in [MARK_NAMES[m] for m in SCORED] + ["micro"]:
        s = summary[name]
        rows.append(f"{label:8} {key:8} {name:16} {100 * s['precision']:6.1f} {100 * s['recall']:6.1f} "
                    f"{100 * s['f1']:6.1f} {s['support']:8d} {s['predicted']:8d}")
    return rows


def _with_interval(summary: dict, name: str) -> str:
    span = summary.get("intervals", {}).get(name)
    low_high = "" if span is None else f" {100 * span[0]:4.1f}-{100 * span[1]:4.1f}"
    return f"{100 * summary[name]['f1']:5.1f}{low_high:>10}"


def interval_lines(rows: Sequence[tuple[str, str, str, dict]]) -> list[str]:
    """Per-mark F1 of each (system, files, input, summary) with its interval over files."""
    if not rows:
        return []
    names = [MARK_NAMES[m] for m in (FULL_STOP, QUESTION, COMMA, EXCLAMATION)]
    header = f"{'system':28} {'files':6} {'input':8} " + " ".join(f"{n:>16}" for n in names)
    lines = ["", f"per-mark F1 (%) with its {LEVEL:.0%} interval over files (bootstrap, {RESAMPLES} resamples "
                 "of the files):", header, "-" * len(header)]
    for system, label, key, summary in rows:
        lines.append(f"{system:28} {label:6} {key:8} " + " ".join(f"{_with_interval(summary, n):>16}" for n in names))
    return lines


def report_lines(entries: Sequence[tuple[str, str, dict]]) -> list[str]:
    """The punctuation block of ``evaluate``'s report: a row per mark of each (files, input, summary)."""
    if not entries:
        return []
    lines = ["", "subcase's punctuation, the mark after each word (P/R/F1 in %; support: the reference's marks, "
                 "output: the marks written):", HEADER, "-" * len(HEADER)]
    for label, key, summary in entries:
        lines += mark_rows(label, key, summary)
    return lines
