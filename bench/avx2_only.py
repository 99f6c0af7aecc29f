"""Run a command as if on an AVX2-only CPU (no AVX-512, no VNNI, no AMX), at native speed.

    python bench/avx2_only.py subcase bench
    python bench/avx2_only.py python bench/model_tradeoff.py time
    python bench/avx2_only.py python -m pytest tests/casing/test_golden.py
    python bench/avx2_only.py --avx-vnni subcase bench    # keep AVX-VNNI: an Intel desktop CPU

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
    if not argv:
        print(__doc__)
        return 2
    why = available()
    if why is not None:
        print(f"avx2_only: {why}", file=sys.stderr)
        return 3
    with tempfile.TemporaryDirectory() as tmp:
        so = build(Path(tmp), avx_vnni)
        env = dict(os.environ)
        env["LD_PRELOAD"] = f"{so} {env['LD_PRELOAD']}" if env.get("LD_PRELOAD") else str(so)
        return subprocess.run(argv, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
