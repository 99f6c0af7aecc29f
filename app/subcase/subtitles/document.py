"""The document model: cues with parsed fields over the exact original text.

Each cue remembers the text it was read from (identifier and timing lines,
text lines with their own line endings, the blank lines after it).  Output is
rebuilt from that record wherever the parsed fields still equal what was read,
so an unedited document saves byte for byte, and a casing edit changes only
the letters it touched.  Edits are detected by comparison rather than flags,
so assigning to a Cue's fields directly is as safe as the Document methods.

This module knows no file format beyond rendering a cue's own head: reading
lives in ``reader`` and the format modules, writing files in ``saving``, and
converting to another format goes through a ``formats.Format`` passed in.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Iterable, Protocol, Sequence

from . import marking, markup
from .encoding import SURE, EncodingGuess, encode
from .errors import MarkError, ParseWarning
from .lines import NEWLINE_RE, normalize_newlines
from .marking import MarkEdit
from .timecode import timing_block
from .words import Token, tokenize


@dataclass(frozen=True, slots=True)
class RawCue:
    """A cue exactly as it appeared in the file."""

    head: str  # identifier and timing lines, with their line endings
    key: tuple[str | None, int, int, str]  # the parsed head fields, to detect edits
    text: str
    endings: tuple[str, ...]  # one per text line, "" for a last line without one
    tail: str  # the blank lines after the cue


@dataclass(eq=False, slots=True)  # slots: a three-hour rolling caption is 37,500 cues, 400 bytes each saved
class Cue:
    identifier: str | None
    start_ms: int
    end_ms: int
    settings: str = ""
    text: str = ""
    index: int = 0
    line: int = 0  # 1-based line of the timing line in the source, 0 if new
    raw: RawCue | None = field(default=None, repr=False)
    # (text, tokens) of the last tokenisation: a cue's words are asked for
    # more than once between edits (casing, evaluation, text edits).
    _tokens: tuple[str, list[Token]] | None = field(default=None, repr=False, compare=False)
    # where marks may go in the text of the last ``mark_places``: read once for all of a cue's marks
    _places: marking.Places | None = field(default=None, repr=False, compare=False)
    # False where the format's file cannot take a new character (SCC, EBU STL): no mark is inserted or set
    holds_marks: ClassVar[bool] = True

    def head_key(self) -> tuple[str | None, int, int, str]:
        return (self.identifier, self.start_ms, self.end_ms, self.settings)

    def tokens(self) -> list[Token]:
        """Words and punctuation of the visible text, offsets into self.text."""
        if self._tokens is not None and self._tokens[0] == self.text:
            return list(self._tokens[1])
        out: list[Token] = []
        for span in markup.split(self.text):
            if not span.is_markup:
                out.extend(tokenize(span.text, span.start))
        self._tokens = (self.text, out)
        return list(out)

    def words(self) -> list[Token]:
        return [t for t in self.tokens() if t.is_word]

    def mark_places(self) -> marking.Places:
        """Where punctuation marks may go in the text as it is now (``marking.Places``)."""
        if self._places is None or self._places.text != self.text:
            self._places = marking.Places(self.text, self.tokens())
        return self._places

    def plain_text(self) -> str:
        return markup.plain(self.text)

    def render(self, fmt: str, newline: str) -> str:
        """This cue's text in the file, verbatim wherever it is unedited."""
        raw = self.raw
        if raw is not None and raw.key == self.head_key():
            head = raw.head
        else:
            head = timing_block(self.identifier, self.start_ms, self.end_ms, self.settings, fmt, newline)
        if fmt == "ass":
            # An ASS event is one line: its text's line breaks are written as \N, the line ending is the file's.
            ending = raw.endings[0] if raw is not None and raw.endings else newline
            return head + "\\N".join(NEWLINE_RE.split(self.text)) + ending + (raw.tail if raw is not None else "")
        if raw is not None and self.text == raw.text:
            lines, endings = (raw.text.split("\n") if raw.endings else []), list(raw.endings)
        else:
            lines = NEWLINE_RE.split(self.text) if self.text else []
            if raw is not None and len(raw.endings) == len(lines):
                endings = list(raw.endings)
            else:
                last = raw.endings[-1] if raw is not None and raw.endings else newline
                endings = [newline] * (len(lines) - 1) + [last] if lines else []
            if lines and not head.endswith(("\n", "\r")):
                # The cue was the unterminated last line of the file.
                head += newline
                endings[-1] = ""
        tail = raw.tail if raw is not None else newline
        return head + "".join(line + end for line, end in zip(lines, endings)) + tail


class Converter(Protocol):
    """What ``Document.convert`` needs of a target format (``formats.Format`` is one)."""

    @property
    def name(self) -> str: ...

    @property
    def encoding(self) -> str | None: ...  # the encoding a converted file must have (WebVTT: UTF-8), None to keep

    def convert_cues(self, source: str, cues: Sequence[Cue], newline: str) -> list[str | Cue]: ...
    # the segments of a new file of this format holding the cues of a file of format ``source``


Recasing = tuple[int, int, str]  # (start, end, new form): offsets in a cue's text


class Document:
    """A subtitle file: its cues, and everything around them kept verbatim."""

    def __init__(self, fmt: str, encoding: str, bom: bool, newline: str,
                 segments: list[str | Cue], warnings: list[ParseWarning], path: Path | None = None,
                 guess: EncodingGuess = SURE):
        self.format = fmt
        self.encoding = encoding
        self.bom = bom
        self.newline = newline
        self.path = path
        self.warnings = warnings
        self._segments = segments
        self.cues: list[Cue] = [s for s in segments if isinstance(s, Cue)]
        for i, cue in enumerate(self.cues):
            cue.index = i
        # Targets whose original content is already kept as NAME.bak (see saving.save).
        self.backed_up: set[Path] = set()
        # Letters whose byte the encoding guess is unsure of (encoding.Decoded.uncertain): recase keeps
        # their case, so their bytes are written back as they were; the one-line warning that says so.
        self.uncertain = guess.uncertain
        self.encoding_doubt = guess.doubt
        self.page_guessed = guess.guessed  # a legacy code page guessed, not given: sure of ASCII bytes only
        # Counts the changes to cue texts other than letter case (marks written, a text replaced): what reads
        # the words' places (review/structure.py) looks again only when it moved.  ``recase`` leaves it.
        self.text_edits = 0

    def __repr__(self) -> str:
        return f"<Document {self.format} {self.encoding} {len(self.cues)} cues {self.path}>"

    # -- reading the text -------------------------------------------------
    def plain_text(self, cue_index: int) -> str:
        return self.cues[cue_index].plain_text()

    # -- editing -------------------------------------------------------------
    def recase(self, cue_index: int, spans: Iterable[Recasing]) -> None:
        """Write new letter case over ranges of one cue's visible text, in one pass.

        Every span is ``(start, end, form)`` with offsets into the cue text (a
        word's ``Token.start``/``end``); spans may come in any order but must not
        overlap or touch markup, and each form must differ from the text it
        replaces in letter case only.  Otherwise ValueError, and nothing changes.
        A span whose form would change the case of a letter in ``self.uncertain`` is left as it is
        (the whole word, so that "CAF\u00c9" never becomes "caf\u00c9").
        The cost is linear in the length of the lines the spans touch, however
        many spans there are.
        """
        cue = self.cues[cue_index]
        text = cue.text
        todo = sorted(spans)
        if not todo:
            return
        # Markup never spans a line break, so only the lines the spans touch are
        # scanned: one line for a reviewer's change, the whole cue for the casing.
        lo = text.rfind("\n", 0, todo[0][0]) + 1
        hi = text.find("\n", todo[-1][1])
        markup_spans = [m.span() for m in markup.MARKUP_RE.finditer(text, lo, hi if hi >= 0 else len(text))]
        parts: list[str] = []
        pos = 0
        m = 0
        for start, end, form in todo:
            if start < pos or end > len(text) or start > end:
                raise ValueError(f"cue {cue_index}: span {start}-{end} overlaps another or lies outside the text")
            while m < len(markup_spans) and markup_spans[m][1] <= start:
                m += 1
            if m < len(markup_spans) and markup_spans[m][0] < end:
                raise ValueError(f"cue {cue_index}: span {start}-{end} touches markup")
            old = text[start:end]
            if not _same_but_case(old, form):
                raise ValueError(f"{form!r} is not a recasing of {old!r}")
            if self.uncertain and any(o != f and o in self.uncertain for o, f in zip(old, form)):
                form = old
            parts.append(text[pos:start])
            parts.append(form)
            pos = end
        parts.append(text[pos:])
        cue.text = "".join(parts)
        # The cached tokens hold the old letters.  Nothing on the casing path reads
        # them again, so they are dropped rather than rebuilt (0.4 s for a 1 MB cue).
        cue._tokens = None

    def insert_marks(self, cue_index: int, inserts: Iterable[tuple[int, str]]) -> MarkEdit:
        """Write punctuation marks into one cue, in one pass, inserting characters only.

        Every insert is ``(offset, mark)`` with the offset in the cue text as a word's
        ``Token`` gives it: a mark that ends a word (",", ".", "?", "!", or ";", ":",
        "...", "\u2026") at the word's ``end``, where it lands right after the last
        letter and so inside any closing markup, also at the end of a cue; an opening
        mark ("\u00bf", "\u00a1") at the word's ``start``.  A place that is not a word's
        edge, a word that already has a mark there, or two marks at one place raise
        MarkError, and nothing changes.  Returns the edit; ``revert_marks`` takes it back.
        """
        cue = self.cues[cue_index]
        _check_holds_marks(cue, cue_index)
        edit = marking.insertions(cue.mark_places(), cue_index, inserts)
        self._write_marks(edit)
        return edit

    def set_mark(self, cue_index: int, word_end: int, mark: str) -> MarkEdit:
        """Make ``mark`` the punctuation that ends the word ending at ``word_end`` ("" removes it).

        The word's existing mark (its first run of mark characters: "." in "yes.", in
        ``<i>yes</i>.`` too, "?!" in "yes?!") is replaced where it stands; without one, the
        mark is written right after the word as ``insert_marks`` does.  A ``? ! : ;`` that replaces a mark
        written with a no-break space before it ("mot\u00a0?") keeps the space; a comma or full stop is
        written tight, as French typography writes them.  Closing quotes,
        brackets and markup stay.  MarkError if ``word_end`` is not the end of a word.
        """
        cue = self.cues[cue_index]
        _check_holds_marks(cue, cue_index)
        cue.mark_places().check(cue_index, word_end, mark or ".", allow_marked=True)
        at, old = marking.existing_mark(cue.text, word_end)
        space = old[:len(old) - len(old.lstrip("".join(marking.NO_BREAK)))]
        if space and mark in ("?", "!", ":", ";"):
            mark = space + mark  # French spacing: the mark that replaces a spaced one keeps its space
        edit = MarkEdit(cue_index, ((at, old, mark),) if old != mark else ())
        self._write_marks(edit)
        return edit

    def can_insert_mark(self, cue_index: int, offset: int, mark: str) -> bool:
        """Whether ``insert_marks`` accepts ``(offset, mark)`` on its own: a caller with many predicted
        marks drops the ones a token or a written mark refuses ("Jean" of "Jean-Luc", "yes" in
        ``"yes".``) instead of losing the cue's other marks to one MarkError."""
        cue = self.cues[cue_index]
        if not cue.holds_marks:
            return False
        try:
            cue.mark_places().check(cue_index, offset, mark)
        except MarkError:
            return False
        return bool(mark)

    def can_set_mark(self, cue_index: int, word_end: int) -> bool:
        """Whether ``set_mark`` accepts ``word_end`` (it is a word's end, not inside a token)."""
        cue = self.cues[cue_index]
        if not cue.holds_marks:
            return False
        try:
            cue.mark_places().check(cue_index, word_end, ".", allow_marked=True)
        except MarkError:
            return False
        return True

    def change_marks(self, edit: MarkEdit) -> None:
        """Write an edit of marks made by the caller (``marking.apply`` checks that each change's ``old`` is
        in the text and that only mark characters change; ValueError otherwise, and nothing changes)."""
        self._write_marks(edit)

    def revert_marks(self, edit: MarkEdit) -> None:
        """Take back an edit from ``insert_marks`` or ``set_mark`` (it must be the cue's last change)."""
        self._write_marks(edit.inverse())

    def _write_marks(self, edit: MarkEdit) -> None:
        if edit.changes:
            cue = self.cues[edit.cue_index]
            cue.text = marking.apply(cue.text, edit)
            # the caches are of the old text: read again if asked for, not held (a long file's cues would
            # otherwise each keep their places for marks after the marks are in)
            cue._tokens = cue._places = None
            self.text_edits += 1

    def set_cue_text(self, cue_index: int, text: str) -> None:
        """Replace a cue's text freely (markup allowed, any line breaks; in ASS, written as its hard break
        \\N, as the file holds it)."""
        text = normalize_newlines(text)
        self.cues[cue_index].text = text.replace("\n", "\\N") if self.format == "ass" else text
        self.text_edits += 1

    def copy(self) -> Document:
        return copy.deepcopy(self)

    def convert(self, target: Converter) -> Document:
        """A new document in another format, built from these cues (this one is unchanged).

        Markup and cue settings are translated by the target format; the file
        keeps its encoding unless the target requires one.  Converting to the
        document's own format gives a copy.
        """
        if target.name == self.format:
            return self.copy()
        segments = target.convert_cues(self.format, self.cues, self.newline)
        doc = Document(target.name, target.encoding or self.encoding, self.bom, self.newline, segments, [],
                       self.path, EncodingGuess(self.uncertain, self.encoding_doubt, self.page_guessed))
        doc.backed_up = self.backed_up  # one history of backups, whatever the format
        return doc

    # -- the file's content --------------------------------------------------
    def render(self) -> str:
        """The whole file as text, verbatim wherever it is unedited."""
        return "".join(s if isinstance(s, str) else s.render(self.format, self.newline)
                       for s in self._segments)

    def to_bytes(self, encoding: str | None = None) -> bytes:
        """The file as bytes, in its own encoding unless another is given."""
        name = str(self.path) if self.path else "document"
        return encode(self.render(), encoding or self.encoding, self.bom, name)


def _check_holds_marks(cue: Cue, cue_index: int) -> None:
    if not cue.holds_marks:
        raise MarkError(f"cue {cue_index + 1}: this format cannot take a new punctuation mark without moving "
                        "the codes after it, so restored marks are not written in it")


def _same_but_case(old: str, new: str) -> bool:
    return len(old) == len(new) and all(
        a == b or a.lower() == b.lower() or a.upper() == b.upper() for a, b in zip(old, new))
