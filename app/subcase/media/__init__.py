"""Media beside the review, without Qt: which file goes with a subtitle, which
part of it a cue plays, which cue a position falls in, and a waveform's samples.

The player itself is Qt's (``subcase.gui.media``); everything here is plain
arithmetic and file reading that the tests check without a window.
"""

from .lookup import MEDIA_SUFFIXES, MediaError, MediaRef, fingerprint, media_ref, same_stem_media, still_matches
from .timing import DEFAULT_LEAD_MS, PlaySpan, cue_at, play_span
from .waveform import WAVEFORM_RATE, Thinning, Waveform, WaveformWindow, peaks, read_wav, strip_window

__all__ = ["MEDIA_SUFFIXES", "MediaError", "MediaRef", "fingerprint", "media_ref", "same_stem_media",
           "still_matches",
           "DEFAULT_LEAD_MS", "PlaySpan", "cue_at", "play_span",
           "WAVEFORM_RATE", "Thinning", "Waveform", "WaveformWindow", "peaks", "read_wav", "strip_window"]
