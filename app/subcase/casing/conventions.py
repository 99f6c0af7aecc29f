"""The file's own conventions: how a person's file writes its sound cues and speaker labels.

A subtitler writes every sound cue one way (``[groans]``, ``[GROANS]`` or
``[Groans]``) and every speaker label one way (``MARIA:``, ``Maria:``), and
files differ (housestyle.py).  The model learned its habits from other files:
it writes ``[GROANS]`` in a film whose SDH writes 264 sound cues in lower case.
Auto mode takes a file's convention from the file itself, when the file is
consistent: of its sound cues (or labels), at least ``MIN_OCCURRENCES`` and
``CONSISTENT`` of those written in a style of their own take one style.  Only a
file with real casing has conventions (in lower case or capitals throughout,
every cue is written so, which says nothing of its sound cues).

Then every word of that category follows the convention, in every passage:
written in the file's style, it is kept as written, even where the passage
around it is restored or recased; written otherwise (a sound cue in a passage
that lost its casing), it is written in the file's style.  The model's
disagreement is shown, never written: a word whose form in the file's style,
as the model reads it (``housestyle.style_form``: in lower and Title style a word
the model takes for a name keeps its capital, ``[Maria sighs]``), is not the
written one, while the model gives the written form at most ``1 - auto.EVIDENCE``,
is flagged with that form, and the reason names the convention.

``apply`` does this to auto mode's casing of a file, once its passages are
decided (casing/routing.py); text typed into a cue in the editor is read with
the cues around it, and follows what they show.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from subcase.subtitles.words import Token

from .housestyle import Category, Style, Word, style_form
from .stream import DocumentCasing, FollowsConvention
from .auto import EVIDENCE, Passage, has_real_casing
from .tags import TAGS, Tag, TagWriter, tag_of

MIN_OCCURRENCES = 3  # sound cues (or labels) written in one style, at least, for a convention
CONSISTENT = 0.8     # of the occurrences written in a style of their own, this share at least in the majority's
_OPEN = {"[": "]", "(": ")"}
_DASHES = {"-", "\u2010", "\u2013", "\u2014", ">>"}
_MAX_LABEL_WORDS = 3
STYLE_NAMES = {Style.LOWER: "lower case", Style.UPPER: "capitals", Style.TITLE: "Title case"}
CATEGORY_NAMES = {Category.SOUND: "sound cues", Category.LABEL: "speaker labels"}

Pos = tuple[int, int]  # (cue index, token index)


@dataclass(frozen=True, slots=True)
class Convention:
    """A style the file keeps for one category, and how consistently."""

    category: Category
    style: Style
    count: int   # occurrences written in the style
    styled: int  # occurrences written in any style of their own (mixed ones, "[Maria sighs]", are not)

    def describe(self) -> str:
        return (f"the file writes its {CATEGORY_NAMES[self.category]} in {STYLE_NAMES[self.style]} "
                f"({self.count} of {self.styled})")


def occurrences(cues: Sequence[Sequence[Token]], lines: Sequence[Sequence[int]] | None = None
                ) -> list[tuple[Category, list[Pos]]]:
    """The sound cues (words inside ``[...]`` or ``(...)`` of one cue) and speaker labels (one to three words
    and a colon at a line's start, after a dash or ``>>``, written in capitals or seen twice) of the cues
    (token lists), each as its words' positions."""
    out: list[tuple[Category, list[Pos]]] = []
    labels: dict[str, list[list[Pos]]] = {}
    for c, tokens in enumerate(cues):
        opened: str | None = None
        inside: list[Pos] = []
        line_start = True
        for k, tok in enumerate(tokens):
            if lines is not None and k > 0 and lines[c][k] != lines[c][k - 1]:
                line_start = True
            if line_start and not tok.is_word and tok.text in _DASHES:
                continue  # a dash or >> before a label leaves the line's start where it is
            if line_start:
                label = _label_at(tokens, k, lines[c] if lines is not None else None)
                if label:
                    labels.setdefault(" ".join(tokens[i].text.lower() for i in label), []).append(
                        [(c, i) for i in label])
            line_start = False
            if tok.is_word:
                if opened is not None:
                    inside.append((c, k))
            elif opened is None and tok.text in _OPEN:
                opened, inside = _OPEN[tok.text], []
            elif opened is not None and tok.text == opened:
                if inside:
                    out.append((Category.SOUND, inside))
                opened = None
    for found in labels.values():
        for words in found:
            # a "Name:" seen once, not in capitals, is more likely prose ("like RSI: repetitive stress injury")
            if len(found) >= 2 or all(cues[c][k].text.isupper() for c, k in words):
                out.append((Category.LABEL, words))
    return out


def _label_at(tokens: Sequence[Token], k: int, line: Sequence[int] | None) -> list[int]:
    """The token indices of a label's words starting at ``k`` (one to three words, then a colon), or []."""
    words: list[int] = []
    for i in range(k, len(tokens)):
        if line is not None and line[i] != line[k]:
            return []
        tok = tokens[i]
        if tok.is_word:
            words.append(i)
            if len(words) > _MAX_LABEL_WORDS:
                return []
        elif tok.text == ":":
            return words
        else:
            return []
    return []


def _alone(tokens: Sequence[Token], words: Sequence[Pos]) -> bool:
    return sum(1 for t in tokens if t.is_word) == len(words)


def style_written(words: Sequence[str]) -> Style | None:
    """The style a group of words is written in: lower, UPPER (two letters or more), Title, or None (mixed:
    "[Maria sighs]", "Web accessibility", or no letters)."""
    letters = "".join(ch for w in words for ch in w if ch.lower() != ch.upper())
    if not letters:
        return None
    if letters.islower():
        return Style.LOWER
    if letters.isupper():
        return Style.UPPER if len(letters) >= 2 else None
    if all(_is_title(w) for w in words if any(ch.lower() != ch.upper() for ch in w)):
        return Style.TITLE
    return None


def _is_title(word: str) -> bool:
    letters = [ch for ch in word if ch.lower() != ch.upper()]
    return letters[0].isupper() and all(ch.islower() for ch in letters[1:])


def learn(cues: Sequence[Sequence[Token]], kept: Sequence[bool], lines: Sequence[Sequence[int]] | None = None
          ) -> dict[Pos, Convention]:
    """The convention each sound-cue or label word of a file follows, by (cue, token index): the words of the
    categories whose occurrences are consistent (``MIN_OCCURRENCES``, ``CONSISTENT``).  The caller asks only
    for a file with real casing.  What a person wrote is the evidence: occurrences in the cues auto mode
    keeps (``kept``), and those that are a cue's only words ("[groans]" alone, whatever passage it is in);
    a label in a passage that lost its casing ("tomas: i never wanted one") says nothing of the style."""
    found = occurrences(cues, lines)
    out: dict[Pos, Convention] = {}
    for category in Category:
        groups = [words for cat, words in found if cat is category]
        styles = [style_written([cues[c][k].text for c, k in words]) for words in groups
                  if kept[words[0][0]] or _alone(cues[words[0][0]], words)]
        counts = {s: styles.count(s) for s in set(styles) if s is not None}
        if not counts:
            continue
        style = max(counts, key=lambda s: (counts[s], s.value))
        styled = sum(counts.values())
        if counts[style] < MIN_OCCURRENCES or counts[style] < CONSISTENT * styled:
            continue
        convention = Convention(category, style, counts[style], styled)
        for words in groups:
            for pos in words:
                out[pos] = convention
    return out


def write(convention: Convention, written: str, model_form: str, tag: Tag,
          probs: tuple[float, float, float, float], write_tag: TagWriter, keep: bool
          ) -> tuple[str, FollowsConvention] | None:
    """A word of ``convention``'s category as auto mode writes it, and what the convention says of it; None
    where the convention does not decide it.  Written in the file's style, the word is kept as written;
    otherwise, in a passage restored or recased, it is written in that style.  A word a kept passage
    (``keep``) writes otherwise ("(VM)" in a file of lower-case asides) is the person's exception, judged as
    any kept word.  The model's form in the file's style, where it is not the output, is the flag's."""
    in_style = style_written([written]) in (convention.style, None)
    if keep and not in_style:
        return None
    styled = style_form(Word(0, 0, written, model_form, tag, probs), convention.style, write_tag)
    output = written if in_style else styled
    # flagged only where the model is sure the output's case is wrong: the first word of a sound cue reads to
    # it like a sentence start ("[Ruido de bloques]"), a capital it half believes in
    reason = None
    if styled != output and probs[TAGS.index(tag_of(output))] <= 1.0 - EVIDENCE:
        in_file_style = f" ('{styled}' in the file's style)" if styled != model_form else ""
        reason = (f"{convention.describe()}: written '{output}'; the model would write '{model_form}'"
                  f"{in_file_style}")
    return output, FollowsConvention(convention.describe(), reason)


def apply(casing: DocumentCasing, cues: Sequence[Sequence[Token]], lines: Sequence[Sequence[int]] | None,
          write_tag: TagWriter) -> DocumentCasing:
    """Auto mode's casing of a whole file (``cues``: the token lists it was cased from) with every word of a
    category the file keeps a convention for written by it (``write``); the casing as it is in a file without
    real casing or without such a category."""
    passages = casing.passages
    if passages is None or not has_real_casing(cues):
        return casing
    conventions = learn(cues, [p is Passage.KEEP for p in passages], lines)
    if not conventions:
        return casing
    token_at = {(c, tok.start): k for c, k in conventions for tok in (cues[c][k],)}
    words = []
    for w in casing.words:
        k = token_at.get((w.cue_index, w.start))
        found = write(conventions[(w.cue_index, k)], w.input, w.model_form, w.tag, w.probs, write_tag,
                      keep=passages[w.cue_index] is Passage.KEEP) if k is not None else None
        words.append(w if found is None else w._replace(output=found[0], convention=found[1]))
    return casing.with_words(words)
