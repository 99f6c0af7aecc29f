"""Converting an output of ``subcase convert`` again changes no byte (issue #56, item 4).

The property is checked over inputs as they arrive (as written) and as the other kinds of input the app
meets are made from them: lower case, stripped (lower case without punctuation, as speech recognition
writes), and ALL CAPS (broadcast captions); under every ``--mode`` and every ``--punctuate``.  Each check
converts the input as ``convert`` does (``case_file``, then ``save`` in the input's format) and converts
that output again.  ``bench/idempotence.py`` runs the whole matrix over the dev sets; the tests run a
representative part of it.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Callable, Iterable, Iterator

from subcase.casing import CasingEngine, case_file
from subcase.casing.modes import NAMES as MODES
from subcase.casing.restoring import Punctuate
from subcase.subtitles import load, save

from .simulate import input_text

VARIANTS = ("as-written", "lower", "stripped", "caps")
PUNCTUATES = tuple(p.value for p in Punctuate)


def make_variant(src: Path, variant: str, folder: Path) -> Path:
    """A copy of ``src`` in ``folder`` with its words recased (and for "stripped", its punctuation taken
    out) as ``variant`` says; ``src`` itself for "as-written".  Timing and layout stay as they were."""
    if variant == "as-written":
        return src
    doc = load(src)
    for c, cue in enumerate(doc.cues):
        doc.set_cue_text(c, input_text(cue.text, cue.tokens(), strip_punct=variant == "stripped",
                                       upper=variant == "caps"))
    path = folder / variant / src.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(doc.to_bytes())
    return path


def first_cues(src: Path, cues: int, folder: Path) -> Path:
    """A copy of ``src`` (SRT or WebVTT) in ``folder`` cut before its cue number ``cues`` (0-based), byte for
    byte up to there: a cheap sample of a real file for a test.  ``src`` itself when it has no more cues."""
    doc = load(src)
    if len(doc.cues) <= cues:
        return src
    nxt = doc.cues[cues]
    lines = src.read_bytes().decode(doc.encoding).splitlines(keepends=True)
    # the next cue's block starts at its timing line, or at its identifier on the line before
    keep = lines[:nxt.line - 1 - (nxt.identifier is not None)]
    path = folder / src.name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("".join(keep).encode(doc.encoding))
    return path


def convert_once(engine: CasingEngine, src: Path, dst: Path, mode: str, punctuate: str) -> bytes:
    """What ``subcase convert --mode MODE --punctuate P`` writes for ``src`` (in its own format), written
    to ``dst``."""
    cased = case_file(engine, src, mode, punctuate=punctuate)
    save(cased.doc, dst, format=cased.doc.format, backup=False)
    return dst.read_bytes()


@dataclass(frozen=True)
class Check:
    src: Path
    variant: str
    mode: str
    punctuate: str
    first_change: str | None  # the first line the second conversion changed ("before | after"), None if none

    @property
    def idempotent(self) -> bool:
        return self.first_change is None


def check(engine: CasingEngine, src: Path, mode: str, punctuate: str, folder: Path, variant: str = "as-written") \
        -> Check:
    """Convert ``src`` (already made as ``variant``), convert the output again, and compare the bytes."""
    out = folder / f"{mode}-{punctuate}"
    (out / "once").mkdir(parents=True, exist_ok=True)
    (out / "twice").mkdir(exist_ok=True)
    once = convert_once(engine, src, out / "once" / src.name, mode, punctuate)
    twice = convert_once(engine, out / "once" / src.name, out / "twice" / src.name, mode, punctuate)
    first = None
    if once != twice:
        a, b = once.decode("utf-8", "replace").splitlines(), twice.decode("utf-8", "replace").splitlines()
        first = next((f"{x} | {y}" for x, y in zip(a, b) if x != y), "the files differ in length")
    return Check(src, variant, mode, punctuate, first)


def run(engine: CasingEngine, files: Iterable[Path], variants: Iterable[str] = VARIANTS,
        modes: Iterable[str] = MODES, punctuates: Iterable[str] = PUNCTUATES,
        on_check: Callable[[Check], None] | None = None) -> Iterator[Check]:
    """Every check of the matrix files x variants x modes x punctuates, in that order."""
    modes, punctuates = list(modes), list(punctuates)
    with tempfile.TemporaryDirectory(prefix="subcase-idempotence-") as tmp:
        folder = Path(tmp)
        for n, (src, variant) in enumerate(product(files, variants)):
            made = make_variant(src, variant, folder / f"in{n}")
            for mode, punctuate in product(modes, punctuates):
                result = check(engine, made, mode, punctuate, folder / f"out{n}", variant)
                if on_check is not None:
                    on_check(result)
                yield result
