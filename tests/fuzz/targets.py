"""Fuzz targets: one per reader of a file subcase does not write itself, each a structured
Hypothesis strategy (inputs shaped like the real files, then damaged) and a check.

The property every check holds a reader to: any input gives either a parsed result or the
reader's own one-line error (a ``SubcaseError`` subclass), never another exception and never a
hang.  The subtitle readers also give back the very bytes they read when nothing was changed,
and changing the case of every word changes nothing but letters.

``tests/fuzz/test_targets.py`` runs each target for a fixed, derandomized number of examples in
CI; ``tests/fuzz/run.py`` runs them for as long as asked with fresh random seeds
(docs/dev/testing.md, "Fuzzing").
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

from subcase.errors import SubcaseError

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: for subtitles.conftest from run.py too
from subtitles.conftest import assert_only_case_changed, recase_word  # noqa: E402

# No input here (a few hundred kilobytes at most) may take this long: a reader that does loops, or
# its cost grows faster than its input.
SLOWEST_S = 10.0

# -- shared pieces -------------------------------------------------------------------------------------

NEWLINES = st.sampled_from(["\n", "\r\n", "\r"])
# Letters of the scripts subtitles are written in, marks, and characters readers trip on.
ALPHABET = st.sampled_from(list(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéèüößñçÉÜŁłŻżčšđΑαβγΣσςДдЖжİıŞş"
    "0123456789 .,;:!?¿¡'\"-–—…“”‘’«»()[]&#<>{}\\/|*♪\t\u00a0\u200b\ufeff\x00\x1b\u2028"))
WORD = st.text(ALPHABET.filter(lambda c: c.isalpha()), min_size=1, max_size=12)
# Every encoding a subtitle file comes in (issue #54); the text is kept to what each can hold.
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1", "cp1250",
             "cp1251", "cp1253", "cp1254", "mac-roman")


def _encode(text: str, encoding: str) -> bytes:
    return text.encode(encoding, errors="ignore")


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """``data`` with up to four byte-level edits: what a truncated download or a bad disk does."""
    out = bytearray(data)
    for _ in range(draw(st.integers(0, 4))):
        pos = draw(st.integers(0, len(out)))
        op = draw(st.sampled_from(["insert", "delete", "flip", "truncate", "repeat"]))
        if op == "insert":
            out[pos:pos] = draw(st.binary(min_size=1, max_size=6))
        elif op == "delete":
            del out[pos:pos + draw(st.integers(1, 40))]
        elif op == "flip" and pos < len(out):
            out[pos] = draw(st.integers(0, 255))
        elif op == "truncate":
            del out[pos:]
        elif op == "repeat":
            out[pos:pos] = out[pos:pos + draw(st.integers(1, 60))] * draw(st.integers(2, 30))
    return bytes(out)


# -- subtitles: SRT and WebVTT -----------------------------------------------------------------------------

def _digits(n: int) -> st.SearchStrategy[str]:
    return st.one_of(st.integers(0, 10 ** n - 1).map(lambda v: str(v).zfill(n)),
                     st.text(st.sampled_from("0123456789"), min_size=0, max_size=n + 3),
                     st.just("9" * 4400))  # longer than int() takes by default


@st.composite
def timestamp(draw, vtt: bool) -> str:
    hours = draw(st.one_of(_digits(2), st.just(""))) if vtt else draw(_digits(2))
    head = f"{hours}:" if hours else ""
    sep = draw(st.sampled_from([".", ","] if vtt else [",", ".", ":"]))
    return f"{head}{draw(_digits(2))}:{draw(_digits(2))}{sep}{draw(_digits(3))}"


@st.composite
def cue_text_line(draw, vtt: bool) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 8))):
        parts.append(draw(st.one_of(
            WORD, WORD, WORD, st.text(ALPHABET, max_size=6),
            st.sampled_from(["<i>", "</i>", "<b>", "</b>", "<u>", "</u>", '<font color="#ff0000">', "</font>",
                             "{\\an8}", "{\\i1}", "{\\i0}", "\\N", "\\h", "&amp;", "&lt;", "&nbsp;", "&#233;",
                             "&#x;", "&", "<", ">", "-->", "- ", "♪ ", "[", "]", "(", ")", ":", "<i", "</"]),
            st.sampled_from(["<v Bob>", "<v.loud Esme>", "</v>", "<c.yellow.bg_blue>", "</c>", "<00:00:01.500>",
                             "<ruby>", "<rt>", "</rt>", "</ruby>", "<lang en-GB>", "</lang>"]) if vtt
            else st.just("<i><b><u>" * draw(st.integers(0, 3))),
        )))
    return draw(st.sampled_from([" ", ""])).join(parts)


@st.composite
def subtitle_file(draw, vtt: bool) -> tuple[bytes, str]:
    """A file shaped like SRT or WebVTT, some of it wrong on purpose, in one of ENCODINGS."""
    nl = draw(NEWLINES)
    blocks: list[str] = []
    if vtt:
        blocks.append(draw(st.sampled_from(["WEBVTT", "WEBVTT - header", "WEBVTT\tx", "WEBVTTX", "webvtt", ""]))
                      + draw(st.sampled_from(["", nl + "Kind: captions", nl + "X-TIMESTAMP-MAP=LOCAL:00:00.000"])))
    for number in range(1, draw(st.integers(0, 6)) + 1):
        kind = draw(st.sampled_from(["cue"] * 6 + (["note", "style", "region"] if vtt else []) + ["junk"]))
        if kind == "note":
            blocks.append("NOTE" + draw(st.sampled_from(["", " a comment", nl + "two" + nl + "lines --> here"])))
            continue
        if kind == "style":
            blocks.append("STYLE" + nl + "::cue { color: yellow; }")
            continue
        if kind == "region":
            blocks.append("REGION" + nl + "id:fred" + nl + "width:40%")
            continue
        if kind == "junk":
            blocks.append(draw(st.text(ALPHABET, max_size=30)))
            continue
        lines = []
        ident = draw(st.one_of(st.just(str(number)), st.just(""), _digits(3), WORD))
        if ident:
            lines.append(ident)
        arrow = draw(st.sampled_from([" --> ", "-->", " -> ", " --> ", "\t-->\t", " --> "]))
        settings = draw(st.sampled_from(["", " line:85%", " align:left", " position:10%,line-left size:35%",
                                         " X1:100 X2:200", " line:-1"]))
        lines.append(draw(timestamp(vtt)) + arrow + draw(timestamp(vtt)) + settings)
        lines.extend(draw(cue_text_line(vtt)) for _ in range(draw(st.integers(0, 3))))
        blocks.append(nl.join(lines))
    gap = draw(st.sampled_from([nl + nl, nl + nl, nl, nl + nl + nl, nl + " " + nl]))
    text = gap.join(blocks) + draw(st.sampled_from(["", nl, nl + nl]))
    encoding = draw(st.sampled_from(ENCODINGS))
    data = _encode(text, encoding)
    if draw(st.booleans()):
        data = draw(damaged(data))
    name = draw(st.sampled_from(["x.vtt", "x.srt", "x.txt"] if vtt else ["x.srt", "x.srt", "x.vtt", "x.txt"]))
    return data, name


_ASS_TEXT = st.sampled_from(["{\\k20}", "{\\i1}", "{\\i0}", "{\\an8}", "{\\pos(1,2)}", "{\\p1}", "{\\p0}",
                             "m 0 0 l 8 0", "\\N", "\\n", "\\h", "{", "}", "{\\", ",", "{\\t(\\fs20)}", "&amp;"])


@st.composite
def ass_script(draw) -> tuple[bytes, str]:
    """A file shaped like an ASS/SSA script, some of it wrong on purpose: sections missing or out of order,
    Format lines with other fields, Dialogue lines with bad times or too few fields, tags cut off."""
    nl = draw(NEWLINES)
    lines = [draw(st.sampled_from(["[Script Info]", "[script info]", "", "[Script Info"]))]
    lines += draw(st.lists(st.sampled_from(["; a comment", "ScriptType: v4.00+", "Title: x", "junk"]), max_size=3))
    lines += draw(st.sampled_from([[], ["[V4+ Styles]", "Format: Name, Fontname", "Style: Sign,Arial"]]))
    if draw(st.integers(0, 5)):
        lines.append(draw(st.sampled_from(["[Events]", "[EVENTS]", " [Events] "])))
        lines.append(draw(st.sampled_from([
            "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
            "Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
            "Format: Start, End, Text", "Format: Text, Start, End", "Format: End, Start, Text", ""])))
        for _ in range(draw(st.integers(0, 6))):
            kind = draw(st.sampled_from(["Dialogue: ", "Dialogue:", "Comment: ", "dialogue: "]))
            times = [draw(st.one_of(st.sampled_from(["0:00:01.00", "0:00:02.5", "-0:00:01.00", "1:2:3", "x"]),
                                    timestamp(True))) for _ in range(2)]
            style = draw(st.sampled_from(["Default", "Sign", "OP_Romaji", ""]))
            text = "".join(draw(st.lists(st.one_of(WORD, _ASS_TEXT, st.text(ALPHABET, max_size=6)), max_size=8)))
            fields = draw(st.sampled_from([[draw(st.sampled_from(["0", "Marked=0"])), *times, style, "", "0", "0",
                                             "0", ""], [*times], [times[0]]]))
            lines.append(kind + ",".join([*fields, text]))
    if draw(st.booleans()):
        lines += ["[Fonts]", "fontname: a.ttf", "!!!!%!!!"]
    text = nl.join(lines) + draw(st.sampled_from(["", nl]))
    data = _encode(text, draw(st.sampled_from(ENCODINGS)))
    if draw(st.booleans()):
        data = draw(damaged(data))
    return data, draw(st.sampled_from(["x.ass", "x.ssa", "x.srt", "x.txt"]))


def check_subtitles(case: tuple[bytes, str]) -> None:
    """Read, write back unchanged, recase every word, convert: never anything but SubtitleError."""
    from subcase.subtitles import SubtitleError, formats, loads

    data, name = case
    try:
        doc = loads(data, name)
    except SubtitleError as exc:
        _assert_one_line(exc, name)
        return
    assert doc.to_bytes() == data, "an unchanged document did not write back its own bytes"
    for cue in doc.cues:
        for i, word in enumerate(cue.words()):
            # Each letter in its other case where that is one letter of the same lower case: not "ß" ("SS"),
            # "ı" ("I", whose lower case is "i") or a final "Σ" (swapcase gives "ς").
            flipped = "".join(c.swapcase() if len(c.swapcase()) == 1 and c.swapcase().lower() == c.lower() else c
                              for c in word.text)
            try:
                flipped.encode(doc.encoding)
            except UnicodeEncodeError:
                continue  # the file's code page has no other case of this letter
            recase_word(doc, cue.index, i, flipped)
    assert_only_case_changed(data, doc.to_bytes(), doc.encoding)
    for fmt in formats.FORMATS.values():
        try:
            doc.convert(fmt).to_bytes()
        except SubtitleError as exc:
            _assert_one_line(exc)


# -- subtitles: TTML (issue #58) ------------------------------------------------------------------------------

_TTML_TEXT = st.one_of(WORD, st.text(ALPHABET, max_size=12).map(
    lambda t: t.replace("&", "&amp;").replace("<", "&lt;")), st.sampled_from([
        " ", "\n   ", "&amp;", "&#233;", "&#x1F600;", "<br/>", "<br></br>", "<!-- Note -->",
        "<![CDATA[Mc<Donald> & CO]]>", "<?pi Text?>", "<metadata><x>Hidden</x></metadata>", "<set tts:color='red'/>",
        "<span tts:color=\"a > b\"\n  style='s1'>Styled</span>", "<foreign:span xmlns:foreign='urn:x'>Other</foreign:span>"]))
# what makes a file not well-formed (or not TTML), now and then
_TTML_BROKEN = st.sampled_from(["&nbsp;", "&undefined;", "<span>", "</span>", "<p>", "]]>", "&", "<tt:br/>"])


def _ttml_content(draw) -> str:
    parts = draw(st.lists(_TTML_TEXT, max_size=8))
    if parts and draw(st.booleans()):
        a = draw(st.integers(0, len(parts) - 1))
        parts[a] = f"<span style='s'>{parts[a]}</span>"
    if draw(st.integers(0, 9)) == 0:
        parts.insert(draw(st.integers(0, len(parts))), draw(_TTML_BROKEN))
    return "".join(parts)


@st.composite
def ttml_file(draw) -> tuple[bytes, str]:
    """A file shaped like TTML (plain or prefixed, DFXP's draft namespace), some of it wrong on purpose."""
    nl = draw(NEWLINES)
    pre = draw(st.sampled_from(["", "tt:", "_t:"]))
    ns = draw(st.sampled_from(["http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1", ""]))
    declare = f' xmlns{":" + pre[:-1] if pre else ""}="{ns}"' if ns or not pre else ""
    times = st.sampled_from(["0s", "1.5s", "00:00:01.000", "00:00:01:12", "00:00:01:12.1", "90f", "100t", "2m",
                             "1h", "500ms", "x", "", "99:99:99.999", "00:00:01,000"])
    paragraphs = []
    for _ in range(draw(st.integers(0, 5))):
        attrs = "".join(f' {k}="{draw(times)}"' for k in ("begin", "end", "dur") if draw(st.booleans()))
        if draw(st.booleans()):
            attrs += ' xml:space="preserve"'
        content = _ttml_content(draw)
        paragraphs.append(f"<{pre}p{attrs}>{content}</{pre}p>")
    body = draw(st.sampled_from([f"<{pre}body>", f'<{pre}body begin="1s">', f"<{pre}body><{pre}div timeContainer='seq'>"]))
    close = f"</{pre}div></{pre}body>" if "div" in body else f"</{pre}body>"
    prolog = draw(st.sampled_from(['<?xml version="1.0" encoding="UTF-8"?>' + nl, "",
                                   '<?xml version="1.0" encoding="ISO-8859-1"?>' + nl, "<!DOCTYPE tt>" + nl,
                                   '<!DOCTYPE tt [<!ENTITY a "AAAA">]>' + nl]))
    params = draw(st.sampled_from(["", ' xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:frameRate="25" '
                                       'ttp:tickRate="10"', ' xmlns:ttp="http://www.w3.org/ns/ttml#parameter" '
                                       'ttp:frameRateMultiplier="1000 1001" ttp:subFrameRate="0"']))
    text = (f"{prolog}<{pre}tt{declare}{params} xmlns:tts='http://www.w3.org/ns/ttml#styling'>{nl}"
            f"{body}{nl.join(paragraphs)}{close}{nl}</{pre}tt>{nl}")
    encoding = "latin-1" if "ISO-8859-1" in prolog else draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
    data = _encode(text, encoding)
    if draw(st.booleans()):
        data = draw(damaged(data))
    return data, draw(st.sampled_from(["x.ttml", "x.dfxp", "x.xml", "x.srt"]))


# -- term lists ---------------------------------------------------------------------------------------------

_XML_NAME = st.one_of(WORD, st.text(ALPHABET, max_size=20), st.just("&amp;"), st.just("&ent;"),
                      st.just("<![CDATA[Mc<Donald>]]>"), st.just("&#x41;"), st.just("&#0;"))


@st.composite
def names_xml(draw) -> str:
    """A Subtitle Edit names list, some with a DTD (entities, external ones, laughs) or broken."""
    def element(depth: int) -> str:
        tag = draw(st.sampled_from(["name", "name", "blacklist", "names", "ignore_words", "x"]))
        if depth > 2 or tag == "name" or draw(st.booleans()):
            return f"<{tag}>{draw(_XML_NAME)}</{tag}>"
        inner = "".join(element(depth + 1) for _ in range(draw(st.integers(0, 4))))
        return f"<{tag}>{inner}</{tag}>"

    prolog = draw(st.sampled_from([
        "", '<?xml version="1.0" encoding="utf-8"?>',
        '<!DOCTYPE names [<!ENTITY ent "Kramer">]>',
        '<!DOCTYPE names [<!ENTITY ent SYSTEM "file:///etc/passwd">]>',
        '<!DOCTYPE names [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
        '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY ent "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>',
    ]))
    root = draw(st.sampled_from(["names", "ignore_words", "root", "other"]))
    body = "".join(element(1) for _ in range(draw(st.integers(0, 6))))
    deep = "<x>" * draw(st.sampled_from([0, 0, 5000])) if draw(st.booleans()) else ""
    return f"{prolog}<{root}>{deep}{body}</{root}>"


@st.composite
def term_list(draw) -> bytes:
    kind = draw(st.sampled_from(["text", "capfile", "xml", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=300))
    if kind == "xml":
        text = draw(names_xml())
    else:
        nl = draw(NEWLINES)
        lines = []
        for _ in range(draw(st.integers(0, 12))):
            lines.append(draw(st.one_of(
                st.lists(WORD, min_size=1, max_size=10).map(" ".join),  # more than MAX_WORDS: a sentence
                st.just("# " + draw(WORD)) if kind == "capfile" else WORD,
                st.text(ALPHABET, max_size=20), st.just(""), st.just("Dr. Grey"), st.just("x" * 10_000))))
        text = nl.join(lines)
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "cp1252"]))
    data = _encode(text, encoding)
    return draw(damaged(data)) if draw(st.booleans()) else data


def check_terms(data: bytes) -> None:
    """A term list file, read as ``--terms`` and File > Import Terms read one."""
    from subcase.review.terms import MAX_WORDS, TermListError, read_terms, term_words

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "names.xml"
        path.write_bytes(data)
        try:
            terms = read_terms(path)
        except TermListError as exc:
            _assert_one_line(exc)
            assert exc.path is not None and exc.path.name == path.name, f"names no file: {exc}"
            return
    assert terms.terms, "a term list was read with no terms"
    for term in terms.terms:
        assert 1 <= len(term_words(term)) <= MAX_WORDS, f"{term!r} is not a term"


# -- profiles -------------------------------------------------------------------------------------------------

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(), st.text(ALPHABET, max_size=8))
ANY_JSON = st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                           st.dictionaries(st.text(ALPHABET, max_size=6), inner,
                                                                           max_size=4)), max_leaves=12)


def _maybe(draw, good: st.SearchStrategy) -> object:
    """Mostly a good value, sometimes any JSON at all."""
    return draw(st.one_of(good, good, good, ANY_JSON))


@st.composite
def profile_entry(draw, kind: str) -> tuple[str, object]:
    form = draw(st.lists(WORD, min_size=1, max_size=3).map(" ".join))
    key = form.lower()
    if kind in ("context", "ask"):
        key = f"{draw(WORD).lower()}|{key}|{draw(WORD).lower()}"
    entry = {"form": _maybe(draw, st.just(form)),
             "decisions": _maybe(draw, st.integers(0, 50)), "changes": _maybe(draw, st.integers(0, 50)),
             "files": _maybe(draw, st.integers(0, 9))}
    if kind == "term":
        entry["source"] = _maybe(draw, st.just("names.txt"))
    return _maybe(draw, st.just(key)) if draw(st.integers(0, 9)) == 0 else key, _maybe(draw, st.just(entry))


@st.composite
def profile_file(draw) -> bytes:
    from subcase.review.profiles.profile import CATEGORY_NAMES, KINDS, STYLE_NAMES

    shape = draw(st.sampled_from(["profile"] * 6 + ["json", "deep", "bytes"]))
    if shape == "bytes":
        return draw(st.binary(max_size=200))
    if shape == "deep":
        return (draw(st.sampled_from(["[", '{"a":'])) * draw(st.sampled_from([10, 10_000, 100_000]))).encode()
    if shape == "json":
        return json.dumps(draw(ANY_JSON)).encode()
    entries = {}
    for kind in draw(st.lists(st.sampled_from([*KINDS, "other"]), max_size=4, unique=True)):
        items = {}
        for _ in range(draw(st.integers(0, 3))):
            key, entry = draw(profile_entry(kind))
            if isinstance(key, str):
                items[key] = entry
        entries[kind] = _maybe(draw, st.just(items))
    data = {
        "schema": _maybe(draw, st.just(1)),
        "name": _maybe(draw, st.sampled_from(["Lupin S1", "W3C talks", "..", " x", "a/b", "x" * 90])),
        "model_version": _maybe(draw, st.sampled_from(["0.2.0", ""])),
        "styles": _maybe(draw, st.dictionaries(st.sampled_from(sorted(CATEGORY_NAMES) + ["x"]),
                                                st.sampled_from(sorted(STYLE_NAMES) + ["x"]), max_size=2)),
        "entries": _maybe(draw, st.just(entries)),
        "removed": _maybe(draw, st.lists(st.text(ALPHABET, max_size=8), max_size=3)),
        "sources": _maybe(draw, st.dictionaries(st.text(max_size=4), st.integers(0, 9), max_size=2)),
    }
    for key in draw(st.lists(st.sampled_from(sorted(data)), max_size=2, unique=True)):
        del data[key]
    raw = json.dumps(data, ensure_ascii=draw(st.booleans()), indent=draw(st.sampled_from([None, 1]))).encode()
    return draw(damaged(raw)) if draw(st.integers(0, 4)) == 0 else raw


def check_profile(data: bytes) -> None:
    """A shared profile file, read as ``subcase profile import`` and the editor read one."""
    from subcase.review.profiles.profile import Profile, ProfileError

    try:
        profile = Profile.from_bytes(data, "shared.json")
    except ProfileError as exc:
        _assert_one_line(exc)
        return
    again = Profile.from_bytes(profile.to_bytes(), "again")
    assert again.to_bytes() == profile.to_bytes(), "a profile read back is not the profile written"
    profile.size()
    for kind in profile.entries:
        for key in profile.active(kind):
            profile.describe(Profile.entry_id(kind, key))


# -- autosave snapshots ---------------------------------------------------------------------------------------

@st.composite
def snapshot_file(draw) -> bytes:
    """What may lie in the autosave folder: snapshots of every schema, some damaged, some not snapshots."""
    shape = draw(st.sampled_from(["snapshot"] * 6 + ["json", "deep", "bytes"]))
    if shape == "bytes":
        return draw(st.binary(max_size=200))
    if shape == "deep":
        return (draw(st.sampled_from(["[", '{"a":'])) * draw(st.sampled_from([10, 100_000]))).encode()
    if shape == "json":
        return json.dumps(draw(ANY_JSON)).encode()
    data = {
        "schema": _maybe(draw, st.sampled_from([1, 2, 3, 4])),
        "time": _maybe(draw, st.sampled_from(["2026-11-29T01:00:00+00:00", ""])),
        "pid": _maybe(draw, st.sampled_from([2 ** 22 + 1, 0, -1, os.getpid(), 2 ** 80])),
        "source": _maybe(draw, st.sampled_from(["/tmp/film.srt", "", "/"])),
        "base": _maybe(draw, st.sampled_from(["/tmp/film.srt", ""])),
        "base_sha256": _maybe(draw, st.just("0" * 64)),
        "complete": _maybe(draw, st.booleans()),
        "n_cues": _maybe(draw, st.integers(0, 3)),
        "threshold": _maybe(draw, st.floats(0, 1)),
        "cues": _maybe(draw, st.just([])),
    }
    for key in draw(st.lists(st.sampled_from(sorted(data)), max_size=2, unique=True)):
        del data[key]
    raw = json.dumps(data).encode()
    return draw(damaged(raw)) if draw(st.integers(0, 4)) == 0 else raw


def check_autosave_folder(files: list[bytes]) -> None:
    """The autosave folder at start-up: ``find_recoverable`` offers the snapshots it can use and
    passes over the rest; a file in it never stops the editor from starting."""
    from subcase.review import autosave

    with tempfile.TemporaryDirectory() as tmp, _env(SUBCASE_DATA_DIR=tmp):
        folder = autosave.autosave_dir()
        folder.mkdir(parents=True)
        for i, data in enumerate(files):
            (folder / f"{i:02d}.json").write_bytes(data)
        try:
            found = autosave.find_recoverable()
        except SubcaseError as exc:
            _assert_one_line(exc)
            return
    for r in found:
        assert isinstance(r.data, dict) and r.data.get("schema") in autosave.READABLE_SCHEMAS
        assert isinstance(r.time, str) and isinstance(r.source, Path)


# The restore of one snapshot: a complete snapshot of a real file, then some of its fields replaced.
RESTORE_SRT = b"1\n00:00:01,000 --> 00:00:02,000\nwe met john\n"
_WORDS = [[0, 0, 2, "we", "We", "We", "T", [0.1, 0.8, 0.05, 0.05], "untouched", None],
          [1, 3, 6, "met", "met", "met", "L", [0.9, 0.05, 0.03, 0.02], "accepted", None],
          [2, 7, 11, "john", "John", "JOHN", "T", [0.1, 0.8, 0.05, 0.05], "changed", None]]
_FIELDS = ("schema", "base", "base_sha256", "n_cues", "threshold", "current", "complete", "cues", "cues.0",
           "cues.0.cue", "cues.0.text", "cues.0.words", "cues.0.words.0", "cues.0.words.1.2",
           "cues.0.words.2.6", "cues.0.words.2.7", "cues.0.words.2.8", "cues.0.words.0.10")


@st.composite
def snapshot_edits(draw) -> list[tuple[str, object]]:
    return draw(st.lists(st.tuples(st.sampled_from(_FIELDS), st.one_of(
        ANY_JSON, st.integers(-3, 3), st.sampled_from([[0, 0], [5, 9], "nan", 1e308, -1.0, "L", "gone"]))),
        min_size=1, max_size=3))


def check_restore(edits: list[tuple[str, object]]) -> None:
    """A snapshot chosen for restoring, some of its fields damaged: restored, or a one-line error."""
    from subcase.digest import file_sha256
    from subcase.review import autosave

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "film.srt"
        base.write_bytes(RESTORE_SRT)
        data: dict = {"schema": 3, "time": "2026-11-29T01:00:00+00:00", "pid": 1, "source": str(base),
                      "base": str(base), "base_sha256": file_sha256(base), "mode": "restore", "punctuate": "never",
                      "threshold": 0.9, "current": [0, 1], "complete": True, "n_cues": 1,
                      "cues": [{"cue": 0, "text": "We met JOHN", "words": json.loads(json.dumps(_WORDS))}]}
        for where, value in edits:
            _replace(data, where.split("."), copy.deepcopy(value))  # never the strategy's own list
        data = json.loads(json.dumps(data))  # as read from disk
        try:
            autosave.restore(data)
        except SubcaseError as exc:
            _assert_one_line(exc)


def _replace(node: object, path: list[str], value: object) -> None:
    """Set the field at ``path`` ("cues", "0", "words") to ``value``, if an earlier edit left it there."""
    for part in path[:-1]:
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return
    last = path[-1]
    if isinstance(node, dict):
        node[last] = value
    elif isinstance(node, list) and last.isdigit() and int(last) < len(node):
        node[int(last)] = value


# -- settings -------------------------------------------------------------------------------------------------

SETTING_KEYS = ("review/threshold", "casing/mode", "casing/punctuate", "review/learning", "review/profile",
                "style/sound-cues", "style/speaker-labels", "batch/output_dir", "batch/output_format",
                "batch/jobs", "view/theme", "view/font_size", "view/show_tags", "view/cpl_limit",
                "view/cps_limit", "media/lead_in_ms", "media/lead_out_ms", "media/follow",
                "media/play_at_flagged", "files/recent")
_INI_VALUE = st.one_of(
    st.sampled_from(["", "0", "1", "-1", "true", "false", "nan", "inf", "-inf", "1e400", "100000", "0.5", "12",
                     "restore", "caps", "dark", "title", "auto", "a, b, c", "\"quoted, value\"", "@Invalid()",
                     "@ByteArray(\\0\\x1)", "@Variant(\\0\\0\\0\\x7f\\0\\0\\0\\x1)", "@Variant(\\xff\\xff)",
                     "@Size(1 2)", "@Rect(1 2 3)", "@Point(x)", "9" * 5000, "\\", "\\x", "\\u00e9"]),
    st.text(ALPHABET, max_size=12))
_MEDIA_REF = st.one_of(
    st.just('{"path": "/etc/shadow", "name": "shadow", "fingerprint": "x"}'),
    st.just("[" * 100_000), st.just('{"path": null}'), st.just("[]"), st.just("{"),
    ANY_JSON.map(json.dumps))


@st.composite
def settings_file(draw) -> tuple[bytes, str]:
    """The INI file settings are kept in under ``SUBCASE_CONFIG_DIR`` (what any text editor or a crash may
    have left there), and the subtitle file the editor asks media for."""
    source = "/tmp/film.srt"
    lines = []
    by_section: dict[str, list[str]] = {}
    for key in draw(st.lists(st.sampled_from(SETTING_KEYS), max_size=10)):
        section, name = key.split("/")
        by_section.setdefault(section, []).append(f"{name}={draw(_INI_VALUE)}")
    if draw(st.booleans()):
        from subcase.review.storage import file_key
        key = file_key(Path(source)) if draw(st.booleans()) else draw(WORD)
        by_section.setdefault("media-files", []).append(f"{key}={json.dumps(draw(_MEDIA_REF))}")
    for section, items in by_section.items():
        lines.append(f"[{section}]")
        lines.extend(items)
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(st.text(ALPHABET, max_size=20)))
    raw = "\n".join(lines).encode("utf-8")
    return (draw(damaged(raw)) if draw(st.integers(0, 3)) == 0 else raw), source


def check_settings(case: tuple[bytes, str]) -> None:
    """Every setting the editor reads, from a damaged or hand-edited INI file: each one a value of its type,
    never an exception."""
    from PySide6.QtCore import QSettings

    from subcase.gui.settings import Settings
    from subcase.media import MediaRef

    data, source = case
    with tempfile.TemporaryDirectory() as tmp:
        ini = Path(tmp) / "subcase.ini"
        ini.write_bytes(data)
        s = Settings(QSettings(str(ini), QSettings.Format.IniFormat))
        threshold = s.threshold
        assert threshold is None or isinstance(threshold, float)
        for name, kind in (("mode", str), ("punctuate", str), ("learning", bool), ("profile", str),
                           ("output_dir", str), ("output_format", str), ("batch_jobs", int), ("theme", str),
                           ("font_size", int), ("show_tags", bool), ("cpl_limit", int), ("cps_limit", float),
                           ("lead_in_ms", int), ("lead_out_ms", int), ("follow_playback", bool),
                           ("play_at_flagged", bool)):
            assert isinstance(getattr(s, name), kind), name
        assert 6 <= s.font_size <= 48 and 10 <= s.cpl_limit <= 200 and 0 <= s.lead_in_ms <= 5000
        assert all(isinstance(style, str) for style in s.house_styles().values())
        assert all(isinstance(p, str) for p in s.recent_files)
        ref = s.media_for(Path(source))
        assert ref is None or isinstance(ref, MediaRef)
        s.layout()


# -- the registry -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    name: str
    strategy: st.SearchStrategy
    check: Callable[[object], None]
    reader: str  # what it exercises, for the docs and the run's report


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("srt", subtitle_file(vtt=False), check_subtitles, "subcase.subtitles.loads (SubRip)"),
    Target("vtt", subtitle_file(vtt=True), check_subtitles, "subcase.subtitles.loads (WebVTT)"),
    Target("ass", ass_script(), check_subtitles, "subcase.subtitles.loads (ASS/SSA)"),
    Target("ttml", ttml_file(), check_subtitles, "subcase.subtitles.loads (TTML)"),
    Target("terms", term_list(), check_terms, "subcase.review.terms.read_terms"),
    Target("profile", profile_file(), check_profile, "subcase.review.profiles.profile.Profile.from_bytes"),
    Target("autosave", st.lists(snapshot_file(), min_size=1, max_size=3), check_autosave_folder,
           "subcase.review.autosave.find_recoverable"),
    Target("settings", settings_file(), check_settings, "subcase.gui.settings.Settings"),
    Target("restore", snapshot_edits(), check_restore, "subcase.review.autosave.restore"),
)}


# -- helpers ----------------------------------------------------------------------------------------------------

def _assert_one_line(exc: SubcaseError, path: str | None = None) -> None:
    """The reader's own error is one line a user can act on, naming the file when it has one."""
    message = str(exc)
    assert message and "\n" not in message and "\r" not in message, f"not one line: {message!r}"
    assert "Traceback" not in message
    if path is not None:
        assert message.startswith(f"{path}:"), message


class _env:
    """Environment variables set for a block (the data and config folders of a throw-away run)."""

    def __init__(self, **values: str):
        self.values = values
        self.saved: dict[str, str | None] = {}

    def __enter__(self) -> None:
        for k, v in self.values.items():
            self.saved[k] = os.environ.get(k)
            os.environ[k] = v

    def __exit__(self, *exc: object) -> None:
        for k, old in self.saved.items():
            if old is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = old


__all__ = ["SLOWEST_S", "TARGETS", "Target"]
