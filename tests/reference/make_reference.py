"""Record what `convert`, `evaluate` and `simulate-review` produce on the shared dev subtitles:

    python tests/reference/make_reference.py            (this CPU's int8 kernel, VNNI/AMX: reference.json)
    python bench/avx2_only.py --valgrind python tests/reference/make_reference.py avx2

test_reference_outputs.py runs the same commands and requires the same bytes: a refactoring of the
review core or of batch conversion must not change a single output, flag or count.  Convert outputs
are kept as SHA-256 digests (the shared data stays out of the repository); the JSON reports are
kept whole, so a difference reads as a diff.  Regenerate only for a change meant to alter outputs,
and say so in its commit.

The int8 kernels of AVX2-only CPUs give other near-ties (tests/casing/test_golden.py), so each
kernel has its own file, as the golden files do.
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
FILES = {"exact": HERE / "reference.json", "avx2": HERE / "reference-avx2.json"}
SUFFIXES = (".srt", ".vtt")


def kernel_way() -> str:
    """Which reference file this process's int8 kernel must reproduce."""
    from subcase.evaluation.cpuid import from_cpuid, int8_kernel
    kernel = int8_kernel(from_cpuid() or {})
    return "avx2" if "vpmaddubsw" in kernel else "exact"


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
    way = sys.argv[1] if len(sys.argv) > 1 else "exact"
    if kernel_way() != way:
        sys.exit(f"this process runs the {kernel_way()} int8 kernel, not {way}: see the docstring")
    with tempfile.TemporaryDirectory() as tmp:
        result = produce(Path(tmp))
    FILES[way].write_text(json.dumps(result, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FILES[way]}")


if __name__ == "__main__":
    main()
