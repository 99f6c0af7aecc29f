"""The edit log is never lost silently: a log that cannot be created
or written raises EditLogError, and a decision it could not record is rolled
back, so what the session shows is always what is on disk."""

from __future__ import annotations

import errno
import os

import pytest

from subcase.casing import Tag
from subcase.errors import SubcaseError
from subcase.review import EditLog, ReviewSession, SetTag, Status, read_records
from subcase.review.editlog import EditLogError

from .conftest import form


def _session(cased, log) -> ReviewSession:
    doc, state = cased
    return ReviewSession(doc, state, doc.path, model_version="v", model_sha256="s", log=log)


def test_log_in_a_read_only_folder_is_an_error(tmpfs) -> None:
    folder = tmpfs("64k", read_only=True)
    with pytest.raises(EditLogError) as info:
        EditLog(folder / "edit-logs" / "film.jsonl")
    assert isinstance(info.value, SubcaseError)
    assert "Read-only file system" in str(info.value) and info.value.path == folder / "edit-logs" / "film.jsonl"


def test_log_under_a_file_is_an_error(tmp_path) -> None:
    """Runs everywhere (no mount needed): the log's folder cannot exist."""
    (tmp_path / "data").write_text("a file where the folder should be")
    with pytest.raises(EditLogError, match="cannot create the edit log"):
        EditLog(tmp_path / "data" / "edit-logs" / "film.jsonl")


def test_full_disk_rolls_the_decision_back_then_retry_records_it(cased, tmpfs, fill_disk) -> None:
    folder = tmpfs("64k")
    log = EditLog(folder / "film.jsonl")
    session = _session(cased, log)
    doc, state = cased
    w = state.word((0, 0))
    before_text, before_form, before_status = doc.cues[0].text, w.form, w.status
    filler = fill_disk(folder)
    notified: list = []
    session.listeners.append(notified.append)
    action = SetTag((0, 0), Tag.U, form)
    with pytest.raises(EditLogError, match="No space left on device"):
        session.perform(action)
    # Not applied: the document, the state and the listeners all say "nothing happened".
    assert doc.cues[0].text == before_text
    assert (w.form, w.status) == (before_form, before_status)
    assert notified == []
    assert (folder / "film.jsonl").read_bytes() == b""  # no torn record left behind
    filler.unlink()  # the user frees space and retries
    session.perform(action)
    assert w.form == "WE" and w.status is Status.CHANGED and notified == [(0,)]
    records = read_records(folder / "film.jsonl")
    assert [(r["action"], r["final"]) for r in records] == [("changed_tag", "WE")]


def test_failed_undo_is_rolled_back_too(cased, tmpfs, fill_disk) -> None:
    folder = tmpfs("64k")
    session = _session(cased, EditLog(folder / "film.jsonl"))
    doc, state = cased
    action = SetTag((0, 0), Tag.U, form)
    session.perform(action)
    # Fill up what is left, including the rest of the log's last page.
    fill_disk(folder)
    with open(folder / "film.jsonl", "ab", buffering=0) as f:
        try:
            while f.write(b"x"):
                pass
        except OSError:
            pass
    size = os.path.getsize(folder / "film.jsonl")
    with pytest.raises(EditLogError):
        session.revert(action)
    assert state.word((0, 0)).form == "WE"  # the undo did not happen
    assert os.path.getsize(folder / "film.jsonl") == size


class _TornWriter:
    """A raw file whose write stores half the bytes, then fails as a full disk does."""

    def __init__(self, real):
        self.real = real

    def write(self, data) -> int:
        self.real.write(bytes(data[: len(data) // 2]))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fileno(self) -> int:
        return self.real.fileno()

    def close(self) -> None:
        self.real.close()

    @property
    def closed(self) -> bool:
        return self.real.closed


def test_torn_write_is_cut_back(cased, tmp_path) -> None:
    log = EditLog(tmp_path / "film.jsonl")
    session = _session(cased, log)
    session.perform(SetTag((0, 0), Tag.U, form))
    good = (tmp_path / "film.jsonl").read_bytes()
    log._f = _TornWriter(log._f)
    with pytest.raises(EditLogError):
        session.perform(SetTag((0, 2), Tag.U, form))
    assert (tmp_path / "film.jsonl").read_bytes() == good  # the half record is gone
    log._f = log._f.real
    session.perform(SetTag((0, 2), Tag.U, form))
    assert [r["final"] for r in read_records(tmp_path / "film.jsonl")] == ["WE", "JOHN"]


def test_going_on_without_a_log_and_switching_logs(cased, tmp_path) -> None:
    first = EditLog(tmp_path / "a.jsonl")
    session = _session(cased, first)
    session.replace_log(None)
    session.perform(SetTag((0, 0), Tag.U, form))  # the user chose this: no log, no error
    assert first._f.closed
    session.replace_log(EditLog(tmp_path / "b.jsonl"))
    session.perform(SetTag((0, 2), Tag.U, form))
    assert [r["final"] for r in read_records(tmp_path / "b.jsonl")] == ["JOHN"]
    assert read_records(tmp_path / "a.jsonl") == []


def test_what_the_app_learned_is_rolled_back_with_the_decision(tmp_path, engine, tmpfs, fill_disk) -> None:
    """With learning on, one decision restyles other cues; if its record cannot be
    written, none of that shows, and a retry does it all once, logged."""
    from subcase.casing import apply_casing, case_document
    from subcase.review import ReviewState
    from subcase.review.learning import make_learner
    from subcase.subtitles import load

    from .test_learning import FILM, find

    path = tmp_path / "film.srt"
    path.write_text(FILM, encoding="utf-8")
    doc = load(path)
    casing = case_document(engine, doc, punctuate="never")
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing)
    folder = tmpfs("64k")
    session = ReviewSession(doc, state, path, model_version=engine.info.version, model_sha256=engine.info.sha256,
                            log=EditLog(folder / "film.jsonl"))
    session.learner = make_learner(engine)
    before = [c.text for c in doc.cues]
    filler = fill_disk(folder)
    action = SetTag(find(state, 2, "door"), Tag.U, engine.form)
    with pytest.raises(EditLogError):
        session.perform(action)
    assert [c.text for c in doc.cues] == before  # neither the decision nor what it taught
    assert not any(w.status is Status.LEARNED for cue in state.cues for w in cue)
    filler.unlink()
    session.perform(action)
    assert doc.cues[2].text == "[DOOR SLAMS]\nI waited." and doc.cues[5].text == "[TRAIN HORN BLOWS]"
    assert read_records(folder / "film.jsonl")[0]["final"] == "DOOR"
