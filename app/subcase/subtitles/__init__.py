"""The subtitle document core: lossless reading and writing of the formats in ``formats`` (SRT, WebVTT, ASS/SSA).

    doc = load("film.srt")
    word = doc.cues[0].words()[2]
    doc.recase(0, [(word.start, word.end, "London")])
    save(doc)                       # atomic, keeps film.srt.bak
    save(doc, "film.vtt")           # writes a converted copy

No Qt here: the editor, the truecaser and batch conversion all build on it.
"""

from .document import Cue, Document
from .errors import MarkError, ParseWarning, SubtitleError
from .marking import MarkEdit
from .formats import FORMATS, Format
from .reader import load, loads
from .saving import Saved, format_for, save
from .words import Token

__all__ = ["load", "loads", "save", "format_for", "Saved", "Document", "Cue", "SubtitleError", "MarkError", "MarkEdit", "ParseWarning", "Token",
           "FORMATS", "Format"]
