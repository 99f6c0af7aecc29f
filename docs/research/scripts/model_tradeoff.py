"""Speed of smaller and differently quantised taggers against the shipped model, on this CPU.

    python docs/research/scripts/model_tradeoff.py build [--checkpoint work/train/shipped.pt] [--out work/tradeoff]
    python docs/research/scripts/model_tradeoff.py time [--runs 7] [--cues 1500] [DIR ...]
    python docs/research/scripts/model_tradeoff.py count [--cues 200] [--passes 4] [DIR ...]    (valgrind)

``build`` (needs the train extra) makes one model folder per architecture and quantisation:
layers x feed-forward width, each as fp32, dynamic int8 (per-channel, exactly as shipped:
``training.export.quantize``) and static QDQ int8 with activation ranges calibrated on real
held-out training windows (``onnxruntime.quantization.quantize_static``). The weights are the
shipped ones (rebuilt by ``training.from_onnx``), cut down: fewer layers keep the teacher's
layers 0 and 2 (the ones the distilled student starts from), narrower FFNs keep the units
with the largest weight norms (``training.tagger.prune_ffn``). Cut-down weights tag badly:
the folders are for speed only, except the full 3-layer ones, which are the shipped weights.

``time`` cases a lower-cased film of ``--cues`` cues (the dev subtitles' text, cycled) with
every model folder given (default: models/ and every folder under work/tradeoff), one
onnxruntime thread as the app on one core, ``--runs`` rounds with the models alternating so
that a slow minute of a shared machine hits them all, and reports medians:

- words/s: the whole ``case_file`` (read, tokenize, windows, model, casing), CPU seconds;
- encoder: only ``session.run`` on the engine's own batches of that film (recorded once),
  CPU seconds, and its ratio to the shipped model measured in the same run.

``count`` gives each model's instructions per encoder pass on the AVX2 int8 kernel, under
valgrind's callgrind, for hosts where that kernel cannot be timed natively (``count_models``).

Absolute speeds are this CPU's; int8 speed depends on the CPU's int8 dot-product
instructions (VNNI, AMX), so the ratios travel better than the words/s. The CPU flags that
matter are printed (what CPUID reports to the process, which is what onnxruntime's MLAS reads).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the repository: docs/research/scripts/ -> root
SHIPPED = ROOT / "models"
DEFAULT_OUT = ROOT / "work" / "tradeoff"
# (layers kept from the 3-layer teacher, feed-forward width)
ARCHITECTURES = [((0, 1, 2), 1536), ((0, 2), 1536), ((0, 2), 768), ((0, 1, 2), 768), ((2,), 1536)]
QUANTS = ("fp32", "dynamic", "static", "static-unfused")
RUN_FILES = ("tokenizer.json", "lexicon.json", "model.json")


def cpu_flags() -> str:
    """The CPU and the features that decide MLAS's int8 kernel, as CPUID reports them to this process
    (the same reading as ``subcase bench``: evaluation/bench.py, evaluation/cpuid.py)."""
    from subcase.evaluation.bench import cpu_info

    cpu = cpu_info()
    flags = " ".join(f"{k}={'yes' if v else 'no'}" for k, v in cpu["flags"].items()) if cpu["known"] else "unknown"
    hidden = f"; hidden: {', '.join(cpu['hidden'])}" if cpu["hidden"] else ""
    return f"{cpu['model']}; {flags} ({cpu['source']}); int8 kernel {cpu['int8_kernel']}{hidden}"


# -- build ------------------------------------------------------------------------------------


def calibration_reader(n_windows: int = 256):
    """Real windows for static quantisation: held-out training documents, half with punctuation
    stripped, batched as the engine batches them (16 windows)."""
    from onnxruntime.quantization import CalibrationDataReader

    from subcase.casing.encoder import WordEncoder
    from subcase.training.data import DEFAULT_CACHE, load_or_build
    from subcase.training.examples import held_out_batches
    from subcase.training.paths import encoder_dir
    from subcase.training.train import BUDGET

    encoder = WordEncoder(encoder_dir() / "tokenizer.json")
    ds = load_or_build(ROOT / DEFAULT_CACHE, encoder)
    # seed 7: not the windows export.py fits the temperature on (seed 99) nor train's validation (1234)
    batches = held_out_batches(ds.val, encoder, BUDGET, n_windows=n_windows, seed=7, batch_size=16)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self._it = iter(batches)

        def get_next(self):
            b = next(self._it, None)
            return None if b is None else {"input_ids": b[0], "attention_mask": b[1]}

        def rewind(self):
            self._it = iter(batches)

    return Reader()


def quantize_static_qdq(src: Path, dst: Path) -> None:
    """Static int8 in QDQ form: u8 activations with ranges from the calibration windows, s8
    per-channel weights (the shipped dynamic model's weight format), MatMuls only.

    The quantizer skips every tensor whose type it cannot infer, and ONNX's own shape inference
    knows nothing of the fused com.microsoft ops (EmbedLayerNormalization, Attention, BiasGelu):
    without ORT's symbolic shape inference first, 6 of the 10 MatMuls stayed float (ORT then ran
    them as weight-only MatMulNBits). Only MatMuls: a Q/DQ pair around LayerNormalization or Add
    has no integer kernel to fold into and only adds rounding and two passes over the tensor.
    The fused Attention has no QDQ form, so its QKV projection stays fp32 here (``static-unfused``
    quantises it too, at the price of the attention fusion)."""
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process
    # chdir: the symbolic shape inference leaves sym_shape_infer_temp.onnx and an external-data file in the cwd
    with tempfile.TemporaryDirectory() as tmp, contextlib.chdir(tmp):
        typed = Path(tmp) / "typed.onnx"
        quant_pre_process(str(src), str(typed), skip_optimization=True, auto_merge=True)
        quantize_static(str(typed), str(dst), calibration_reader(), quant_format=QuantFormat.QDQ,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, per_channel=True,
                        op_types_to_quantize=["MatMul"], calibrate_method=CalibrationMethod.MinMax,
                        calibration_providers=["CPUExecutionProvider"])


def model_folder(dst: Path, onnx_file: Path, note: dict) -> None:
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(onnx_file, dst / "model.onnx")
    for name in RUN_FILES:
        shutil.copyfile(SHIPPED / name, dst / name)
    (dst / "tradeoff.json").write_text(json.dumps(note, indent=2) + "\n")


def build(checkpoint: Path, out: Path, quants: tuple[str, ...] = QUANTS) -> None:
    import torch

    from subcase.training.distill import load_teacher, make_student
    from subcase.training.export import export_onnx, optimize, quantize
    from subcase.training.paths import encoder_dir

    torch.set_num_threads(1)
    enc = encoder_dir()
    _, ckpt = load_teacher(checkpoint, enc)
    for keep, width in ARCHITECTURES:
        model = make_student(ckpt["model"], ckpt["config"], list(keep), width, enc)
        model.eval()
        name = f"L{len(keep)}-F{width}"
        with tempfile.TemporaryDirectory() as tmp:
            raw, fp32 = Path(tmp) / "raw.onnx", Path(tmp) / "fp32.onnx"
            export_onnx(model, raw)
            optimize(raw, fp32, model.encoder.config.hidden_size, model.encoder.config.num_attention_heads)
            for q in quants:
                target = Path(tmp) / f"model-{q}.onnx"
                if q == "fp32":
                    shutil.copyfile(fp32, target)
                elif q == "dynamic":
                    quantize(fp32, target)
                elif q == "static":
                    quantize_static_qdq(fp32, target)
                else:  # the graph before ORT's BERT fusions: every projection is a plain MatMul
                    quantize_static_qdq(raw, target)
                note = {"layers": len(keep), "teacher_layers": list(keep), "ffn": width, "quant": q,
                        "weights": "shipped" if len(keep) == 3 and width == 1536 else "cut down, not trained",
                        "from": str(checkpoint)}
                model_folder(out / f"{name}-{q}", target, note)
                print(f"{out / f'{name}-{q}'}: {target.stat().st_size / 1e6:.1f} MB", flush=True)


# -- time -------------------------------------------------------------------------------------


def describe(folder: Path) -> dict:
    note = folder / "tradeoff.json"
    if note.is_file():
        return json.loads(note.read_text())
    meta = json.loads((folder / "model.json").read_text())
    training = meta.get("training", {})
    return {"layers": training.get("layers"), "ffn": training.get("intermediate", 1536),
            "heads": training.get("heads", 12), "quant": "dynamic", "weights": "trained"}


class Recorder:
    """Stands in for the engine's session for one film: passes every batch through and keeps it."""

    def __init__(self, session):
        self.session = session
        self.gathers = session.gathers  # what the engine asks of a session: whether to pass positions
        self.batches: list[tuple] = []

    def run(self, *batch):
        self.batches.append(tuple(a.copy() for a in batch))
        return self.session.run(*batch)

    def run_all(self, batches, names=("probs",)):
        """The engine's way in (``OnnxSession.run_all``): one batch after the other, each recorded, as
        the timed engines run on one thread; the outputs ``names`` of each."""
        for batch in batches:
            self.batches.append(tuple(a.copy() for a in batch))
            yield self.session.run_outputs(names, *batch)


def film_batches(engine, film: Path) -> tuple[int, list[tuple]]:
    """Case ``film`` once with ``engine``; its word count and the batches its model was given."""
    from subcase.casing import case_file

    recorder = Recorder(engine.session)
    engine.session = recorder
    try:
        words = len(case_file(engine, film, punctuate="never").casing.words)
    finally:
        engine.session = recorder.session
    return words, recorder.batches


def time_models(folders: list[Path], runs: int, cues: int) -> list[dict]:
    import onnxruntime

    from subcase.casing import CasingEngine, case_file
    from subcase.evaluation.bench import make_film

    print(f"CPU: {cpu_flags()}")
    print(f"onnxruntime {onnxruntime.__version__}, one intra-op thread; python {platform.python_version()}")
    engines = {f: CasingEngine(f, threads=1) for f in folders}
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(tmp) / "film.srt"
        make_film(film, cues)
        # each model's own batches (the same windows; a model with a ``positions`` input gets them too)
        recorded = {f: film_batches(engines[f], film) for f in folders}
        words, batches = recorded[folders[0]]
        for engine in engines.values():  # warm-up: ORT's lazy set-up, the tokenizer cache
            case_file(engine, film, punctuate="never")
        whole: dict[Path, list[float]] = {f: [] for f in folders}
        enc: dict[Path, list[float]] = {f: [] for f in folders}
        for r in range(runs):
            order = folders if r % 2 == 0 else folders[::-1]  # alternate the order too
            for f in order:
                engine = engines[f]
                c0 = time.process_time()
                case_file(engine, film, punctuate="never")
                whole[f].append(time.process_time() - c0)
                c0 = time.process_time()
                for batch in recorded[f][1]:
                    engine.session.run(*batch)
                enc[f].append(time.process_time() - c0)
    tokens = int(sum(batch[1].sum() for batch in batches))
    rows = []
    for f in folders:
        d = describe(f)
        rows.append({"folder": str(f), **d, "size_mb": round((f / "model.onnx").stat().st_size / 1e6, 1),
                     "film_s": statistics.median(whole[f]), "encoder_s": statistics.median(enc[f]),
                     "words": words, "subtokens": tokens})
    ref = rows[0]
    for r in rows:
        r["words_per_s"] = r["words"] / r["film_s"]
        r["encoder_words_per_s"] = r["words"] / r["encoder_s"]
        r["film_ratio"] = ref["film_s"] / r["film_s"]
        r["encoder_ratio"] = ref["encoder_s"] / r["encoder_s"]
    print(f"film: {cues} cues, {words} words, {tokens} sub-tokens in {len(batches)} batches; "
          f"medians of {runs} alternating runs; ratios against {folders[0]}")
    print(f"{'model':38} {'layers':>6} {'FFN':>5} {'heads':>5} {'quant':>8} {'MB':>6} {'words/s':>8} {'ratio':>6} "
          f"{'encoder w/s':>11} {'enc ratio':>9}")
    for r in rows:
        print(f"{Path(r['folder']).name:38} {r['layers']!s:>6} {r['ffn']!s:>5} {r.get('heads', 12)!s:>5} "
              f"{r['quant']:>8} {r['size_mb']:6.1f} "
              f"{r['words_per_s']:8.0f} {r['film_ratio']:6.2f} {r['encoder_words_per_s']:11.0f} "
              f"{r['encoder_ratio']:9.2f}")
    return rows


def encoder_passes(folder: Path, film: Path, passes: int) -> None:
    """The child of ``count``: case ``film`` once, then run the model on its batches ``passes`` times more."""
    from subcase.casing import CasingEngine

    engine = CasingEngine(folder, threads=1)
    words, batches = film_batches(engine, film)
    for _ in range(passes):
        for batch in batches:
            engine.session.run(*batch)
    print(json.dumps({"words": words, "batches": len(batches),
                      "subtokens": int(sum(batch[1].sum() for batch in batches))}))


def count_models(folders: list[Path], cues: int, passes: int) -> list[dict]:
    """Instructions of the AVX2 int8 kernel per encoder pass, from valgrind's callgrind.

    valgrind's CPU has AVX2 and nothing newer, so onnxruntime runs the users' kernel on any
    x86-64 host; callgrind counts the instructions executed, the same on every run whatever the
    machine is doing.  Each folder runs twice, casing the film and then 0 or ``passes`` more encoder
    passes over its batches, and the difference over ``passes`` is one pass: start-up and casing
    cancel out.  Instructions are not cycles (memory stalls and the kernels' instruction mix are not
    counted), but the encoder ratio of model 0.1.0 to 0.2.0 came out 1.43x counted this way (on an AMD
    EPYC) and 1.43x timed natively on the AVX2 kernel (an Intel Xeon with bench/avx2_only.py)."""
    import re
    import subprocess

    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("model_tradeoff count: valgrind is not installed (apt-get install valgrind)")
    from subcase.evaluation.bench import make_film

    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(tmp) / "film.srt"
        make_film(film, cues)
        for f in folders:
            counts, info = [], {}
            for n in (0, passes):
                proc = subprocess.run([valgrind, "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                                       sys.executable, __file__, "_passes", str(f), str(film), str(n)],
                                      capture_output=True, text=True)
                found = re.search(r"Collected : (\d+)", proc.stderr)
                if proc.returncode != 0 or found is None:
                    sys.exit(f"model_tradeoff count: {f}: {proc.stderr.strip()[-500:]}")
                counts.append(int(found.group(1)))
                info = json.loads(proc.stdout.strip().splitlines()[-1])
            per_pass = (counts[1] - counts[0]) / passes
            rows.append({"folder": str(f), **describe(f), **info, "instructions_per_pass": per_pass,
                         "instructions_per_word": per_pass / info["words"]})
            print(f"{f}: {per_pass / 1e9:.3f} G instructions per pass, {per_pass / info['words']:,.0f} per word",
                  flush=True)
    ref = rows[0]["instructions_per_pass"]
    print(f"film: {cues} cues, {rows[0]['words']} words, {rows[0]['subtokens']} sub-tokens in "
          f"{rows[0]['batches']} batches; AVX2 int8 kernel (valgrind's CPU); ratios against {folders[0]}")
    print(f"{'model':38} {'layers':>6} {'FFN':>5} {'heads':>5} {'quant':>8} {'instr/word':>11} {'ratio':>6}")
    for r in rows:
        r["ratio"] = ref / r["instructions_per_pass"]
        print(f"{Path(r['folder']).name:38} {r['layers']!s:>6} {r['ffn']!s:>5} {r.get('heads', 12)!s:>5} "
              f"{r['quant']:>8} {r['instructions_per_word']:11,.0f} {r['ratio']:6.2f}")
    return rows


def markdown(rows: list[dict], eval_dir: Path) -> str:
    """The model card's table: F1 only where the weights were trained for that shape; a cut-down
    model's F1 is shown apart, as what the cut costs before any training."""
    out = ["| layers | FFN | heads | quantisation | MB | words/s | ratio | encoder words/s | encoder ratio "
           "| dev F1 punct. / unpunct. |", "|---:|---:|---:|---|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        f = eval_dir / f"{Path(r['folder']).name}.json"
        f1 = "not evaluated"
        if f.is_file():
            s = json.loads(f.read_text())["systems"]["subcase"]
            f1 = f"{100 * s['punct']['f1']:.1f} / {100 * s['nopunct']['f1']:.1f}"
            if str(r.get("weights", "")).startswith("cut down"):
                f1 = f"not trained (cut, untrained: {f1})"
        out.append(f"| {r['layers']} | {r['ffn']} | {r.get('heads', 12)} | {r['quant']} | {r['size_mb']:.1f} | {r['words_per_s']:,.0f} "
                   f"| {r['film_ratio']:.2f} | {r['encoder_words_per_s']:,.0f} | {r['encoder_ratio']:.2f} | {f1} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="make the model folders (train extra)")
    b.add_argument("--checkpoint", type=Path, default=ROOT / "work" / "train" / "shipped.pt")
    b.add_argument("--out", type=Path, default=DEFAULT_OUT)
    b.add_argument("--quant", nargs="+", choices=QUANTS, default=list(QUANTS))
    t = sub.add_parser("time", help="time the model folders against the shipped model")
    t.add_argument("folders", nargs="*", type=Path)
    t.add_argument("--runs", type=int, default=7)
    t.add_argument("--cues", type=int, default=1500)
    t.add_argument("--json", type=Path, help="write the rows here too")
    t.add_argument("--eval", type=Path, help="folder of `subcase evaluate --json` files named after the model "
                   "folders (models.json for the shipped one): adds the dev F1 columns to a markdown table")
    c = sub.add_parser("count", help="instructions per encoder pass on the AVX2 kernel, under valgrind")
    c.add_argument("folders", nargs="*", type=Path)
    c.add_argument("--cues", type=int, default=200)
    c.add_argument("--passes", type=int, default=4)
    c.add_argument("--json", type=Path, help="write the rows here too")
    p = sub.add_parser("_passes", help=argparse.SUPPRESS)  # count's child, run under valgrind
    p.add_argument("folder", type=Path)
    p.add_argument("film", type=Path)
    p.add_argument("passes", type=int)
    args = ap.parse_args(argv)
    if args.cmd == "_passes":
        encoder_passes(args.folder, args.film, args.passes)
        return
    if args.cmd == "build":
        build(args.checkpoint, args.out, tuple(args.quant))
        return
    folders = args.folders or sorted(p for p in DEFAULT_OUT.iterdir() if (p / "model.onnx").is_file())
    folders = [SHIPPED] + [f for f in folders if f.resolve() != SHIPPED.resolve()]
    if args.cmd == "count":
        rows = count_models(folders, args.cues, args.passes)
        if args.json:
            args.json.write_text(json.dumps({"kernel": "AVX2 (valgrind)", "rows": rows}, indent=2) + "\n")
        return
    rows = time_models(folders, args.runs, args.cues)
    if args.eval:
        print(markdown(rows, args.eval))
    if args.json:
        args.json.write_text(json.dumps({"cpu": cpu_flags(), "rows": rows}, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
