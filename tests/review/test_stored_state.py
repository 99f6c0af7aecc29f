"""Stored state is data, never a command (issue #54): autosave snapshots checked against their schema,
a damaged one moved aside, a remembered media path opened only with its fingerprint.

Real snapshots of a real review (the review core with a hand-written casing, as in test_review.py),
written to a real data folder and then damaged as a crash, a bad disk or a planted file would.
"""

from __future__ import annotations

import json
import math

import pytest

from subcase.casing import Tag
from subcase.review import SetTag, autosave, snapshot_schema

from .conftest import form

DEAD_PID = 2 ** 22 + 12345  # a process that is not running: as after a crash


def write_snapshot(doc, state, srt_file) -> dict:
    SetTag((1, 1), Tag.T, form).do(doc, state)
    data = autosave.snapshot(doc, state, autosave.ReviewIdentity(srt_file, srt_file, autosave.file_sha256(srt_file),
                                                                    "restore", "v", "s", "x"))
    data["pid"] = DEAD_PID
    autosave.write_snapshot(data)
    return data


def damaged(data: dict, change) -> dict:
    copy = json.loads(json.dumps(data))
    change(copy)
    return copy


def test_a_snapshot_no_longer_names_the_edit_log(cased, srt_file, data_dir):
    data = write_snapshot(*cased, srt_file)
    assert "log" not in data
    assert "log" not in snapshot_schema.check(data, autosave.READABLE_SCHEMAS)


DAMAGE = {
    "threshold NaN": lambda d: d.update(threshold=math.nan),
    "threshold too big": lambda d: d.update(threshold=7.5),
    "threshold a text": lambda d: d.update(threshold="0.5"),
    "cue past the end": lambda d: d["cues"][-1].update(cue=10 ** 6),
    "unknown status": lambda d: d["cues"][0]["words"][0].__setitem__(8, "rm -rf"),
    "unknown mode": lambda d: d.update(mode="shell"),
    "base not absolute": lambda d: d.update(base="../../etc/passwd"),
    "base_sha256 not a hash": lambda d: d.update(base_sha256="x"),
    "a word of one item": lambda d: d["cues"][0]["words"].__setitem__(0, [1]),
    "probabilities NaN": lambda d: d["cues"][0]["words"][0].__setitem__(7, [math.nan, 0, 0, 0]),
    "pid a text": lambda d: d.update(pid="1"),
    "current not a pair": lambda d: d.update(current=[1]),
    "cues not a list": lambda d: d.update(cues={"0": 1}),
    "the log as an object": lambda d: d.update(log={"path": "/etc/passwd"}),
    "media fingerprint not a hash": lambda d: d.update(media={"path": "/etc/shadow", "name": "shadow",
                                                              "fingerprint": "x"}),
}


@pytest.mark.parametrize("what", list(DAMAGE))
def test_a_snapshot_out_of_its_schema_is_moved_aside_and_never_offered(cased, srt_file, data_dir, what):
    data = damaged(write_snapshot(*cased, srt_file), DAMAGE[what])
    path = autosave.snapshot_path_for(srt_file)
    path.write_text(json.dumps(data), encoding="utf-8")
    kept = path.read_bytes()
    assert autosave.find_recoverable() == []
    assert not path.exists()
    corrupt = path.with_name(path.name + ".corrupt")
    assert corrupt.read_bytes() == kept  # moved, not rewritten
    # and restoring it directly (a caller that skipped the scan) gives one clear error, never a traceback
    with pytest.raises(autosave.RestoreError, match="the snapshot is damaged"):
        autosave.restore(data)


def test_a_corrupt_snapshot_is_moved_aside_never_over_another(cased, srt_file, data_dir):
    """The repro of #54 (6, last bullet): a corrupt autosave was silently ignored and left in place."""
    write_snapshot(*cased, srt_file)
    path = autosave.snapshot_path_for(srt_file)
    path.write_bytes(b'{"schema": 3, "pid": 1, "cues": [')  # torn: the disk filled up, or a bad sector
    earlier = path.with_name(path.name + ".corrupt")
    earlier.write_bytes(b"an earlier one, kept")
    scan = autosave.scan()
    assert scan.recoverable == [] and not path.exists()
    [aside] = scan.set_aside
    assert aside.path == path and aside.moved_to == path.with_name(path.name + ".1.corrupt")
    assert aside.moved_to.read_bytes() == b'{"schema": 3, "pid": 1, "cues": ['
    assert earlier.read_bytes() == b"an earlier one, kept"
    assert aside.reason  # what was wrong, for the one line the user is shown


def test_a_snapshot_that_is_not_json_text_or_not_a_file_is_moved_aside(data_dir):
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True)
    (folder / "binary.0123456789ab.json").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "list.0123456789ab.json").write_text("[1, 2]", encoding="utf-8")
    (folder / "deep.0123456789ab.json").write_text("[" * 100_000, encoding="utf-8")
    target = data_dir / "elsewhere.txt"
    target.write_text("not a snapshot", encoding="utf-8")
    (folder / "link.0123456789ab.json").symlink_to(target)
    scan = autosave.scan()
    assert scan.recoverable == []
    assert sorted(a.path.name for a in scan.set_aside) == ["binary.0123456789ab.json", "deep.0123456789ab.json",
                                                          "link.0123456789ab.json", "list.0123456789ab.json"]
    assert all(a.moved_to is not None and a.moved_to.name.endswith(".corrupt") for a in scan.set_aside)
    assert target.read_text(encoding="utf-8") == "not a snapshot"  # the link moved, never followed
    assert list(folder.glob("*.json")) == []


def test_a_snapshot_of_a_later_release_is_left_for_it(data_dir):
    folder = autosave.autosave_dir()
    folder.mkdir(parents=True)
    later = folder / "film.0123456789ab.json"
    later.write_text(json.dumps({"schema": 99, "pid": DEAD_PID}), encoding="utf-8")
    assert autosave.scan().set_aside == [] and later.exists()


def test_every_readable_schema_still_restores(cased, srt_file, data_dir):
    doc, state = cased
    data = write_snapshot(doc, state, srt_file)
    data["log"] = "/tmp/planted.jsonl"  # as releases before #54 wrote it: allowed, never used
    autosave.write_snapshot(data)
    [rec] = autosave.find_recoverable()
    assert autosave.restore(rec.data)[0].render() == doc.render()
    old = {k: v for k, v in rec.data.items() if k not in ("cues", "complete", "n_cues")}
    old.update(schema=1, cue_texts=[e["text"] for e in rec.data["cues"]],
               words=[[w[:9] for w in e["words"]] for e in rec.data["cues"]])
    autosave.write_snapshot(old)
    [rec1] = autosave.find_recoverable()
    assert autosave.restore(rec1.data)[0].render() == doc.render()
