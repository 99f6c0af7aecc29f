"""SCC (Scenarist, CEA-608 line 21 captions): cues decoded from the hex words, letters written back in place.

An SCC file is ASCII: a ``Scenarist_SCC V1.0`` line, then lines of a timecode and hex words, two 7-bit
bytes with odd parity each.  The captions are what a CEA-608 decoder would show: pop-on captions loaded
off screen and shown at End Of Caption, roll-up rows, paint-on text, on channel 1 and channel 2 (data
channel 2 is usually another language, so its cues follow all of channel 1's: casing never reads across).

Nothing is re-encoded from the cues (``inplace``): each letter of a cue remembers where its byte is in the
file, and a letter whose case changes rewrites those two hex digits (its parity bit included) and nothing
else, so control codes, their doubling, positions, styles, padding and timecodes stay exactly as read.  Only the CEA-608 basic character set is
written so: a special or extended character (a two-byte code, "É" after its fallback "E") keeps its code
pair, and a letter whose other case is not in the basic set ("é" / "É") keeps its case (``uncertain``),
the whole word with it.  Punctuation marks are never inserted: a new byte would shift every later code
of its line a frame later (``Cue.holds_marks``).  Any other edit is refused with one line when saving.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Sequence

from .document import Cue
from .errors import ParseWarning, SubtitleError
from .inplace import NO_SOURCE, Encoder, InPlaceFile

SIGNATURE = "Scenarist_SCC V1.0"
_UTF8_BOM = "\xef\xbb\xbf"  # as the file's bytes read one per character: some tools write one; it is kept


def signature(data: bytes) -> bool:
    """An SCC file by its first line (after a UTF-8 byte order mark, if any)."""
    return data.removeprefix(_UTF8_BOM.encode("latin-1")).startswith(SIGNATURE[:13].encode())

# The CEA-608 basic character set: ASCII but for ten codes.
BASIC_CHAR = {code: chr(code) for code in range(0x20, 0x80)}
BASIC_CHAR.update({0x2A: "\u00e1", 0x5C: "\u00e9", 0x5E: "\u00ed", 0x5F: "\u00f3", 0x60: "\u00fa", 0x7B: "\u00e7",
               0x7C: "\u00f7", 0x7D: "\u00d1", 0x7E: "\u00f1", 0x7F: "\u2588"})
BASIC_CODE = {char: code for code, char in BASIC_CHAR.items()}
# Special characters (first byte 0x11, channel 2 0x19), 0x30-0x3F; 0x39 is the transparent space.
_SPECIAL = "\u00ae\u00b0\u00bd\u00bf\u2122\u00a2\u00a3\u266a\u00e0 \u00e8\u00e2\u00ea\u00ee\u00f4\u00fb"
# Extended characters (0x12 / 0x13, channel 2 0x1A / 0x1B), 0x20-0x3F: each replaces the character before it.
_EXTENDED = {
    0x12: "\u00c1\u00c9\u00d3\u00da\u00dc\u00fc\u2018\u00a1*\u2019\u2014\u00a9\u2120\u2022\u201c\u201d"
          "\u00c0\u00c2\u00c7\u00c8\u00ca\u00cb\u00eb\u00ce\u00cf\u00ef\u00d4\u00d9\u00f9\u00db\u00ab\u00bb",
    0x13: "\u00c3\u00e3\u00cd\u00cc\u00ec\u00d2\u00f2\u00d5\u00f5{}\\^_|~"
          "\u00c4\u00e4\u00d6\u00f6\u00df\u00a5\u00a4\u2502\u00c5\u00e5\u00d8\u00f8\u250c\u2510\u2514\u2518",
}
# Row of each PAC: first byte (channel bit cleared) and whether the second byte is 0x60-0x7F.
_PAC_ROWS = {(0x11, False): 1, (0x11, True): 2, (0x12, False): 3, (0x12, True): 4, (0x15, False): 5,
             (0x15, True): 6, (0x16, False): 7, (0x16, True): 8, (0x17, False): 9, (0x17, True): 10,
             (0x10, False): 11, (0x13, False): 12, (0x13, True): 13, (0x14, False): 14, (0x14, True): 15}
_ROLL_ROWS = {0x25: 2, 0x26: 3, 0x27: 4}
_FRAMES_PER_S = 30  # SCC timecodes count 30 frames a second; non-drop-frame time runs 1.001 slower
_LINE_RE = re.compile(r"(\d{2}):(\d{2}):(\d{2})([:;.,])(\d{2})[ \t]+(.*)")
_WORD_RE = re.compile(r"\S+")
_HEX_RE = re.compile(r"[0-9A-Fa-f]{4}")
_LAST_CUE_MS = 4000  # a caption still shown when the file ends: shown this long


def _odd(byte: int) -> bool:
    return bin(byte).count("1") % 2 == 1


def with_parity(code: int) -> int:
    """The 8-bit byte that carries the 7-bit ``code``: its top bit set where that makes the count of ones odd."""
    return code if _odd(code) else code | 0x80


@dataclass(slots=True)
class _Cell:
    char: str
    source: tuple[int, int]  # (offset, 2): the byte's two hex digits in the file text; NO_SOURCE if none


def _encoder(upper_hex: bool) -> Encoder:
    def encode(char: str, old: str) -> str:
        code = BASIC_CODE.get(char)
        if code is None:
            raise SubtitleError(f"{char!r} is not in the CEA-608 basic character set, so it cannot be written "
                                "in place of a letter")
        digits = f"{with_parity(code):02x}"
        return digits.upper() if upper_hex else digits
    return encode


class _Screen:
    """One data channel's caption memories, as a CEA-608 decoder keeps them."""

    def __init__(self, channel: int):
        self.channel = channel
        self.mode = "pop"
        self.loading: dict[int, dict[int, _Cell]] = {}  # non-displayed memory (pop-on)
        self.shown: list[_Caption] = []  # captions on screen, oldest first
        self.writing: _Caption | None = None  # the roll-up row or paint-on text being written
        self.row, self.col = 15, 0
        self.roll_rows = 2
        self.last_control: tuple[int, int] | None = None
        self.done: list[_Caption] = []

    def memory(self, ms: int) -> dict[int, dict[int, _Cell]]:
        if self.mode == "pop":
            return self.loading
        if self.writing is None:
            self.writing = _Caption(ms, self.mode)
            self.shown.append(self.writing)
        return self.writing.rows

    def end(self, caption: _Caption, ms: int) -> None:
        caption.end = ms
        if caption.rows:
            self.done.append(caption)

    def erase_shown(self, ms: int) -> None:
        for caption in self.shown:
            self.end(caption, ms)
        self.shown = []
        self.writing = None


@dataclass(eq=False)
class _Caption:
    start: int
    mode: str
    rows: dict[int, dict[int, _Cell]] = field(default_factory=dict)
    end: int | None = None
    order: int = 0

    def text(self) -> tuple[str, list[tuple[int, int]]]:
        chars: list[str] = []
        sources: list[tuple[int, int]] = []
        for row in sorted(self.rows):
            cells = self.rows[row]
            if not cells:
                continue
            if chars:
                chars.append("\n")
                sources.append(NO_SOURCE)
            col = min(cells)
            for c in sorted(cells):
                gap = c - col
                chars.extend(" " * gap)
                sources.extend([NO_SOURCE] * gap)
                chars.append(cells[c].char)
                sources.append(cells[c].source)
                col = c + 1
        return "".join(chars), sources


def _ms(hours: int, minutes: int, seconds: int, frames: int, drop: bool) -> int:
    wall = hours * 3600 + minutes * 60 + seconds + frames / _FRAMES_PER_S
    return round(wall * (1.0 if drop else 1.001) * 1000)


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    """The captions of an SCC file as cues; SubtitleError (one line) if it is not a sound SCC file."""
    first_end = text.find("\n")
    header = (text if first_end < 0 else text[:first_end]).rstrip("\r")
    if header.removeprefix(_UTF8_BOM).strip() != SIGNATURE:
        raise SubtitleError(f"not an SCC file: the first line is {header[:40]!r}, not {SIGNATURE!r}")
    screens = {1: _Screen(1), 2: _Screen(2)}
    channel = 1
    order = 0
    last_ms = 0
    line_no = 1
    bad_parity: list[tuple[int, str]] = []  # (line, word) of words with a byte of even parity
    not_words: list[tuple[int, str]] = []  # (line, text) of what stands where a hex word should
    pos = first_end + 1 if first_end >= 0 else len(text)
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        line_no += 1
        line = text[pos:end].rstrip("\r")
        if line.strip():
            m = _LINE_RE.fullmatch(line.rstrip())
            if m is None:
                raise SubtitleError(f"line {line_no}: {line[:40]!r} is not a timecode and hex words")
            h, mi, s, sep, f = m.groups()[:5]
            base_ms = _ms(int(h), int(mi), int(s), int(f), sep in ";,")
            for k, word in enumerate(_WORD_RE.finditer(line, m.start(6))):
                hexword = word.group()
                if not _HEX_RE.fullmatch(hexword):
                    not_words.append((line_no, hexword))  # decoders skip it; it is kept as written
                    continue
                ms = base_ms + round(k * 1001 / _FRAMES_PER_S) if sep not in ";," else \
                    base_ms + round(k * 1000 / _FRAMES_PER_S)
                last_ms = max(last_ms, ms)
                hi, lo = int(hexword[:2], 16), int(hexword[2:], 16)
                if not (_odd(hi) and _odd(lo)) and (hi, lo) != (0, 0):
                    bad_parity.append((line_no, hexword))
                b1, b2 = hi & 0x7F, lo & 0x7F
                at = pos + word.start()
                if 0x10 <= b1 <= 0x1F:
                    channel = 2 if b1 & 0x08 else 1
                    order = _control(screens[channel], b1 & 0x17, b2, ms, order)
                elif b1 >= 0x20 or b2 >= 0x20:
                    screen = screens[channel]
                    screen.last_control = None
                    for code, source in ((b1, at), (b2, at + 2)):
                        if code >= 0x20:
                            _put(screen, _Cell(BASIC_CHAR[code], (source, 2)), ms)
                # 0x00-0x0F bytes: padding (0x80 0x80) or field 2 data services, nothing shown
        pos = end + 1
    segments: list[str | Cue] = []
    warnings: list[ParseWarning] = []
    if bad_parity:
        # Decoders drop such a byte or read it without its parity bit; subcase reads it so and keeps it as it is
        # (a letter of it that changes case is written with the right parity).
        first_line, first_word = bad_parity[0]
        warnings.append(ParseWarning(first_line, f"{len(bad_parity)} hex word(s) have a byte with even parity, the "
                                                 f"first {first_word}; CEA-608 bytes have odd parity: read without it, kept as written"))
    if not_words:
        first_line, first_word = not_words[0]
        warnings.append(ParseWarning(first_line, f"{len(not_words)} item(s) are not 4-digit hex words, the first "
                                                 f"{first_word[:12]!r}; skipped, as decoders skip them, and kept as written"))
    captions: list[_Caption] = []
    for channel_no in (1, 2):
        screen = screens[channel_no]
        screen.erase_shown(-1)  # still on screen when the file ends
        if screen.loading:
            # loaded but never shown (the file ends before its End Of Caption, as a cut file does): a decoder
            # shows nothing, but its letters are in the file, so it is a cue and is cased with the rest
            screen.done.append(_Caption(last_ms, "pop", screen.loading, -1, order + 1))
        done = sorted(screen.done, key=lambda c: (c.start, c.order))
        captions.extend(done)
    # a file written in capital hex digits gets capital ones where a letter changes
    body = text[first_end + 1:] if first_end >= 0 else ""
    upper_hex = re.search(r"[A-F]", body) is not None and re.search(r"[a-f]", body) is None
    file = InPlaceFile(text, "SCC caption", _encoder(upper_hex))
    for caption in captions:
        cue_text, sources = caption.text()
        end_ms = caption.end if caption.end is not None and caption.end >= 0 else caption.start + _LAST_CUE_MS
        segments.append(file.add(caption.start, max(end_ms, caption.start), cue_text, sources))
    return segments, warnings


def _put(screen: _Screen, cell: _Cell, ms: int) -> None:
    memory = screen.memory(ms)
    if screen.mode == "paint" and screen.col in memory.get(screen.row, {}):
        # Paint-on text written over text on screen: what was shown is a caption of its own, and the new
        # text starts the next one, so that every letter written is in the text of exactly one cue.
        assert screen.writing is not None
        screen.shown.remove(screen.writing)
        screen.end(screen.writing, ms)
        screen.writing = None
        memory = screen.memory(ms)
    memory.setdefault(screen.row, {})[screen.col] = cell
    # A decoder stops at column 31 and writes the rest over it; subcase reads on, so that no letter of an
    # overlong row is lost to casing.
    screen.col += 1


def _control(screen: _Screen, b1: int, b2: int, ms: int, order: int) -> int:
    """Act on a control code pair (channel bit cleared from ``b1``); a doubled code acts once."""
    key = (b1, b2)
    if screen.last_control == key:
        screen.last_control = None  # the doubled copy; a third one would act again
        return order
    screen.last_control = key
    if b1 in (0x14, 0x15) and 0x20 <= b2 <= 0x2F:
        return _misc(screen, b2, ms, order)
    if b1 == 0x11 and 0x30 <= b2 <= 0x3F:
        _put(screen, _Cell(_SPECIAL[b2 - 0x30], NO_SOURCE), ms)
    elif b1 in _EXTENDED and 0x20 <= b2 <= 0x3F:
        memory = screen.memory(ms)
        if screen.col > 0:
            screen.col -= 1  # an extended character replaces the fallback character before it
        memory.setdefault(screen.row, {})[screen.col] = _Cell(_EXTENDED[b1][b2 - 0x20], NO_SOURCE)
        screen.col += 1
    elif b1 == 0x11 and 0x20 <= b2 <= 0x2F:
        _put(screen, _Cell(" ", NO_SOURCE), ms)  # a mid-row style code shows as a space
    elif b1 == 0x17 and 0x21 <= b2 <= 0x23:
        screen.col = min(screen.col + b2 - 0x20, 31)  # tab offset
    elif 0x40 <= b2 <= 0x7F and (b1, b2 >= 0x60) in _PAC_ROWS:
        screen.row = _PAC_ROWS[(b1, b2 >= 0x60)]
        attr = (b2 & 0x1F)
        screen.col = (attr - 0x10) // 2 * 4 if attr >= 0x10 else 0
    return order


def _misc(screen: _Screen, b2: int, ms: int, order: int) -> int:
    if b2 == 0x20:  # RCL: resume caption loading (pop-on)
        if screen.mode == "roll":
            screen.erase_shown(ms)
        screen.mode = "pop"
    elif b2 == 0x29:  # RDC: resume direct captioning (paint-on)
        if screen.mode == "roll":
            screen.erase_shown(ms)
        screen.mode = "paint"
    elif b2 in _ROLL_ROWS:  # RU2-RU4
        if screen.mode != "roll":
            screen.erase_shown(ms)
            screen.row = 15
        screen.mode = "roll"
        screen.roll_rows = _ROLL_ROWS[b2]
    elif b2 == 0x21:  # BS: backspace
        memory = screen.memory(ms)
        if screen.col > 0:
            screen.col -= 1
            memory.get(screen.row, {}).pop(screen.col, None)
    elif b2 == 0x24:  # DER: delete to end of row
        memory = screen.memory(ms)
        row = memory.get(screen.row, {})
        for c in [c for c in row if c >= screen.col]:
            del row[c]
    elif b2 == 0x2C:  # EDM: erase displayed memory
        screen.erase_shown(ms)
    elif b2 == 0x2E:  # ENM: erase non-displayed memory
        screen.loading = {}
    elif b2 == 0x2F:  # EOC: end of caption, the loaded caption is shown
        screen.erase_shown(ms)
        if screen.loading:
            order += 1
            shown = _Caption(ms, "pop", screen.loading, order=order)
            screen.shown.append(shown)
        screen.loading = {}
        screen.mode = "pop"
    elif b2 == 0x2D:  # CR: carriage return, the rows roll up
        if screen.mode == "roll":
            screen.writing = None
            while len(screen.shown) > screen.roll_rows - 1:  # the new row takes the last place on screen
                screen.end(screen.shown.pop(0), ms)
        screen.col = 0
    return order


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    raise SubtitleError("converting to SCC is not supported: subcase writes SCC files only over the SCC file "
                        "they were read from")


__all__ = ["BASIC_CHAR", "BASIC_CODE", "SIGNATURE", "from_cues", "parse", "signature", "with_parity"]
