"""Run a command as if on an AVX2-only CPU (no AVX-512, no VNNI, no AMX), at native speed.

    python bench/avx2_only.py subcase bench
    python bench/avx2_only.py python bench/model_tradeoff.py time
    python bench/avx2_only.py python -m pytest tests/casing/test_golden.py
    python bench/avx2_only.py --avx-vnni subcase bench    # keep AVX-VNNI: an Intel desktop CPU
    python bench/avx2_only.py --valgrind subcase evaluate DIR   # results, not speeds, on any x86-64 Linux

The users' machines are AVX2-only (an AMD EPYC without AVX-512 or VNNI), where
onnxruntime's int8 kernel is AVX2's ``vpmaddubsw``: slower than VNNI or AMX, and
saturating, so its probabilities differ slightly.  This compiles avx2_only.c
(gcc) into a shared object and runs the command with it preloaded: CPUID, asked
by onnxruntime and numpy, then reports no AVX-512, VNNI or AMX, and they run their
AVX2 code natively.  Linux on a CPU with CPUID faulting only (``cpuid_fault`` in
/proc/cpuinfo); exits 3 where that is missing.  ``subcase bench`` prints the
features the process sees and which are hidden.

What it does not change: the core's clock, caches and microarchitecture, so
the figures are this host's AVX2 speed, not an EPYC's; the ratios between
systems and models run the same kernels as there.

``--valgrind`` runs the command (and its child processes) under ``valgrind
--tool=none`` instead, for hosts without CPUID faulting: valgrind's CPU has AVX2
but no AVX-512, VNNI or AMX, so onnxruntime picks the same AVX2 kernel and gives
the same numbers (on an AMD EPYC with AVX-512 VNNI it reproduced golden-avx2.json,
made natively with the shim, to the last digit), some 20-50 times slower: for
results such as golden files and accuracy, never for speed.  Not with
``--avx-vnni`` (valgrind hides AVX-VNNI too).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "avx2_only.c"


def available() -> str | None:
    """None if the shim can run here, else why not."""
    if not sys.platform.startswith("linux"):
        return "Linux only"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace")
    except OSError:
        return "no /proc/cpuinfo"
    if " cpuid_fault" not in flags:
        return "this CPU or hypervisor has no CPUID faulting (cpuid_fault)"
    if shutil.which("gcc") is None:
        return "gcc is needed to build the shim"
    return None


def valgrind() -> str | None:
    """valgrind's path, for ``--valgrind`` (Debian: apt-get install valgrind), or None."""
    return shutil.which("valgrind") if sys.platform.startswith("linux") else None


def build(out_dir: Path, avx_vnni: bool = False) -> Path:
    """avx2_only.c compiled into ``out_dir``; returns the shared object.  ``avx_vnni``: leave
    AVX-VNNI visible (AVX2 with VNNI's int8 dot product, as Intel's desktop CPUs since Alder Lake
    have it without AVX-512)."""
    so = out_dir / "avx2_only.so"
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", *(["-DKEEP_AVX_VNNI"] if avx_vnni else []),
                    "-o", str(so), str(SOURCE)], check=True)
    return so


def main(argv: list[str]) -> int:
    avx_vnni = bool(argv) and argv[0] == "--avx-vnni"
    argv = argv[1:] if avx_vnni else argv
    under_valgrind = bool(argv) and argv[0] == "--valgrind"
    argv = argv[1:] if under_valgrind else argv
    if not argv:
        print(__doc__)
        return 2
    if under_valgrind:
        if avx_vnni:
            print("avx2_only: --avx-vnni and --valgrind do not go together (valgrind hides AVX-VNNI)", file=sys.stderr)
            return 2
        vg = valgrind()
        if vg is None:
            print("avx2_only: valgrind is not installed (apt-get install valgrind)", file=sys.stderr)
            return 3
        print("avx2_only: under valgrind: the AVX2 kernel's results; its timings are not this CPU's", file=sys.stderr)
        # valgrind's plain CPU (AVX2, no AVX-512/VNNI/AMX), for the command's child processes too
        return subprocess.run([vg, "--tool=none", "--trace-children=yes", "-q", *argv]).returncode
    why = available()
    if why is not None:
        hint = "; --valgrind gives the AVX2 kernel's results (not its speed)" if valgrind() else ""
        print(f"avx2_only: {why}{hint}", file=sys.stderr)
        return 3
    with tempfile.TemporaryDirectory() as tmp:
        so = build(Path(tmp), avx_vnni)
        env = dict(os.environ)
        env["LD_PRELOAD"] = f"{so} {env['LD_PRELOAD']}" if env.get("LD_PRELOAD") else str(so)
        return subprocess.run(argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
