"""Run a command as if on an AVX2-only CPU (no AVX-512, no VNNI, no AMX), at native speed.

    python bench/avx2_only.py subcase bench
    python bench/avx2_only.py python docs/research/scripts/model_tradeoff.py time
    python bench/avx2_only.py python -m pytest tests/casing/test_golden.py
    python bench/avx2_only.py --avx-vnni subcase bench    # keep AVX-VNNI: an Intel desktop CPU
    python bench/avx2_only.py --patch subcase bench       # no CPUID faulting: a patched onnxruntime
    python bench/avx2_only.py --valgrind subcase evaluate DIR   # results, not speeds, on any x86-64 Linux

The users' machines are AVX2-only (an AMD EPYC without AVX-512 or VNNI), where
onnxruntime's int8 kernel is AVX2's ``vpmaddubsw``: slower than VNNI or AMX, and
saturating, so its probabilities differ slightly.  This compiles avx2_only.c
(gcc) into a shared object and runs the command with it preloaded: CPUID, asked
by onnxruntime and numpy, then reports no AVX-512, VNNI or AMX, and they run their
AVX2 code natively.  Linux on a CPU with CPUID faulting only (``cpuid_fault`` in
/proc/cpuinfo); where that is missing it runs ``--patch`` below.  ``subcase bench``
prints the features the process sees and which are hidden.

What it does not change: the core's clock, caches and microarchitecture, so
the figures are this host's AVX2 speed, not an EPYC's; the ratios between
systems and models run the same kernels as there.

``--patch`` (used by itself where CPUID faulting is missing) runs the command
with a patched copy of onnxruntime first on its PYTHONPATH: every XGETBV in the
copy's extension module (found with objdump) reads XCR0 as 7, as an operating
system that enables no AVX-512 or AMX register state would report it.  MLAS
needs that state for its AVX-512 and AMX kernels, so it picks its AVX2 kernel,
natively, at full speed.  The copy says so in ``capi/avx2_only.json``, which
``subcase bench`` reads to report the kernel (subcase/evaluation/cpuid.py).
numpy is left as it is (its share of a conversion is small).  AVX-VNNI needs
no new register state, so XCR0 cannot hide it: ``--patch`` refuses CPUs that
have it.  Linux on x86-64, objdump (binutils).  The golden inputs give
golden-avx2.json to 5e-5 this way, as with the shim (tests/casing/test_golden.py).

``--valgrind`` runs the command (and its child processes) under ``valgrind
--tool=none`` instead, for hosts without CPUID faulting: valgrind's CPU has AVX2
but no AVX-512, VNNI or AMX, so onnxruntime picks the same AVX2 kernel and gives
the same numbers (on an AMD EPYC with AVX-512 VNNI it reproduced golden-avx2.json,
made natively with the shim, to the last digit), some 20-50 times slower: for
results such as golden files and accuracy, never for speed.  Not with
``--avx-vnni`` (valgrind hides AVX-VNNI too).
"""

from __future__ import annotations

import importlib.util
import json
import os
import platform
import re
import shutil
import struct
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


# XGETBV (0f 01 d0) -> lea eax, [rcx + 7] (8d 41 07): XCR0 is asked with ecx = 0, so eax becomes 7
# (x87, SSE and AVX state; no AVX-512 opmask/ZMM state, no AMX tile state), three bytes for three bytes.
XGETBV, XCR0_AVX2 = bytes.fromhex("0f01d0"), bytes.fromhex("8d4107")
MARKER = "avx2_only.json"  # in the copy's capi/: what was patched (subcase/evaluation/cpuid.py reads it)


def patch_available() -> str | None:
    """None if ``--patch`` can run here, else why not."""
    if not sys.platform.startswith("linux") or platform.machine().lower() not in ("x86_64", "amd64"):
        return "x86-64 Linux only"
    if shutil.which("objdump") is None:
        return "objdump (binutils) is needed to find XGETBV in onnxruntime"
    if importlib.util.find_spec("onnxruntime") is None:
        return "onnxruntime is not installed in this Python"
    try:
        flags = Path("/proc/cpuinfo").read_text(errors="replace").split()
    except OSError:
        return "no /proc/cpuinfo"
    if "avx_vnni" in flags:
        return "this CPU has AVX-VNNI, which a patched XGETBV cannot hide (MLAS would use it)"
    return None


def _file_offset(elf: bytes, address: int) -> int:
    """The file offset of a virtual address of a 64-bit little-endian ELF file (its PT_LOAD segments)."""
    if elf[:5] != b"\x7fELF\x02" or elf[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    phoff, = struct.unpack_from("<Q", elf, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x36)
    for i in range(phnum):
        p_type, _, offset, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", elf, phoff + i * phentsize)
        if p_type == 1 and vaddr <= address < vaddr + filesz:
            return address - vaddr + offset
    raise ValueError(f"address {address:#x} is in no loaded segment")


def patch_xgetbv(module: Path) -> list[int]:
    """Every XGETBV instruction of ``module`` (objdump's disassembly, not a byte search, which also
    finds the bytes inside other instructions) made to read XCR0 as 7; returns their file offsets."""
    listing = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(module)], capture_output=True,
                             text=True, check=True).stdout
    addresses = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s+xgetbv\s*$", listing, re.M)]
    elf = bytearray(module.read_bytes())
    offsets = [_file_offset(elf, a) for a in addresses]
    for off in offsets:
        if elf[off:off + 3] != XGETBV:
            raise ValueError(f"{module.name}: no XGETBV at file offset {off:#x}")
        elf[off:off + 3] = XCR0_AVX2
    module.write_bytes(elf)
    return offsets


def patched_onnxruntime(out_dir: Path) -> Path:
    """A copy of this Python's onnxruntime package in ``out_dir``, its extension module patched so that
    MLAS sees no AVX-512 or AMX register state; returns the directory to put first on PYTHONPATH."""
    spec = importlib.util.find_spec("onnxruntime")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("onnxruntime is not installed in this Python")
    package = shutil.copytree(Path(spec.origin).parent, out_dir / "onnxruntime",
                              ignore=shutil.ignore_patterns("__pycache__"))
    modules = sorted((package / "capi").glob("onnxruntime_pybind11_state*.so"))
    if not modules:
        raise FileNotFoundError(f"no onnxruntime_pybind11_state*.so in {package / 'capi'}")
    patched = {m.name: [hex(o) for o in patch_xgetbv(m)] for m in modules}
    if not any(patched.values()):
        raise ValueError("onnxruntime has no XGETBV to patch (not an x86-64 build?)")
    (package / "capi" / MARKER).write_text(json.dumps({"xcr0": 7, "xgetbv_patched": patched}), encoding="utf-8")
    return out_dir


def run_patched(argv: list[str]) -> int:
    why = patch_available()
    if why is not None:
        print(f"avx2_only: --patch: {why}", file=sys.stderr)
        return 3
    with tempfile.TemporaryDirectory() as tmp:
        try:
            path = patched_onnxruntime(Path(tmp))
        except (OSError, ValueError, subprocess.CalledProcessError) as e:
            print(f"avx2_only: --patch: {e}", file=sys.stderr)
            return 3
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(path), *filter(None, [env.get("PYTHONPATH")])])
        return subprocess.run(argv, env=env).returncode


def main(argv: list[str]) -> int:
    avx_vnni = bool(argv) and argv[0] == "--avx-vnni"
    argv = argv[1:] if avx_vnni else argv
    under_valgrind = bool(argv) and argv[0] == "--valgrind"
    argv = argv[1:] if under_valgrind else argv
    patch = bool(argv) and argv[0] == "--patch"
    argv = argv[1:] if patch else argv
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
        # valgrind's plain CPU (AVX2, no AVX-512/VNNI/AMX), for the command's child processes too; but not
        # for set-user-ID programs, which valgrind cannot run (exec fails with EACCES): the tests' tmpfs
        # mounts ("mount" and "umount"), which run no int8 kernel anyway
        return subprocess.run([vg, "--tool=none", "--trace-children=yes", "--trace-children-skip=*/mount,*/umount",
                               "-q", *argv]).returncode
    why = available()
    if patch or (why is not None and patch_available() is None and not avx_vnni):
        if avx_vnni:
            print("avx2_only: --avx-vnni needs CPUID faulting (--patch leaves AVX-VNNI as the CPU has it)",
                  file=sys.stderr)
            return 2
        if why is not None:
            print(f"avx2_only: {why}: running it with a patched onnxruntime (--patch)", file=sys.stderr)
        return run_patched(argv)
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
