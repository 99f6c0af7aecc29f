"""House style: how a file writes its sound cues and speaker labels.

No model can tell from lowercased input whether a file writes ``[LAUGHING]``
or ``[laughing]``, ``MIERZWIAK:`` or ``Mierzwiak:``; each file is consistent
with itself and files differ.  So each category has a style, chosen (settings,
``--sound-cues``/``--speaker-labels``) or learned from the editor's first fix
in the file (see ``learning.Learner``).

- sound cues and descriptions: words inside ``[...]`` or ``(...)``, whole or
  partial lines;
- speaker labels: ``NAME:`` at a line start, after a dash, or after ``>>``.
  Without ``>>`` a label must look like a name to the model (every word of it
  tagged non-lower), so that ``Web accessibility: essential`` is not a label.

Styles: lower, UPPER, Title, or model (as the model cased it).  In lower and
Title style a word the model takes for a name keeps its capital (``[Joel]``,
``[man on PA]``): the model's probabilities are read without the UPPER tag,
which a sound cue in an UPPER-style file gets for every word.

The functions work on the words of each cue as anything with ``start``,
``end``, ``form``, ``proposed``, ``model_tag`` and ``probs`` (``StyleWord``):
the review state's words in the editor, ``words_of(casing)`` in batch
conversion, so both apply the same style the same way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Protocol, Sequence

from subcase.subtitles import Document, markup

from .tags import TAGS, Tag, TagWriter, tag_of

Pos = tuple[int, int]  # (cue index, index among the cue's cased words)


class StyleWord(Protocol):
    start: int
    end: int
    form: str
    proposed: str
    model_tag: Tag | None
    probs: tuple[float, float, float, float] | None


@dataclass(slots=True)
class Word:
    """A cased word of batch conversion, as the style functions read it."""

    start: int
    end: int
    form: str
    proposed: str
    model_tag: Tag | None
    probs: tuple[float, float, float, float] | None


def words_of(casing, n_cues: int) -> list[list[Word]]:
    """The words of a ``DocumentCasing`` per cue, with their output as the current form."""
    cues: list[list[Word]] = [[] for _ in range(n_cues)]
    for w in casing.words:
        cues[w.cue_index].append(Word(w.start, w.end, w.output, w.output, w.tag, tuple(w.probs)))
    return cues


class Category(str, Enum):
    SOUND = "sound-cues"
    LABEL = "speaker-labels"


class Style(str, Enum):
    LOWER = "lower"
    UPPER = "upper"
    TITLE = "title"
    MODEL = "model"


StyleMap = dict[Category, Style]
STYLE_TAG = {Style.LOWER: Tag.L, Style.UPPER: Tag.U, Style.TITLE: Tag.T}  # the case each style writes
NAME_DOUBT = 0.2  # a word in a cue keeps its capital in lower style when P(lower) is under this
DEFAULT_STYLES: StyleMap = {Category.SOUND: Style.MODEL, Category.LABEL: Style.MODEL}

_BRACKETS = re.compile(r"\[[^\[\]\n]*\]|\([^()\n]*\)")
# A label: optional dash or >>, up to three words, a colon.  Offsets are checked against word tokens.
_LABEL = re.compile(r"^[ \t]*(?:(?P<chev>>>)[ \t]*|[-\u2010\u2013\u2014][ \t]*)?"
                    r"(?P<name>[^\W\d_][\w'.\u2019 -]{0,40}?)[ \t]*:(?!//)", re.MULTILINE)


def categories_of(doc: Document, cues: Sequence[Sequence[StyleWord]], only: Iterable[int] | None = None
                  ) -> dict[Pos, Category]:
    """The sound-cue and speaker-label words of a document, by (cue, word) position.  ``only``: those cues'
    (a label counts as one where its name is seen twice among them)."""
    out: dict[Pos, Category] = {}
    labels: dict[str, list[tuple[int, list[int], bool]]] = {}
    for c in (range(len(doc.cues)) if only is None else only):
        cue = doc.cues[c]
        words = cues[c]
        if not words:
            continue
        text = _as_shown(cue.text)
        for m in _BRACKETS.finditer(text):
            for s, w in enumerate(words):
                if m.start() < w.start and w.end < m.end():
                    out[(c, s)] = Category.SOUND
        for m in _LABEL.finditer(text):
            lo, hi = m.start("name"), m.end("name")
            inside = [s for s, w in enumerate(words) if lo <= w.start and w.end <= hi]
            if not inside or len(inside) > 3:
                continue
            if m.group("chev") is None and not all(_namelike(words[s]) for s in inside):
                continue
            name = m.group("name").strip().lower()
            labels.setdefault(name, []).append((c, inside, m.group("chev") is not None))
    # A speaker speaks more than once: a "Name:" seen once without >> is more likely
    # prose ("like RSI: repetitive stress injury").
    for places in labels.values():
        for c, inside, chev in places:
            if chev or len(places) >= 2:
                for s in inside:
                    out.setdefault((c, s), Category.LABEL)
    return out


def _as_shown(text: str) -> str:
    """The cue text with its markup blanked, every offset kept: a label after a tag or an ASS override block
    (``{\\an8}JOHN:``) or an ASS hard break (``Yes.\\NJOHN:``) starts its line as the viewer sees it."""
    out = []
    for span in markup.split(text):
        if not span.is_markup or span.text.startswith("&"):
            out.append(span.text)
        elif span.text in ("\\N", "\\n"):
            out.append("\n ")
        else:
            out.append(" " * len(span.text))
    return "".join(out)


def _namelike(w: StyleWord) -> bool:
    return w.model_tag is not None and w.model_tag is not Tag.L


def is_name(w: StyleWord) -> bool:
    """The model takes the word for a name (or a mixed form) once UPPER is left out."""
    if w.probs is None:
        return tag_of(w.proposed) in (Tag.T, Tag.M)
    p = dict(zip(TAGS, w.probs))
    return p[Tag.T] + p[Tag.M] > p[Tag.L]


def name_tag(w: StyleWord) -> Tag:
    if w.probs is None:
        return tag_of(w.proposed)
    p = dict(zip(TAGS, w.probs))
    return Tag.M if p[Tag.M] > p[Tag.T] else Tag.T


def style_form(w: StyleWord, style: Style, write_tag: TagWriter, plain: str | None = None) -> str:
    """The word written in ``style``.

    ``plain`` is the model's form for the word when the cue's words are cased
    as a plain sentence (brackets and upper-case context left out): a name
    there keeps its capital in lower and Title style."""
    if style is Style.MODEL:
        return w.proposed
    if style is Style.UPPER:
        return write_tag(w.form, STYLE_TAG[style])
    if style in (Style.LOWER, Style.TITLE):
        if plain is not None:
            if tag_of(plain) is not Tag.L:
                return _with_case(w.form, plain)
        elif is_name(w):
            return write_tag(w.form, name_tag(w))
    return write_tag(w.form, STYLE_TAG[style])


def _with_case(word: str, form: str) -> str:
    return "".join(f if a.lower() == f.lower() else a for a, f in zip(word, form)) if len(word) == len(form) else word


# Two neutral words that lead a cue's words into a plain sentence, per language (see plain_forms).
# English leads in with "and then": Beaufays & Strope put a generic word such as "and" before a
# sentence so that no word of it takes a sentence start's capital.  "we heard" read a sound as the
# start of a title or a shout ("we heard Tires SCREECH", "George GROANS": capitals kept in lower style).
LEAD_INS = {"en": "and then", "es": "se oye", "fr": "on entend", "de": "man hört", "pt": "se ouve"}


def plain_casing(engine, cues: Sequence[Sequence[StyleWord]], cats: dict[Pos, Category],
                 language: str | None = None) -> dict[Pos, tuple[str, float]]:
    """Each category word's form when its cue is cased as one plain sentence, with the model's
    probability that the word is lower case there (``engine`` is the model of the file's ``language``)."""
    from .stream import case_texts

    groups: dict[int, list[Pos]] = {}
    for pos in sorted(cats):
        groups.setdefault(pos[0], []).append(pos)
    if not groups:
        return {}
    order = list(groups)
    # Led in by two neutral words of the file's language, so that no word of the cue starts a sentence
    # (a sentence start's capital says nothing about a name), and ended by a full
    # stop, so that one cue's words do not colour the next one's.
    lead = LEAD_INS.get(language or "en", LEAD_INS["en"])
    texts = [lead + " " + " ".join(cues[p[0]][p[1]].form.lower() for p in groups[c]) + "." for c in order]
    casing = case_texts(engine, texts)
    out: dict[Pos, tuple[str, float]] = {}
    for w in casing.words:
        positions = groups[order[w.cue_index]]
        k = w.word_index - len(lead.split())
        if 0 <= k < len(positions):
            # Only a capital the model is sure of marks a name ("man" in "man on pa" is a coin flip).
            out[positions[k]] = (w.output if w.probs[0] < NAME_DOUBT else w.input.lower(), w.probs[0])
    return out


def plain_forms(engine, cues: Sequence[Sequence[StyleWord]], cats: dict[Pos, Category],
                language: str | None = None) -> dict[Pos, str]:
    """The model's forms for the category words of each cue, cased as one plain sentence per cue."""
    return {pos: form for pos, (form, _) in plain_casing(engine, cues, cats, language).items()}


def style_of_fix(w: StyleWord, before: str, after: str, category: Category = Category.SOUND,
                 first: bool = False) -> Style | None:
    """The style a human fix inside a category shows, or None when it shows none.

    A capital given to a word the model takes for a name says nothing about
    the style (``[JOEL]`` -> ``[Joel]`` in a lower-case file), nor does one given
    to the first word of a sound cue (``[Screen reader voicing]`` is written as
    a sentence, not in Title case)."""
    t = tag_of(after)
    if t is Tag.T and first and category is Category.SOUND:
        return None
    if t is Tag.L:
        return Style.LOWER
    if t is Tag.U:
        return Style.UPPER
    if t is Tag.T and tag_of(before) is not Tag.T and (category is Category.LABEL or not is_name(w)):
        return Style.TITLE
    return None


def apply_styles(doc: Document, cues: Sequence[Sequence[StyleWord]], styles: StyleMap, engine) -> int:
    """Restyle every word of the chosen categories, in the document and as each word's form and
    proposed form (batch conversion, and what the editor is proposed); returns words changed."""
    chosen = {c: s for c, s in styles.items() if s is not Style.MODEL}
    if not chosen:
        return 0
    cats = {p: c for p, c in categories_of(doc, cues).items() if c in chosen}
    # Only lower and Title style read the plain-sentence forms (UPPER writes every word the same way):
    # without them the model is not run a second time.  All or nothing, since the cues are cased
    # as one stream and a cue left out would change what its neighbours' windows read.
    plain = plain_forms(engine, cues, cats) if set(chosen.values()) & {Style.LOWER, Style.TITLE} else {}
    by_cue: dict[int, list[tuple[StyleWord, str]]] = {}
    for pos, cat in cats.items():
        w = cues[pos[0]][pos[1]]
        new = style_form(w, chosen[cat], engine.form, plain.get(pos))
        if new != w.form:
            by_cue.setdefault(pos[0], []).append((w, new))
    for c, changes in by_cue.items():  # one pass over each cue, however many of its words change
        doc.recase(c, [(w.start, w.end, new) for w, new in changes])
        for w, new in changes:
            w.form = w.proposed = new
    return sum(map(len, by_cue.values()))


@dataclass(frozen=True)
class Preset:
    """A caption style guide's rules for the house-style categories, with where they come from."""

    name: str
    title: str
    styles: tuple[tuple[Category, Style], ...]
    rule: str     # what it sets, in the guide's words where they are short
    source: str   # the guide and where its rule is

    def style_map(self) -> StyleMap:
        return dict(self.styles)


# The style guides subtitlers work to, as they rule the case of sound cues and speaker labels.  In lower
# and Title style a name keeps its capital (``style_form``: the cue's words read as a plain sentence).
# Every other rule of these guides (timing, line length, italics, music notes) is outside casing.
PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("netflix", "Netflix (English SDH)",
           ((Category.SOUND, Style.LOWER), (Category.LABEL, Style.LOWER)),
           "speaker IDs and sound effects in brackets, all lower case except proper nouns "
           "([man], [Maria sighs], [tires screech])",
           "Netflix, English (USA) Timed Text Style Guide, I. Subtitles for the Deaf and Hard of Hearing "
           "(partnerhelp.netflixstudios.com/hc/en-us/articles/217350977)"),
    Preset("dcmp", "DCMP Captioning Key",
           ((Category.SOUND, Style.LOWER), (Category.LABEL, Style.LOWER)),
           "lowercase sound effects, description and onomatopoeia alike, except a proper noun "
           "([machine gun firing], [Plinky squealing]); proper nouns capitalised in speaker identification, "
           "all other speaker identification lower case ((Bobby), (male narrator))",
           "Described and Captioned Media Program, Captioning Key, Language Mechanics: Spelling and "
           "Capitalization (captioningkey.org/lang_mechanics.html)"),
    Preset("bbc", "BBC Subtitle Guidelines",
           ((Category.SOUND, Style.UPPER), (Category.LABEL, Style.UPPER)),
           "sound-effect labels and speaker labels in capitals (GUNFIRE, MAN: I was brought up...)",
           "BBC Subtitle Guidelines, Identifying speakers and Sound effects (bbc.github.io/subtitle-guidelines)"),
    Preset("fcc", "FCC caption quality (47 CFR 79.1(j))",
           ((Category.SOUND, Style.MODEL), (Category.LABEL, Style.MODEL)),
           "no case convention: captions must be accurate (correct spelling, punctuation and capitalisation) "
           "and convey sounds and speakers, so each word is left as the model reads it",
           "FCC, Closed Captioning of Video Programming, Report and Order FCC 14-12 (2014); 47 CFR 79.1(j)(2) "
           "caption quality standards"),
)}


def preset_help() -> str:
    return "; ".join(f"{p.name}: {p.title}" for p in PRESETS.values())
