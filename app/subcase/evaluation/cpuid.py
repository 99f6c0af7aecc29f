"""The x86 instruction sets onnxruntime's int8 kernels choose between, as this process sees them.

onnxruntime's MLAS picks its int8 matrix kernel at start-up from what the CPUID
instruction reports to the process, and from the register state the operating
system enables (XGETBV): AMX, AVX-512 VNNI, AVX-VNNI, or AVX2's ``vpmaddubsw``.
/proc/cpuinfo lists what the kernel found at boot, which is not always what a
process is told (a hypervisor, or ``bench/avx2_only.py``, can hide features
from it), so ``subcase bench`` asks CPUID itself, the way MLAS does
(``core/mlas/lib/platform.cpp``), and falls back to /proc/cpuinfo where it
cannot (not x86-64 Linux, or no executable memory).

CPUID and XGETBV are run from a few bytes of machine code in an executable
page (the System V calling convention: Linux and macOS on x86-64).  A copy of
onnxruntime patched by ``bench/avx2_only.py --patch`` reads XCR0 as a fixed
value and says so in ``capi/avx2_only.json``; MLAS decides from that value, and
so does this module when that copy is the onnxruntime this process imports.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import mmap
import platform
import sys
from pathlib import Path

# push rbx; mov eax, edi; mov ecx, esi; mov r8, rdx; cpuid;
# mov [r8], eax; mov [r8+4], ebx; mov [r8+8], ecx; mov [r8+12], edx; pop rbx; ret
_CPUID = bytes.fromhex("53 89f8 89f1 4989d0 0fa2 418900 41895804 41894808 4189500c 5b c3".replace(" ", ""))
# xor ecx, ecx; xgetbv; mov [rdi], eax; mov [rdi+4], edx; ret
_XGETBV = bytes.fromhex("31c9 0f01d0 8907 895704 c3".replace(" ", ""))

LABELS = ("AVX2", "AVX-512", "AVX512-VNNI", "AVX-VNNI", "AMX-INT8")


class _Code:
    """Machine code in an executable page, kept alive as long as its functions are used."""

    def __init__(self) -> None:
        self.page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
        self.page.write(_CPUID.ljust(64, b"\xcc") + _XGETBV)
        base = ctypes.addressof(ctypes.c_char.from_buffer(self.page))
        regs = ctypes.POINTER(ctypes.c_uint32 * 4)
        self.cpuid = ctypes.CFUNCTYPE(None, ctypes.c_uint32, ctypes.c_uint32, regs)(base)
        self.xgetbv = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_uint32 * 2))(base + 64)

    def leaf(self, leaf: int, sub: int = 0) -> tuple[int, int, int, int]:
        out = (ctypes.c_uint32 * 4)()
        self.cpuid(leaf, sub, ctypes.pointer(out))
        return out[0], out[1], out[2], out[3]

    def xcr0(self) -> int:
        out = (ctypes.c_uint32 * 2)()
        self.xgetbv(ctypes.pointer(out))
        return out[0] | out[1] << 32


def patched_xcr0() -> int | None:
    """XCR0 as the onnxruntime this process imports reads it, where ``bench/avx2_only.py --patch``
    made that copy (None for any other onnxruntime); looked up without importing onnxruntime."""
    try:
        spec = importlib.util.find_spec("onnxruntime")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    try:
        marker = json.loads((Path(spec.origin).parent / "capi" / "avx2_only.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return int(marker["xcr0"]) if isinstance(marker, dict) and "xcr0" in marker else None


def _bit(value: int, n: int) -> bool:
    return bool(value >> n & 1)


def from_cpuid() -> dict[str, bool] | None:
    """Each of ``LABELS`` as MLAS would decide it in this process; None where CPUID cannot be run here."""
    if platform.machine().lower() not in ("x86_64", "amd64") or sys.platform == "win32":
        return None
    try:
        code = _Code()
    except (OSError, ValueError, TypeError, AttributeError):  # no executable memory (hardened kernels)
        return None
    max_leaf = code.leaf(0)[0]
    _, _, ecx1, _ = code.leaf(1)
    if max_leaf < 7 or not _bit(ecx1, 27):  # no OSXSAVE: the OS enables no AVX state at all
        return dict.fromkeys(LABELS, False)
    patched = patched_xcr0()
    xcr0 = code.xcr0() if patched is None else patched
    _, ebx7, ecx7, edx7 = code.leaf(7, 0)
    eax71 = code.leaf(7, 1)[0]
    avx_state = xcr0 & 0x6 == 0x6
    avx512_state = xcr0 & 0xE6 == 0xE6
    avx512 = avx512_state and all(_bit(ebx7, n) for n in (16, 17, 30, 31))  # F, DQ, BW, VL, as MLAS asks
    return {
        "AVX2": avx_state and _bit(ebx7, 5),
        "AVX-512": avx512,
        "AVX512-VNNI": avx512 and _bit(ecx7, 11),
        "AVX-VNNI": avx_state and _bit(eax71, 4),
        # AMX also needs the tile state, which Linux grants a process on request (MLAS asks at start-up)
        "AMX-INT8": _bit(edx7, 24) and _bit(edx7, 25),
    }


def from_proc_cpuinfo(text: str) -> dict[str, bool] | None:
    """Each of ``LABELS`` from the flags line of /proc/cpuinfo (what the kernel found at boot)."""
    names = {"AVX2": "avx2", "AVX-512": "avx512f", "AVX512-VNNI": "avx512_vnni", "AVX-VNNI": "avx_vnni",
             "AMX-INT8": "amx_int8"}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            flags = set(value.split())
            return {label: names[label] in flags for label in LABELS}
    return None


def int8_kernel(features: dict[str, bool]) -> str:
    """The int8 matrix kernel MLAS picks with these features (the best one it has)."""
    if features.get("AMX-INT8"):
        return "AMX"
    if features.get("AVX512-VNNI"):
        return "AVX-512 VNNI"
    if features.get("AVX-VNNI"):
        return "AVX-VNNI"
    if features.get("AVX-512"):
        return "AVX-512 BW (vpmaddubsw)"
    if features.get("AVX2"):
        return "AVX2 (vpmaddubsw, 16-bit saturation)"
    return "SSE"
