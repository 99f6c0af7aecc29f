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
from typing import Callable

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
    """One setting: what it is called to the user, its default, and ``parse`` (ValueError or TypeError for a
    stored value of the wrong type or out of range, which is then reset to the default)."""

    label: str
    default: object
    parse: Callable[[object], object]


# Every setting read as a value, with its type and range: stored state is data, checked on each read.
SPECS: dict[str, Spec] = {
    "review/threshold": Spec("review threshold", None, _threshold),  # None: the model's calibrated default
    "casing/mode": Spec("casing mode", MODES[0], _choice(MODES)),
    "casing/punctuate": Spec("punctuation", DEFAULT_PUNCTUATE, _choice(PUNCTUATE)),
    "review/learning": Spec("learning", True, _flag),
    "review/profile": Spec("profile", "", _profile),
    "batch/output_dir": Spec("batch output folder", "", _text),
    "batch/output_format": Spec("batch output format", "keep", _text),
    "batch/jobs": Spec("batch jobs", 0, _whole(0, 1024)),  # 0: automatic (parallel.auto_jobs)
    "view/theme": Spec("theme", "system", _choice(THEMES)),
    "view/font_size": Spec("font size", DEFAULT_FONT_SIZE, _whole(MIN_FONT_SIZE, MAX_FONT_SIZE)),
    "view/show_tags": Spec("show all tags", False, _flag),
    "view/cpl_limit": Spec("characters per line", DEFAULT_CPL, _whole(10, 200)),
    "view/cps_limit": Spec("characters per second", DEFAULT_CPS, _number(5.0, 60.0)),
    "media/lead_in_ms": Spec("lead-in", DEFAULT_LEAD_MS, _whole(0, 5000)),
    "media/lead_out_ms": Spec("lead-out", DEFAULT_LEAD_MS, _whole(0, 5000)),
    "media/follow": Spec("follow playback", True, _flag),
    "media/play_at_flagged": Spec("play at flagged words", False, _flag),
}
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

    def _value(self, key: str, spec: Spec | None = None):
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
            self._value(key)
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

    # threshold: None means "the model's calibrated default"
    @property
    def threshold(self) -> float | None:
        return self._value("review/threshold")

    @threshold.setter
    def threshold(self, value: float | None) -> None:
        self.q.setValue("review/threshold", "" if value is None else float(value))

    @property
    def mode(self) -> str:
        return self._value("casing/mode")

    @mode.setter
    def mode(self, value: str) -> None:
        self.q.setValue("casing/mode", value)

    @property
    def punctuate(self) -> str:
        """Where missing punctuation is restored in the next file opened and in batches (casing/restoring.py)."""
        return self._value("casing/punctuate")

    @punctuate.setter
    def punctuate(self, value: str) -> None:
        self.q.setValue("casing/punctuate", value)

    @property
    def learning(self) -> bool:
        """Learn from every fix within the file (review/learning/); on by default."""
        return self._value("review/learning")

    @learning.setter
    def learning(self, value: bool) -> None:
        self.q.setValue("review/learning", bool(value))

    @property
    def profile(self) -> str:
        """The profile applied to the next file opened and to batches (review/profiles/profile.py); "" for none."""
        return self._value("review/profile")

    @profile.setter
    def profile(self, value: str) -> None:
        self.q.setValue("review/profile", value or "")

    def house_style(self, category: str) -> str:
        """The chosen style of "sound-cues" or "speaker-labels": model (default), lower, upper, title."""
        return self._value(f"style/{category}", STYLE_SPEC)

    def set_house_style(self, category: str, value: str) -> None:
        self.q.setValue(f"style/{category}", value)

    def house_styles(self) -> dict:
        """Category -> Style for batch conversion and for what the editor proposes."""
        from subcase.casing.housestyle import Category, Style
        return {c: Style(self.house_style(c.value)) for c in Category}

    @property
    def output_dir(self) -> str:
        return self._value("batch/output_dir")

    @output_dir.setter
    def output_dir(self, value: str) -> None:
        self.q.setValue("batch/output_dir", value)

    @property
    def output_format(self) -> str:
        return self._value("batch/output_format")

    @output_format.setter
    def output_format(self, value: str) -> None:
        self.q.setValue("batch/output_format", value)

    # files converted at a time by the batch dialog; 0 means automatic (parallel.auto_jobs)
    @property
    def batch_jobs(self) -> int:
        return self._value("batch/jobs")

    @batch_jobs.setter
    def batch_jobs(self, value: int) -> None:
        self.q.setValue("batch/jobs", int(value))

    @property
    def theme(self) -> str:
        return self._value("view/theme")

    @theme.setter
    def theme(self, value: str) -> None:
        self.q.setValue("view/theme", value)

    @property
    def font_size(self) -> int:
        return self._value("view/font_size")

    @font_size.setter
    def font_size(self, value: int) -> None:
        self.q.setValue("view/font_size", int(value))

    # "Show all tags": the per-word gloss above each line; off by default
    @property
    def show_tags(self) -> bool:
        return self._value("view/show_tags")

    @show_tags.setter
    def show_tags(self, value: bool) -> None:
        self.q.setValue("view/show_tags", bool(value))

    # Reading limits: characters per line and per second (markup excluded).
    # Defaults follow Netflix's English timed-text guide (42 CPL, 20 CPS for
    # adult programmes); BBC-style or children's work wants about 17 CPS.
    @property
    def cpl_limit(self) -> int:
        return self._value("view/cpl_limit")

    @cpl_limit.setter
    def cpl_limit(self, value: int) -> None:
        self.q.setValue("view/cpl_limit", int(value))

    @property
    def cps_limit(self) -> float:
        return self._value("view/cps_limit")

    @cps_limit.setter
    def cps_limit(self, value: float) -> None:
        self.q.setValue("view/cps_limit", float(value))

    # Media beside the review (gui/media.py).  Lead-in and lead-out: how much before a cue's
    # start and after its end "Play Cue" plays, in milliseconds.
    @property
    def lead_in_ms(self) -> int:
        return self._value("media/lead_in_ms")

    @lead_in_ms.setter
    def lead_in_ms(self, value: int) -> None:
        self.q.setValue("media/lead_in_ms", int(value))

    @property
    def lead_out_ms(self) -> int:
        return self._value("media/lead_out_ms")

    @lead_out_ms.setter
    def lead_out_ms(self, value: int) -> None:
        self.q.setValue("media/lead_out_ms", int(value))

    # "Follow playback": the cue being played is selected; on by default
    @property
    def follow_playback(self) -> bool:
        return self._value("media/follow")

    @follow_playback.setter
    def follow_playback(self, value: bool) -> None:
        self.q.setValue("media/follow", bool(value))

    # N plays the cue of each flagged word it reaches; off by default
    @property
    def play_at_flagged(self) -> bool:
        return self._value("media/play_at_flagged")

    @play_at_flagged.setter
    def play_at_flagged(self, value: bool) -> None:
        self.q.setValue("media/play_at_flagged", bool(value))

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
