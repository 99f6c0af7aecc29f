"""Turn file bytes into text and back without changing a single byte.

Order of evidence, strongest first: a byte-order mark; strict UTF-8 (which
random legacy bytes almost never pass); the NUL-byte pattern of BOM-less
UTF-16; and only then charset-normalizer for legacy 8-bit code pages.  Every
candidate must re-encode to exactly the input bytes, otherwise an unedited
save would not be byte-identical and the candidate is rejected.

A short legacy file often fits several code pages about equally well.  The
chosen one is the Western page among them when it fits as well as the rest;
and a letter whose byte means something else in another page that fits
(a letter of another case pair, or a mark) is *uncertain*: its case is never
changed (``Document.recase`` keeps it), so its byte is written back as it was
whichever page the file really is in.  Such a file gets one warning line
(``Decoded.doubt``), and ``encoding=`` (``--encoding``) overrides detection.
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
class EncodingGuess:
    """How sure the reading of a file's bytes is; the default: sure (a BOM, UTF-8 or the caller's encoding)."""

    # letters whose case must not change: their byte reads otherwise in another code page that fits
    uncertain: frozenset[str] = frozenset()
    doubt: str | None = None  # the one-line warning of a low-confidence guess, None when sure
    guessed: bool = False  # a legacy code page chosen by detection (not a BOM, UTF-8 or the caller's)


SURE = EncodingGuess()


@dataclass(frozen=True, slots=True)
class Decoded:
    text: str
    encoding: str  # a Python codec name, without BOM handling ("utf-8", "cp1252")
    bom: bool
    # letters whose case must not change: their byte reads otherwise in another code page that fits
    uncertain: frozenset[str] = frozenset()
    doubt: str | None = None  # the one-line warning of a low-confidence guess, None when sure
    guessed: bool = False  # a legacy code page chosen by detection (not a BOM, UTF-8 or the caller's)

    @property
    def guess(self) -> EncodingGuess:
        return EncodingGuess(self.uncertain, self.doubt, self.guessed)


def normalize(encoding: str) -> tuple[str, bool | None]:
    """Canonical codec name, and whether the name itself asks for a BOM.

    "utf-8-sig", "utf-16" and "utf-32" imply a BOM; None means "no opinion".
    """
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise SubtitleError(f"unknown text encoding {encoding!r}") from None
    if not getattr(info, "_is_text_encoding", True):  # base64, rot13, zlib: codecs, but not of text
        raise SubtitleError(f"unknown text encoding {encoding!r}")
    name = info.name
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
# encoding; charset-normalizer often ranks a Baltic, DOS or Central European page
# that decodes the same accented letters first (and for short files may not list
# cp1252 at all), so the Western pages are always tried and win ties.
_PREFERRED = ("cp1252", "iso8859-1", "iso8859-15")  # as codecs.lookup names them
# The legacy code pages subcase is tested on (tests/subtitles/test_encoding_property.py):
# each is tried besides charset-normalizer's own candidates.
LEGACY_CODECS = ("cp1252", "iso8859-1", "cp1250", "cp1251", "cp1253", "cp1254", "mac-roman")
_CHAOS_MARGIN = 0.1
# Code pages differ only in bytes 0x80-0xFF, so they are compared on the lines holding such bytes, and on
# at most this much of them: the cost of the comparison stays fixed however large the file.
_SAMPLE_BYTES = 64 * 1024
_HIGH_BYTE = re.compile(rb"[\x80-\xff]")


def _sample(data: bytes) -> bytes:
    """The lines holding bytes 0x80-0xFF, up to ``_SAMPLE_BYTES``.  Each line is read once (a pattern for the
    whole line, tried at every position of a long ASCII line, took 16 s for one line of 50 kB)."""
    lines, size, pos = [], 0, 0
    while size < _SAMPLE_BYTES and (m := _HIGH_BYTE.search(data, pos)) is not None:
        start = data.rfind(b"\n", pos, m.start()) + 1 or pos  # pos is 0 or the end of the line taken last
        end = data.find(b"\n", m.end())
        end = len(data) if end < 0 else end
        lines.append(data[start:end])
        size += end - start + 1
        pos = end
    return b"\n".join(lines)


# Below this many bytes 0x80-0xFF, how cleanly a page reads says too little (one "\u00cc" or "\u00fd" reads as
# well as its neighbours in most pages): every page the file round-trips in is then taken as possible.
_EVIDENCE_BYTES = 64
_HIGH_BYTES = bytes(range(0x80, 0x100))


@dataclass(frozen=True, slots=True)
class _Candidate:
    chaos: float  # charset-normalizer's mess ratio of the sample: 0 reads cleanly
    mojibake: int
    preference: int
    order: int
    codec: str
    text: str


def _candidates(data: bytes) -> tuple[list[_Candidate], bool]:
    """Every code page tried that the bytes round-trip in, and whether the evidence is too scant to tell."""
    # imported here: it costs ~30-60 ms at start-up and only legacy 8-bit files need it
    import charset_normalizer
    from charset_normalizer.md import mess_ratio

    # charset-normalizer's best guess, and the pages subcase supports: its other guesses are
    # often obscure pages (mac-greek for Russian) that would only put every letter in doubt.
    best = charset_normalizer.from_bytes(data).best()
    tried = [normalize(best.encoding)[0]] if best is not None else []
    tried += [c for c in LEGACY_CODECS if c not in tried]
    texts = {codec: text for codec in tried if (text := _roundtrips(data, codec)) is not None}
    sample = _sample(data)
    out = []
    for order, (codec, text) in enumerate(texts.items()):
        seen = sample.decode(codec)  # round-trips, as the whole file does
        preference = _PREFERRED.index(codec) if codec in _PREFERRED else len(_PREFERRED)
        out.append(_Candidate(mess_ratio(seen), len(_MOJIBAKE.findall(seen)), preference, order, codec, text))
    return out, len(sample) - len(sample.translate(None, _HIGH_BYTES)) < _EVIDENCE_BYTES


def _uncertain_letters(chosen: _Candidate, others: list[_Candidate]) -> frozenset[str]:
    """The chosen text's non-ASCII letters whose recasing would not be a recasing in every other page.

    A letter is safe when, in each other page, its byte is a letter too and the byte of each of its
    other-case forms is that letter's same other-case form; then any case change written in the
    chosen page is a case change of the same letter in the page the file is really in."""
    out = set()
    for ch in {c for c in set(chosen.text) if c.isalpha() and not c.isascii()}:
        # the other-case forms the page can write: a letter without one (CJK, "ß") is never recased
        forms = [b for b in (f.encode(chosen.codec, errors="ignore") for f in {ch.upper(), ch.lower()} - {ch})
                 if b]
        if forms and not all(_same_letter(ch.encode(chosen.codec), forms, other.codec) for other in others):
            out.add(ch)
    return frozenset(out)


def _same_letter(byte: bytes, forms: list[bytes], codec: str) -> bool:
    """Whether ``byte`` is a letter in ``codec`` and each of ``forms`` is that letter in another case."""
    try:
        theirs = byte.decode(codec)
        return theirs.isalpha() and all(f.decode(codec) in (theirs.upper(), theirs.lower()) for f in forms)
    except UnicodeDecodeError:  # a multi-byte page, where the lone byte is half a character
        return False


def _legacy(data: bytes) -> Decoded | None:
    """Pick among the plausible 8-bit code pages; note the letters they disagree on."""
    candidates, scant = _candidates(data)
    if not candidates:
        return None
    # the cleanest readings compete: the fewest symbols wedged in words wins, then the Western pages
    floor = min(c.chaos for c in candidates)
    close = [c for c in candidates if c.chaos <= floor + _CHAOS_MARGIN]
    chosen = min(close, key=lambda c: (c.mojibake, c.preference, c.order))
    others = [c for c in (candidates if scant else close) if c is not chosen]
    uncertain = _uncertain_letters(chosen, others)
    doubt = None
    if uncertain:
        also = ", ".join(c.codec for c in others[:3]) + (", ..." if len(others) > 3 else "")
        doubt = (f"text encoding guessed with low confidence: read as {chosen.codec} (also fits: {also}); "
                 f"the case of {len(uncertain)} letter(s) whose byte reads otherwise in those is left as it is")
    return Decoded(chosen.text, chosen.codec, False, uncertain, doubt, guessed=True)


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


def decode(data: bytes, name: str, encoding: str | None = None) -> Decoded:
    """Decode file bytes; SubtitleError if they are not text.

    ``encoding``, when given, is used instead of detection (a BOM it implies or the file has is
    still honoured); SubtitleError if the bytes are not text in it."""
    if encoding is not None:
        return _decode_as(data, name, encoding)
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


def _decode_as(data: bytes, name: str, encoding: str) -> Decoded:
    codec, _implied = normalize(encoding)
    bom = _BOM_FOR.get(codec)
    has_bom = bom is not None and data.startswith(bom)
    body = data[len(bom):] if has_bom and bom is not None else data
    text = _roundtrips(body, codec)
    if text is None:
        try:
            body.decode(codec)
        except UnicodeDecodeError as exc:
            line = body.count(b"\n", 0, exc.start) + 1
            raise SubtitleError(f"is not {codec} text (byte 0x{body[exc.start]:02x} on line {line}); "
                                f"choose another --encoding or leave it out to detect it", name) from None
        raise SubtitleError(f"does not read back byte for byte as {codec}; choose another --encoding "
                            f"or leave it out to detect it", name)
    if "\x00" in text and codec not in UNICODE_CODECS:
        raise SubtitleError("contains binary data (NUL bytes); this is not a subtitle text file", name)
    return Decoded(text, codec, has_bom)


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
