"""EBU STL (Tech 3264): cues decoded from the TTI blocks, letters written back over their own bytes.

The file is binary: a 1024-byte GSI header, then 128-byte TTI blocks, each with its subtitle number,
extension block number, times, and a 112-byte text field in the character code table the header names
(CCT 00: ISO 6937, where an accented letter is a diacritic byte 0xC1-0xCF before its base letter; 01-04:
ISO 8859-5 to -8).  A subtitle is its TTI block and the extension blocks that follow with the same number;
comment blocks and user data blocks are not cues.  Text is read as ttconv reads it: 0x8A breaks the line,
teletext spacing attributes and the italics/underline/boxing codes 0x80-0x85 show as a space between
letters, 0x8F is unused space and ends the text field.

Nothing is re-encoded from the cues (``inplace``): a letter whose case changes rewrites only its own byte
(an accented letter its base letter, the diacritic byte kept), so the GSI header, every other TTI field,
control codes and padding stay byte for byte.  A letter whose other case has no code of the same length (ß,
a letter ISO 6937 has no precomposed form for) keeps its word's case; restored marks are never written.
"""

from __future__ import annotations

import codecs
import unicodedata
from typing import Sequence

from .document import Cue
from .errors import ParseWarning, SubtitleError
from .inplace import NO_SOURCE, Encoder, InPlaceFile

GSI_SIZE = 1024
TTI_SIZE = 128
_FPS = {"STL25.01": 25, "STL30.01": 30}
_EBN_LAST, _EBN_USER_DATA = 0xFF, 0xFE
_NEWLINE, _UNUSED = 0x8A, 0x8F
_CONTROL = set(range(0x00, 0x08)) | set(range(0x0A, 0x0E)) | {0x1C, 0x1D} | set(range(0x80, 0x86))
_8859 = {"01": "iso8859_5", "02": "iso8859_6", "03": "iso8859_7", "04": "iso8859_8"}

# ISO 6937 (CCT 00) above 0x7F: single characters, and the diacritic bytes that combine with the next one.
_6937 = dict(zip(range(0xA0, 0xC0), "\u00a0\u00a1\u00a2\u00a3$\u00a5#\u00a7\u00a4\u2018\u201c\u00ab\u2190\u2191"
                                    "\u2192\u2193\u00b0\u00b1\u00b2\u00b3\u00d7\u00b5\u00b6\u00b7\u00f7\u2019\u201d"
                                    "\u00bb\u00bc\u00bd\u00be\u00bf"))
_6937.update(zip(range(0xD0, 0xD8), "\u2014\u00b9\u00ae\u00a9\u2122\u266a\u00ac\u00a6"))
_6937.update(zip(range(0xDC, 0x100), "\u215b\u215c\u215d\u215e\u2126\u00c6\u00d0\u00aa\u0126\ufffd\u0132\u013f"
                                     "\u0141\u00d8\u0152\u00ba\u00de\u0166\u014a\u0149\u0138\u00e6\u0111\u00f0"
                                     "\u0127\u0131\u0133\u0140\u0142\u00f8\u0153\u00df\u00fe\u0167\u014b\u00ad"))
del _6937[0xE5]  # reserved
_6937_CODE = {char: code for code, char in _6937.items()}
_DIACRITIC = {0xC1: "\u0300", 0xC2: "\u0301", 0xC3: "\u0302", 0xC4: "\u0303", 0xC5: "\u0304", 0xC6: "\u0306",
              0xC7: "\u0307", 0xC8: "\u0308", 0xCA: "\u030a", 0xCB: "\u0327", 0xCD: "\u030b", 0xCE: "\u0328",
              0xCF: "\u030c"}
_ODD_PAIRS = {(0xC2, "g"): "\u0123"}  # g with cedilla is written with the acute byte: the cedilla hangs below g


def _combined(prefix: int, base: str) -> str | None:
    """The one character a diacritic byte and a base letter make, None if they make no single character."""
    odd = _ODD_PAIRS.get((prefix, base))
    if odd is not None:
        return odd
    char = unicodedata.normalize("NFC", base + _DIACRITIC[prefix])
    return char if len(char) == 1 else None


def _encode_6937(char: str, old: str) -> str:
    """``char``'s ISO 6937 code in place of ``old``: an accented letter keeps ``old``'s diacritic byte."""
    if len(old) == 2:
        prefix = ord(old[0])
        for base in {unicodedata.normalize("NFD", char)[0], char.lower(), char.upper()}:
            if len(base) == 1 and base.isascii() and _combined(prefix, base) == char:
                return old[0] + base
        raise SubtitleError(f"{char!r} cannot be written with the diacritic byte {prefix:02X} of the letter it "
                            "replaces (ISO 6937)")
    if 0x20 <= ord(char) < 0x7F:
        return char
    code = _6937_CODE.get(char)
    if code is None:
        raise SubtitleError(f"{char!r} has no one-byte code in ISO 6937, so it cannot be written in place of a letter")
    return chr(code)


def _encoder_8859(codec: str) -> Encoder:
    def encode(char: str, old: str) -> str:
        try:
            return char.encode(codec).decode("latin-1")
        except UnicodeEncodeError:
            raise SubtitleError(f"{char!r} is not in {codec.replace('_', '-').upper()}, the file's character "
                                "code table") from None
    return encode


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    """The subtitles of an EBU STL file (its bytes as latin-1 text) as cues; SubtitleError (one line) if it is
    not a sound one."""
    size = len(text)
    if size < GSI_SIZE:
        raise SubtitleError(f"truncated EBU STL file: {size} bytes, shorter than its 1024-byte GSI header")
    dfc = text[3:11]
    fps = _FPS.get(dfc)
    if fps is None:
        raise SubtitleError(f"not an EBU STL file: the disk format code is {dfc!r}, not 'STL25.01' or 'STL30.01'")
    if (size - GSI_SIZE) % TTI_SIZE:
        raise SubtitleError(f"truncated EBU STL file: the last TTI block has {(size - GSI_SIZE) % TTI_SIZE} of its "
                            f"{TTI_SIZE} bytes")
    cct = text[12:14]
    if cct == "00":
        encode: Encoder = _encode_6937
    elif cct in _8859:
        encode = _encoder_8859(_8859[cct])
    else:
        raise SubtitleError(f"unknown character code table {cct!r} in the GSI header (EBU STL has 00 to 04)")
    warnings: list[ParseWarning] = []
    blocks = (size - GSI_SIZE) // TTI_SIZE
    announced = text[238:243].strip()
    if announced.isdigit() and int(announced) != blocks:
        warnings.append(ParseWarning(1, f"the GSI header announces {int(announced)} TTI blocks, the file holds "
                                        f"{blocks}; all {blocks} read"))
    file = InPlaceFile(text, "STL subtitle", encode)
    segments: list[str | Cue] = []
    group: list[int] = []  # offsets of the TTI blocks of the subtitle being read
    for k in range(blocks):
        at = GSI_SIZE + k * TTI_SIZE
        ebn, comment = ord(text[at + 3]), ord(text[at + 15])
        if ebn == _EBN_USER_DATA:
            continue
        if group and text[at:at + 3] != text[group[0]:group[0] + 3]:
            group = []  # a new subtitle number: the last subtitle had no closing extension block
        group.append(at)
        if ebn != _EBN_LAST and k + 1 < blocks:
            continue
        first, group = group[0], []
        if comment:
            continue  # a comment block: not shown, kept as it is
        chars, sources = _text(text, first, at, cct)
        if chars:
            segments.append(file.add(_ms(text, first + 5, fps), _ms(text, first + 9, fps), "".join(chars), sources))
    return segments, warnings


def _ms(text: str, at: int, fps: int) -> int:
    h, m, s, f = (ord(c) for c in text[at:at + 4])
    return ((h * 60 + m) * 60 + s) * 1000 + round(f * 1000 / fps)


def _text(text: str, first: int, last: int, cct: str) -> tuple[list[str], list[tuple[int, int]]]:
    """The text of a subtitle's TTI blocks (``first`` to ``last``, each 128 bytes), with each character's source."""
    chars: list[str] = []
    sources: list[tuple[int, int]] = []

    def printable(code: int) -> bool:
        return (0x21 <= code <= 0x7F) or code >= 0xA0

    def trim() -> None:
        while chars and chars[-1] == " ":
            chars.pop()
            sources.pop()

    for block in range(first, last + 1, TTI_SIZE):
        field = [ord(c) for c in text[block + 16:block + TTI_SIZE]]
        end = field.index(_UNUSED) if _UNUSED in field else len(field)
        i = 0
        while i < end:
            code = field[i]
            at = block + 16 + i
            nxt = field[i + 1] if i + 1 < end else 0x20
            if code == _NEWLINE:
                trim()
                if chars and chars[-1] != "\n":
                    chars.append("\n")
                    sources.append(NO_SOURCE)
            elif code in _CONTROL or code == 0x20:
                # a space, or a spacing attribute that shows as one: one space between words, none at a line's ends
                if chars and chars[-1] not in " \n":
                    chars.append(" ")
                    sources.append((at, 1) if code == 0x20 else NO_SOURCE)
            elif cct == "00" and code in _DIACRITIC and printable(nxt):
                char = _combined(code, chr(nxt)) if nxt < 0x80 else None
                if char is not None:
                    chars.append(char)
                    sources.append((at, 2))
                else:  # no precomposed letter: shown, but never written over
                    shown = unicodedata.normalize("NFC", chr(nxt) + _DIACRITIC[code]) if nxt < 0x80 else "\ufffd"
                    chars.extend(shown)
                    sources.extend([NO_SOURCE] * len(shown))
                i += 2
                continue
            elif printable(code):
                char = _decode_one(code, cct)
                chars.append(char)
                sources.append((at, 1) if char != "\ufffd" else NO_SOURCE)
            i += 1
    trim()
    while chars and chars[-1] in "\n ":
        chars.pop()
        sources.pop()
    return chars, sources


def _decode_one(code: int, cct: str) -> str:
    if code < 0x80:
        return chr(code)
    if cct == "00":
        return _6937.get(code, "\ufffd")
    return codecs.decode(bytes([code]), _8859[cct], errors="replace")


def signature(data: bytes) -> bool:
    """An EBU STL file by its GSI header: the disk format code at bytes 3-10."""
    return data[3:11] in (b"STL25.01", b"STL30.01")


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    raise SubtitleError("converting to EBU STL is not supported: subcase writes STL files only over the STL file "
                        "they were read from")


__all__ = ["GSI_SIZE", "TTI_SIZE", "from_cues", "parse", "signature"]
