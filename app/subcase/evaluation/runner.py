"""``subcase evaluate``: lowercase human-cased subtitles, recase them, score the result."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Container, Sequence

from subcase.casing import CasingEngine, DocumentCasing, Mode
from subcase.casing.language import LanguageGuess, detect, token_text
from subcase.casing.language import name as language_name
from subcase.casing.pauses import for_unpunctuated, pauses_of
from subcase.casing.restoring import DEFAULT_PUNCTUATE, InsertedMark, Punctuate
from subcase.casing.gcpause import paused_gc
from subcase.casing.hints import CueHints
from subcase.casing.routing import case_by_language
from subcase.casing.rules import method_for
from subcase.casing.stream import case_token_lists
from subcase.subtitles import load
from subcase.subtitles.words import Token, has_letters

from .baselines import TruecaseBaseline, first_word_and_i
from .drop import SEED, dropped_cues
from .intervals import LEVEL, RESAMPLES, f1_interval
from .metrics import WordOutcome, calibration_table, default_review, review_view, score, scored_words
from .punctuation import mark_ece, restored_outcomes
from .punctuation import (CUE_END_BASELINE, FileMarks, cue_end_full_stops, cue_marks, interval_lines, score_files,
                          score_marks)
from .punctuation import report_lines as punctuation_lines
from .consistency import add as add_inconsistencies, inconsistencies, report_line as consistency_line
from .simulate import input_text
from .skipped import read_each, report_lines
from .two_way import two_way_entry

REVIEW_THRESHOLDS = [0.5, 0.7, 0.8, 0.9, 0.95, 0.99]
# the reference's marks and subcase's, per cue (evaluation/punctuation.py)
Marks = tuple[list[list[str]], list[list[str]]]


@dataclass
class Reference:
    name: str
    cues: list[list[Token]]        # visible tokens of each cue, as cased by humans
    sentence_initial: list[list[bool]]  # per word with letters
    pauses: list[bool]             # a silence before the cue (casing/pauses.py)
    texts: list[str]               # each cue's text as written, markup and all
    marks: list[list[str]]         # per word with letters, the mark after it (evaluation/punctuation.py)


def load_reference(path: Path) -> Reference:
    doc = load(path)
    cues = [cue.tokens() for cue in doc.cues]
    flags: list[list[bool]] = [[] for _ in cues]
    for c, _, start in scored_words(cues):
        flags[c].append(start)
    texts = [cue.text for cue in doc.cues]
    return Reference(path.name, cues, flags, pauses_of(doc.cues), texts, [cue_marks(t) for t in texts])


def model_input(ref: Reference, punctuated: bool) -> list[list[Token]]:
    """What a post-editor receives: the text lower-cased, punctuation kept or stripped."""
    return [[Token(t.start, t.end, t.text.lower(), t.is_word) for t in tokens if t.is_word or punctuated]
            for tokens in ref.cues]


def output_marks(ref: Reference, stripped: Container[int]) -> list[list[str]]:
    """The marks of the text subcase writes for the input of ``model_input`` or ``mixed_input``, per cue:
    the cue's text as the post-editor receives it (``simulate.input_text``; stripped of punctuation where
    the cue is in ``stripped``), read as ``simulate-review`` reads its documents.  The casing changes letter case
    only, so the written text keeps the input's marks, one per scored word."""
    return [cue_marks(input_text(text, tokens, c in stripped, False))
            for c, (text, tokens) in enumerate(zip(ref.texts, ref.cues))]


def _ref_words(ref: Reference) -> list[list[str]]:
    return [[t.text for t in tokens if t.is_word and has_letters(t.text)] for tokens in ref.cues]


def _outcomes(ref: Reference, hyp: list[list[str]], conf: list[list[float]] | None = None,
              threshold: float | None = None) -> list[WordOutcome]:
    out = []
    for c, words in enumerate(_ref_words(ref)):
        for k, w in enumerate(words):
            out.append(WordOutcome(w, hyp[c][k], ref.sentence_initial[c][k], conf[c][k] if conf else None,
                                   threshold if conf else None, cue_initial=k == 0))
    return out


def run_model(engine: CasingEngine, inp: list[list[Token]], per_cue: bool = False,
              pauses: Sequence[bool] | None = None):
    """Cased words and confidences per cue, across cue boundaries or cue by cue."""
    pauses = for_unpunctuated(inp, pauses)
    groups = [[i] for i in range(len(inp))] if per_cue else [list(range(len(inp)))]
    hyp: list[list[str]] = [[] for _ in inp]
    conf: list[list[float]] = [[] for _ in inp]
    for g in groups:
        with paused_gc():
            casing = case_token_lists(engine, [inp[i] for i in g], Mode.RESTORE,
                                      CueHints(pauses=[pauses[i] for i in g] if pauses else None))
        for w in casing.words:
            hyp[g[w.cue_index]].append(w.output)
            conf[g[w.cue_index]].append(w.confidence)
    return hyp, conf


def _score_entry(engine: CasingEngine | None, outcomes: list[WordOutcome], review: bool) -> dict:
    entry = score(outcomes)
    if review and engine is not None and outcomes and outcomes[0].confidence is not None:
        entry["review"] = review_view(outcomes, REVIEW_THRESHOLDS)
        entry["review_default"] = default_review(outcomes)
        rated = [(o.confidence, o.ref == o.hyp) for o in outcomes if o.confidence is not None]
        ece, table = calibration_table([c for c, _ in rated], [ok for _, ok in rated])
        entry["ece"] = ece
        entry["reliability"] = table
    return entry


@dataclass(frozen=True)
class EvaluationOptions:
    """What ``evaluate`` scores, and how subcase cases the input (``subcase evaluate``'s options)."""

    baselines: bool = True     # the rule and truecase baselines beside subcase
    per_cue: bool = True       # subcase also cue by cue
    punct_settings: tuple[bool, ...] = (True, False)  # the input with its punctuation, and without
    lang: str = "auto"
    mode: Mode = Mode.AUTO
    drop: float | None = None  # a share of the words to drop (evaluation/drop.py)
    seed: int = SEED
    punctuate: Punctuate = DEFAULT_PUNCTUATE
    baseline_engine: CasingEngine | None = None  # another model whose marks are scored as a row of their own


def evaluate(paths: list[Path], engine: CasingEngine | None, options: EvaluationOptions = EvaluationOptions(),
             log: Callable[[str], None] = lambda s: None) -> dict:
    """Scores over all files ("systems"), and per language ("languages").

    "subcase" is what ``convert`` writes: the model for its languages, the rules
    of casing/rules.py for others.  For a language the model does not case, the
    English model's own output is scored beside it ("English model, forced"), so
    the choice of casing/rules.py stays measured.  The rule baseline capitalises
    sentence starts (and, in English, the pronoun I).  With ``punctuate`` (casing/restoring.py) other than
    "never", subcase restores missing marks, and each of its entries also scores the marks of the text it
    writes against the reference's, per mark (``punctuation``, evaluation/punctuation.py), with each mark's
    F1 interval over files; beside it ("punctuation_baselines", in total and per language) the marks of the
    rule "full stop at every cue end" and, given ``baseline_engine`` (another model, e.g. the one shipped
    before), that model's restored marks.
    A file that cannot be read is skipped
    (evaluation/skipped.py), logged and listed under "skipped".

    ``mode`` is the casing mode of "subcase" (casing/modes.py).  With ``drop`` (a share of the words),
    the input is mixed instead (evaluation/drop.py): runs of cues lower-cased and stripped, the rest as
    written; "subcase" and, for another mode, "subcase (restore)" are scored on all the words ("mixed"),
    on the dropped runs ("dropped") and on the rest ("kept"), with no baselines.
    """
    baselines, per_cue, punct_settings = options.baselines, options.per_cue, options.punct_settings
    lang, mode, punctuate = options.lang, options.mode, options.punctuate
    baseline_engine = options.baseline_engine
    refs, skipped = read_each(paths, load_reference, log)
    if options.drop is not None and engine is not None:
        return _evaluate_dropped(refs, skipped, engine, options, log)
    model_languages = engine.model_languages if engine is not None else ("en",)
    guesses = [detect([token_text(tokens) for tokens in ref.cues], lang, model_languages[0])
               for ref in refs]
    truecase = None
    if baselines:
        try:
            truecase = TruecaseBaseline()
        except RuntimeError as exc:
            log(str(exc))
    results: dict = {"files": len(refs), "words": sum(len(w) for r in refs for w in _ref_words(r)), "systems": {},
                     "languages": {}, "skipped": skipped.as_json()}
    for ref, guess in zip(refs, guesses):
        group = results["languages"].setdefault(guess.language, {"files": 0, "words": 0, "systems": {}})
        group["files"] += 1
        group["words"] += sum(len(w) for w in _ref_words(ref))
        group["method"] = method_for(guess.language, model_languages).value
    for punctuated in punct_settings:
        key = "punct" if punctuated else "nopunct"
        # per system, the outcomes of each file (the intervals resample files)
        systems: dict[str, list[list[WordOutcome]]] = {}
        by_language: dict[str, dict[str, list[list[WordOutcome]]]] = {}
        # subcase's marks against the reference's, in total and per language
        # per system of marks ("subcase" and the baselines), per "all" and language, each file's marks
        mark_files: dict[str, dict[str, list[FileMarks]]] = {}
        consistency: dict[str, int] | None = None  # restored marks at odds with the text (evaluation/consistency.py)
        # per "all" and language, each restored mark's probabilities and the reference's mark (its calibration)
        restored: dict[str, list] = {}
        for ref, guess in zip(refs, guesses):
            inp = model_input(ref, punctuated)
            english = guess.language == "en"
            mine: dict[str, list[WordOutcome]] = {}
            if engine is not None:
                mine["subcase"], casing = subcase_casing(engine, ref, inp, guess, mode, punctuate)
                threshold = casing.threshold
                plain = output_marks(ref, () if punctuated else range(len(ref.cues)))
                if punctuate is not Punctuate.NEVER:
                    systems_marks = {"subcase": with_restored(ref, plain, casing.marks),
                                     CUE_END_BASELINE: cue_end_full_stops(plain)}
                    if baseline_engine is not None:
                        _, other = subcase_casing(baseline_engine, ref, inp, guess, mode, punctuate)
                        systems_marks[_baseline_name(baseline_engine)] = with_restored(ref, plain, other.marks)
                    judged = restored_outcomes(ref.cues, ref.marks, casing.marks)
                    for group in ("all", guess.language):
                        restored.setdefault(group, []).extend(judged)
                    for name, written in systems_marks.items():
                        for group in ("all", guess.language):
                            mark_files.setdefault(name, {}).setdefault(group, []).append((ref.marks, written))
                    forms = {(c, i): t.text for c, tokens in enumerate(ref.cues)
                             for i, t in enumerate(t for t in tokens if t.is_word)}
                    consistency = add_inconsistencies(consistency or {}, inconsistencies(inp, casing, forms))
                if guess.language not in engine.languages:
                    hyp, conf = run_model(engine, inp, pauses=ref.pauses)
                    mine["English model, forced"] = _outcomes(ref, hyp, conf, engine.info.review_threshold)
                elif per_cue:
                    hyp, conf = run_model(engine, inp, per_cue=True, pauses=ref.pauses)
                    mine["subcase (cue by cue)"] = _outcomes(ref, hyp, conf, threshold)
            if baselines:
                rule = "first word + I" if english else "sentence starts"
                mine[rule] = _outcomes(ref, first_word_and_i(inp, punctuated, pronoun_i=english))
                if truecase is not None and english:
                    mine["truecase (PyPI)"] = _outcomes(ref, truecase.case(inp, punctuated))
            for name, outcomes in mine.items():
                by_language.setdefault(guess.language, {}).setdefault(name, []).append(outcomes)
                if name != "English model, forced":
                    systems.setdefault(name, []).append(outcomes)
        for name, files in systems.items():
            entry = _score_entry(engine, _flat(files), review=True) | _intervals(files)
            if name == "subcase":
                entry["two_way"] = two_way_entry(files)
                if "subcase" in mark_files:
                    entry["punctuation"] = score_files(mark_files["subcase"]["all"])
                    entry["punctuation"]["restored_marks"] = mark_ece(restored["all"])
                if consistency is not None:
                    entry["consistency"] = consistency
            results["systems"].setdefault(name, {})[key] = entry
        for name, groups in mark_files.items():
            if name == "subcase":
                continue
            for group, marked in groups.items():
                target = results if group == "all" else results["languages"][group]
                target.setdefault("punctuation_baselines", {}).setdefault(name, {})[key] = score_files(marked)
        for language, named in by_language.items():
            for name, files in named.items():
                outcomes = _flat(files)
                entry = score(outcomes) | _intervals(files)
                if name == "subcase":
                    entry["two_way"] = two_way_entry(files)
                    if "subcase" in mark_files:
                        entry["punctuation"] = score_files(mark_files["subcase"][language])
                        entry["punctuation"]["restored_marks"] = mark_ece(restored[language])
                if outcomes and outcomes[0].threshold is not None:
                    entry["review_default"] = default_review(outcomes)
                results["languages"][language]["systems"].setdefault(name, {})[key] = entry
        log(f"evaluated {key}")
    if engine is not None:
        results["model"] = {"version": engine.info.version, "sha256": engine.info.sha256,
                            "review_threshold": engine.info.review_threshold, "languages": list(model_languages)}
    return results


def _baseline_name(engine: CasingEngine) -> str:
    return f"model {engine.info.version} (baseline)"


def subcase_outcomes(engine: CasingEngine, ref: Reference, inp: list[list[Token]],
                     guess: LanguageGuess, mode: Mode = Mode.AUTO,
                     punctuate: Punctuate = DEFAULT_PUNCTUATE) -> tuple[list[WordOutcome], float]:
    """What ``convert`` writes for one reference file's input, word by word against the reference, and
    the review threshold of the model that cased it."""
    outcomes, casing = subcase_casing(engine, ref, inp, guess, mode, punctuate)
    return outcomes, casing.threshold


def subcase_casing(engine: CasingEngine, ref: Reference, inp: list[list[Token]], guess: LanguageGuess,
                   mode: Mode = Mode.AUTO, punctuate: Punctuate = DEFAULT_PUNCTUATE
                   ) -> tuple[list[WordOutcome], DocumentCasing]:
    """``subcase_outcomes`` with the casing itself (its threshold and restored marks)."""
    with paused_gc():
        casing = case_by_language(engine, inp, CueHints(pauses=ref.pauses), mode, guess, punctuate=punctuate)
    hyp, conf = _casing_words(casing, len(inp))
    return _outcomes(ref, hyp, conf, casing.threshold), casing


def with_restored(ref: Reference, written: list[list[str]], restored: Sequence[InsertedMark]) -> list[list[str]]:
    """``written`` (``output_marks``) with the marks subcase restored after words that had none, each on the
    scored word it follows (a mark after a word without letters, "at 5.", is not scored, as in the reference)."""
    out = [list(ms) for ms in written]
    scored = [{t.end: k for k, t in enumerate(t for t in tokens if t.is_word and has_letters(t.text))}
              for tokens in ref.cues]
    for m in restored:
        k = scored[m.cue_index].get(m.offset)
        if k is not None and not out[m.cue_index][k]:
            out[m.cue_index][k] = m.prediction.mark
    return out


def mixed_input(ref: Reference, dropped: set[int]) -> list[list[Token]]:
    """The dropped cues lower-cased without punctuation, the others as the people wrote them."""
    return [[Token(t.start, t.end, t.text.lower(), True) for t in tokens if t.is_word] if c in dropped
            else list(tokens) for c, tokens in enumerate(ref.cues)]


def _evaluate_dropped(refs: list[Reference], skipped, engine: CasingEngine, options: EvaluationOptions,
                      log: Callable[[str], None]) -> dict:
    assert options.drop is not None
    lang, mode, share, seed, punctuate = options.lang, options.mode, options.drop, options.seed, options.punctuate
    results: dict = {"files": len(refs), "words": sum(len(w) for r in refs for w in _ref_words(r)), "systems": {},
                     "languages": {}, "skipped": skipped.as_json(), "drop": {"share": share, "seed": seed}}
    modes = [("subcase", mode)] + ([("subcase (restore)", Mode.RESTORE)] if mode is not Mode.RESTORE else [])
    parts = ("mixed", "dropped", "kept")
    systems: dict[str, dict[str, list[list[WordOutcome]]]] = {}
    by_language: dict[str, dict[str, dict[str, list[list[WordOutcome]]]]] = {}
    dropped_words = 0
    # subcase's marks against the reference's per part, in total and per language; the casing mode does not
    # change a mark, so one set serves every mode
    all_marks: dict[str, Marks] = {part: ([], []) for part in parts}
    marks: dict[str, dict[str, Marks]] = {}
    for ref in refs:
        words = _ref_words(ref)
        dropped = dropped_cues([len(w) for w in words], share, ref.name, seed)
        dropped_words += sum(len(words[c]) for c in dropped)
        inp = mixed_input(ref, dropped)
        guess = detect([token_text(tokens) for tokens in inp], lang, engine.model_languages[0])
        group = results["languages"].setdefault(guess.language, {"files": 0, "words": 0, "systems": {}})
        group["files"] += 1
        group["words"] += sum(len(w) for w in words)
        group["method"] = method_for(guess.language, engine.model_languages).value
        cue_of = [c for c, ws in enumerate(words) for _ in ws]
        written: list[list[str]] = []
        for name, m in modes:
            outcomes, casing = subcase_casing(engine, ref, inp, guess, m, punctuate)
            if not written:  # the marks come before the casing mode has a say: the same for every mode
                written = with_restored(ref, output_marks(ref, dropped), casing.marks)
            split = {"mixed": outcomes,
                     "dropped": [o for o, c in zip(outcomes, cue_of) if c in dropped],
                     "kept": [o for o, c in zip(outcomes, cue_of) if c not in dropped]}
            for part in parts:
                systems.setdefault(name, {}).setdefault(part, []).append(split[part])
                by_language.setdefault(guess.language, {}).setdefault(name, {}).setdefault(part, []).append(
                    split[part])
        every = range(len(ref.cues))
        cues_of = {"mixed": every, "dropped": sorted(dropped), "kept": [c for c in every if c not in dropped]}
        for part in parts:
            for group in (all_marks[part], marks.setdefault(guess.language, {}).setdefault(part, ([], []))):
                group[0].extend(ref.marks[c] for c in cues_of[part])
                group[1].extend(written[c] for c in cues_of[part])
    results["drop"]["dropped_words"] = dropped_words
    for name, by_part in systems.items():
        for part in parts:
            entry = _score_entry(engine, _flat(by_part[part]), review=True) | _intervals(by_part[part])
            if punctuate is not Punctuate.NEVER:
                entry["punctuation"] = score_marks(*all_marks[part])
            results["systems"].setdefault(name, {})[part] = entry
    for language, named in by_language.items():
        for name, by_part in named.items():
            for part in parts:
                outcomes = _flat(by_part[part])
                entry = score(outcomes) | _intervals(by_part[part])
                if punctuate is not Punctuate.NEVER:
                    entry["punctuation"] = score_marks(*marks[language][part])
                if outcomes and outcomes[0].threshold is not None:
                    entry["review_default"] = default_review(outcomes)
                results["languages"][language]["systems"].setdefault(name, {})[part] = entry
    log(f"evaluated a drop of {share:g} of the words (seed {seed})")
    results["model"] = {"version": engine.info.version, "sha256": engine.info.sha256,
                        "review_threshold": engine.info.review_threshold, "languages": list(engine.model_languages)}
    return results


def _flat(files: list[list[WordOutcome]]) -> list[WordOutcome]:
    return [o for outcomes in files for o in outcomes]


def _intervals(files: list[list[WordOutcome]]) -> dict:
    """F1 and intrinsic F1 intervals over files (evaluation/intervals.py); None under two files."""
    return {"f1_interval": f1_interval(files), "intrinsic_f1_interval": f1_interval(files, intrinsic=True)}


def _casing_words(casing: DocumentCasing, n_cues: int) -> tuple[list[list[str]], list[list[float]]]:
    hyp: list[list[str]] = [[] for _ in range(n_cues)]
    conf: list[list[float]] = [[] for _ in range(n_cues)]
    for w in casing.words:
        hyp[w.cue_index].append(w.output)
        conf[w.cue_index].append(w.confidence)
    return hyp, conf


def _system_rows(systems: dict) -> list[str]:
    lines = []
    for name, by_input in systems.items():
        for key, s in by_input.items():
            lines.append(f"{name:24} {key:8} {100*s['precision']:6.1f} {100*s['recall']:6.1f} {100*s['f1']:6.1f} "
                         f"{100*s['ser']:6.1f} {100*s['intrinsic_f1']:6.1f} {100*s['intrinsic_ser']:6.1f} "
                         f"{100*s['cer']:6.1f} {100*s['T_f1']:6.1f} {100*s['U_f1']:6.1f} {100*s['M_f1']:6.1f}")
    return lines


def _thresholds(r: dict) -> str:
    return "/".join(f"{t:.3f}" for t in r["thresholds"])


def _default_row(r: dict) -> str:
    """The app's default highlight: each word under the threshold of the model that cased it."""
    return (f"{'default':>9} {100*r['review_load']:11.1f}% {100*r['catch_rate']:10.1f}% {r['flagged']:8d} "
            f"{r['errors']:7d}  (the app's threshold: {_thresholds(r)})")


def _interval(entry: dict, key: str) -> str:
    value, span = 100 * entry[key], entry.get(f"{key}_interval")
    text = "-" if span is None else f"{100*span[0]:.1f}-{100*span[1]:.1f}"
    return f"{value:6.1f} {text:>11}"


def _subcase_entries(results: dict) -> list[tuple[str, str, dict]]:
    """subcase's score entries as (files, input, entry): all files, then each language where there are several."""
    groups = [("all", results["systems"].get("subcase", {}))]
    languages = results.get("languages", {})
    if len(languages) > 1:
        groups += [(code, group["systems"].get("subcase", {})) for code, group in languages.items()]
    return [(label, key, entry) for label, by_input in groups for key, entry in by_input.items()]


def _interval_rows(results: dict) -> list[str]:
    """subcase's F1 with its interval over files, in total and per language: how far the figure would
    move with another draw of files like these (evaluation/intervals.py)."""
    rows = [(label, key, entry) for label, key, entry in _subcase_entries(results) if "f1_interval" in entry]
    if not rows:
        return []
    lines = ["", f"subcase's F1 with its {LEVEL:.0%} interval over files (bootstrap, {RESAMPLES} resamples of "
                 "the files):", f"{'files':8} {'input':8} {'F1':>6} {'interval':>11} {'iF1':>6} {'interval':>11}"]
    for label, key, entry in rows:
        lines.append(f"{label:8} {key:8} {_interval(entry, 'f1')} {_interval(entry, 'intrinsic_f1')}")
    return lines


def _two_way_rows(results: dict) -> list[str]:
    """How many of subcase's errors sit on words a file's own reference writes two ways inside its
    sentences, and its scores on the other words (evaluation/two_way.py)."""
    rows = [(label, key, entry["two_way"]) for label, key, entry in _subcase_entries(results) if "two_way" in entry]
    if not any(t["words"] for _, _, t in rows):
        return []
    lines = ["", "words a file's own reference writes in two casings inside sentences, and subcase on the other "
                 "words:", f"{'files':8} {'input':8} {'words':>6} {'errors':>7}   {'the other words: F1':>19} "
                 f"{'iF1':>6} {'SER':>6}  most common"]
    for label, key, t in rows:
        r = t["rest"]
        lines.append(f"{label:8} {key:8} {t['words']:6d} {t['errors']:7d}   {100*r['f1']:19.1f} "
                     f"{100*r['intrinsic_f1']:6.1f} {100*r['ser']:6.1f}  {', '.join(t['examples'])}")
    return lines


def _mark_interval_rows(results: dict) -> list[tuple[str, str, str, dict]]:
    """subcase's marks and the baselines' (evaluation/punctuation.py), in total and per language."""
    groups = [("all", results)]
    languages = results.get("languages", {})
    if len(languages) > 1:
        groups += list(languages.items())
    rows = []
    for label, group in groups:
        subcase = group.get("systems", {}).get("subcase", {})
        for key, entry in subcase.items():
            if "punctuation" not in entry:
                continue
            version = results.get("model", {}).get("version")
            rows.append((f"subcase (model {version})" if version else "subcase", label, key, entry["punctuation"]))
            for name, by_input in group.get("punctuation_baselines", {}).items():
                if key in by_input:
                    rows.append((name, label, key, by_input[key]))
    return rows


def format_report(results: dict) -> str:
    lines = [f"{results['files']} files, {results['words']} words with letters"]
    if "drop" in results:
        d = results["drop"]
        lines.append(f"mixed input: {d.get('dropped_words', 0)} words in runs of cues lower-cased without "
                     f"punctuation (--drop {d['share']:g}, seed {d['seed']}), the rest as written; "
                     "mixed = all words, dropped = those runs, kept = the rest")
    lines += report_lines(results)
    hdr = f"{'system':24} {'input':8} {'P':>6} {'R':>6} {'F1':>6} {'SER':>6} {'iF1':>6} {'iSER':>6} {'CER':>6} {'T F1':>6} {'U F1':>6} {'M F1':>6}"
    lines += ["", hdr, "-" * len(hdr)]
    lines += _system_rows(results["systems"])
    languages = results.get("languages", {})
    if len(languages) > 1 or any(code != "en" for code in languages):
        for code, group in languages.items():
            lines += ["", f"{language_name(code)} ({code}): {group['files']} files, {group['words']} words; "
                          f"subcase uses: {group['method']}", hdr, "-" * len(hdr)]
            lines += _system_rows(group["systems"])
    rows = [(code, key, entry["review_default"]) for code, group in languages.items()
            for key, entry in group["systems"].get("subcase", {}).items() if "review_default" in entry]
    if rows:
        lines += ["", "the app's default highlight per language (each word under its own model's threshold):",
                  f"{'language':12} {'input':8} {'review load':>12} {'catch rate':>11} {'flagged':>8} {'errors':>7} "
                  f"{'threshold':>9}"]
        for code, key, r in rows:
            lines.append(f"{language_name(code):12} {key:8} {100*r['review_load']:11.1f}% {100*r['catch_rate']:10.1f}% "
                         f"{r['flagged']:8d} {r['errors']:7d} {_thresholds(r):>9}")
    lines.append("(P/R/F1/SER over non-lowercase words; i* = intrinsic, sentence-initial Title words excluded; "
                 "CER = character-level capitalization error rate; all in %)")
    lines += punctuation_lines([(label, key, entry["punctuation"]) for label, key, entry in _subcase_entries(results)
                                if "punctuation" in entry])
    lines += [consistency_line(label, key, entry["consistency"]) for label, key, entry in _subcase_entries(results)
              if "consistency" in entry]
    lines += interval_lines(_mark_interval_rows(results))
    lines += _interval_rows(results)
    lines += _two_way_rows(results)
    for name, by_input in results["systems"].items():
        for key, s in by_input.items():
            if "review" not in s:
                continue
            marks = s.get("punctuation", {}).get("restored_marks")
            mark_ece_text = f"; restored marks' ECE {marks['ece']:.3f} on {marks['marks']}" if marks else ""
            lines += ["", f"post-editor's view: {name}, {key} input (ECE {s['ece']:.3f}{mark_ece_text})",
                      f"{'threshold':>9} {'review load':>12} {'catch rate':>11} {'flagged':>8} {'errors':>7}"]
            for r in s["review"]:
                lines.append(f"{r['threshold']:9.2f} {100*r['review_load']:11.1f}% {100*r['catch_rate']:10.1f}% "
                             f"{r['flagged']:8d} {r['errors']:7d}")
            lines.append(_default_row(s["review_default"]))
            if name == "subcase":
                lines += ["reliability (calibrated confidence vs share of words right):",
                          f"{'bin':>9} {'words':>7} {'confidence':>11} {'accuracy':>9}"]
                for b in s["reliability"]:
                    lines.append(f"{b['bin']:>9} {b['words']:7d} {100*b['confidence']:10.1f}% {100*b['accuracy']:8.1f}%")
    return "\n".join(lines)
