"""SCC (CEA-608) files: real samples round-trip byte for byte, recasing rewrites only letter bytes.

The samples are pycaption's and ttconv's test data (tests/fixtures/broadcast/README.md); pycaption is the
reference parser the decoded captions are checked against.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from subcase.cli import main
from subcase.subtitles import MarkError, SubtitleError, load, loads, save
from subcase.subtitles import scc

BROADCAST = Path(__file__).resolve().parents[1] / "fixtures" / "broadcast"
SAMPLES = sorted(p for p in BROADCAST.glob("*/*.scc") if p.parent.name != "malformed")
ALL_CAPS = BROADCAST / "ttconv" / "mix-rows-roll-up.scc"  # a real roll-up news caption, all in capitals
_WORD = re.compile(r"[0-9A-Fa-f]{4}")


def make_scc(*lines: tuple[str, list[str | int]]) -> bytes:
    """An SCC file of our own making: each line a timecode and items, a control code as an int (sent doubled,
    as broadcast encoders send them) or text (its letters in pairs, with odd parity, padded with 0x80)."""
    out = ["Scenarist_SCC V1.0", ""]
    for stamp, items in lines:
        words: list[str] = []
        for item in items:
            if isinstance(item, int):
                words += [f"{scc.with_parity(item >> 8):02x}{scc.with_parity(item & 0xFF):02x}"] * 2
            else:
                codes = [scc.with_parity(scc.BASIC_CODE[ch]) for ch in item] + ([0x80] if len(item) % 2 else [])
                words += [f"{a:02x}{b:02x}" for a, b in zip(codes[::2], codes[1::2])]
        out += [f"{stamp}\t{' '.join(words)}", ""]
    return "\n".join(out).encode("ascii")


RCL, EOC, EDM, ENM, CR, RU2, RDC = 0x1420, 0x142F, 0x142C, 0x142E, 0x142D, 0x1425, 0x1429
PAC_ROW14, PAC_ROW15, ITALICS = 0x1450, 0x1470, 0x112E
CC2_RCL, CC2_EOC, CC2_PAC15 = 0x1C20, 0x1C2F, 0x1C70

OWN = make_scc(
    ("00:00:01:00", [ENM, RCL, PAC_ROW14, "WHERE ARE YOU GOING,", PAC_ROW15, "MR. SMITH?", EOC]),
    ("00:00:03:15", [ENM, RCL, PAC_ROW15, "TO LONDON, ", ITALICS, "WITH JOHN.", EDM, EOC]),
    ("00:00:06:00", [EDM, RU2, CR, PAC_ROW15, "AND THEN WE WENT HOME", CR, PAC_ROW15, "TO PARIS."]),
    ("00:00:08:00", [CC2_RCL, CC2_PAC15, "HOLA, MARIA.", CC2_EOC]),
    ("00:00:09:00", [EDM]),
)


def test_own_file_decodes_every_mode_and_channel_2():
    doc = loads(OWN, "own.scc")
    assert doc.format == "scc"
    texts = [c.text for c in doc.cues]
    assert texts == ["WHERE ARE YOU GOING,\nMR. SMITH?", "TO LONDON,  WITH JOHN.", "AND THEN WE WENT HOME",
                     "TO PARIS.", "HOLA, MARIA."]  # channel 2 after channel 1; a mid-row code shows as a space
    # shown at the End Of Caption, the 24th and 22nd word of its line: a word a frame, 1.001 ms a timecode ms
    assert [c.start_ms for c in doc.cues[:2]] == [1001 + round(23 * 1001 / 30), 3504 + round(21 * 1001 / 30)]
    assert doc.to_bytes() == OWN


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_sample_round_trips_byte_identical(path, tmp_path):
    data = path.read_bytes()
    doc = load(path)
    assert doc.cues and doc.to_bytes() == data
    out = tmp_path / path.name
    saved = save(doc, out)
    assert out.read_bytes() == data and saved.warnings == []


# Samples whose captions pycaption reads as we do (it splits a pop-on caption by position, applies an
# extended character over three letters before it, and drops a byte of bad parity).
SAME_AS_PYCAPTION = ["pycaption/example.scc", "pycaption/paint_on_edm.scc", "pycaption/pop_on.scc",
                     "pycaption/tab_offset.scc", "ttconv/pop-on.scc"]


@pytest.mark.parametrize("name", SAME_AS_PYCAPTION)
def test_captions_match_pycaption(name):
    from pycaption import SCCReader

    data = (BROADCAST / name).read_bytes()
    doc = loads(data, name)
    theirs = SCCReader().read(data.decode("ascii")).get_captions("en-US")
    assert len(doc.cues) == len(theirs)
    for ours, their in zip(doc.cues, theirs):
        assert re.sub(r"\W", "", ours.text) == re.sub(r"\W", "", their.get_text())
        assert abs(ours.start_ms - their.start / 1000) <= 34  # within a frame


def _decoded(data: bytes) -> list[list[str]]:
    """Each line's words, a text word as its two CEA-608 characters, a control word as its hex digits."""
    out = []
    for line in data.decode("ascii").split("\n"):
        words = []
        for word in _WORD.findall(line.partition("\t")[2] or line.partition(" ")[2]):
            hi = int(word[:2], 16) & 0x7F
            lo = int(word[2:], 16) & 0x7F
            words.append(word if hi < 0x20 else scc.BASIC_CHAR[hi] + scc.BASIC_CHAR.get(lo, "\0"))
        out.append(words)
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize("path", [ALL_CAPS, BROADCAST / "pycaption" / "example.scc"], ids=lambda p: p.name)
def test_recasing_changes_only_letter_bytes(path, data):
    """Property: any recasing of any words rewrites only the bytes of the letters that changed."""
    before = path.read_bytes()
    doc = load(path)
    for c, cue in enumerate(doc.cues):
        spans = []
        for w in cue.words():
            form = "".join(ch.lower() if data.draw(st.booleans()) else ch.upper() for ch in w.text)
            if all(len(ch.lower()) == 1 and len(ch.upper()) == 1 for ch in w.text):
                spans.append((w.start, w.end, form))
        doc.recase(c, spans)
    after = doc.to_bytes()
    assert len(after) == len(before)
    old_lines, new_lines = _decoded(before), _decoded(after)
    for old_words, new_words in zip(old_lines, new_lines):
        assert len(old_words) == len(new_words)
        for a, b in zip(old_words, new_words):
            assert a == b or (a.lower() == b.lower() and len(a) == 2), (a, b)  # controls never change
    differing = [i for i, (x, y) in enumerate(zip(before, after)) if x != y]
    assert all(chr(before[i]) in "0123456789abcdefABCDEF" for i in differing)
    again = loads(after, path.name)
    assert [c.text for c in again.cues] == [c.text for c in doc.cues]


@pytest.mark.model
def test_all_caps_scc_converts_in_auto_mode_with_only_letters_changed(engine, tmp_path, capsys):
    before = ALL_CAPS.read_bytes()
    rc = main(["convert", str(ALL_CAPS), "-o", str(tmp_path / "out"), "--mode", "auto", "-q"])
    assert rc == 0, capsys.readouterr().err
    after = (tmp_path / "out" / ALL_CAPS.name).read_bytes()
    old, new = loads(before, "a.scc"), loads(after, "a.scc")
    assert [c.text.lower() for c in new.cues] == [c.text.lower() for c in old.cues]
    letters = [ch for c in new.cues for ch in c.text if ch.isalpha()]
    assert sum(ch.islower() for ch in letters) > len(letters) // 2  # recased as caps mode recases capitals
    assert "I'M" not in new.cues[1].text and new.cues[1].text.startswith("I'm ")
    assert [w for line in _decoded(after) for w in line if len(w) == 4] == \
        [w for line in _decoded(before) for w in line if len(w) == 4]  # every control word as it was


def test_marks_are_never_inserted():
    doc = loads(OWN, "own.scc")
    end = doc.cues[2].words()[-1].end
    assert not doc.can_insert_mark(2, end, ".")
    assert not doc.can_set_mark(2, end)
    with pytest.raises(MarkError, match="restored marks are not written"):
        doc.insert_marks(2, [(end, ".")])


def test_letter_whose_other_case_is_not_basic_keeps_its_word():
    # "é" is a basic 608 character, "É" only an extended code pair: a word holding it keeps its case
    data = make_scc(("00:00:01:00", [RCL, PAC_ROW15, "CAF\u00e9 AU LAIT", EOC]), ("00:00:03:00", [EDM]))
    doc = loads(data, "cafe.scc")
    assert "\u00e9" in doc.uncertain
    assert any("cannot write the other case" in str(w) for w in doc.warnings)
    doc.recase(0, [(0, 4, "Caf\u00c9"), (5, 7, "au"), (8, 12, "lait")])
    assert doc.cues[0].text == "CAF\u00e9 au lait"
    assert loads(doc.to_bytes(), "cafe.scc").cues[0].text == "CAF\u00e9 au lait"


def test_edit_beyond_letters_is_refused_with_one_line(tmp_path):
    path = tmp_path / "own.scc"
    path.write_bytes(OWN)
    doc = load(path)
    doc.set_cue_text(0, "WHERE ARE YOU GOING NOW,\nMR. SMITH?")
    with pytest.raises(SubtitleError, match=r"own\.scc: SCC caption 1 was edited beyond its letters"):
        save(doc, path)
    assert path.read_bytes() == OWN
    doc.set_cue_text(0, "WHERE ARE YOU GOING,\nMR. SMITH\u0416")
    with pytest.raises(SubtitleError, match="not in the CEA-608 basic character set"):
        save(doc, path)
    assert path.read_bytes() == OWN


def test_bad_parity_is_one_warning_and_kept():
    good = make_scc(("00:00:01:00", [RCL, PAC_ROW15, "HELLO", EOC]), ("00:00:02:00", [EDM]))
    bad = good.replace(b"c845", b"4845")  # "HE" with the parity bit of H cleared: even parity
    assert bad != good
    doc = loads(bad, "bad.scc")
    parity = [w for w in doc.warnings if "parity" in str(w)]
    assert [str(w) for w in parity] == ["line 3: 1 hex word(s) have a byte with even parity, the first 4845; "
                                        "CEA-608 bytes have odd parity: read without it, kept as written"]
    assert doc.cues[0].text == "HELLO" and doc.to_bytes() == bad


def test_file_without_header_is_one_clear_line(engine, tmp_path, capsys):
    path = BROADCAST / "malformed" / "scc_without_header.scc"
    with pytest.raises(SubtitleError, match="not an SCC file: the first line is ''"):
        load(path)
    rc = main(["convert", str(path), "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert rc == 1 and "not an SCC file" in err and "Traceback" not in err


def test_byte_order_mark_is_read_past_and_kept():
    data = b"\xef\xbb\xbf" + OWN
    doc = loads(data, "bom.txt")  # found by its first line, whatever its name
    assert [c.text for c in doc.cues] == [c.text for c in loads(OWN, "own.scc").cues]
    assert doc.to_bytes() == data


def test_encoding_option_does_not_apply(tmp_path):
    with pytest.raises(SubtitleError, match="--encoding does not apply"):
        loads(OWN, "own.scc", encoding="cp1252")


def test_converting_to_scc_says_it_cannot(tmp_path):
    src = tmp_path / "a.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:02,000\nhello\n", encoding="utf-8")
    with pytest.raises(SubtitleError, match="converting to SCC is not supported"):
        save(load(src), tmp_path / "a.scc")
    assert not (tmp_path / "a.scc").exists()


def test_scc_converts_to_srt_in_utf8_and_says_what_is_lost(tmp_path):
    from subcase.subtitles.losses import conversion_losses

    doc = load(BROADCAST / "pycaption" / "example.scc")
    assert conversion_losses(doc, "srt") == [
        "converting to SRT keeps each caption's text and times only: it drops the CEA-608 positions, styles, "
        "caption modes (pop-on, roll-up, paint-on) and channels"]
    saved = save(doc, tmp_path / "example.srt")
    assert saved.warnings == []  # pysrt reads the cues we wrote
    text = (tmp_path / "example.srt").read_text(encoding="utf-8")
    assert "00:00:01,134 --> 00:00:05,272\nLetra traducida al Espa\u00f1ol\n\u266a \u00a1Uooye!" in text


@settings(max_examples=150, deadline=None)
@given(cuts=st.lists(st.tuples(st.integers(0, len(OWN) - 1), st.binary(max_size=6)), max_size=6))
def test_damaged_files_are_read_or_refused_in_one_line(cuts):
    """Property: bytes overwritten anywhere give a document that writes back the same bytes, or one error line."""
    data = bytearray(OWN)
    for at, junk in cuts:
        data[at:at + len(junk)] = junk
    try:
        doc = loads(bytes(data), "x.scc")
    except SubtitleError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("x.scc: ")
        return
    assert doc.to_bytes() == bytes(data)
