"""``subcase simulate-review``: a simulated post-editor plays the review through the app's own core.

For every human-cased reference file the casing is removed (lower case, or
UPPER with ``upper``; punctuation kept or stripped), the file is cased by the
model exactly as the editor opens it, and a simulated editor then works
through the same ``ReviewSession`` the GUI uses, opened the same way (``review.open_review``):

- it goes to the next word to review in the app's own order
  (``ReviewState.next_to_review`` from the current word, as the N key does);
- it looks at the reference for that word only, as a person would;
- it accepts the word when its form equals the reference, sets the
  reference's tag when a tag gives the reference form, and otherwise edits
  the cue text (the Edit cue text command) to write the word as the reference;
- it stops when no word is left to review.

Whatever the session does after a human decision (what it learns, the words
it re-cases by itself) happens here too, because the actions go through
``ReviewSession.perform``.  Words are the ones ``subcase evaluate`` scores: the
words of the cue text without markup that contain a letter.

Punctuation is counted beside the casing (``punctuation``, evaluation/punctuation.py):
a word whose mark differs from the reference's is an error the editor must fix,
read from the real documents: the file as the editor opens it and as the review
leaves it.  At each word it visits, the simulated editor first sets the mark after
the word to the reference's when it differs (``SetMark``, which re-cases the next
word when a sentence end comes or goes; ``changes`` counts them), and a restored
mark still to review that is right is kept (accepted with the word).  A restored
mark is to review, as a word is, when the head is less sure of it than the mark
threshold (``review.state.MARK_THRESHOLD``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

from subcase.casing import CasedFile, CasingEngine, DocumentCasing, Mode, apply_casing, case_document, tag_of
from subcase.casing.pipeline import write_marks
from subcase.casing.restoring import DEFAULT_PUNCTUATE, Punctuate
from subcase.review import Accept, EditLog, EditText, OpenOptions, ReviewSession, SetMark, SetTag, Status, open_review
from subcase.casing.housestyle import StyleMap
from subcase.casing.uncased import input_text
from subcase.review.profiles.profile import Profile
from subcase.subtitles import Document, load
from subcase.subtitles.words import has_letters

from .drop import SEED, dropped_cues
from .intervals import LEVEL, ratio_interval
from .punctuation import add_review_counts, cue_marks, review_counts
from .skipped import MisalignedReference, Skipped, Skips, read_each, report_lines

# every run's keys; "punctuation" (``Counts.punctuation``) joins them when the run restores marks (--punctuate)
KEYS = ("words", "initial_errors", "visited", "review_load", "actions", "learned_fixed", "learned_broken",
        "residual_errors", "residual_rate")


@dataclass
class Prepared:
    """One reference file, with its input document and the model's casing of it (cased once)."""

    name: str
    ref_words: list[list[str]]      # per cue, the scored words as the humans wrote them
    source: Document                # the input the editor opens (casing removed)
    casing: DocumentCasing
    ref_marks: list[list[str]]      # per cue, the mark after each scored word in the reference
    styles: StyleMap | None = None  # the house style chosen for the file, applied as the editor opens it
    punctuate: Punctuate = DEFAULT_PUNCTUATE  # where marks were restored (and so counted)


@dataclass(frozen=True)
class SimulateOptions:
    """``subcase simulate-review``'s options for one run (see its --help)."""

    strip_punct: bool = False
    upper: bool = False
    lang: str = "auto"
    mode: Mode = Mode.AUTO
    drop: float | None = None
    seed: int = SEED
    no_learning: bool = False
    threshold: float | None = None
    punctuate: Punctuate = DEFAULT_PUNCTUATE
    mark_threshold: float | None = None  # None: the app's (``review.state.MARK_THRESHOLD``)


DEFAULTS = SimulateOptions()


def prepare(path: Path, engine: CasingEngine, options: SimulateOptions = DEFAULTS,
            styles: StyleMap | None = None) -> Prepared:
    """One reference file made into the editor's input and cased in ``options.mode``.  With ``drop`` (a share
    of the words) the input is mixed (evaluation/drop.py): runs of cues lower-cased without punctuation, the
    other cues as written (``strip_punct`` and ``upper`` then do not apply)."""
    strip_punct, upper, lang, mode = options.strip_punct, options.upper, options.lang, options.mode
    drop, seed, punctuate = options.drop, options.seed, options.punctuate
    ref = load(path)
    ref_words = [[t.text for t in cue.tokens() if t.is_word and has_letters(t.text)] for cue in ref.cues]
    doc = load(path)
    dropped = None if drop is None else dropped_cues([len(w) for w in ref_words], drop, Path(path).name, seed)
    for i, cue in enumerate(doc.cues):
        if dropped is None:
            doc.set_cue_text(i, input_text(cue.text, cue.tokens(), strip_punct, upper))
        elif i in dropped:
            doc.set_cue_text(i, input_text(cue.text, cue.tokens(), True, False))
    casing = case_document(engine, doc, mode, lang=lang, punctuate=punctuate)
    return Prepared(Path(path).name, ref_words, doc, casing, [cue_marks(cue.text) for cue in ref.cues], styles,
                    punctuate)


@dataclass
class Counts:
    words: int = 0
    initial_errors: int = 0
    visited: int = 0
    accepts: int = 0
    tag_changes: int = 0
    edits: int = 0
    learned_fixed: int = 0
    learned_broken: int = 0
    residual_errors: int = 0
    # marks (evaluation/punctuation.review_counts): initial_errors, visited, residual_errors; counted when the
    # run restores punctuation (``--punctuate``), None otherwise
    punctuation: dict | None = None
    extra: dict = field(default_factory=dict)

    def add(self, other: Counts) -> None:
        for k in ("words", "initial_errors", "visited", "accepts", "tag_changes", "edits", "learned_fixed",
                  "learned_broken", "residual_errors"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        if other.punctuation is not None:
            self.punctuation = add_review_counts(self.punctuation or {}, other.punctuation)

    def as_dict(self) -> dict:
        return {
            "words": self.words,
            "initial_errors": self.initial_errors,
            "visited": self.visited,
            "review_load": self.visited / self.words if self.words else 0.0,
            "actions": {"accepts": self.accepts, "tag_changes": self.tag_changes, "edits": self.edits},
            "learned_fixed": self.learned_fixed,
            "learned_broken": self.learned_broken,
            "residual_errors": self.residual_errors,
            "residual_rate": self.residual_errors / self.words if self.words else 0.0,
            **({"punctuation": dict(self.punctuation)} if self.punctuation is not None else {}),
        }


@dataclass(frozen=True)
class Opening:
    """How the simulated editor opens each file: the choices of ``review.open_review`` it makes, and
    what it keeps of the review (a real edit log, the reviewed file saved when done: what the next
    file's profile reads with ``--series``)."""

    learning: bool = True
    profile: Profile | None = None
    log_path: Path | None = None
    save_to: Path | None = None


PLAIN, LEARNING = Opening(learning=False), Opening()
# what the editor sees before reviewing a word, once the file is open (``--series`` scores it)
Opened = Callable[[ReviewSession], None]


def simulate_file(prep: Prepared, engine: CasingEngine, threshold: float | None, opening: Opening = PLAIN,
                  on_opened: Opened | None = None, mark_threshold: float | None = None) -> Counts:
    """One file reviewed by the simulated editor; ``threshold`` None: the threshold of the model
    that cased the file (a Spanish file gets the multilingual model's), as in the app; ``mark_threshold``
    None: the app's."""
    doc = prep.source.copy()
    options = OpenOptions(mode=prep.casing.mode, threshold=threshold, styles=prep.styles, profile=opening.profile,
                          learning=opening.learning, punctuate=prep.punctuate)
    casing = write_marks(doc, prep.casing)
    session = open_review(CasedFile(doc, casing, apply_casing(doc, casing)), engine, options,
                          log=EditLog(opening.log_path) if opening.log_path is not None else None)
    if mark_threshold is not None:
        session.state.mark_threshold = mark_threshold
    try:
        return _review(prep, engine, session, opening, on_opened)
    finally:
        session.close()


def _review(prep: Prepared, engine: CasingEngine, session: ReviewSession, opening: Opening,
            on_opened: Opened | None) -> Counts:
    doc, state = session.doc, session.state
    for c, (words, ref) in enumerate(zip(state.cues, prep.ref_words)):
        if [w.input.lower() for w in words] != [r.lower() for r in ref]:
            raise MisalignedReference(f"cue {c + 1}: the cased words do not line up with the reference",
                                      prep.name)
    n = Counts(words=sum(len(r) for r in prep.ref_words))
    # The model's errors, as the file was cased: what a profile re-cased on opening counts as learned below.
    before = session.profile.before if session.profile is not None else {}
    n.initial_errors = sum(before.get((c, s), w.form) != r for c, (ws, rs) in enumerate(zip(state.cues, prep.ref_words))
                           for s, (w, r) in enumerate(zip(ws, rs)))
    opened_marks = _marks(prep, doc) if prep.punctuate is not Punctuate.NEVER else None  # as the editor opens it
    if opened_marks is not None:
        n.punctuation = {}
    if on_opened is not None:
        on_opened(session)
    seen: set[tuple[int, int]] = set()
    pos = state.next_to_review(None, wrap=False)
    while pos is not None:
        n.visited += 1
        seen.add(pos)
        c, s = pos
        w = state.word(pos)
        target = prep.ref_words[c][s]
        if opened_marks is not None:
            _fix_mark(prep, engine, session, pos, n)
        if w.form == target:
            session.perform(Accept(pos))  # the mark after it too, if still to review
            n.accepts += 1
        else:
            if engine.form(w.form, tag_of(target)) == target:
                session.perform(SetTag(pos, tag_of(target), engine.form))
                n.tag_changes += 1
            else:  # no tag writes it (an unknown mixed form): edit the cue text as the editor would
                text = doc.cues[c].text
                session.perform(EditText(c, text[:w.start] + target + text[w.end:]))
                n.edits += 1
            if state.word(pos).mark_needs_review(state.mark_threshold):  # the right mark: kept
                session.perform(SetMark(pos, state.word(pos).mark.now, engine.form))  # type: ignore[union-attr]
        # The N key: the next word to review after this one, in reading order,
        # wrapping round to the start as the app does.
        pos = state.next_to_review(pos)
    for ws, rs in zip(state.cues, prep.ref_words):
        for w, r in zip(ws, rs):
            if w.form != r:
                n.residual_errors += 1
            if w.status in (Status.LEARNED, Status.PROFILE):  # the app's own changes
                if w.form == r and w.proposed != r:
                    n.learned_fixed += 1
                elif w.form != r and w.proposed == r:
                    n.learned_broken += 1
    if opened_marks is not None:
        changes = n.punctuation["changes"] if n.punctuation else 0
        n.punctuation = review_counts(_flat(prep.ref_marks), _flat(opened_marks), _flat(_marks(prep, doc)),
                                      [(c, s) in seen for c, rs in enumerate(prep.ref_words) for s in range(len(rs))])
        n.punctuation["changes"] = changes  # marks the editor set
    if opening.save_to is not None and session.log is not None:
        session.save(opening.save_to)  # as the editor saves when done: the edit log then holds the saved file
    return n


def _fix_mark(prep: Prepared, engine: CasingEngine, session: ReviewSession, pos: tuple[int, int],
              n: Counts) -> None:
    """The mark after the visited word set to the reference's, if it differs (a word broken by inline tags:
    the mark after its last piece), as the editor sets it: the next word is re-cased when a sentence end
    comes or goes."""
    doc, state = session.doc, session.state
    c, last = state.pieces.get(pos, (pos,))[-1]
    want = prep.ref_marks[c][last]
    if SetMark.mark_at(doc, state, pos) != want and SetMark.applies(doc, state, pos):
        session.perform(SetMark(pos, want, engine.form, session.cue_language(c)))
        assert n.punctuation is not None
        n.punctuation["changes"] = n.punctuation.get("changes", 0) + 1


def _marks(prep: Prepared, doc: Document) -> list[list[str]]:
    """The mark after each scored word of every cue of ``doc``, checked against the reference's words."""
    marks = [cue_marks(cue.text) for cue in doc.cues]
    for c, (ms, ref) in enumerate(zip(marks, prep.ref_words, strict=True)):
        if len(ms) != len(ref):
            raise MisalignedReference(f"cue {c + 1}: {len(ms)} words with a mark against {len(ref)} in the "
                                      "reference", prep.name)
    return marks


def _flat(per_cue: list[list[str]]) -> list[str]:
    return [m for ms in per_cue for m in ms]


def simulate(preps: list[Prepared], engine: CasingEngine, threshold: float | None,
             opening: Opening = PLAIN, skipped: list[Skipped] | None = None,
             log: Callable[[str], None] = lambda s: None, mark_threshold: float | None = None) -> dict:
    """Every prepared file reviewed; ``skipped``: the files already left out (evaluation/skipped.py),
    to which a file whose words do not line up with its reference is added."""
    total = Counts()
    files = {}
    skips = Skips(log, skipped or ())
    for prep in preps:
        n = skips.attempt(Path(prep.name), partial(simulate_file, prep, engine, threshold, opening,
                                                   mark_threshold=mark_threshold))
        if n is None:
            continue
        total.add(n)
        files[prep.name] = n.as_dict()
        guess = prep.casing.language
        files[prep.name]["language"] = guess.language if guess is not None else None
    out: dict = {"total": total.as_dict(), "files": files, "skipped": skips.as_json()}
    # how far the totals would move with another draw of files like these (evaluation/intervals.py)
    words = [f["words"] for f in files.values()]
    for key, count in (("review_load", "visited"), ("residual_rate", "residual_errors")):
        out["total"][f"{key}_interval"] = ratio_interval([f[count] for f in files.values()], words)
    return out


def format_table(results: dict, per_file: bool) -> str:
    hdr = (f"{'file':44} {'words':>6} {'errors':>6} {'visited':>7} {'load':>6} {'acc':>5} {'tag':>4} {'edit':>4} "
           f"{'l.fix':>5} {'l.brk':>5} {'resid':>5} {'rate':>6}")
    lines = [hdr, "-" * len(hdr)]

    def row(name: str, r: dict) -> str:
        a = r["actions"]
        return (f"{name[-44:]:44} {r['words']:6d} {r['initial_errors']:6d} {r['visited']:7d} "
                f"{100 * r['review_load']:5.1f}% {a['accepts']:5d} {a['tag_changes']:4d} {a['edits']:4d} "
                f"{r['learned_fixed']:5d} {r['learned_broken']:5d} {r['residual_errors']:5d} "
                f"{100 * r['residual_rate']:5.2f}%")

    if per_file:
        for name, r in results["files"].items():
            lines.append(row(name, r))
        lines.append("-" * len(hdr))
    total = results["total"]
    lines.append(row(f"total ({len(results['files'])} files)", total))
    p = total.get("punctuation")
    if p is not None:
        share = f" ({100 * p['residual_errors'] / p['reference_marks']:.1f}% of the reference's " \
                f"{p['reference_marks']} marks)" if p.get("reference_marks") else ""
        lines.append(f"punctuation: {p['initial_errors']} words with a wrong or missing mark as opened, "
                     f"{p['visited']} of them visited, {p.get('changes', 0)} marks set, "
                     f"{p['residual_errors']} left after review{share}")
    load, residual = total.get("review_load_interval"), total.get("residual_rate_interval")
    if load is not None and residual is not None:
        lines.append(f"{LEVEL:.0%} interval over files (bootstrap): review load {100 * load[0]:.1f}-{100 * load[1]:.1f}%, "
                     f"residual rate {100 * residual[0]:.2f}-{100 * residual[1]:.2f}%")
    lines += report_lines(results)
    return "\n".join(lines)


def run_simulation(paths: list[Path], engine: CasingEngine, options: SimulateOptions,
                   styles: StyleMap | None = None, profile=None,
                   log: Callable[[str], None] = lambda s: None) -> dict:
    """The CLI's run: every file cased once, then reviewed by the simulated editor.

    Chosen house styles are applied after casing, as the editor applies them when it opens a file;
    then the ``profile``, if any."""
    preps, skipped = read_each(paths, lambda p: prepare(p, engine, options, styles), log)
    return simulate(preps, engine, options.threshold, Opening(learning=not options.no_learning, profile=profile),
                    skipped, log, options.mark_threshold)


# The configurations the docs and the model card report (``python -m subcase.evaluation.simulate``).
CARD_RUNS = (
    ("punct", False, False), ("strip-punct", True, False), ("upper", False, True),
)


def card_runs(paths: list[Path], engine: CasingEngine, threshold: float | None = None) -> dict:
    """Every reported configuration, with and without learning; each input is cased once."""
    out: dict = {"threshold": engine.info.review_threshold if threshold is None else threshold,
                 "model": engine.info.version, "runs": {}}
    for name, strip, upper in CARD_RUNS:
        # the reported runs measure the casing of text that keeps its marks or has none: nothing restored
        preps = [prepare(p, engine, SimulateOptions(strip_punct=strip, upper=upper, punctuate=Punctuate.NEVER))
                 for p in paths]
        for learning in (True, False):
            key = f"{name}, {'learning' if learning else 'no learning'}"
            out["runs"][key] = simulate(preps, engine, threshold, LEARNING if learning else PLAIN)
    return out


def markdown_table(data: dict) -> str:
    """Totals of every configuration, then the per-file rows of the first one."""
    lines = ["| input | learning | words | errors | visited | review load | accepts | tag changes | edits | "
             "learned fixed | learned broken | residual errors | residual rate |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for key, res in data["runs"].items():
        name, learning = key.split(", ")
        t = res["total"]
        a = t["actions"]
        lines.append(f"| {name} | {learning} | {t['words']} | {t['initial_errors']} | {t['visited']} | "
                     f"{100 * t['review_load']:.1f}% | {a['accepts']} | {a['tag_changes']} | {a['edits']} | "
                     f"{t['learned_fixed']} | {t['learned_broken']} | {t['residual_errors']} | "
                     f"{100 * t['residual_rate']:.2f}% |")
    first_key = next(iter(data["runs"]))
    lines += ["", f"Per file ({first_key}):", "",
              "| file | words | errors | review load | learned fixed / broken | residual rate |",
              "|---|---:|---:|---:|---:|---:|"]
    for name, r in data["runs"][first_key]["files"].items():
        lines.append(f"| {name} | {r['words']} | {r['initial_errors']} | {100 * r['review_load']:.1f}% | "
                     f"{r['learned_fixed']} / {r['learned_broken']} | {100 * r['residual_rate']:.2f}% |")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m subcase.evaluation.simulate REF_DIR OUT.json
    import json
    import sys

    folder = Path(sys.argv[1])
    inputs = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".srt", ".vtt"))
    result = card_runs(inputs, CasingEngine())
    Path(sys.argv[2]).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(markdown_table(result))
