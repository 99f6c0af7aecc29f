"""Which media file goes with a subtitle file, and how it is remembered.

A remembered choice is the media's file name and a fingerprint (a sha256 of its
size and its first and last MiB: a film of several GB is recognised in
milliseconds, and a re-encode or a different cut changes it).  That is all the
app keeps about a media file; nothing about it goes into the subtitle or the
edit log.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from subcase.errors import SubcaseError

# Looked for in this order: video first, so a film's own picture wins over an extracted sound track.
VIDEO_SUFFIXES = (".mkv", ".mp4", ".webm", ".m4v", ".mov", ".avi", ".ts")
AUDIO_SUFFIXES = (".wav", ".mp3", ".m4a", ".aac", ".opus", ".ogg", ".oga", ".flac", ".mka")
MEDIA_SUFFIXES = VIDEO_SUFFIXES + AUDIO_SUFFIXES

_BLOCK = 1 << 20


class MediaError(SubcaseError):
    """A media file that cannot be used: missing, unreadable, not media."""


@dataclass(frozen=True)
class MediaRef:
    """A media file as remembered for a subtitle file."""

    path: Path
    name: str
    fingerprint: str

    def as_dict(self) -> dict:
        return {"path": str(self.path), "name": self.name, "fingerprint": self.fingerprint}

    @classmethod
    def from_dict(cls, data: object) -> MediaRef | None:
        if not isinstance(data, dict):
            return None
        try:
            return cls(Path(str(data["path"])), str(data["name"]), str(data["fingerprint"]))
        except KeyError:
            return None


def _stems(subtitle: Path) -> list[str]:
    """``film.en.srt`` goes with ``film.en.mkv`` and, failing that, ``film.mkv``."""
    stem = subtitle.stem
    out = [stem]
    while "." in stem:
        stem = stem.rsplit(".", 1)[0]
        if stem:
            out.append(stem)
    return out


def same_stem_media(subtitle: Path) -> Path | None:
    """The media file beside ``subtitle`` with its stem (or a shorter one), if any.

    Only regular files count: a folder called ``film.mkv`` or a dangling link is
    not media.  Suffixes match in any case (``FILM.MKV``)."""
    subtitle = Path(subtitle)
    folder = subtitle.parent
    try:
        names = {p.name.lower(): p for p in folder.iterdir()}
    except OSError:
        return None
    for stem in _stems(subtitle):
        for suffix in MEDIA_SUFFIXES:
            found = names.get(f"{stem}{suffix}".lower())
            if found is not None and found.is_file():
                return found
    return None


def fingerprint(path: Path) -> str:
    """sha256 over the size and the first and last MiB of ``path``."""
    with open(path, "rb") as f:
        size = os.fstat(f.fileno()).st_size
        h = hashlib.sha256(str(size).encode("ascii"))
        h.update(f.read(_BLOCK))
        if size > _BLOCK:
            f.seek(max(_BLOCK, size - _BLOCK))
            h.update(f.read(_BLOCK))
    return h.hexdigest()


def still_matches(ref: MediaRef) -> bool:
    """True if ``ref.path`` is a regular file with ``ref``'s fingerprint: a remembered path is data
    (settings, a snapshot), and only the very file that was chosen is opened from it (reads 2 MiB)."""
    try:
        return ref.path.is_file() and fingerprint(ref.path) == ref.fingerprint
    except OSError:
        return False


def media_ref(path: Path) -> MediaRef:
    """Check that ``path`` is a readable regular file and fingerprint it (reads 2 MiB: off the GUI thread)."""
    path = Path(path)
    if not path.exists():
        raise MediaError("no such media file", path)
    if not path.is_file():
        raise MediaError("not a media file (a folder or a special file)", path)
    try:
        if path.stat().st_size == 0:
            raise MediaError("the media file is empty", path)
        return MediaRef(path.resolve(), path.name, fingerprint(path))
    except PermissionError:
        raise MediaError("the media file cannot be read (permission denied)", path) from None
    except OSError as exc:
        raise MediaError(f"the media file cannot be read ({exc.strerror or exc})", path) from None
