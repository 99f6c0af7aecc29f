"""The document model: cues with parsed fields over the exact original text.

Each cue remembers the text it was read from (identifier and timing lines,
text lines with their own line endings, the blank lines after it).  Output is
rebuilt from that record wherever the parsed fields still equal what was read,
so an unedited document saves byte for byte, and a casing edit changes only
the letters it touched.  Edits are detected by comparison rather than flags,
so assigning to a Cue's fields directly is as safe as the Document methods.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import markup
from .encoding import UNICODE_CODECS, normalize
from .errors import ParseWarning
from .timecode import timing_block
from .words import Token, tokenize

_NEWLINE_RE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class RawCue:
    """A cue exactly as it appeared in the file."""

    head: str  # identifier and timing lines, with their line endings
    key: tuple[str | None, int, int, str]  # the parsed head fields, to detect edits
    text: str
    endings: tuple[str, ...]  # one per text line, "" for a last line without one
    tail: str  # the blank lines after the cue


@dataclass(eq=False)
class Cue:
    identifier: str | None
    start_ms: int
    end_ms: int
    settings: str = ""
    text: str = ""
    index: int = 0
    line: int = 0  # 1-based line of the timing line in the source, 0 if new
    raw: RawCue | None = field(default=None, repr=False)
    # (text, tokens) of the last tokenisation: the truecaser asks for the
    # words of a cue once per word it changes.
    _tokens: tuple[str, list[Token]] | None = field(default=None, repr=False, compare=False)

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

    def plain_text(self) -> str:
        return markup.plain(self.text)

    def render(self, fmt: str, newline: str) -> str:
        """This cue's text in the file, verbatim wherever it is unedited."""
        raw = self.raw
        if raw is not None and raw.key == self.head_key():
            head = raw.head
        else:
            head = timing_block(self.identifier, self.start_ms, self.end_ms, self.settings, fmt, newline)
        if raw is not None and self.text == raw.text:
            lines, endings = (raw.text.split("\n") if raw.endings else []), list(raw.endings)
        else:
            lines = _NEWLINE_RE.split(self.text) if self.text else []
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


class Document:
    """A subtitle file: its cues, and everything around them kept verbatim."""

    def __init__(self, fmt: str, encoding: str, bom: bool, newline: str,
                 segments: list[str | Cue], warnings: list[ParseWarning], path: Path | None = None):
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
        self._backed_up: set[Path] = set()
        self.last_backup: Path | None = None  # the backup the last save made, if any

    def __repr__(self) -> str:
        return f"<Document {self.format} {self.encoding} {len(self.cues)} cues {self.path}>"

    # -- reading the text -------------------------------------------------
    def plain_text(self, cue_index: int) -> str:
        return self.cues[cue_index].plain_text()

    # -- editing -------------------------------------------------------------
    def set_word(self, cue_index: int, word_index: int, new_form: str) -> None:
        """Recase one word; anything but a change of letter case is refused."""
        cue = self.cues[cue_index]
        words = cue.words()
        if not 0 <= word_index < len(words):
            raise IndexError(f"cue {cue_index} has {len(words)} words, no word {word_index}")
        old = words[word_index]
        if not _same_but_case(old.text, new_form):
            raise ValueError(f"{new_form!r} is not a recasing of {old.text!r}")
        cue.text = cue.text[:old.start] + new_form + cue.text[old.end:]
        # A case change keeps every offset, so the tokens stay valid.
        # (markup.split is itself blind to letter case, see markup.py).
        if cue._tokens is not None:
            tokens = list(cue._tokens[1])
            tokens[tokens.index(old)] = Token(old.start, old.end, new_form, True)
            cue._tokens = (cue.text, tokens)

    def set_cue_text(self, cue_index: int, text: str) -> None:
        """Replace a cue's text freely (markup allowed, any line breaks)."""
        self.cues[cue_index].text = "\n".join(_NEWLINE_RE.split(text))

    def copy(self) -> Document:
        return copy.deepcopy(self)

    # -- writing -------------------------------------------------------------
    def render(self) -> str:
        """The whole file as text in its own format."""
        return "".join(s if isinstance(s, str) else s.render(self.format, self.newline)
                       for s in self._segments)


    def to_bytes(self, format: str | None = None, encoding: str | None = None) -> bytes:
        """The file as bytes, converted when format differs from the document's.

        The encoding is kept unless another is asked for, except that a new
        WebVTT file is UTF-8 as the WebVTT standard requires.
        """
        from . import encoding as codec, srt, vtt  # srt/vtt build on this module
        from .reader import check_format

        fmt = check_format(format) if format else self.format
        if fmt == self.format:
            text = self.render()
        else:
            text = (srt if fmt == "srt" else vtt).render(self.cues, self.newline)
        if encoding is None:
            encoding = "utf-8" if fmt == "vtt" and self.format != "vtt" else self.encoding
        name = str(self.path) if self.path else "document"
        return codec.encode(text, encoding, self.bom, name)

    def save(self, path: Path | str | None = None, format: str | None = None,
             encoding: str | None = None, backup: bool = True, allow_read_only: bool = False) -> Path:
        """Write atomically; returns the path written.

        Without format, a path ending in .srt or .vtt picks the format.  The first
        time this document is saved over an existing file, its old content is
        kept in a new backup, NAME.bak (or NAME.bak.2, .3, ... when that name is
        taken: a backup is never overwritten), unless backup is False; later
        saves of the same document add none.  A symlink is written through to
        its real file; a read-only file raises ReadOnlyError unless
        allow_read_only.  After a save that changes format or encoding the
        document is re-read from what was written, so its cues are new objects.
        """
        from . import atomic
        from .errors import SubtitleError
        from .reader import loads

        if path is None and self.path is None:
            raise SubtitleError("the document has no file name; give a path to save to")
        target = Path(path) if path is not None else self.path
        assert target is not None
        if format is None and target.suffix.lower() in (".srt", ".vtt"):
            format = target.suffix.lower()[1:]
        data = self.to_bytes(format, encoding)
        key = target.resolve()
        want_backup = backup and target.exists() and key not in self._backed_up
        try:
            bak = atomic.write_atomic(target, data, want_backup, allow_read_only=allow_read_only)
        except OSError as exc:
            raise SubtitleError(f"{target}: cannot save: {exc.strerror or exc}") from None
        if bak is not None:
            self._backed_up.add(key)
        self.last_backup = bak
        if format is not None and format != self.format:
            fresh = loads(data, str(target), format)
            backed_up = self._backed_up
            self.__dict__.update(fresh.__dict__)
            self._backed_up, self.last_backup = backed_up, bak
        elif encoding is not None:
            self.encoding, implied = normalize(encoding)
            if implied is not None:
                self.bom = implied
            elif self.encoding not in UNICODE_CODECS:
                self.bom = False
        self.path = target
        return target


def _same_but_case(old: str, new: str) -> bool:
    return len(old) == len(new) and all(
        a == b or a.lower() == b.lower() or a.upper() == b.upper() for a, b in zip(old, new))

