"""Truecasing metrics, comparable with Rei et al. (2020) and the Unbabel/caption code.

Slots are words that are not lower case.  For the non-lowercase tags (T, U, M)
a word is a true positive when the hypothesis has the reference's exact form,
a false positive when the hypothesis is not lower case but wrong, a false
negative when the reference is not lower case and the hypothesis is wrong
(micro-averaged, as caption's ``micro_fscore``).  SER is every word whose form
differs, divided by the number of reference slots (caption's
``slot_error_rate``).  "Intrinsic" scores leave out sentence-initial words
written in Title case, whose capital is positional (the paper's protocol).
CER is the capitalization error rate at character level (Beaufays & Strope):
letters whose upper/lower status differs, over upper-case letters in the reference.
The review view: at a confidence threshold, the share of words highlighted
(review load) and the share of the wrong words that are highlighted (catch rate); the
default view takes each word's threshold from the model that cased it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

# the sentence-start scan is the casing rules' own (casing/rules.py): metrics and rules agree on it
from subcase.casing.rules import scored_words  # noqa: F401 (re-exported)
from subcase.casing.tags import TAGS, Tag, tag_of


@dataclass
class WordOutcome:
    ref: str
    hyp: str
    sentence_initial: bool
    confidence: float | None = None
    # the app's default review threshold for the model that cased the word: a Spanish
    # word is highlighted under the multilingual model's threshold, not the English one
    threshold: float | None = None
    # the first word of its cue: a capital there is often a sentence start the reference's
    # punctuation does not show (a cue that ends without a full stop)
    cue_initial: bool = False


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    errors: int = 0
    slots: int = 0
    words: int = 0
    ref_upper_chars: int = 0
    char_errors: int = 0
    per_tag: dict = field(default_factory=lambda: {t: [0, 0, 0] for t in TAGS if t is not Tag.L})

    def add(self, ref: str, hyp: str) -> None:
        rt, ht = tag_of(ref), tag_of(hyp)
        right = ref == hyp
        self.words += 1
        if rt is not Tag.L:
            self.slots += 1
        if not right:
            self.errors += 1
        if right and rt is not Tag.L:
            self.tp += 1
            self.per_tag[rt][0] += 1
        if not right and ht is not Tag.L:
            self.fp += 1
            self.per_tag[ht][1] += 1
        if not right and rt is not Tag.L:
            self.fn += 1
            self.per_tag[rt][2] += 1
        self.ref_upper_chars += sum(c.isupper() for c in ref)
        self.char_errors += sum(a.isupper() != b.isupper() for a, b in zip(ref, hyp) if a.isalpha())

    @staticmethod
    def _f1(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def summary(self) -> dict:
        p, r, f = self._f1(self.tp, self.fp, self.fn)
        out = {"precision": p, "recall": r, "f1": f, "ser": self.errors / max(self.slots, 1),
               "cer": self.char_errors / max(self.ref_upper_chars, 1), "words": self.words,
               "slots": self.slots, "errors": self.errors}
        for t, (tp, fp, fn) in self.per_tag.items():
            out[f"{t.value}_f1"] = self._f1(tp, fp, fn)[2]
            out[f"{t.value}_support"] = tp + fn
        return out


def counts(outcomes: Iterable[WordOutcome]) -> tuple[Counts, Counts]:
    """The counts of all words, and the intrinsic ones (sentence-initial Title words left out)."""
    full, intrinsic = Counts(), Counts()
    for o in outcomes:
        full.add(o.ref, o.hyp)
        if not (o.sentence_initial and tag_of(o.ref) is Tag.T):
            intrinsic.add(o.ref, o.hyp)
    return full, intrinsic


def score(outcomes: list[WordOutcome]) -> dict:
    """All scores for one system: overall, intrinsic, and per tag."""
    full, intrinsic = counts(outcomes)
    s = full.summary()
    i = intrinsic.summary()
    s.update({"intrinsic_" + k: v for k, v in i.items() if k in ("precision", "recall", "f1", "ser", "cer")})
    return s


def _review_row(rated: list[tuple[float, float, bool]]) -> dict:
    """Load and catch rate of (confidence, threshold, wrong) triples: a word is flagged under its threshold."""
    wrong = sum(1 for _, _, bad in rated if bad)
    flagged = [bad for conf, threshold, bad in rated if conf < threshold]
    caught = sum(flagged)
    return {"review_load": len(flagged) / max(len(rated), 1), "catch_rate": caught / wrong if wrong else 1.0,
            "flagged": len(flagged), "errors": wrong, "caught": caught}


def review_view(outcomes: list[WordOutcome], thresholds: list[float]) -> list[dict]:
    """Review load and catch rate at each threshold (words with a confidence only)."""
    scored = [(o.confidence, o.ref != o.hyp) for o in outcomes if o.confidence is not None]
    return [{"threshold": t, **_review_row([(conf, t, bad) for conf, bad in scored])} for t in thresholds]


def default_review(outcomes: list[WordOutcome]) -> dict:
    """Review load and catch rate at the app's default: each word against the threshold of the
    model that cased it (``WordOutcome.threshold``), as ``convert --details`` and the GUI flag it."""
    rated = [(o.confidence, o.threshold, o.ref != o.hyp) for o in outcomes
             if o.confidence is not None and o.threshold is not None]
    return {"thresholds": sorted({threshold for _, threshold, _ in rated}), **_review_row(rated)}


def calibration_table(confidences: list[float], correct: list[bool], bins: int = 10) -> tuple[float, list[dict]]:
    """Expected calibration error and a reliability table over equal-width bins."""
    rows = []
    n = len(confidences)
    ece = 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, c in enumerate(confidences) if (lo <= c < hi) or (b == bins - 1 and c == 1.0)]
        if not idx:
            continue
        conf = sum(confidences[i] for i in idx) / len(idx)
        acc = sum(correct[i] for i in idx) / len(idx)
        ece += len(idx) / n * abs(acc - conf)
        rows.append({"bin": f"{lo:.1f}-{hi:.1f}", "words": len(idx), "confidence": conf, "accuracy": acc})
    return ece, rows
