"""Large buffers go back to the system when freed (glibc only).

glibc serves a request above its mmap threshold with a mapping of its own, unmapped when freed, and smaller
ones from its heap, which shrinks only from the top.  The threshold starts at 128 kB and rises to the size of
each mapped buffer freed, up to 32 MB: once the model's first outputs are freed, every output, window batch
and chunk of hidden states after them comes from the heap, and a long file's run leaves the heap as large
as its worst moment, full of holes.  A fixed threshold of 1 MB keeps those buffers mapped (onnxruntime's own
arena and Python's small objects are not affected).  Measured on 150,000 words of plain SRT (the
same setting given as ``MALLOC_MMAP_THRESHOLD_``): 367 MB peak before, 330 MB after, the same time within the
machine's noise
(docs/research/2026-11-29-long-files-memory.md).  Elsewhere (macOS, Windows, musl) nothing is changed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

M_MMAP_THRESHOLD = -3  # glibc's malloc.h
MMAP_THRESHOLD = 1 << 20

_done = False


def return_large_buffers() -> bool:
    """Fix glibc's mmap threshold at ``MMAP_THRESHOLD``, once per process; whether it was set."""
    global _done
    if _done:
        return True
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _done = bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    except (OSError, AttributeError):
        return False
    return _done


__all__ = ["MMAP_THRESHOLD", "return_large_buffers"]
