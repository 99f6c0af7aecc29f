"""Advanced SubStation Alpha (.ass) and SubStation Alpha (.ssa): read line for line, written back the same.

An ASS file is sections of ``Key: value`` lines.  The cues are the ``Dialogue:`` lines of ``[Events]``,
their fields in the order its ``Format:`` line names.  A cue's head is its line up to the Text field, kept
verbatim; its text is the Text field as written, one line, with override blocks ``{\\...}``, hard breaks
``\\N``, ``\\n``, ``\\h`` and drawings (``{\\p1}m 0 0 l ...{\\p0}``) as markup (subtitles/markup.py), so
recasing never reaches them.  Every other line is kept as text: ``[Script Info]`` and its ``;`` comments,
styles, ``Comment:`` events, ``[Fonts]`` and ``[Graphics]`` (uuencoded), Aegisub project data.  So an
unedited file renders byte for byte and a recased one differs in letters only.

ASS writes centiseconds: a cue's time changed in subcase is written rounded to 10 ms.  Conversion goes through
SubRip-style cues (subtitles/formats.py); ``losses`` says, one line each, what another format cannot hold.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Sequence

from . import markup
from .document import Cue, RawCue
from .errors import ParseWarning
from .lines import split_lines

if TYPE_CHECKING:
    from .document import Document

_SECTION_RE = re.compile(r"\s*\[([^\]\r\n]*)\]\s*")
# The fields of an event when the [Events] section has no Format line (ASS v4.00+; SSA has Marked for Layer)
_DEFAULT_FIELDS = ("layer", "start", "end", "style", "name", "marginl", "marginr", "marginv", "effect", "text")
_TIME_RE = re.compile(r"\s*(-?)([0-9]{1,9}):([0-9]{1,2}):([0-9]{1,2})(?:[.,:]([0-9]{1,9}))?\s*")
HEAD_SEP = "\x00"  # between the parts of a cue's head template in Cue.settings (timecode.timing_block)

# A style named for what is not dialogue: signs, songs, on-screen titles, typesetting.  Matched against the
# style name's words (split at case changes, digits and punctuation: "OP_Romaji", "SignBold", "ED-Eng").
_NOT_DIALOGUE_WORDS = frozenset({
    "sign", "signs", "song", "songs", "op", "ed", "opening", "ending", "kara", "karaoke", "lyric", "lyrics",
    "romaji", "kanji", "ts", "typeset", "typesetting", "title", "titles", "insert", "eyecatch", "logo",
    "credit", "credits", "staff", "note", "notes", "tl", "sfx",
})
_NAME_WORD_RE = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# Override tags that make a cue a song or a sign whatever its style: karaoke timing, drawings.
_KARAOKE_RE = re.compile(r"\\(?:k|K|kf|ko|kt)[0-9]")
_DRAWING_RE = re.compile(r"\\p0*[1-9]")
_STYLE_TAG_RE = re.compile(r"\\([ibu])([0-9]*)")
_AN_TAG_RE = re.compile(r"\\an([1-9])")


def _tags(block: str) -> list[str]:
    """The override tags of a block ``{\\pos(1,2)\\i1}``: each backslash starts one.  The tags inside an
    animation, ``\\t(\\fs20)``, count as their own (read in one pass, whatever the block holds)."""
    inside = block[1:block.find("}")]  # a drawing's markup goes on past its block: "{\\p1}m 0 0 l 8 0"
    return ["\\" + tag for tag in inside.split("\\") if tag]


def has_signature(text: str) -> bool:
    """Whether decoded text is an ASS/SSA script: its first line that is not blank is ``[Script Info]``."""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head[:13].lower() == "[script info]"


def no_cues(text: str) -> str | None:
    """Why a script without cues is refused, or None when it is well formed but empty (an [Events] section
    with no Dialogue line is an empty script, as a WebVTT file with only its header is)."""
    if not any(_section_name(line) == "events" for line, _ in split_lines(text)):
        return "no [Events] section, so no subtitle events; this is not a complete ASS/SSA script"
    return None


def _section_name(line: str) -> str | None:
    m = _SECTION_RE.fullmatch(line)
    return m.group(1).strip().lower() if m else None


def parse(text: str) -> tuple[list[str | Cue], list[ParseWarning]]:
    segments: list[str | Cue] = []
    warnings: list[ParseWarning] = []
    verbatim: list[str] = []
    section: str | None = None
    fields: tuple[str, ...] = _DEFAULT_FIELDS
    for i, (content, ending) in enumerate(split_lines(text)):
        name = _section_name(content)
        if name is not None:
            section = name
            if name == "events":
                fields = _DEFAULT_FIELDS
        elif section == "events":
            key, colon, value = content.partition(":")
            kind = key.strip().lower()
            if colon and kind == "format":
                fields = tuple(f.strip().lower() for f in value.split(","))
                if "text" not in fields[-1:] or "start" not in fields or "end" not in fields:
                    warnings.append(ParseWarning(i + 1, "the [Events] Format line names no Start, End or last "
                                                        "Text field; its events are kept as text"))
            elif colon and kind == "dialogue":
                cue = _cue(content, ending, i + 1, len(key) + 1, fields, warnings)
                if cue is not None:
                    if verbatim:
                        segments.append("".join(verbatim))
                        verbatim = []
                    segments.append(cue)
                    continue
        verbatim.append(content + ending)
    if verbatim:
        segments.append("".join(verbatim))
    return segments, warnings


def _cue(line: str, ending: str, number: int, value_at: int, fields: tuple[str, ...],
         warnings: list[ParseWarning]) -> Cue | None:
    """The cue of one Dialogue line, or None (with a warning) when its fields cannot be read."""
    if fields[-1:] != ("text",) or "start" not in fields or "end" not in fields:
        return None
    parts = line[value_at:].split(",", len(fields) - 1)
    if len(parts) < len(fields):
        warnings.append(ParseWarning(number, f"a Dialogue line with {len(parts)} fields where the Format line "
                                             f"names {len(fields)}; kept as text"))
        return None
    if HEAD_SEP in line:
        warnings.append(ParseWarning(number, "a Dialogue line with a NUL character; kept as text"))
        return None
    at = [value_at]  # where each field starts in the line
    for part in parts[:-1]:
        at.append(at[-1] + len(part) + 1)
    s, e = fields.index("start"), fields.index("end")
    if s > e:
        warnings.append(ParseWarning(number, "the Format line names End before Start; this Dialogue line is "
                                             "kept as text"))
        return None
    start, end = _ms(parts[s]), _ms(parts[e])
    if start is None or end is None:
        bad = (parts[s] if start is None else parts[e]).strip()
        shown = bad if len(bad) <= 40 else bad[:37] + "..."
        warnings.append(ParseWarning(number, f"cannot read the time '{shown}' of a Dialogue line; kept as text"))
        return None
    head = line[:at[-1]]
    # the head around its two times (what timecode.timing_block writes a changed time into), the style and name
    settings = HEAD_SEP.join((line[:at[s]], line[at[s] + len(parts[s]):at[e]], line[at[e] + len(parts[e]):at[-1]],
                              *(parts[fields.index(f)].strip() if f in fields else "" for f in _NAMED)))
    text = parts[-1]
    cue = Cue(None, start, end, settings, text, line=number)
    cue.raw = RawCue(head, cue.head_key(), text, (ending,), "")
    if end < start:
        warnings.append(ParseWarning(number, "cue ends before it starts"))
    return cue


def _ms(field: str) -> int | None:
    m = _TIME_RE.fullmatch(field)
    if m is None:
        return None
    sign, h, mi, s, frac = m.groups()
    ms = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 1000 + (round(int(frac) * 1000 / 10 ** len(frac)) if frac else 0)
    return -ms if sign else ms


_NAMED = ("style", "name")  # the fields ``_field`` reads, kept after the head template in Cue.settings


def _field(cue: Cue, name: str) -> str:
    parts = cue.settings.split(HEAD_SEP)
    return parts[3 + _NAMED.index(name)] if len(parts) == 3 + len(_NAMED) else ""


def style(cue: Cue) -> str:
    """The style an ASS cue names ("" for a cue of another format)."""
    return _field(cue, "style")


def is_dialogue_style(name: str) -> bool:
    """False for a style named for signs, songs or typesetting ("Sign", "OP_Romaji", "ED", "Karaoke")."""
    return not any(w.lower() in _NOT_DIALOGUE_WORDS for w in _NAME_WORD_RE.findall(name))


def keeps_as_written(cue: Cue) -> bool:
    """Whether an ASS cue is a sign or a song, whose letters are kept as written: its style is named for
    one, or it has karaoke timing or a drawing."""
    return (not is_dialogue_style(style(cue)) or _KARAOKE_RE.search(cue.text) is not None
            or _DRAWING_RE.search(cue.text) is not None)


# -- another format's cues as ASS ------------------------------------------------------------------------

HEADER = ("[Script Info]", "; Script generated by subcase", "ScriptType: v4.00+", "WrapStyle: 0",
          "ScaledBorderAndShadow: yes", "", "[V4+ Styles]",
          "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, "
          "Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, "
          "MarginL, MarginR, MarginV, Encoding",
          "Style: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1",
          "", "[Events]", "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text")
_SRT_TAG_RE = re.compile(r"<(/?)([ibu])>", re.IGNORECASE)


def text_from_common(text: str) -> str:
    """SubRip-style cue text as an ASS Text field: <i>, <b>, <u> as {\\i1}...{\\i0}, line breaks as \\N,
    override blocks kept, entities as their characters; other tags (<font>) are dropped (``cannot_hold``
    lists them)."""
    out = []
    for span in markup.split(text):
        if not span.is_markup:
            out.append(span.text.replace("\n", "\\N"))
        elif span.text.startswith(("{", "\\")):
            out.append(span.text)
        elif span.text.startswith("&"):  # ASS has no escapes: the character the viewer read
            out.append(markup.unescape(span.text))
        elif m := _SRT_TAG_RE.fullmatch(span.text):
            out.append(f"{{\\{m.group(2).lower()}{'0' if m.group(1) else '1'}}}")
    return "".join(out)


def from_cues(cues: Sequence[Cue], newline: str) -> list[str | Cue]:
    """A new ASS script (one Default style) whose events are the given SubRip-style cues."""
    out: list[str | Cue] = [newline.join(HEADER) + newline]
    prefix, middle, suffix = "Dialogue: 0,", ",", ",Default,,0,0,0,,"
    for cue in cues:
        lines = [ln for ln in cue.text.split("\n") if ln.strip()]
        out.append(Cue(None, cue.start_ms, cue.end_ms, HEAD_SEP.join((prefix, middle, suffix, "Default", "")),
                       text_from_common("\n".join(lines))))
    return out


def cannot_hold(cues: Sequence[Cue]) -> list[str]:
    """What SubRip-style cues lose as ASS events: tags other than <i>, <b>, <u>; text in braces, which
    ASS players hide as a comment."""
    dropped = [s.text for c in cues for s in markup.split(c.text)
               if s.is_markup and s.text.startswith("<") and not s.text.startswith("</")
               and not _SRT_TAG_RE.fullmatch(s.text)]
    braced = [m.group() for c in cues for s in markup.split(c.text) if not s.is_markup
              for m in re.finditer(r"\{[^}\n]*\}?", s.text)]
    out = []
    if dropped:
        out.append(_listing("tag(s) ASS has no form for", dropped, "ass"))
    if braced:
        out.append(_listing("text(s) in braces, which ASS players hide as comments", braced, "ass"))
    return out


# -- ASS cues as another format's ------------------------------------------------------------------------

def _common_text(text: str) -> str:
    out: list[str] = []
    open_tags: list[str] = []
    for span in markup.split(text):
        if not span.is_markup:
            out.append(span.text)
        elif span.text in ("\\N", "\\n"):
            out.append("\n")
        elif span.text == "\\h":
            out.append("\u00a0")
        elif span.text.startswith("{\\"):
            for tag in _tags(span.text):
                if m := _STYLE_TAG_RE.fullmatch(tag):
                    on = m.group(2) not in ("", "0")
                    name = m.group(1)
                    if on and name not in open_tags:
                        open_tags.append(name)
                        out.append(f"<{name}>")
                    elif not on and name in open_tags:
                        open_tags.remove(name)
                        out.append(f"</{name}>")
                elif m := _AN_TAG_RE.fullmatch(tag):
                    out.append(f"{{\\an{m.group(1)}}}")
        elif not span.text.startswith("{"):
            out.append(span.text)  # entities and tags-like text are ASS's literal text
    out.extend(f"</{name}>" for name in reversed(open_tags))
    return "".join(out)


def common_cues(cues: Sequence[Cue]) -> list[Cue]:
    """ASS events as SubRip-style cues: \\N as line breaks, {\\i1} as <i>, {\\anN} kept, every other
    override and drawing dropped (``losses`` lists them); an event with nothing left to show is left out."""
    out = []
    for cue in cues:
        text = _common_text(cue.text)
        if markup.plain(text).strip():
            out.append(Cue(None, cue.start_ms, cue.end_ms, "", text))
    return out


_EXAMPLES = 3


def _listing(kind: str, items: list[str], target: str) -> str:
    shown = ", ".join(items[:_EXAMPLES]) + (", \u2026" if len(items) > _EXAMPLES else "")
    return f"converting to {target.upper()} drops {len(items)} {kind}: {shown}"


def losses(doc: Document, target: str) -> list[str]:
    """One line per kind of ASS content that writing ``doc`` as ``target`` drops."""
    out = []
    tags = [tag for cue in doc.cues for span in markup.split(cue.text)
            if span.is_markup and span.text.startswith("{\\") and not _DRAWING_RE.search(span.text)
            for tag in _tags(span.text)
            if not _STYLE_TAG_RE.fullmatch(tag) and not _AN_TAG_RE.fullmatch(tag)]
    if tags:
        out.append(_listing("override tag(s)", tags, target))
    drawings = [cue for cue in doc.cues if _DRAWING_RE.search(cue.text)]
    if drawings:
        out.append(f"converting to {target.upper()} drops the drawings of {len(drawings)} event(s)")
    empty = [cue for cue in doc.cues if markup.plain(cue.text).strip() == ""]
    if empty:
        out.append(f"converting to {target.upper()} leaves out {len(empty)} event(s) with no text to show")
    names = [n for cue in doc.cues if (n := _field(cue, "name"))]
    if names:
        out.append(_listing("speaker name(s) of the Name field", sorted(set(names), key=names.index), target))
    counts: dict[str, int] = {}
    section = ""
    for seg in doc._segments:
        if not isinstance(seg, str):
            continue
        for line, _ in split_lines(seg):
            name = _section_name(line)
            if name is not None:
                section = name
                if name in ("fonts", "graphics"):
                    counts[f"[{line.strip()[1:-1]}] section"] = counts.get(f"[{line.strip()[1:-1]}] section", 0) + 1
                continue
            key = line.partition(":")[0].strip().lower()
            if section.startswith("v4") and key == "style":
                counts["style(s)"] = counts.get("style(s)", 0) + 1
            elif section == "events" and key == "comment":
                counts["Comment event(s)"] = counts.get("Comment event(s)", 0) + 1
    if counts:
        out.append(f"converting to {target.upper()} drops " + ", ".join(f"{n} {k}" for k, n in counts.items())
                   + " (fonts, colours and positions of the styles with them)")
    return out


__all__ = ["parse", "from_cues", "common_cues", "losses", "cannot_hold", "has_signature", "no_cues", "style",
           "keeps_as_written", "is_dialogue_style"]
