"""Crash recovery: snapshots of an unsaved review, written atomically.

A snapshot is proportional to what the editor changed, not to the file.  It
names the file the review was opened from (its *origin*: path and sha256; a
save over it moves it to the backup the save keeps) and holds only the cues
the review changed since: each one's text and its words' review state.  A
restore reads the origin again and cases it again with the same model, mode
and house style (``needs_casing``; the GUI does it in a worker), checks that
the fresh casing is exactly the one the review started from (``fingerprint``),
and puts the changed cues back (``restore``).  The origin is cased again with
the punctuation it was opened with (``punctuate``), so the marks restored then
are restored again, and each word keeps what the editor made of its mark.  A snapshot that holds every
cue (``complete``, e.g. written by subcase before this schema, or after a save
into another format) is restored from the last saved file alone, as before.

Every snapshot also keeps the sha256 of the file the document was last read
from or saved to, so a restore never applies edits to a file that changed
since.  It is removed when the review is saved or closed cleanly; a snapshot
still on disk at the next start therefore means the app died with unsaved
work.  The pid of the writer is kept so a second running instance does not
offer to "recover" the first one's live work.

Schema 3 (``SnapshotV3``) is documented field by field; schema 2 (the same without
``punctuate`` and the marks' review, so opened without restoring punctuation) and
schema 1 (every cue, ``cue_texts`` and ``words``) are still restored.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Annotated, Iterable, Mapping, TypedDict

from subcase.casing import Tag
from subcase.casing.restoring import Punctuate
from subcase.digest import file_sha256
from subcase.errors import SubcaseError
from subcase.subtitles import Document, load
from subcase.subtitles.atomic import write_atomic

from . import snapshot_schema
from .state import MarkReview, ReviewState, ReviewWord, Status
from .storage import data_dir, file_key

SNAPSHOT_SCHEMA = 3
# Schema 2 is schema 3 without ``punctuate`` and the marks: read the same way, with punctuation never restored.
PROPORTIONAL_SCHEMAS = (2, SNAPSHOT_SCHEMA)
READABLE_SCHEMAS = (1, *PROPORTIONAL_SCHEMAS)

# One word of a snapshot: [word_index, start, end, input, proposed, form, model_tag, probs, status, raised],
# and a word with a restored mark after it one more item, the mark (``MarkItem``).
WordItem = list
# The review of a restored mark (``state.MarkReview``): [proposed, probs, now, status].
MarkItem = list


class SnapshotV3(TypedDict, total=False):
    """An autosave snapshot (schema 3): a reference to the file the review opened and what changed."""

    schema: Annotated[int, "Snapshot schema: 3 (2, without punctuate and marks, and 1, which held every cue, "
                           "are still restored)."]
    time: Annotated[str, "UTC time the snapshot was taken."]
    pid: Annotated[int, "Process that wrote it; a snapshot of a running process is never offered."]
    source: Annotated[str, "Absolute path of the subtitle file under review (names the snapshot)."]
    base: Annotated[str, "The file the document was last read from or saved to."]
    base_sha256: Annotated[str, "Its sha256: a restore refuses a file that changed since."]
    origin: Annotated[str, "The file the review was opened from (after a save over it, its backup)."]
    origin_sha256: Annotated[str, "sha256 of the opened content; a restore cases this file again."]
    origin_fingerprint: Annotated[str, "sha256 of the review state the casing of the origin gave; checked."]
    styles: Annotated[dict[str, str], "House style per category the file was opened with."]
    origin_mode: Annotated[str, "The mode the origin was cased in when opened (mode is the current one)."]
    punctuate: Annotated[str, 'Where missing marks were restored when the origin was opened: "auto", "always" '
                              'or "never" (absent in schema 2: never); a restore cases the origin again with it.']
    mode: Annotated[str, 'Casing mode: "restore", "keep" or "caps".']
    model_version: Annotated[str, "Model version the file was cased with."]
    model_sha256: Annotated[str, "sha256 of that model; a restore with another model is refused."]
    session: Annotated[str, "Id of the review session (as in the edit log)."]
    log: Annotated[str | None, "Not written since issue #54 and ignored when read: the edit log is always the "
                               "one of source in the data folder (older releases wrote its path here)."]
    threshold: Annotated[float, "Review threshold."]
    current: Annotated[list[int] | None, "The current word: [cue index, slot]."]
    complete: Annotated[bool, "True if cues holds every cue of the file (restored without casing)."]
    n_cues: Annotated[int, "Number of cues of the document."]
    cues: Annotated[list[dict], "The changed cues, in cue order, each a CueFull or a CueReview."]


class CueFull(TypedDict):
    """A cue whose words were rebuilt (its text edited by hand), or any cue of a complete snapshot."""

    cue: Annotated[int, "Cue index."]
    text: Annotated[str, "The cue's text."]
    words: Annotated[list[list], "Each word: [word_index, start, end, input, proposed, form, model_tag, probs, "
                                 "status, raised], and a word with a restored mark after it the mark's review: "
                                 "[proposed, probs, now, status] (schema 3)."]


class CueReview(TypedDict):
    """A cue whose words are the casing's, with review changes: only the words that differ are listed."""

    cue: Annotated[int, "Cue index."]
    model: Annotated[str, "Hash of the cue's words as cased (positions, input, proposal, tag, probabilities, and "
                          "the restored marks' proposals and probabilities); a restore checks it against the fresh "
                          "casing."]
    review: Annotated[list[list], "[slot, form, status, raised] of each word whose form is not the proposed one, "
                                  "whose status is not untouched, that is raised for review or whose restored mark "
                                  "a human decided on; such a word has a fifth item, its mark's review "
                                  "[proposed, probs, now, status] (schema 3)."]


def autosave_dir() -> Path:
    return data_dir() / "autosave"


def snapshot_path_for(source: Path) -> Path:
    return autosave_dir() / f"{file_key(source)}.json"


def _item(w: ReviewWord) -> WordItem:
    # The tenth item is why learning raised the word for review (None if it did not):
    # without it a recovered review would hide those flags.  A word without a restored mark has no
    # eleventh, so the fingerprint of a file opened without restoring punctuation is as in schema 2.
    item = [w.word_index, w.start, w.end, w.input, w.proposed, w.form,
            w.model_tag.value if w.model_tag else None, list(w.probs) if w.probs else None, w.status.value,
            w.raised]
    if w.mark is not None:
        item.append(_mark_item(w.mark))
    return item


def _mark_item(m: MarkReview) -> MarkItem:
    return [m.proposed, list(m.probs), m.now, m.status.value]


def _mark(item: MarkItem | None) -> MarkReview | None:
    if item is None:
        return None
    proposed, probs, now, status = item
    return MarkReview(proposed, tuple(float(p) for p in probs), now, Status(status))


def fingerprint(state: ReviewState) -> str:
    """sha256 of every word's review state: a restore checks that casing the origin again gives
    exactly the state the review started from (same model, mode, house style and file)."""
    h = hashlib.sha256()
    for c, cue in enumerate(state.cues):
        h.update(repr((c, [_item(w) for w in cue])).encode("utf-8"))
    return h.hexdigest()


def _model_hash(words: list[ReviewWord]) -> str:
    """What casing gave a cue's words, as a short hash (review fields left out).  The restored marks count
    only where there are some, so a cue without any hashes as in schema 2."""
    model = [(w.word_index, w.start, w.end, w.input, w.proposed, w.model_tag.value if w.model_tag else None, w.probs)
             for w in words]
    marks = [(s, w.mark.proposed, w.mark.probs) for s, w in enumerate(words) if w.mark is not None]
    return hashlib.sha256(repr((model, marks) if marks else model).encode("utf-8")).hexdigest()[:16]


def _cue_entry(doc: Document, state: ReviewState, c: int, full: bool) -> dict:
    words = state.cues[c]
    if full:
        return {"cue": c, "text": doc.cues[c].text, "words": [_item(w) for w in words]}
    review = []
    for s, w in enumerate(words):
        marked = w.mark is not None and w.mark.status is not Status.UNTOUCHED
        if w.form != w.proposed or w.status is not Status.UNTOUCHED or w.raised is not None or marked:
            item = [s, w.form, w.status.value, w.raised]
            if marked:
                assert w.mark is not None
                item.append(_mark_item(w.mark))
            review.append(item)
    return {"cue": c, "model": _model_hash(words), "review": review}


@dataclass(frozen=True)
class Origin:
    """The file a review was cased from, and how: what a restore cases again.  Its content must still hash
    to ``sha256``, and its casing give ``fingerprint`` (taken before anything else touched the state);
    ``mode`` is the mode it was cased in (the session's may change later), ``styles`` the house styles
    applied.  Where marks were restored is the state's (``ReviewState.punctuate``)."""

    path: Path
    sha256: str
    fingerprint: str
    mode: str
    styles: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", Path(self.path).resolve())
        object.__setattr__(self, "styles", dict(self.styles))


@dataclass(frozen=True)
class ReviewIdentity:
    """Which review a snapshot is of: the file it edits (``source``), the file its document was last read
    from or saved to (``base``, which must not change before a restore) and the model and session."""

    source: Path
    base: Path
    base_sha256: str
    mode: str
    model_version: str
    model_sha256: str
    session_id: str


def snapshot(doc: Document, state: ReviewState, identity: ReviewIdentity, origin: Origin | None = None,
             changed: Iterable[int] | None = None, rewritten: Iterable[int] = ()) -> dict:
    """A snapshot of the cues in ``changed`` (every cue if None, or without an origin to case again);
    the cues in ``rewritten`` (their words rebuilt, by a text edit) are held in full.  Where missing marks
    were restored when the origin was opened is the state's ``punctuate`` (``casing.restoring.Punctuate``)."""
    complete = changed is None or origin is None
    indices = range(len(doc.cues)) if complete else sorted(c for c in set(changed or ()) if 0 <= c < len(doc.cues))
    full = set(rewritten)
    data = {
        "schema": SNAPSHOT_SCHEMA,
        "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "pid": os.getpid(),
        "source": str(Path(identity.source).resolve()),
        # The file the document was last read from or saved to; it must not have changed since.
        "base": str(Path(identity.base).resolve()),
        "base_sha256": identity.base_sha256,
        "mode": identity.mode,
        "punctuate": state.punctuate,
        "model_version": identity.model_version,
        "model_sha256": identity.model_sha256,
        "session": identity.session_id,
        "threshold": state.threshold,
        "current": list(state.current) if state.current else None,
        "complete": complete,
        "n_cues": len(doc.cues),
        "cues": [_cue_entry(doc, state, c, complete or c in full) for c in indices],
    }
    if origin is not None and not complete:
        data.update(origin=str(origin.path), origin_sha256=origin.sha256, origin_fingerprint=origin.fingerprint,
                    styles=dict(origin.styles), origin_mode=origin.mode)
    return data


def origin_of(data: dict) -> Origin | None:
    """The origin a snapshot names (``needs_casing``), or None when it holds every cue."""
    if not needs_casing(data):
        return None
    return Origin(Path(data["origin"]), data["origin_sha256"], data["origin_fingerprint"],
                  data.get("origin_mode", data["mode"]), data.get("styles") or {})


def encode(data: dict) -> bytes:
    """JSON, one cue at a time: json.dumps holds the GIL for a whole call, so
    small calls let a GUI thread run in between."""
    key = "cues" if "cues" in data else "words"
    rest = {k: v for k, v in data.items() if k != key}
    parts = [json.dumps(rest, ensure_ascii=False, separators=(",", ":"))[:-1], f',"{key}":[']
    for i, cue in enumerate(data[key]):
        if i:
            parts.append(",")
        parts.append(json.dumps(cue, ensure_ascii=False, separators=(",", ":")))
    parts.append("]}")
    return "".join(parts).encode("utf-8")


def write_snapshot(data: dict, path: Path | None = None) -> Path:
    path = path or snapshot_path_for(Path(data["source"]))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, encode(data))
    return path


class AutosaveWriter:
    """Writes snapshots on a background thread, in order; the GUI only builds them.

    Encoding and fsyncing a film's snapshot takes ~100 ms, too long for the
    GUI thread.  ``discard`` waits for a write in progress, so a snapshot can
    never reappear after the review was saved.
    """

    def __init__(self) -> None:
        self._queue: queue.Queue[dict | None] = queue.Queue()
        self._lock = threading.Lock()
        self._generation = 0
        self.last_error: str | None = None
        self._thread = threading.Thread(target=self._run, name="subcase-autosave", daemon=True)
        self._thread.start()

    def submit(self, data: dict) -> None:
        with self._lock:
            data = dict(data, _generation=self._generation)
        self._queue.put(data)

    def _run(self) -> None:
        while True:
            data = self._queue.get()
            try:
                if data is None:
                    return
                with self._lock:
                    if data.pop("_generation") != self._generation:
                        continue  # discarded after it was submitted
                    try:
                        write_snapshot(data)
                        self.last_error = None
                    except OSError as exc:
                        self.last_error = str(exc)
            finally:
                self._queue.task_done()

    def flush(self) -> None:
        """Wait until every submitted snapshot is on disk (or dropped)."""
        self._queue.join()

    def discard(self, source: Path) -> None:
        with self._lock:
            self._generation += 1
            remove_snapshot(source)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(timeout=10)


def remove_snapshot(source: Path) -> None:
    try:
        snapshot_path_for(source).unlink()
    except (FileNotFoundError, NotADirectoryError):
        pass  # no snapshot (or no folder one could be in): nothing to remove


def _alive(pid: object) -> bool:
    if isinstance(pid, bool) or not isinstance(pid, int) or not 0 < pid < 2 ** 31:
        return False  # no process: the schema check says what is wrong with it
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


@dataclass
class Recoverable:
    path: Path
    source: Path
    time: str
    data: dict


@dataclass
class SetAside:
    """A snapshot that was not a snapshot of this schema: moved to ``moved_to`` (None if even that failed)."""

    path: Path
    moved_to: Path | None
    reason: str


@dataclass
class Scan:
    recoverable: list[Recoverable]
    set_aside: list[SetAside]


def set_aside(path: Path) -> Path:
    """Move ``path`` to ``NAME.corrupt`` (``NAME.1.corrupt``... if that is taken), atomically and never over
    another file: kept for a look, and no longer offered."""
    for n in range(1000):
        target = path.with_name(f"{path.name}.corrupt" if n == 0 else f"{path.name}.{n}.corrupt")
        try:
            # a hard link fails on an existing name where a rename would replace it; the unlink then
            # leaves the one name
            os.link(path, target, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            # no hard links here (FAT, some shares): a rename, which Windows never lets replace a file
            if os.path.lexists(target):
                continue
            os.rename(path, target)
            return target
        os.unlink(path)
        return target
    raise OSError(f"{path}: no free .corrupt name")


def scan() -> Scan:
    """Snapshots left by a process that is no longer running, newest first; any that cannot be
    read or break the schema (``snapshot_schema``) are moved aside (``set_aside``) and listed."""
    out = Scan([], [])
    directory = autosave_dir()
    if not directory.is_dir():
        return out
    for p in directory.glob("*.json"):
        if p.is_symlink() or not p.is_file():
            reason = "not a regular file"
        else:
            try:
                raw = json.loads(p.read_bytes().decode("utf-8"))
                if isinstance(raw, dict) and raw.get("schema") not in READABLE_SCHEMAS:
                    continue  # written by a later release: left for it
                if isinstance(raw, dict) and _alive(raw.get("pid")):
                    continue  # a running instance's live work
                data = snapshot_schema.check(raw, READABLE_SCHEMAS)
            except (ValueError, RecursionError, snapshot_schema.CorruptSnapshot) as exc:
                reason = str(exc) or type(exc).__name__
            except OSError as exc:
                reason = exc.strerror or str(exc)
            else:
                out.recoverable.append(Recoverable(p, Path(data["source"]), data.get("time", ""), data))
                continue
        try:
            moved: Path | None = set_aside(p)
        except OSError:
            moved = None
        out.set_aside.append(SetAside(p, moved, reason))
    out.recoverable.sort(key=lambda r: r.time, reverse=True)
    return out


def find_recoverable() -> list[Recoverable]:
    """Snapshots left by a process that is no longer running, newest first (``scan``)."""
    return scan().recoverable


class RestoreError(SubcaseError):
    pass


def _word(cue_index: int, item: list) -> ReviewWord:
    # Snapshots written before the raised reason was kept have 9 items, a word without a restored mark 10.
    wi, start, end, inp, prop, form, tag, probs, status = item[:9]
    raised = item[9] if len(item) > 9 else None
    return ReviewWord(cue_index, wi, start, end, inp, prop, form, Tag(tag) if tag else None,
                      tuple(probs) if probs else None, Status(status), raised=raised,
                      mark=_mark(item[10]) if len(item) > 10 else None)


def validate(data: object) -> dict:
    """``data`` if it is a snapshot of a readable schema with every field in range (``snapshot_schema``);
    RestoreError saying which field is not."""
    try:
        return snapshot_schema.check(data, READABLE_SCHEMAS)
    except snapshot_schema.CorruptSnapshot as exc:
        raise RestoreError(f"the snapshot is damaged ({exc})") from None


def needs_casing(data: dict) -> bool:
    """True if the snapshot holds only the changed cues: the origin must be cased again first."""
    return data.get("schema") in PROPORTIONAL_SCHEMAS and not data.get("complete", True)


def punctuate_of(data: dict) -> str:
    """Where missing marks were restored when the snapshot's origin was opened (schema 2: never); RestoreError
    for a value no release writes."""
    value = data.get("punctuate", Punctuate.NEVER.value)
    if value not in {p.value for p in Punctuate}:
        raise RestoreError(f"the snapshot names an unknown way of restoring punctuation: {value!r}")
    return str(value)


def check_files(data: dict) -> None:
    """RestoreError unless the files a snapshot refers to are still as they were."""
    base = Path(data["base"])
    if not base.is_file():
        raise RestoreError(f"{base} no longer exists")
    if file_sha256(base) != data["base_sha256"]:
        raise RestoreError(f"{base} changed on disk since the review was autosaved")
    if needs_casing(data):
        origin = Path(data["origin"])
        if not origin.is_file():
            raise RestoreError(f"{origin}, the file the review was opened from, no longer exists")
        if file_sha256(origin) != data["origin_sha256"]:
            raise RestoreError(f"{origin}, the file the review was opened from, changed on disk since")


def restore(data: dict, fresh: tuple[Document, ReviewState] | None = None) -> tuple[Document, ReviewState]:
    """The document and review state a snapshot describes.

    A snapshot of the changed cues only (``needs_casing``) needs ``fresh``: the origin as casing
    it again gives it (same model, mode and styles), before any profile or learning."""
    validate(data)
    check_files(data)
    if data.get("schema") == 1:
        return _restore_v1(data)
    n = int(data["n_cues"])
    if needs_casing(data):
        if fresh is None:
            raise RestoreError("this snapshot needs the file cased again first")
        doc, state = fresh
        if fingerprint(state) != data["origin_fingerprint"]:
            raise RestoreError(f"{data['origin']} no longer cases as it did when the review started "
                               "(another model, mode or house style)")
        doc.path = Path(data["base"])
    else:
        doc = load(Path(data["base"]))
        state = ReviewState([[] for _ in doc.cues], float(data["threshold"]))
    if len(doc.cues) != n:
        raise RestoreError(f"{data['base']} no longer has {n} cues")
    for entry in data["cues"]:
        c = entry["cue"]
        if "words" in entry:
            if doc.cues[c].text != entry["text"]:
                doc.set_cue_text(c, entry["text"])
            if any(item[2] > len(entry["text"]) for item in entry["words"]):
                raise RestoreError(f"cue {c + 1} of the snapshot has a word past the end of its text")
            state.cues[c] = [_word(c, item) for item in entry["words"]]
            continue
        words = state.cues[c]
        if _model_hash(words) != entry["model"]:
            raise RestoreError(f"cue {c + 1} of {data['origin']} no longer cases as it did")
        spans = []
        for item in entry["review"]:
            slot, form, status, raised = item[:4]
            if slot >= len(words):
                raise RestoreError(f"cue {c + 1} of the snapshot names word {slot + 1} of {len(words)}")
            w = words[slot]
            if form != w.form:
                spans.append((w.start, w.end, form))
            w.form, w.status, w.raised = form, Status(status), raised
            if len(item) > 4:  # a restored mark a human decided on (its text is the casing's: the cue is unedited)
                w.mark = _mark(item[4])
        if spans:
            doc.recase(c, spans)
    state.threshold = float(data["threshold"])
    state.current = _current(data, state)
    state.punctuate = punctuate_of(data)
    return doc, state


def _current(data: dict, state: ReviewState) -> tuple[int, int] | None:
    """The snapshot's current word, if the restored review has it."""
    current = data.get("current")
    if not current:
        return None
    c, slot = current
    return (c, slot) if c < len(state.cues) and slot < len(state.cues[c]) else None


def _restore_v1(data: dict) -> tuple[Document, ReviewState]:
    doc = load(Path(data["base"]))
    if len(doc.cues) != len(data["cue_texts"]):
        raise RestoreError(f"{data['base']} no longer has {len(data['cue_texts'])} cues")
    for i, text in enumerate(data["cue_texts"]):
        if doc.cues[i].text != text:
            doc.set_cue_text(i, text)
    cues = [[_word(c, item) for item in words] for c, words in enumerate(data["words"])]
    state = ReviewState(cues, float(data["threshold"]))
    state.current = _current(data, state)
    return doc, state
