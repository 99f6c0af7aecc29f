"""Persistent settings (QSettings), typed.

``SUBCASE_CONFIG_DIR`` redirects them to an INI file in that folder, so tests
never read or write the user's real settings.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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


def make_qsettings() -> QSettings:
    override = os.environ.get("SUBCASE_CONFIG_DIR")
    if override:
        Path(override).mkdir(parents=True, exist_ok=True)
        return QSettings(str(Path(override) / "subcase.ini"), QSettings.Format.IniFormat)
    return QSettings("subcase", "subcase")


class Settings:
    def __init__(self, qsettings: QSettings | None = None):
        self.q = qsettings or make_qsettings()

    def _get(self, key: str, default, kind):
        value = self.q.value(key, default)
        try:
            if kind is bool and isinstance(value, str):
                return value.lower() in ("1", "true", "yes")
            return kind(value) if value is not None else default
        except (TypeError, ValueError):
            return default

    # threshold: None means "the model's calibrated default"
    @property
    def threshold(self) -> float | None:
        v = self.q.value("review/threshold")
        try:
            return float(v) if v not in (None, "") else None
        except (TypeError, ValueError):
            return None

    @threshold.setter
    def threshold(self, value: float | None) -> None:
        self.q.setValue("review/threshold", "" if value is None else float(value))

    @property
    def mode(self) -> str:
        m = self._get("casing/mode", MODES[0], str)
        return m if m in MODES else MODES[0]

    @mode.setter
    def mode(self, value: str) -> None:
        self.q.setValue("casing/mode", value)

    @property
    def punctuate(self) -> str:
        """Where missing punctuation is restored in the next file opened and in batches (casing/restoring.py)."""
        v = self._get("casing/punctuate", DEFAULT_PUNCTUATE, str)
        return v if v in PUNCTUATE else DEFAULT_PUNCTUATE

    @punctuate.setter
    def punctuate(self, value: str) -> None:
        self.q.setValue("casing/punctuate", value)

    @property
    def learning(self) -> bool:
        """Learn from every fix within the file (review/learning/); on by default."""
        return self._get("review/learning", True, bool)

    @learning.setter
    def learning(self, value: bool) -> None:
        self.q.setValue("review/learning", bool(value))

    @property
    def profile(self) -> str:
        """The profile applied to the next file opened and to batches (review/profiles/profile.py); "" for none."""
        return self._get("review/profile", "", str)

    @profile.setter
    def profile(self, value: str) -> None:
        self.q.setValue("review/profile", value or "")

    def house_style(self, category: str) -> str:
        """The chosen style of "sound-cues" or "speaker-labels": model (default), lower, upper, title."""
        v = self._get(f"style/{category}", "model", str)
        return v if v in STYLES else "model"

    def set_house_style(self, category: str, value: str) -> None:
        self.q.setValue(f"style/{category}", value)

    def house_styles(self) -> dict:
        """Category -> Style for batch conversion and for what the editor proposes."""
        from subcase.casing.housestyle import Category, Style
        return {c: Style(self.house_style(c.value)) for c in Category}

    @property
    def output_dir(self) -> str:
        return self._get("batch/output_dir", "", str)

    @output_dir.setter
    def output_dir(self, value: str) -> None:
        self.q.setValue("batch/output_dir", value)

    @property
    def output_format(self) -> str:
        return self._get("batch/output_format", "keep", str)

    @output_format.setter
    def output_format(self, value: str) -> None:
        self.q.setValue("batch/output_format", value)

    # files converted at a time by the batch dialog; 0 means automatic (parallel.auto_jobs)
    @property
    def batch_jobs(self) -> int:
        return max(0, self._get("batch/jobs", 0, int))

    @batch_jobs.setter
    def batch_jobs(self, value: int) -> None:
        self.q.setValue("batch/jobs", int(value))

    @property
    def theme(self) -> str:
        t = self._get("view/theme", "system", str)
        return t if t in THEMES else "system"

    @theme.setter
    def theme(self, value: str) -> None:
        self.q.setValue("view/theme", value)

    @property
    def font_size(self) -> int:
        return max(6, min(48, self._get("view/font_size", 11, int)))

    @font_size.setter
    def font_size(self, value: int) -> None:
        self.q.setValue("view/font_size", int(value))

    # "Show all tags": the per-word gloss above each line; off by default
    @property
    def show_tags(self) -> bool:
        return self._get("view/show_tags", False, bool)

    @show_tags.setter
    def show_tags(self, value: bool) -> None:
        self.q.setValue("view/show_tags", bool(value))

    # Reading limits: characters per line and per second (markup excluded).
    # Defaults follow Netflix's English timed-text guide (42 CPL, 20 CPS for
    # adult programmes); BBC-style or children's work wants about 17 CPS.
    @property
    def cpl_limit(self) -> int:
        return max(10, min(200, self._get("view/cpl_limit", DEFAULT_CPL, int)))

    @cpl_limit.setter
    def cpl_limit(self, value: int) -> None:
        self.q.setValue("view/cpl_limit", int(value))

    @property
    def cps_limit(self) -> float:
        return max(5.0, min(60.0, self._get("view/cps_limit", DEFAULT_CPS, float)))

    @cps_limit.setter
    def cps_limit(self, value: float) -> None:
        self.q.setValue("view/cps_limit", float(value))

    # Media beside the review (gui/media.py).  Lead-in and lead-out: how much before a cue's
    # start and after its end "Play Cue" plays, in milliseconds.
    @property
    def lead_in_ms(self) -> int:
        return max(0, min(5000, self._get("media/lead_in_ms", DEFAULT_LEAD_MS, int)))

    @lead_in_ms.setter
    def lead_in_ms(self, value: int) -> None:
        self.q.setValue("media/lead_in_ms", int(value))

    @property
    def lead_out_ms(self) -> int:
        return max(0, min(5000, self._get("media/lead_out_ms", DEFAULT_LEAD_MS, int)))

    @lead_out_ms.setter
    def lead_out_ms(self, value: int) -> None:
        self.q.setValue("media/lead_out_ms", int(value))

    # "Follow playback": the cue being played is selected; on by default
    @property
    def follow_playback(self) -> bool:
        return self._get("media/follow", True, bool)

    @follow_playback.setter
    def follow_playback(self, value: bool) -> None:
        self.q.setValue("media/follow", bool(value))

    # N plays the cue of each flagged word it reaches; off by default
    @property
    def play_at_flagged(self) -> bool:
        return self._get("media/play_at_flagged", False, bool)

    @play_at_flagged.setter
    def play_at_flagged(self, value: bool) -> None:
        self.q.setValue("media/play_at_flagged", bool(value))

    def media_for(self, source: Path):
        """The media remembered for subtitle file ``source`` (a media.MediaRef), or None."""
        from subcase.media import MediaRef
        from subcase.review.storage import file_key
        raw = self.q.value(f"media-files/{file_key(source)}")
        try:
            return MediaRef.from_dict(json.loads(raw)) if isinstance(raw, str) and raw else None
        except (ValueError, RecursionError):  # not JSON, or JSON nested deeper than json.loads goes
            return None

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
            v = [v]
        if not isinstance(v, (list, tuple)):
            v = []
        return [str(x) for x in v][:MAX_RECENT]

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
