"""The subtitle document core: lossless SRT and WebVTT reading and writing.

    doc = load("film.srt")
    doc.set_word(0, 2, "London")
    doc.save()                      # atomic, keeps film.srt.bak
    doc.save("film.vtt")            # converts

No Qt here: the editor, the truecaser and batch conversion all build on it.
"""

from .errors import ParseWarning, SubtitleError
from .model import Cue, Document
from .reader import load, loads
from .words import Token

__all__ = ["load", "loads", "Document", "Cue", "SubtitleError", "ParseWarning", "Token"]
