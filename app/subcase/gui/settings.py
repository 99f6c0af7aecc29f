"""Persistent settings (QSettings), typed.

``SUBCASE_CONFIG_DIR`` redirects them to an INI file in that folder, so tests
never read or write the user's real settings.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Generic, TypeVar, cast, overload

from PySide6.QtCore import QByteArray, QSettings

from subcase.casing.modes import NAMES as MODES
from subcase.casing import restoring
from subcase.casing.restoring import Punctuate
from subcase.media import DEFAULT_LEAD_MS

MAX_RECENT = 10
# The cue table's column widths and order.  "v2": the CPS and CPL columns
# came in; a header saved with the old four columns is not restored.
HEADER_KEY = "window/cue_header_v2"
THEMES = ("system", "light", "dark")
STYLES = ("model", "lower", "upper", "title")
PUNCTUATE = tuple(p.value for p in Punctuate)  # auto, always, never
DEFAULT_PUNCTUATE = restoring.DEFAULT_PUNCTUATE.value  # as the commands: where the text carries none
DEFAULT_CPL = 42
DEFAULT_CPS = 20.0
DEFAULT_FONT_SIZE = 11
MIN_FONT_SIZE, MAX_FONT_SIZE = 6, 48


T = TypeVar("T")
_TRUE, _FALSE = ("1", "true", "yes"), ("0", "false", "no")
# A stored path or name longer than this is damage (PATH_MAX on Linux).
MAX_TEXT = 4096
_SHA256 = re.compile(r"[0-9a-f]{64}")


def _choice(options: tuple[str, ...]) -> Callable[[object], str]:
    def parse(value: object) -> str:
        if not isinstance(value, str) or value not in options:
            raise ValueError("not one of " + ", ".join(options))
        return value
    return parse


def _whole(low: int, high: int) -> Callable[[object], int]:
    def parse(value: object) -> int:
        number = int(str(value).strip())  # "11", never "11.5" or "nan"
        if not low <= number <= high:
            raise ValueError(f"not from {low} to {high}")
        return number
    return parse


def _number(low: float, high: float) -> Callable[[object], float]:
    def parse(value: object) -> float:
        if isinstance(value, bool):
            raise ValueError("not a number")
        number = float(value)  # type: ignore[arg-type]  # TypeError or ValueError for anything else
        if not (math.isfinite(number) and low <= number <= high):
            raise ValueError(f"not from {low} to {high}")
        return number
    return parse


def _flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text not in _TRUE + _FALSE:
        raise ValueError("not true or false")
    return text in _TRUE


def _text(value: object) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\0" in value:
        raise ValueError(f"not a text of at most {MAX_TEXT} characters")
    return value


def _profile(value: object) -> str:
    from subcase.review.profiles.profile import valid_name
    name = _text(value)
    if name and not valid_name(name):
        raise ValueError("not a profile name")
    return name


def _threshold(value: object) -> float | None:
    return None if value == "" else _number(0.0, 1.0)(value)


@dataclass(frozen=True)
class Spec:
    """One setting: what it is called to the user, its default, ``parse`` (ValueError or TypeError for a
    stored value of the wrong type or out of range, which is then reset to the default) and ``store`` (the
    value as it is written)."""

    label: str
    default: object
    parse: Callable[[object], object]
    store: Callable[[Any], object] = str


def _store_threshold(value: float | None) -> object:
    return "" if value is None else float(value)


# Every setting read as a value, with its type and range: stored state is data, checked on each read.
SPECS: dict[str, Spec] = {
    # None: the model's calibrated default
    "review/threshold": Spec("review threshold", None, _threshold, _store_threshold),
    "casing/mode": Spec("casing mode", MODES[0], _choice(MODES)),
    # where missing punctuation is restored in the next file opened and in batches (casing/restoring.py)
    "casing/punctuate": Spec("punctuation", DEFAULT_PUNCTUATE, _choice(PUNCTUATE)),
    "review/learning": Spec("learning", True, _flag, bool),  # learn from every fix within the file
    # the profile applied to the next file opened and to batches (review/profiles/profile.py); "" for none
    "review/profile": Spec("profile", "", _profile, lambda name: name or ""),
    "batch/output_dir": Spec("batch output folder", "", _text),
    "batch/output_format": Spec("batch output format", "keep", _text),
    "batch/jobs": Spec("batch jobs", 0, _whole(0, 1024), int),  # 0: automatic (parallel.auto_jobs)
    "view/theme": Spec("theme", "system", _choice(THEMES)),
    "view/font_size": Spec("font size", DEFAULT_FONT_SIZE, _whole(MIN_FONT_SIZE, MAX_FONT_SIZE), int),
    "view/show_tags": Spec("show all tags", False, _flag, bool),  # the per-word gloss above each line
    # Reading limits, markup excluded: Netflix's English timed-text guide (42 CPL, 20 CPS for adult
    # programmes); BBC-style or children's work wants about 17 CPS.
    "view/cpl_limit": Spec("characters per line", DEFAULT_CPL, _whole(10, 200), int),
    "view/cps_limit": Spec("characters per second", DEFAULT_CPS, _number(5.0, 60.0), float),
    # how much before a cue's start and after its end Play Cue plays (gui/media.py)
    "media/lead_in_ms": Spec("lead-in", DEFAULT_LEAD_MS, _whole(0, 5000), int),
    "media/lead_out_ms": Spec("lead-out", DEFAULT_LEAD_MS, _whole(0, 5000), int),
    "media/follow": Spec("follow playback", True, _flag, bool),  # the cue being played is selected
    "media/play_at_flagged": Spec("play at flagged words", False, _flag, bool),  # N plays each flagged word's cue
}


class Setting(Generic[T]):
    """A ``Settings`` attribute: read through its key's Spec (checked on every read), written as it stores."""

    def __init__(self, key: str):
        self.key = key

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Setting[T]: ...

    @overload
    def __get__(self, obj: Settings, owner: type | None = None) -> T: ...

    def __get__(self, obj: Settings | None, owner: type | None = None) -> T | Setting[T]:
        if obj is None:
            return self
        return cast(T, obj.value(self.key))

    def __set__(self, obj: Settings, value: T) -> None:
        obj.q.setValue(self.key, SPECS[self.key].store(value))
STYLE_SPEC = Spec("house style", "model", _choice(STYLES))  # style/<category>


def _media_entry(value: object) -> dict:
    """A remembered media file (settings key media-files/<subtitle key>): JSON of its path, name, fingerprint."""
    data = json.loads(_text(value))
    if not (isinstance(data, dict) and all(isinstance(data.get(k), str) for k in ("path", "name", "fingerprint"))
            and os.path.isabs(data["path"]) and len(data["path"]) <= MAX_TEXT
            and _SHA256.fullmatch(data["fingerprint"])):
        raise ValueError("not a media file's path, name and fingerprint")
    return data


def make_qsettings() -> QSettings:
    override = os.environ.get("SUBCASE_CONFIG_DIR")
    if override:
        Path(override).mkdir(parents=True, exist_ok=True)
        return QSettings(str(Path(override) / "subcase.ini"), QSettings.Format.IniFormat)
    return QSettings("subcase", "subcase")


class Settings:
    """The settings, each read through its ``Spec``: a stored value of the wrong type or out of range is
    reset to its default (the key removed) and noted in ``repaired``, which ``take_notice`` turns into one
    line for the user, once."""

    def __init__(self, qsettings: QSettings | None = None):
        self.q = qsettings or make_qsettings()
        self.repaired: list[str] = []

    def value(self, key: str, spec: Spec | None = None) -> Any:
        """The setting ``key`` as its Spec reads it (a bad stored value reset to the default)."""
        spec = spec or SPECS[key]
        raw = self.q.value(key)
        if raw is None:
            return spec.default
        try:
            return spec.parse(raw)
        except (TypeError, ValueError):
            self._reset(key, spec.label, raw)
            return spec.default

    def _reset(self, key: str, label: str, raw: object) -> None:
        self.q.remove(key)
        shown = repr(raw) if len(repr(raw)) <= 40 else repr(raw)[:37] + "..."
        self.repaired.append(f"{label} (was {shown})")

    def check(self) -> list[str]:
        """Read every setting once, resetting the bad ones; what was reset (also in ``repaired``)."""
        before = len(self.repaired)
        for key in SPECS:
            self.value(key)
        from subcase.casing.housestyle import Category
        for c in Category:
            self.house_style(c.value)
        self.q.beginGroup("media-files")
        keys = self.q.childKeys()
        self.q.endGroup()
        for key in keys:
            self._media_entry(f"media-files/{key}")
        _ = self.recent_files
        return self.repaired[before:]

    def take_notice(self) -> str | None:
        """One line naming every setting reset since the last call, or None."""
        if not self.repaired:
            return None
        items, self.repaired = self.repaired, []
        return "Settings reset to their defaults, as they were damaged: " + "; ".join(items)

    threshold = Setting[float | None]("review/threshold")
    mode = Setting[str]("casing/mode")
    punctuate = Setting[str]("casing/punctuate")
    learning = Setting[bool]("review/learning")
    profile = Setting[str]("review/profile")
    output_dir = Setting[str]("batch/output_dir")
    output_format = Setting[str]("batch/output_format")
    batch_jobs = Setting[int]("batch/jobs")
    theme = Setting[str]("view/theme")
    font_size = Setting[int]("view/font_size")
    show_tags = Setting[bool]("view/show_tags")
    cpl_limit = Setting[int]("view/cpl_limit")
    cps_limit = Setting[float]("view/cps_limit")
    lead_in_ms = Setting[int]("media/lead_in_ms")
    lead_out_ms = Setting[int]("media/lead_out_ms")
    follow_playback = Setting[bool]("media/follow")
    play_at_flagged = Setting[bool]("media/play_at_flagged")

    def house_style(self, category: str) -> str:
        """The chosen style of "sound-cues" or "speaker-labels": model (default), lower, upper, title."""
        return self.value(f"style/{category}", STYLE_SPEC)

    def set_house_style(self, category: str, value: str) -> None:
        self.q.setValue(f"style/{category}", value)

    def house_styles(self) -> dict:
        """Category -> Style for batch conversion and for what the editor proposes."""
        from subcase.casing.housestyle import Category, Style
        return {c: Style(self.house_style(c.value)) for c in Category}

    def _media_entry(self, key: str) -> dict | None:
        raw = self.q.value(key)
        if raw is None:
            return None
        try:
            return _media_entry(raw)
        except (TypeError, ValueError, RecursionError):  # RecursionError: JSON nested deeper than json.loads goes
            self._reset(key, "remembered media", raw)
            return None

    def media_for(self, source: Path):
        """The media remembered for subtitle file ``source`` (a media.MediaRef), or None.  Its path is opened
        only if the file there still has its fingerprint (``media.still_matches``)."""
        from subcase.media import MediaRef
        from subcase.review.storage import file_key
        return MediaRef.from_dict(self._media_entry(f"media-files/{file_key(source)}"))

    def set_media_for(self, source: Path, ref) -> None:
        from subcase.review.storage import file_key
        key = f"media-files/{file_key(source)}"
        if ref is None:
            self.q.remove(key)
        else:
            self.q.setValue(key, json.dumps(ref.as_dict()))

    @property
    def recent_files(self) -> list[str]:
        v = self.q.value("files/recent", [])
        if isinstance(v, str):
            v = [v]  # an INI file keeps a list of one as a plain value
        try:
            if not isinstance(v, (list, tuple)):
                raise ValueError("not a list")
            return [_text(x) for x in v][:MAX_RECENT]
        except ValueError:
            self._reset("files/recent", "recent files", v)
            return []

    def add_recent(self, path: Path) -> None:
        p = str(Path(path).resolve())
        items = [x for x in self.recent_files if x != p]
        self.q.setValue("files/recent", [p] + items[:MAX_RECENT - 1])

    def layout(self) -> tuple[QByteArray | None, QByteArray | None, QByteArray | None]:
        return (self.q.value("window/geometry"), self.q.value("window/state"), self.q.value(HEADER_KEY))

    def save_layout(self, geometry: QByteArray, state: QByteArray, header: QByteArray) -> None:
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)
        self.q.setValue(HEADER_KEY, header)

    def sync(self) -> None:
        self.q.sync()
