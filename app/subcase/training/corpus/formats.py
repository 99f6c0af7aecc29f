"""Parsers for the caption and transcript formats of the training corpus (issue 55).

Pure functions from a file's text to cues: no I/O, so each is tested on small fixtures.
A cue is ``Cue(text, start, end)`` with times in seconds, or ``None`` where the source has none;
line breaks inside a cue are ``"\\n"``.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    text: str
    start: float | None = None
    end: float | None = None


def decode(data: bytes) -> str:
    """UTF-8 where it is valid, else cp1252 (the older fansubs and fan transcripts), never an error."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


_SPACES = re.compile(r"[ \t\u00a0]+")


def tidy(text: str) -> str:
    """Spaces collapsed on each line, empty lines dropped."""
    lines = (_SPACES.sub(" ", line).strip() for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


# --- ASS / SSA -------------------------------------------------------------------------------------

# A style is dialogue when one of its name's words starts with one of these and none starts with a
# typesetting word: fansubs name styles freely ("Main-207+", "Flashbacks", "Default - Italics"), and
# the sign, song and karaoke styles carry millions of words that are not speech (caption-corpora.md).
_DIALOGUE_WORDS = ("default", "main", "dialog", "italic", "flashback", "thought", "narrat", "secondary",
                   "overlap", "alt", "top", "internal", "recuerdo", "pensa", "normal", "speech", "principal",
                   "fala", "flash", "dialogo", "diálogo", "gedanke", "rückblende", "pensée", "pensee")
_TYPESET_WORDS = ("sign", "op", "ed", "kara", "romaji", "roomanji", "rom", "kanji", "caption", "title", "note",
                  "song", "lyric", "insert", "eyecatch", "preview", "credit", "staff", "logo", "ts", "typeset",
                  "screen", "card", "ending", "opening", "next", "episode", "tl", "chat", "text", "letter",
                  "sfx", "translation", "eng", "jp", "japanese")
_STYLE_WORD = re.compile(r"[^\W\d_]+")
# a drawing (\p1) or karaoke timing (\k, \kf, \ko, \K) in an override block: typesetting, not speech
_DRAWING_OR_KARAOKE = re.compile(r"\{[^}]*\\(?:p[1-9]|[kK][fo]?\d)")
_OVERRIDE = re.compile(r"\{[^}]*\}")


def dialogue_style(name: str) -> bool:
    words = [w.lower() for w in _STYLE_WORD.findall(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", name))]
    if any(w.startswith(t) if len(t) > 3 else w == t for w in words for t in _TYPESET_WORDS):
        return False
    return any(w.startswith(d) for w in words for d in _DIALOGUE_WORDS)


def _ass_time(value: str) -> float:
    h, m, s = value.strip().split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def ass_text(raw: str) -> str | None:
    """The spoken text of one event's Text field, or None for a drawing or karaoke line."""
    if _DRAWING_OR_KARAOKE.search(raw):
        return None
    text = _OVERRIDE.sub("", raw).replace("\\N", "\n").replace("\\n", "\n").replace("\\h", " ")
    return tidy(text) or None


def ass_cues(text: str) -> list[Cue]:
    """Dialogue-style events of an ASS/SSA file, in time order, each once (fansubs repeat a line on two
    layers for its border)."""
    fields: list[str] = []
    section = ""
    seen: set[tuple[float, str]] = set()
    out: list[tuple[float, int, Cue]] = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.lower()
            continue
        if section != "[events]":
            continue
        if line.lower().startswith("format:"):
            fields = [f.strip().lower() for f in line.split(":", 1)[1].split(",")]
            continue
        if not line.startswith("Dialogue:") or not fields:
            continue
        values = line.split(":", 1)[1].split(",", len(fields) - 1)
        if len(values) != len(fields):
            continue
        event = dict(zip(fields, values))
        if not dialogue_style(event.get("style", "").strip().lstrip("*")):
            continue
        if event.get("effect", "").strip():      # karaoke, banner and scroll effects
            continue
        body = ass_text(event.get("text", ""))
        if body is None or not re.search(r"[^\W\d_]", body):
            continue
        try:
            start, end = _ass_time(event["start"]), _ass_time(event["end"])
        except (KeyError, ValueError):
            continue
        if (start, body) in seen:
            continue
        seen.add((start, body))
        out.append((start, len(out), Cue(body, start, end)))
    out.sort(key=lambda t: (t[0], t[1]))
    return [c for _, _, c in out]


# --- TTML ------------------------------------------------------------------------------------------

def _local(name: str) -> str:
    """An XML name without its namespace: Netflix files use the TTML namespace or the older ttaf1 one."""
    return name.rsplit("}", 1)[-1]


def _attribute(element: ET.Element, name: str) -> str | None:
    for key, value in element.attrib.items():
        if _local(key) == name:
            return value
    return None


def _ttml_time(value: str, tick_rate: float, frame_rate: float) -> float:
    value = value.strip()
    if value.endswith("t"):
        return float(value[:-1]) / tick_rate
    if value.endswith("ms"):
        return float(value[:-2]) / 1000
    if value.endswith("s"):
        return float(value[:-1])
    parts = value.split(":")
    seconds = int(parts[0]) * 3600 + int(parts[1]) * 60 + float(parts[2])
    return seconds + (int(parts[3]) / frame_rate if len(parts) > 3 else 0.0)


def _ttml_text(element: ET.Element) -> str:
    pieces = [element.text or ""]
    for child in element:
        pieces.append("\n" if _local(child.tag) == "br" else _ttml_text(child))
        pieces.append(child.tail or "")
    return "".join(pieces)


def ttml_cues(text: str) -> list[Cue]:
    """The ``<p>`` of a TTML file; Netflix writes each line of a cue as its own ``<p>`` with the cue's
    begin and end, so consecutive paragraphs with the same times are one cue, one line each."""
    root = ET.fromstring(text.encode("utf-8"))
    tick_rate = float(_attribute(root, "tickRate") or 10_000_000)
    frame_rate = float(_attribute(root, "frameRate") or 30)
    cues: list[Cue] = []
    for p in root.iter():
        if _local(p.tag) != "p":
            continue
        body = tidy(_ttml_text(p))
        begin, end = p.get("begin"), p.get("end")
        if not body or begin is None or end is None:
            continue
        start, stop = _ttml_time(begin, tick_rate, frame_rate), _ttml_time(end, tick_rate, frame_rate)
        if cues and cues[-1].start == start and cues[-1].end == stop:
            cues[-1] = Cue(cues[-1].text + "\n" + body, start, stop)
        else:
            cues.append(Cue(body, start, stop))
    return cues


# --- SRT / WebVTT / SBV ----------------------------------------------------------------------------

_ARROW = re.compile(r"(\d+:)?(\d+):(\d+)[.,](\d+)\s*-->\s*(\d+:)?(\d+):(\d+)[.,](\d+)")
_SBV = re.compile(r"^(\d+):(\d+):(\d+)\.(\d+),(\d+):(\d+):(\d+)\.(\d+)$")
_TAG = re.compile(r"<[^>]*>")


def _hms(h: str | None, m: str, s: str, frac: str) -> float:
    hours = int(h.rstrip(":")) if h else 0
    return hours * 3600 + int(m) * 60 + int(s) + int(frac) / 10 ** len(frac)


def timed_text_cues(text: str) -> list[Cue]:
    """Cues of an SRT, WebVTT or YouTube SBV file: a timing line, then the text up to a blank line.
    Tags go (``<i>``, ``<v Name>``); ``<br/>`` is a line break."""
    cues: list[Cue] = []
    start: float | None = None
    end: float | None = None
    lines: list[str] = []

    def flush() -> None:
        if start is not None and lines:
            body = tidy(html.unescape(_TAG.sub("", "\n".join(lines))))
            if body:
                cues.append(Cue(body, start, end))

    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        arrow = _ARROW.search(line)
        sbv = _SBV.match(line)
        if arrow or sbv:
            flush()
            lines = []
            if arrow:
                g = arrow.groups()
                start, end = _hms(g[0], g[1], g[2], g[3]), _hms(g[4], g[5], g[6], g[7])
            else:
                assert sbv is not None
                g = sbv.groups()
                start, end = _hms(g[0] + ":", g[1], g[2], g[3]), _hms(g[4] + ":", g[5], g[6], g[7])
            continue
        if not line:
            flush()
            start, lines = None, []
            continue
        if start is not None:
            lines.append(line.replace("<br/>", "\n").replace("<br>", "\n"))
    flush()
    return cues


# --- AMI / ICSI (QMSum) ----------------------------------------------------------------------------

_QMSUM_TAG = re.compile(r"\{\w+\}")
_SPACE_BEFORE_MARK = re.compile(r"\s+([.,?!;:%])")
_CLITIC = re.compile(r"\s+(n't|'s|'re|'ve|'ll|'d|'m)\b", re.IGNORECASE)


def detokenize(text: str) -> str | None:
    """An AMI/ICSI turn as written prose: ``{disfmarker}``-style tags dropped, "Okay ." -> "Okay.",
    "it 's" -> "it's"; None when nothing spoken is left."""
    text = _QMSUM_TAG.sub(" ", text)
    text = _SPACE_BEFORE_MARK.sub(r"\1", " " + text)
    text = _CLITIC.sub(r"\1", text)
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r"^[.,?!;:]+\s*", "", text)
    return text if re.search(r"[^\W\d_]", text) else None


# --- Markdown podcast transcripts (The Changelog) --------------------------------------------------

_MD_TURN = re.compile(r"^\*\*([^*]{1,80}?):\*\*\s*(.*)$", re.DOTALL)
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")
_INLINE_TIME = re.compile(r"\s*\[(?:\d{1,2}:)?\d{1,2}:\d{2}(?:\.\d+)?\]\s*")
_UNCLEAR_TIME = re.compile(r"\[(\w[\w ]*?)\s+\d{1,2}:\d{2}:\d{2}(?:[.:]\d+)?\]")
_EMPHASIS = re.compile(r"(?<![\w*])[*_]{1,2}([^*_\n]+?)[*_]{1,2}(?![\w*])")


def markdown_clean(text: str) -> str:
    # an escaped * or _ is a character the speaker's words hold, not emphasis: kept aside meanwhile
    text = text.replace("\\_", "\x00u").replace("\\*", "\x00s")
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_ESCAPE.sub(r"\1", text)
    text = _UNCLEAR_TIME.sub(r"[\1]", text)
    text = _INLINE_TIME.sub(" ", text)
    text = _EMPHASIS.sub(r"\1", text)
    text = text.replace("\x00u", "_").replace("\x00s", "*")
    return _SPACES.sub(" ", text.replace("\n", " ")).strip()


def markdown_turns(text: str) -> list[str]:
    """One item per paragraph of a podcast transcript: a turn's first paragraph as "Name: text", its
    further paragraphs as they are.  Headings, breaks ("**Break:** [01:33] to [03:00]") and empty
    paragraphs go."""
    items: list[str] = []
    for para in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        para = para.strip()
        if not para or para.startswith("#") or para.startswith("---"):
            continue
        turn = _MD_TURN.match(para)
        if turn:
            name, body = turn.group(1).strip(), markdown_clean(turn.group(2))
            if name.lower() == "break" or not re.search(r"[^\W\d_]", body):
                continue
            items.append(f"{markdown_clean(name)}: {body}")
        else:
            body = markdown_clean(para)
            if re.search(r"[^\W\d_]", body):
                items.append(body)
    return items


# --- prose helpers ---------------------------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.?!…])[\"”’)\]]*\s+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s.strip()]


def paragraphs_of(text: str, lo: int = 80) -> list[str]:
    """A long unbroken transcript cut into paragraphs at the first sentence end after ``lo`` words."""
    out: list[str] = []
    current: list[str] = []
    words = 0
    for sentence in sentences(text):
        current.append(sentence)
        words += len(sentence.split())
        if words >= lo:
            out.append(" ".join(current))
            current, words = [], 0
    if current:
        out.append(" ".join(current))
    return out


def html_paragraphs(fragment: str) -> list[str]:
    """The text of each ``<p>`` of an HTML fragment, tags dropped and entities decoded."""
    out = []
    for match in re.finditer(r"<p[^>]*>(.*?)</p>", fragment, re.DOTALL | re.IGNORECASE):
        body = html.unescape(_TAG.sub("", re.sub(r"<br\s*/?>", " ", match.group(1))))
        body = _SPACES.sub(" ", body.replace("\n", " ")).strip()
        if body:
            out.append(body)
    return out


def mostly_capitals(texts: list[str]) -> bool:
    """Whether most letters are capitals: captions in capitals (older SDH, some fansubs) say nothing of casing."""
    upper = lower = 0
    for text in texts:
        upper += sum(ch.isupper() for ch in text)
        lower += sum(ch.islower() for ch in text)
    return upper > lower


_FRENCH_SPACE = re.compile(r"[ \t]+([?!;:]+)(?=\s|$|[\"”»)])")


def french_spacing(text: str) -> str:
    """French writes a space before ? ! ; and :.  Typed as a plain space it lets a line break before the
    mark and the mark is no longer the word's own (casing/marks.py reads a mark after a no-break space only),
    so the plain space becomes the no-break one the fansubs and transcripts meant (U+00A0)."""
    return _FRENCH_SPACE.sub("\u00a0\\1", text)


# --- which language a text is in -------------------------------------------------------------------

_STOPWORDS = {
    "en": set("the and you to of is that it what this i'm don't was with have are for not be we he she they".split()),
    "es": set("el la que de y los las es un una por qué no se lo con para está pero muy".split()),
    "fr": set("le la les de et est que un une je vous pas il ce ne qui c'est suis tu".split()),
    "de": set("der die das und ist ich nicht du sie es ein eine zu wir mit den auf was".split()),
    "pt": set("o a que de e os as um uma não é do da eu você isso para com está mas".split()),
}


def stopword_language(text: str) -> tuple[str | None, int]:
    """The language whose common words ``text`` uses most, and how many it uses (0: no idea)."""
    words = re.findall(r"[^\W\d_]+(?:'[^\W\d_]+)?", text.lower())
    scores = {lang: sum(w in stop for w in words) for lang, stop in _STOPWORDS.items()}
    lang = max(scores, key=lambda k: scores[k])
    return (lang, scores[lang]) if scores[lang] else (None, 0)
