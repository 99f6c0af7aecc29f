"""Crash recovery: snapshots of an unsaved review, written atomically.

A snapshot holds the cue texts and every word's review state, plus the sha256
of the source file so a restore never applies edits to a file that changed
since.  It is removed when the review is saved or closed cleanly; a snapshot
still on disk at the next start therefore means the app died with unsaved
work.  The pid of the writer is kept so a second running instance does not
offer to "recover" the first one's live work.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from subcase.casing import Tag
from subcase.digest import file_sha256
from subcase.errors import SubcaseError
from subcase.subtitles import Document, load
from subcase.subtitles.atomic import write_atomic

from .state import ReviewState, ReviewWord, Status
from .storage import data_dir, file_key

SNAPSHOT_SCHEMA = 1


def autosave_dir() -> Path:
    return data_dir() / "autosave"


def snapshot_path_for(source: Path) -> Path:
    return autosave_dir() / f"{file_key(source)}.json"


def snapshot(doc: Document, state: ReviewState, source: Path, base: Path, base_sha256: str, *, mode: str,
             model_version: str, model_sha256: str, session_id: str, log_path: Path | None) -> dict:
    # Words as compact lists: a 1,500-cue film has ~10,000 words and this runs
    # on the GUI thread.  The last item is why learning raised the word for review
    # (None if it did not): without it a recovered review would hide those flags.
    words = [[[w.word_index, w.start, w.end, w.input, w.proposed, w.form,
               w.model_tag.value if w.model_tag else None, list(w.probs) if w.probs else None, w.status.value,
               w.raised]
              for w in cue] for cue in state.cues]
    return {
        "schema": SNAPSHOT_SCHEMA,
        "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "pid": os.getpid(),
        "source": str(Path(source).resolve()),
        # The file the document was last read from or saved to, which a
        # restore re-reads; it must not have changed since.
        "base": str(Path(base).resolve()),
        "base_sha256": base_sha256,
        "mode": mode,
        "model_version": model_version,
        "model_sha256": model_sha256,
        "session": session_id,
        "log": str(log_path) if log_path else None,
        "threshold": state.threshold,
        "current": list(state.current) if state.current else None,
        "cue_texts": [c.text for c in doc.cues],
        "words": words,
    }


def encode(data: dict) -> bytes:
    """JSON, one cue at a time: json.dumps holds the GIL for a whole call, so
    small calls let a GUI thread run in between."""
    rest = {k: v for k, v in data.items() if k != "words"}
    parts = [json.dumps(rest, ensure_ascii=False, separators=(",", ":"))[:-1], ',"words":[']
    for i, cue in enumerate(data["words"]):
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


def _alive(pid: int) -> bool:
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

    @property
    def source_exists(self) -> bool:
        return Path(self.data["base"]).is_file()


def find_recoverable() -> list[Recoverable]:
    """Snapshots left by a process that is no longer running, newest first."""
    out: list[Recoverable] = []
    directory = autosave_dir()
    if not directory.is_dir():
        return out
    for p in directory.glob("*.json"):
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if data.get("schema") != SNAPSHOT_SCHEMA or _alive(int(data.get("pid", 0))):
            continue
        out.append(Recoverable(p, Path(data["source"]), data.get("time", ""), data))
    out.sort(key=lambda r: r.time, reverse=True)
    return out


class RestoreError(SubcaseError):
    pass


def _word(cue_index: int, item: list) -> ReviewWord:
    # Snapshots written before the raised reason was kept have 9 items.
    wi, start, end, inp, prop, form, tag, probs, status = item[:9]
    raised = item[9] if len(item) > 9 else None
    return ReviewWord(cue_index, wi, start, end, inp, prop, form, Tag(tag) if tag else None,
                      tuple(probs) if probs else None, Status(status), raised=raised)


def restore(data: dict) -> tuple[Document, ReviewState]:
    """The document and review state a snapshot describes."""
    source = Path(data["base"])
    if not source.is_file():
        raise RestoreError(f"{source} no longer exists")
    if file_sha256(source) != data["base_sha256"]:
        raise RestoreError(f"{source} changed on disk since the review was autosaved")
    doc = load(source)
    if len(doc.cues) != len(data["cue_texts"]):
        raise RestoreError(f"{source} no longer has {len(data['cue_texts'])} cues")
    for i, text in enumerate(data["cue_texts"]):
        if doc.cues[i].text != text:
            doc.set_cue_text(i, text)
    cues = [[_word(c, item) for item in words] for c, words in enumerate(data["words"])]
    state = ReviewState(cues, float(data["threshold"]))
    state.current = tuple(data["current"]) if data.get("current") else None
    return doc, state
