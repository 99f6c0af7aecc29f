"""Turn file bytes into text and back without changing a single byte.

Order of evidence, strongest first: a byte-order mark; strict UTF-8 (which
random legacy bytes almost never pass); the NUL-byte pattern of BOM-less
UTF-16; and only then charset-normalizer for legacy 8-bit code pages.  Every
candidate must re-encode to exactly the input bytes, otherwise an unedited
save would not be byte-identical and the candidate is rejected.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from .errors import MixedEncodingError, SubtitleError

# Longest BOM first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_BOM_FOR = {codec: bom for bom, codec in _BOMS}
UNICODE_CODECS = frozenset(_BOM_FOR)


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str  # a Python codec name, without BOM handling ("utf-8", "cp1252")
    bom: bool


def normalize(encoding: str) -> tuple[str, bool | None]:
    """Canonical codec name, and whether the name itself asks for a BOM.

    "utf-8-sig", "utf-16" and "utf-32" imply a BOM; None means "no opinion".
    """
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise SubtitleError(f"unknown text encoding {encoding!r}") from None
    implied = {"utf-8-sig": ("utf-8", True), "utf-16": ("utf-16-le", True), "utf-32": ("utf-32-le", True)}
    if name in implied:
        return implied[name]
    return name, None


def _roundtrips(data: bytes, codec: str) -> str | None:
    try:
        text = data.decode(codec)
        return text if text.encode(codec) == data else None
    except (UnicodeError, LookupError):
        return None


def _utf16_without_bom(data: bytes) -> str | None:
    """Guess the byte order of BOM-less UTF-16 from where the NULs are.

    Subtitle text is mostly Latin script, so in UTF-16 nearly every other byte
    is NUL; in any 8-bit encoding NUL does not occur in text at all.
    """
    if len(data) < 4 or len(data) % 2:
        return None
    even, odd = data[0::2].count(0), data[1::2].count(0)
    half = len(data) // 2
    if odd > half * 0.3 and even < half * 0.05:
        return "utf-16-le"
    if even > half * 0.3 and odd < half * 0.05:
        return "utf-16-be"
    return None


# A symbol wedged between two letters ("Za¿ó³æ") is the mark of a wrong code
# page; in the right one those bytes are letters ("Zażółć").  Apostrophes,
# dashes and the middle dot do belong inside words and are not counted.
_MOJIBAKE = re.compile(r"(?<=[^\W\d_])[^\w\s\x00-\x7f\u2018\u2019\u00b7\u2010-\u2014](?=[^\W\d_])")
# Western European Windows text is by far the most common legacy subtitle
# encoding; charset-normalizer often ranks a Baltic or Central European page
# that decodes the same accented letters first, so it wins ties.
_PREFERRED = ("cp1252", "latin_1", "iso8859_15")
_CHAOS_MARGIN = 0.1


def _legacy(data: bytes) -> Decoded | None:
    """Pick among charset-normalizer's plausible 8-bit candidates."""
    # imported here: it costs ~30-60 ms at start-up and only legacy 8-bit files need it
    import charset_normalizer

    results = list(charset_normalizer.from_bytes(data))
    if not results:
        return None
    floor = min(m.chaos for m in results)
    ranked = []
    for order, match in enumerate(results):
        if match.chaos > floor + _CHAOS_MARGIN:
            continue
        codec, _ = normalize(match.encoding)
        text = _roundtrips(data, codec)
        if text is None:
            continue
        preference = _PREFERRED.index(codec) if codec in _PREFERRED else len(_PREFERRED)
        ranked.append((len(_MOJIBAKE.findall(text)), preference, order, codec, text))
    if not ranked:
        return None
    *_, codec, text = min(ranked)
    return Decoded(text, codec, False)


def check_single_encoding(data: bytes, name: str) -> None:
    """Refuse a file (already known not to be UTF-8) in which some lines are
    UTF-8 and others are not: MixedEncodingError with both line numbers.

    Such a file has no single right decoding.  Read as a legacy code page, its
    UTF-8 letters become two-character mojibake ("é" -> "Ã©") that the
    truecaser would then recase ("Ã" -> "ã"), changing bytes for good; so it is
    refused, and the user converts it to one encoding first
    (docs/guide/saving.md).  A UTF-8 line is one with a multi-byte UTF-8 sequence that
    decodes strictly; pure-ASCII lines are valid in both and say nothing.
    """
    first_utf8: tuple[int, str] | None = None
    first_other: tuple[int, int] | None = None
    for number, line in enumerate(data.split(b"\n"), 1):
        if line.isascii():
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            if first_other is None:
                first_other = (number, line[exc.start])
        else:
            if first_utf8 is None:
                first_utf8 = (number, next(ch for ch in text if ord(ch) > 0x7F))
        if first_utf8 is not None and first_other is not None:
            (u_line, u_char), (o_line, o_byte) = first_utf8, first_other
            raise MixedEncodingError(
                f"mixes text encodings: line {u_line} is UTF-8 ({u_char!r}) but line {o_line} is not "
                f"(byte 0x{o_byte:02x}); subcase will not guess, because recasing a misread line would "
                f"change its bytes for good; save the file as UTF-8 in a text editor and open it again", name)


def decode(data: bytes, name: str) -> Decoded:
    """Decode file bytes; SubtitleError if they are not text."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            text = _roundtrips(data[len(bom):], codec)
            if text is None:
                raise SubtitleError(f"starts with a {codec} byte-order mark but is not valid {codec} text", name)
            return Decoded(text, codec, True)
    text = _roundtrips(data, "utf-8")
    if text is not None and "\x00" not in text:
        return Decoded(text, "utf-8", False)
    utf16 = _utf16_without_bom(data)
    if utf16:
        text = _roundtrips(data, utf16)
        if text is not None:
            return Decoded(text, utf16, False)
    if b"\x00" in data:
        raise SubtitleError("contains binary data (NUL bytes); this is not a subtitle text file", name)
    check_single_encoding(data, name)
    legacy = _legacy(data)
    if legacy is not None:
        return legacy
    raise SubtitleError("cannot determine the text encoding; this does not look like a text file", name)


def encode(text: str, encoding: str, bom: bool, name: str = "file") -> bytes:
    """Encode text for saving; SubtitleError names the first unencodable character."""
    codec, implied = normalize(encoding)
    if implied is not None:
        bom = implied
    try:
        body = text.encode(codec)
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start:exc.end]
        line = exc.object.count("\n", 0, exc.start) + 1
        raise SubtitleError(
            f"cannot save as {codec}: {bad!r} on line {line} has no {codec} form; choose UTF-8 instead", name
        ) from None
    return (_BOM_FOR[codec] if bom and codec in _BOM_FOR else b"") + body
