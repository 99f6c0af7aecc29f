"""How far do the shipped model's probabilities move with the CPU's int8 kernels?

(The golden inputs and lower-cased dev words only, on every kernel this host reaches, qemu's included.
After a change to a model or its quantization, bench/kernel_agreement.py is the check: every dev file
through the whole pipeline, marks included, on this CPU's kernel and on AVX2's.)

    python bench/golden_spread.py                  # this CPU, as onnxruntime picks
    python bench/golden_spread.py --all [--dev DIR] # every kernel this machine can reach, one table
    python bench/golden_spread.py --all --kernels native,Haswell --dev ../shared/data/dev-subtitles

onnxruntime's MLAS picks its int8 matrix kernel from the CPU it runs on: AMX,
AVX-512 VNNI, AVX-VNNI, AVX-512 BW, AVX2 or SSE.  The AVX2 kernel (vpmaddubsw)
adds pairs of u8*s8 products in 16 bits with saturation, the VNNI/AMX ones do
not, so the same model gives slightly different probabilities on different
CPUs.  tests/casing/golden.json pins one machine's numbers; this prints, per
kernel, the largest absolute probability difference from it, and how many
tags differ (there should be none).

``--all`` runs this script once per kernel in a child process:

* ``native``: whatever the host gives (here an Intel Xeon with AMX);
* ``native-no-amx``: the same CPU with the AMX permission request
  (arch_prctl ARCH_REQ_XCOMP_PERM) refused by a seccomp filter, so MLAS falls
  back to its AVX-512 VNNI kernel (needs libseccomp);
* ``native-avx2``: the same CPU with AVX-512, VNNI and AMX hidden from the
  process's CPUID (bench/avx2_only.py: CPUID faulting), so MLAS runs its AVX2
  kernel natively, as on the users' AVX2-only CPUs, about 400x faster than qemu;
* ``Haswell`` (AVX2, FMA, no AVX-512, no VNNI), ``SandyBridge`` (AVX) and
  ``Nehalem`` (SSE4.2) under ``qemu-x86_64 -cpu NAME`` (Debian's qemu-user);
  qemu's TCG emulates no AVX-512, so AVX-512 without VNNI cannot be reached
  this way.

With ``--dev DIR`` every kernel also cases the subtitle files in DIR (input
lowercased, as ``subcase convert`` reads it) and is compared word by word
with the first kernel run (native by default): max probability difference and
tags that flip.  qemu is slow: the 22 dev files took 2 s natively and about
15 min under ``-cpu Haswell`` on this machine (the golden inputs alone: 1 min).

Measured with onnxruntime 1.32.0 on an Intel Xeon with AMX (see
tests/casing/test_golden.py and models/MODEL_CARD.md): native and AMX-refused
(AVX-512 VNNI) agree to the last digit; Haswell (AVX2) moves the golden
probabilities by up to 0.0876 and the dev words' by up to 0.336, with the
same golden tags and 23 of 5,733 dev tags different (all near ties).
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "casing" / "golden.json"
QEMU_CPUS = {"Haswell": "AVX2 (no AVX-512, no VNNI)", "SandyBridge": "AVX", "Nehalem": "SSE4.2"}

ARCH_REQ_XCOMP_PERM = 0x1023
SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_ACT_ERRNO_EPERM = 0x00050000 | 1
SCMP_CMP_EQ = 4


class _ScmpArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("datum_a", ctypes.c_uint64),
                ("datum_b", ctypes.c_uint64)]


def refuse_amx() -> None:
    """Make arch_prctl(ARCH_REQ_XCOMP_PERM, ...) fail with EPERM in this process.

    MLAS asks the kernel for the AMX tile state before it selects its AMX kernel
    and uses the AVX-512 VNNI one when it is refused."""
    name = ctypes.util.find_library("seccomp")
    if not name:
        raise SystemExit("golden_spread: libseccomp is needed for --no-amx (apt-get install libseccomp2)")
    lib = ctypes.CDLL(name)
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_rule_add_exact.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           _ScmpArgCmp]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    ctx = lib.seccomp_init(SCMP_ACT_ALLOW)
    nr = lib.seccomp_syscall_resolve_name(b"arch_prctl")
    rule = _ScmpArgCmp(0, SCMP_CMP_EQ, ARCH_REQ_XCOMP_PERM, 0)
    if lib.seccomp_rule_add_exact(ctx, SCMP_ACT_ERRNO_EPERM, nr, 1, rule) != 0 or lib.seccomp_load(ctx) != 0:
        raise SystemExit("golden_spread: could not install the seccomp filter")


def cpu_features() -> str:
    """What CPUID reports to this process (under qemu: the emulated CPU, not the host's)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as feats
    except ImportError:  # numpy < 2
        from numpy.core._multiarray_umath import __cpu_features__ as feats
    wanted = ["SSE42", "AVX", "AVX2", "FMA3", "AVX512F", "AVX512BW", "AVX512VNNI", "AVX512_SPR"]
    return " ".join(f for f in wanted if feats.get(f))


def measure(dev: Path | None, threads: int | None) -> dict:
    """Case the golden inputs (and the dev files) here; return the numbers as a dict."""
    import onnxruntime

    from subcase.casing import CasingEngine, case_texts
    from subcase.subtitles import load

    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    engine = CasingEngine(ROOT / "models", threads=threads)
    worst, worst_word, tag_flips, n = 0.0, "", [], 0
    for name, case in golden["cases"].items():
        words = case_texts(engine, case["texts"]).words
        for w, e in zip(words, case["words"], strict=True):
            n += 1
            if w.tag.value != e["tag"]:
                tag_flips.append(f"{name}:{w.input} {e['tag']}->{w.tag.value}")
            d = max(abs(a - b) for a, b in zip(w.probs, e["probs"]))
            if d > worst:
                worst, worst_word = d, f"{name}:{w.input}"
    out = {"onnxruntime": onnxruntime.__version__, "cpu": cpu_features(), "golden_words": n,
           "golden_max_diff": worst, "golden_worst_word": worst_word, "golden_tag_flips": tag_flips}
    if dev is not None:
        t0 = time.perf_counter()
        words = {}
        for path in sorted(p for p in dev.iterdir() if p.suffix in (".srt", ".vtt")):
            texts = [c.plain_text().lower() for c in load(path).cues]
            for w in case_texts(engine, texts).words:
                words[f"{path.name}:{w.cue_index}:{w.word_index}"] = [w.input, w.tag.value,
                                                                       [round(p, 6) for p in w.probs]]
        out["dev"] = words
        out["dev_seconds"] = time.perf_counter() - t0
    return out


def compare_dev(ref: dict, other: dict) -> tuple[int, float, list[str]]:
    """Words compared, max probability difference, and the words whose tag flipped."""
    worst, flips = 0.0, []
    for key, (word, tag, probs) in ref.items():
        _, tag2, probs2 = other[key]
        worst = max(worst, max(abs(a - b) for a, b in zip(probs, probs2)))
        if tag != tag2:
            p = dict(zip("LTUM", probs))
            p2 = dict(zip("LTUM", probs2))
            flips.append(f"{key} {word!r}: {tag} ({p[tag]:.3f}/{p[tag2]:.3f}) -> {tag2} "
                         f"({p2[tag]:.3f}/{p2[tag2]:.3f})")
    return len(ref), worst, flips


KERNELS = {"native": ("as the host gives", []), "native-no-amx": ("AMX refused", ["--no-amx"]),
           "native-avx2": ("AVX-512, VNNI and AMX hidden from CPUID (bench/avx2_only.py)", [])}
KERNELS.update({cpu: (what, []) for cpu, what in QEMU_CPUS.items()})


def run_all(kernels: list[str], dev: Path | None, threads: int | None) -> int:
    """Run each kernel in a child process; print one row per kernel as it finishes."""
    qemu = shutil.which("qemu-x86_64")
    if not qemu and any(k in QEMU_CPUS for k in kernels):
        print("golden_spread: qemu-x86_64 not found (apt-get install qemu-user): only native kernels",
              file=sys.stderr)
        kernels = [k for k in kernels if k not in QEMU_CPUS]
    print(f"{'kernel':14} {'CPUID (as the process sees it)':44} {'ort':7} {'golden max |dp|':>16} "
          f"{'tag flips':>9} {'seconds':>8}" + ("  dev words  max |dp| vs native  tag flips" if dev else ""),
          flush=True)
    ref = None
    with tempfile.TemporaryDirectory() as tmp:
        for label in kernels:
            what, extra = KERNELS[label]
            out = Path(tmp) / f"{label}.json"
            cmd = [sys.executable, __file__, "--json", str(out), *extra]
            if dev:
                cmd += ["--dev", str(dev)]
            if threads:
                cmd += ["--threads", str(threads)]
            if label == "native-avx2":
                cmd = [sys.executable, str(Path(__file__).with_name("avx2_only.py")), *cmd]
            if label in QEMU_CPUS:
                # qemu-user runs the interpreter's own machine code on an emulated CPU whose
                # CPUID lacks what the model name lacks; the environment passes through
                cmd = [qemu, "-cpu", label, *cmd]
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"{label}: failed: {proc.stderr.strip().splitlines()[-1:]}", flush=True)
                continue
            r = json.loads(out.read_text())
            line = (f"{label:14} {r['cpu'][:44]:44} {r['onnxruntime']:7} {r['golden_max_diff']:16.4f} "
                    f"{len(r['golden_tag_flips']):9d} {time.perf_counter() - t0:8.0f}")
            flips: list[str] = []
            if dev:
                if ref is None:
                    ref = r["dev"]  # the first kernel run is the reference (native by default)
                n, worst, flips = compare_dev(ref, r["dev"])
                line += f"  {n:9d}  {worst:18.4f}  {len(flips):9d}"
            print(line, flush=True)
            for f in r["golden_tag_flips"]:
                print(f"    golden tag flip: {f}", flush=True)
            for f in flips:
                print(f"    dev tag flip: {f}", flush=True)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--all", action="store_true", help="every kernel reachable here, one table")
    ap.add_argument("--kernels", default=",".join(KERNELS),
                    help=f"with --all: which, comma-separated, the first is the dev reference (default {','.join(KERNELS)})")
    ap.add_argument("--dev", type=Path, help="also case these subtitle files and compare word by word")
    ap.add_argument("--no-amx", action="store_true", help="refuse AMX to this process (AVX-512 VNNI kernel)")
    ap.add_argument("--threads", type=int, help="onnxruntime intra-op threads (default: all cores)")
    ap.add_argument("--json", type=Path, help="write the numbers here (used by --all)")
    args = ap.parse_args()
    if args.dev is not None and not args.dev.is_dir():
        print(f"golden_spread: {args.dev} is not a folder", file=sys.stderr)
        return 2
    if args.all:
        kernels = [k.strip() for k in args.kernels.split(",") if k.strip()]
        unknown = [k for k in kernels if k not in KERNELS]
        if unknown:
            print(f"golden_spread: unknown kernel(s) {', '.join(unknown)}; known: {', '.join(KERNELS)}",
                  file=sys.stderr)
            return 2
        return run_all(kernels, args.dev, args.threads)
    if args.no_amx:
        refuse_amx()
    result = measure(args.dev, args.threads)
    if args.json:
        args.json.write_text(json.dumps(result), encoding="utf-8")
    else:
        print(f"onnxruntime {result['onnxruntime']}, CPU {result['cpu']}: golden max |dp| "
              f"{result['golden_max_diff']:.4f} ({result['golden_worst_word']}), "
              f"{len(result['golden_tag_flips'])} tag flip(s) {result['golden_tag_flips']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
