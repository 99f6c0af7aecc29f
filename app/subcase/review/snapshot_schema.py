"""What an autosave snapshot may hold: every field's type and range, checked before anything is used.

A snapshot is a file in the user's data folder that anything on the machine can
write or damage, so it is data to check, never a command (issue #54): a restore
reads the subtitle files it names (checked by sha256 before use) and nothing
else; the edit log and the snapshot's own place are derived from the data
folder and the subtitle's path (``editlog.log_path_for``,
``autosave.snapshot_path_for``), whatever the snapshot says.  ``check`` raises
``CorruptSnapshot`` naming the first field that is wrong; a snapshot that fails
is moved aside by ``autosave.find_recoverable``.
"""

from __future__ import annotations

import math
import re

from subcase.casing import Tag
from subcase.casing.marks import MARKS
from subcase.casing.tags import TAGS
from subcase.casing.housestyle import Category, Style
from subcase.casing.modes import NAMES as MODES
from subcase.casing.restoring import Punctuate
from subcase.errors import SubcaseError

from .state import Status

# A path no file system accepts is longer than this (PATH_MAX on Linux); a word or cue text far longer
# than any subtitle's is damage, not an edit.
MAX_PATH = 4096
MAX_TEXT = 1 << 20
_SHA256 = re.compile(r"[0-9a-f]{64}")
_TAGS = frozenset(t.value for t in Tag)
_STATUSES = frozenset(s.value for s in Status)
_PUNCTUATE = frozenset(p.value for p in Punctuate)
_CATEGORIES = frozenset(c.value for c in Category)
_STYLES = frozenset(s.value for s in Style)
_MARKS = frozenset(MARKS)


class CorruptSnapshot(SubcaseError):
    """A snapshot that is not JSON of the schema this release writes or reads: set aside, never used."""


def _fail(where: str, what: str) -> CorruptSnapshot:
    return CorruptSnapshot(f"{where}: {what}")


def _int(value: object, where: str, low: int = 0, high: int = 2 ** 63) -> int:
    # bool is an int to Python, never to a snapshot
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _fail(where, f"not a whole number from {low} to {high}")
    return value


def _float(value: object, where: str, low: float = 0.0, high: float = 1.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not low <= value <= high:
        raise _fail(where, f"not a number from {low} to {high}")
    return float(value)


def _str(value: object, where: str, limit: int = MAX_TEXT, choices: frozenset[str] | None = None) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise _fail(where, f"not a text of at most {limit} characters")
    if choices is not None and value not in choices:
        raise _fail(where, f"not one of {', '.join(sorted(choices))}")
    return value


def _optional_str(value: object, where: str, limit: int = MAX_TEXT) -> None:
    if value is not None:
        _str(value, where, limit)


def _path(value: object, where: str) -> None:
    text = _str(value, where, MAX_PATH)
    # a snapshot only ever holds absolute paths (``Path.resolve``); "\0" no file system takes
    if not text or "\0" in text or not (text.startswith("/") or re.match(r"[A-Za-z]:[\\/]|\\\\", text)):
        raise _fail(where, "not an absolute path")


def _sha256(value: object, where: str) -> None:
    if not isinstance(value, str) or not _SHA256.fullmatch(value):
        raise _fail(where, "not a sha256 (64 hex digits)")


def _list(value: object, where: str, low: int = 0, high: int = 2 ** 31) -> list:
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise _fail(where, f"not a list of {low} to {high} items")
    return value


def _probs(value: object, where: str, n: int) -> None:
    for i, p in enumerate(_list(value, where, n, n)):
        _float(p, f"{where}[{i}]")


def _mark(value: object, where: str) -> None:
    """[proposed, probs, now, status]: the review of a restored mark (``state.MarkReview``)."""
    proposed, probs, now, status = _list(value, where, 4, 4)
    _str(proposed, f"{where}[0]", choices=_MARKS)
    _probs(probs, f"{where}[1]", len(MARKS))
    _str(now, f"{where}[2]", choices=_MARKS)
    _str(status, f"{where}[3]", choices=_STATUSES)


def _word(value: object, where: str) -> None:
    """[word_index, start, end, input, proposed, form, model_tag, probs, status, raised, mark]: 9 to 11 items."""
    item = _list(value, where, 9, 11)
    _int(item[0], f"{where}[0]")
    start = _int(item[1], f"{where}[1]", 0, MAX_TEXT)
    if _int(item[2], f"{where}[2]", 0, MAX_TEXT) < start:
        raise _fail(f"{where}[2]", "ends before it starts")
    for i in (3, 4, 5):
        _str(item[i], f"{where}[{i}]")
    if item[6] is not None:
        _str(item[6], f"{where}[6]", choices=_TAGS)
    if item[7] is not None:
        _probs(item[7], f"{where}[7]", len(TAGS))
    _str(item[8], f"{where}[8]", choices=_STATUSES)
    if len(item) > 9:
        _optional_str(item[9], f"{where}[9]")
    if len(item) > 10 and item[10] is not None:
        _mark(item[10], f"{where}[10]")


def _review(value: object, where: str) -> None:
    """[slot, form, status, raised] and, for a mark a human decided on, the mark's review."""
    item = _list(value, where, 4, 5)
    _int(item[0], f"{where}[0]", 0, MAX_TEXT)
    _str(item[1], f"{where}[1]")
    _str(item[2], f"{where}[2]", choices=_STATUSES)
    _optional_str(item[3], f"{where}[3]")
    if len(item) > 4:
        _mark(item[4], f"{where}[4]")


def _cue(value: object, where: str, n_cues: int, schema: int) -> int:
    if not isinstance(value, dict):
        raise _fail(where, "not an object")
    c = _int(value.get("cue"), f"{where}.cue", 0, max(0, n_cues - 1))
    if "words" in value:
        _str(value.get("text"), f"{where}.text")
        for i, w in enumerate(_list(value["words"], f"{where}.words")):
            _word(w, f"{where}.words[{i}]")
    elif schema != 1:
        _str(value.get("model"), f"{where}.model", 64)
        for i, r in enumerate(_list(value.get("review"), f"{where}.review")):
            _review(r, f"{where}.review[{i}]")
    else:
        raise _fail(where, "has no words")
    return c


def _media(value: object) -> None:
    if not isinstance(value, dict):
        raise _fail("media", "not an object")
    _path(value.get("path"), "media.path")
    _str(value.get("name"), "media.name", MAX_PATH)
    _sha256(value.get("fingerprint"), "media.fingerprint")


def check(data: object, readable_schemas: tuple[int, ...]) -> dict:
    """``data`` if it is a snapshot of one of ``readable_schemas`` whose every field has its type and range;
    CorruptSnapshot naming the first field that does not."""
    if not isinstance(data, dict):
        raise _fail("snapshot", "not a JSON object")
    schema = data.get("schema")
    if isinstance(schema, bool) or schema not in readable_schemas:
        raise _fail("schema", f"not one of {', '.join(map(str, readable_schemas))}")
    _int(data.get("pid", 0), "pid", 0, 2 ** 31)
    _str(data.get("time", ""), "time", 64)
    for key in ("source", "base"):
        _path(data.get(key), key)
    _sha256(data.get("base_sha256"), "base_sha256")
    _str(data.get("mode"), "mode", choices=frozenset(MODES))
    _float(data.get("threshold"), "threshold")
    if data.get("punctuate") is not None:
        _str(data["punctuate"], "punctuate", choices=_PUNCTUATE)
    for key in ("model_version", "model_sha256"):  # a restored review logs them
        _str(data.get(key), key, 256)
    _optional_str(data.get("session"), "session", 256)
    # "log" named the edit log before #54; it is never used, only allowed to be there
    _optional_str(data.get("log"), "log", MAX_PATH)
    current = data.get("current")
    if current is not None:
        c, slot = _list(current, "current", 2, 2)
        _int(c, "current[0]")
        _int(slot, "current[1]")
    if data.get("media") is not None:
        _media(data["media"])
    if schema == 1:
        texts = _list(data.get("cue_texts"), "cue_texts")
        for i, t in enumerate(texts):
            _str(t, f"cue_texts[{i}]")
        for c, words in enumerate(_list(data.get("words"), "words", len(texts), len(texts))):
            for i, w in enumerate(_list(words, f"words[{c}]")):
                _word(w, f"words[{c}][{i}]")
        return data
    n_cues = _int(data.get("n_cues"), "n_cues", 0, 2 ** 31)
    complete = data.get("complete", True)
    if not isinstance(complete, bool):
        raise _fail("complete", "not true or false")
    previous = -1
    for i, entry in enumerate(_list(data.get("cues"), "cues", 0, n_cues)):
        c = _cue(entry, f"cues[{i}]", n_cues, schema)
        if c <= previous:
            raise _fail(f"cues[{i}].cue", "not in increasing cue order")
        previous = c
    if not complete:
        _path(data.get("origin"), "origin")
        _sha256(data.get("origin_sha256"), "origin_sha256")
        _sha256(data.get("origin_fingerprint"), "origin_fingerprint")
        _str(data.get("origin_mode", data["mode"]), "origin_mode", choices=frozenset(MODES))
        styles = data.get("styles") or {}
        if not isinstance(styles, dict):
            raise _fail("styles", "not an object")
        for k, v in styles.items():
            _str(k, "styles", choices=_CATEGORIES)
            _str(v, f"styles.{k}", choices=_STYLES)
    return data
