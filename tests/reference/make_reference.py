"""Record what `convert`, `evaluate` and `simulate-review` produce on the shared dev subtitles:

    python tests/reference/make_reference.py            (on a CPU with AVX-512: reference.json)

test_reference_outputs.py runs the same commands and requires the same bytes: a refactoring of the
review core or of batch conversion must not change a single output, flag or count.  Convert outputs
are kept as SHA-256 digests (the shared data stays out of the repository); the JSON reports are
kept whole, so a difference reads as a diff.  Regenerate only for a change meant to alter outputs,
and say so in its commit.

The model's integers are the same on every x86 CPU (7-bit weights, tests/casing/test_golden.py), but
its float steps (the attention's softmax) run AVX-512 code on one CPU and AVX2 code on another, and
their last bits move the probabilities that ``--details`` records to five places, and now and then a
near tie (docs/research/2026-11-29-one-answer-on-every-cpu.md: 9,857 of 44,823 dev words move, 5 tags).
So the outputs are recorded on one kind of CPU, one with AVX-512 as the development hosts have, and
test_reference_outputs.py compares them there; elsewhere it skips, and the golden files and the
behaviour tests hold.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[2] / "shared" / "data"
DEV = SHARED / "dev-subtitles"
DEV_ML = SHARED / "dev-subtitles-ml"
FILE = HERE / "reference.json"
SUFFIXES = (".srt", ".vtt")


def float_code() -> str:
    """The width of the float code onnxruntime runs in this process: "AVX-512" or something narrower."""
    from subcase.evaluation.cpuid import from_cpuid
    features = from_cpuid() or {}
    return "AVX-512" if features.get("AVX-512") else "AVX2 or older"


def _recased_copy(src: Path, dst: Path, change) -> Path:
    """Copies of every subtitle under src with each word's letters changed by `change` (same length only),
    every other byte as it was, so the casing path runs on real layout and markup."""
    from subcase.subtitles import load
    for path in sorted(src.rglob("*")):
        if path.suffix not in SUFFIXES:
            continue
        doc = load(path)
        for cue in doc.cues:
            doc.recase(cue.index, [(w.start, w.end, change(w.text)) for w in cue.words()
                                   if change(w.text) != w.text and len(change(w.text)) == len(w.text)])
        out = dst / path.relative_to(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(doc.to_bytes())
    return dst


def _digests(folder: Path, work: Path) -> dict[str, str]:
    """Each file's SHA-256, with the absolute folders in it (--details names each input) made relative."""
    def neutral(data: bytes) -> bytes:
        return data.replace(str(work).encode(), b"<work>").replace(str(SHARED).encode(), b"<shared>")
    return {p.relative_to(folder).as_posix(): hashlib.sha256(neutral(p.read_bytes())).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _run(argv: list[str]) -> None:
    from subcase.cli import main
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
        status = main(argv)
    if status != 0:
        raise RuntimeError(f"subcase {' '.join(argv)} exited {status}:\n{out.getvalue()}{err.getvalue()}")


def produce(work: Path) -> dict:
    """Every recorded output, made in `work` (an empty folder) with the installed subcase."""
    saved = {key: os.environ.get(key) for key in ("SUBCASE_DATA_DIR", "SUBCASE_CONFIG_DIR")}
    os.environ["SUBCASE_DATA_DIR"] = str(work / "data")      # no profile or log of the user's is read
    os.environ["SUBCASE_CONFIG_DIR"] = str(work / "config")
    try:
        return _produce(work)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _produce(work: Path) -> dict:
    inputs = {
        "en-as-written": DEV,
        "ml-as-written": DEV_ML,
        "en-lower": _recased_copy(DEV, work / "in" / "en-lower", str.lower),
        "ml-lower": _recased_copy(DEV_ML, work / "in" / "ml-lower", str.lower),
        "en-upper": _recased_copy(DEV, work / "in" / "en-upper", str.upper),
    }
    result: dict = {"convert": {}, "simulate-review": {}, "evaluate": {}}
    for name, folder in inputs.items():
        out = work / "out" / name
        out.mkdir(parents=True)
        _run(["convert", str(folder), "-o", str(out / "files"), "--details", str(out / "details.jsonl"), "-q"])
        result["convert"][name] = _digests(out, work)
    styled = work / "out" / "en-lower-netflix"
    _run(["convert", str(inputs["en-lower"]), "-o", str(styled), "--style", "netflix", "-q"])
    result["convert"]["en-lower-netflix"] = _digests(styled, work)
    reports = {
        "en": [str(DEV)],
        "en-strip-punct": [str(DEV), "--strip-punct"],
        "en-upper": [str(DEV), "--upper"],
        "en-drop": [str(DEV), "--drop", "0.3"],
        "en-series": [str(DEV), "--series", "--strip-punct"],
        "ml": [str(DEV_ML)],
        "ml-strip-punct": [str(DEV_ML), "--strip-punct"],
    }
    # The reports keep measuring the casing alone (``--punctuate never``), as they were recorded before marks
    # were restored by default; the converts run with the defaults (their inputs are punctuated: no mark added).
    for name, args in reports.items():
        path = work / f"simulate-{name}.json"
        _run(["simulate-review", *args, "--punctuate", "never", "--per-file", "--json", str(path), "-q"])
        result["simulate-review"][name] = json.loads(path.read_text(encoding="utf-8"))
    for name, args in {"en-strip-punct": [str(DEV), "--strip-punct"], "ml": [str(DEV_ML)]}.items():
        path = work / f"evaluate-{name}.json"
        _run(["evaluate", *args, "--punctuate", "never", "--json", str(path)])
        result["evaluate"][name] = json.loads(path.read_text(encoding="utf-8"))
    return result


def main() -> None:
    import tempfile
    if float_code() != "AVX-512":
        sys.exit(f"this process runs {float_code()} code, not AVX-512: see the docstring")
    with tempfile.TemporaryDirectory() as tmp:
        result = produce(Path(tmp))
    result["float_code"] = float_code()
    FILE.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FILE}")


if __name__ == "__main__":
    main()
