"""Load, recase and save speed of SCC and EBU STL files (written over their own codes) against SRT.

    python bench/broadcast_bench.py

Generates 10,000 captions in capitals as an SCC file (pop-on, doubled controls), an EBU STL file (CCT 00,
with accents) and an SRT file of the same text, in a temporary directory, and prints for each the best of
three runs of: load, recasing every word to lower case, and save.  The SRT rows are the baseline; pycaption's
and ttconv's load times (where installed) are printed too, measured in the same run.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "app"))

from subcase.subtitles import load, save, scc  # noqa: E402

CAPTIONS = 10_000
REPEAT = 3
LINES = ("WHERE ARE YOU GOING, MR. SMITH?", "TO LONDON WITH JOHN AND MARIA.")


def _word(code: int) -> str:
    return f"{scc.with_parity(code >> 8):02x}{scc.with_parity(code & 0xFF):02x}"


def _chars(text: str) -> list[str]:
    codes = [scc.with_parity(scc.BASIC_CODE[ch]) for ch in text] + ([0x80] if len(text) % 2 else [])
    return [f"{a:02x}{b:02x}" for a, b in zip(codes[::2], codes[1::2])]


def make_scc() -> bytes:
    out = ["Scenarist_SCC V1.0", ""]
    for i in range(CAPTIONS):
        s, f = divmod(i * 75, 25)  # a caption every 3 s
        m, s = divmod(s, 60)
        h, m = divmod(m, 60)
        words = [_word(0x142E)] * 2 + [_word(0x1420)] * 2 + [_word(0x1450)] * 2 + _chars(LINES[0]) \
            + [_word(0x1470)] * 2 + _chars(LINES[1]) + [_word(0x142F)] * 2
        out += [f"{h:02d}:{m:02d}:{s:02d}:{f:02d}\t{' '.join(words)}", ""]
    return "\n".join(out).encode("ascii")


def gsi(blocks: int) -> bytes:
    """A GSI header (EBU Tech 3264): 25 fps, CCT 00, the block counts; the other fields spaces."""
    head = bytearray(b" " * 1024)
    head[0:16] = b"850STL25.01100" + b"09"
    head[238:248] = b"%05d%05d" % (blocks, blocks)
    return bytes(head)


def tti(number: int, tci: tuple[int, int, int, int], tco: tuple[int, int, int, int], text: bytes) -> bytes:
    """One TTI block, the last of its subtitle, its text field padded with unused space (0x8F)."""
    return bytes([0, number & 0xFF, number >> 8, 0xFF, 0, *tci, *tco, 20, 2, 0]) + text.ljust(112, b"\x8f")


def make_stl() -> bytes:
    blocks = []
    for i in range(CAPTIONS):
        s, f = divmod(i * 75, 25)
        m, s = divmod(s, 60)
        h, m = divmod(m, 60)
        text = LINES[0].encode("ascii") + b"\x8a\x8a" + LINES[1].replace("MARIA", "MAR\xc2IA").encode("latin-1")
        blocks.append(tti(i + 1, (h, m, s, f), (h, m, s + 2 if s < 58 else s, f), text))
    return gsi(len(blocks)) + b"".join(blocks)


def make_srt() -> bytes:
    out = []
    for i in range(CAPTIONS):
        start = i * 3000
        out.append(f"{i + 1}\n{_stamp(start)} --> {_stamp(start + 2000)}\n{LINES[0]}\n{LINES[1]}\n\n")
    return "".join(out).encode("utf-8")


def _stamp(ms: int) -> str:
    s, ms = divmod(ms, 1000)
    m, s = divmod(s, 60)
    h, m = divmod(m, 60)
    return f"{h:02d}:{m:02d}:{s:02d},{ms:03d}"


def best(fn) -> float:
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def run(path: Path) -> tuple[float, float, float]:
    loaded = best(lambda: load(path))
    doc = load(path)

    def recase() -> None:
        for c, cue in enumerate(doc.cues):
            doc.recase(c, [(w.start, w.end, w.text.lower()) for w in cue.words()])

    recased = best(recase)
    saved = best(lambda: save(doc, path.with_name("out" + path.suffix)))
    return loaded, recased, saved


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        files = {"srt": make_srt(), "scc": make_scc(), "stl": make_stl()}
        print(f"{CAPTIONS:,} captions, best of {REPEAT}; seconds")
        print(f"{'format':8} {'size':>10} {'load':>7} {'recase':>7} {'save':>7}")
        for name, data in files.items():
            path = Path(tmp) / f"film.{name}"
            path.write_bytes(data)
            loaded, recased, saved = run(path)
            print(f"{name:8} {len(data):>10,} {loaded:7.3f} {recased:7.3f} {saved:7.3f}")
        try:
            from pycaption import SCCReader
            text = files["scc"].decode("ascii")
            print(f"pycaption SCC load: {best(lambda: SCCReader().read(text)):.3f}")
        except ImportError:
            print("pycaption not installed: no reference time for SCC")
        try:
            import ttconv.stl.reader as stl_reader
            print(f"ttconv STL load:    {best(lambda: stl_reader.to_model(io.BytesIO(files['stl']))):.3f}")
        except ImportError:
            print("ttconv not installed: no reference time for STL")


if __name__ == "__main__":
    main()
