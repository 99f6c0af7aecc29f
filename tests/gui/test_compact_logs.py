"""The edit log and the autosave stay proportional to what the editor did, not to the file."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from subcase.review import log_path_for, read_records
from subcase.review.profiles.build import Skipped, evidence_from_logs, final_decisions, saved_documents

from .conftest import long_srt, needs_model, open_and_wait

pytestmark = needs_model

SOUNDS = ["door slams", "joel sighs", "train horn blows", "phone rings", "dog barks", "laughing", "music playing",
          "crowd cheering", "wind howling", "glass shatters", "footsteps approach", "engine starts"]


def sound_film(path, cues: int = 170):
    """A film whose sound cues (two words on average) the model writes in lower case: one fix to
    UPPER restyles every one of them."""
    out = []
    for i in range(cues):
        s = 1000 + i * 2500
        t = lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
        text = f"[{SOUNDS[i % len(SOUNDS)]}]" + ("\nwhere were you?" if i % 2 else "")
        out.append(f"{i + 1}\n{t(s)} --> {t(s + 2000)}\n{text}\n")
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def test_one_restyling_fix_undo_redo_save_writes_a_small_log_a_profile_still_reads(qtbot, make_window, tmp_path):
    path = sound_film(tmp_path / "film.srt")
    window = make_window()
    open_and_wait(qtbot, window, path)
    state, doc = window.session.state, window.session.doc
    door = next(p for p in state.positions() if state.word(p).input == "door")  # P(lower) about 0.7: not a tie
    window.navigation.goto(door)
    window.view.setFocus()
    qtbot.waitUntil(window.view.hasFocus)

    before = doc.cues[1].text
    qtbot.keyClick(window.view, Qt.Key_U)  # the fix: this film writes its sound cues in capitals
    restyled = sum(1 for w in state.all_words() if w.status.value == "learned")
    assert restyled >= 300 and doc.cues[1].text.startswith("[JOEL SIGHS]\n")
    qtbot.keyClick(window.view, Qt.Key_Z, Qt.ControlModifier)  # undo
    assert doc.cues[1].text == before
    window.menus.act_redo.trigger()  # redo
    assert doc.cues[1].text.startswith("[JOEL SIGHS]\n")
    qtbot.keyClick(window.view, Qt.Key_S, Qt.ControlModifier)  # save
    assert window.review.undo_stack.isClean()

    log = log_path_for(path)
    records = read_records(log)
    # one record per human step: the fix, its undo, the fix again, the save; no document in any
    assert [r["action"] for r in records] == ["changed_tag", "undo", "changed_tag", "saved"]
    assert records[1]["undoes"] == [records[0]["seq"]]
    assert records[2]["caused_count"] == restyled
    assert sum(len(g["at"]) for g in records[2]["caused"]) == restyled
    assert all("document" not in r for r in records)
    size = log.stat().st_size
    # the words the fix restyled are listed twice (fix and redo) as short positions, a dozen bytes each
    assert size < 4000 + 2 * 12 * restyled, size
    assert size < path.stat().st_size  # smaller than the film itself

    # the profile builder reads it: the human decision, and the saved file back from disk
    skipped = Skipped()
    decisions = final_decisions(read_records(log), skipped)
    assert [d["form"] for d in decisions[str(path.resolve())]] == ["DOOR"]
    [words] = saved_documents(read_records(log), skipped).values()
    assert sum(1 for d in words if d["form"] == "SIGHS") >= 10
    ev = evidence_from_logs([log])
    assert ev.documents == 1 and ev.decisions == 1 and ev.skipped.as_json() == {"corrupt": 0, "no_context": 0,
                                                                                "schema": 0}
    # a saved file changed since by something else is no evidence, and counted as skipped
    path.write_text(path.read_text(encoding="utf-8").replace("SIGHS", "sighs"), encoding="utf-8")
    ev = evidence_from_logs([log])
    assert ev.documents == 0 and ev.skipped.documents == 1
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["saved_sha256"]


def full_state(state):
    return [[(w.word_index, w.start, w.end, w.input, w.proposed, w.form, w.model_tag, w.probs, w.status, w.raised)
             for w in cue] for cue in state.cues]


def test_the_autosave_after_one_edit_is_small_and_restores_the_exact_review(qtbot, make_window, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    # 1,500 cues: a snapshot under 1,500 bytes (below) holds not even a byte per cue, and a whole review, as
    # snapshots were before, would take some 2.6 MB.  5,000 cues showed the same at three times the casing.
    path = long_srt(tmp_path / "long.srt", cues=1500)
    # one cue of its own, so that what the fix teaches applies there only (the other lines repeat)
    text = path.read_text(encoding="utf-8").replace("i told john we would meet at the station in london.",
                                                    "the zorblax team met us at noon.", 1)
    path.write_text(text, encoding="utf-8")
    crashed = make_window()
    open_and_wait(qtbot, crashed, path)
    state = crashed.session.state
    zorblax = next(p for p in state.positions() if state.word(p).input == "zorblax")
    crashed.navigation.goto(zorblax)
    crashed.view.setFocus()
    qtbot.waitUntil(crashed.view.hasFocus)
    qtbot.keyClick(crashed.view, Qt.Key_U)  # one fix (and what the app learns from it)
    assert state.word(zorblax).form == "ZORBLAX"
    snap = crashed.autosaving.save_now(wait=True)
    size = snap.stat().st_size
    data = json.loads(snap.read_text(encoding="utf-8"))
    assert not data["complete"] and data["n_cues"] == 1500
    assert [e["cue"] for e in data["cues"]] == sorted(crashed.session.changed_cues) == [0]
    # a few hundred bytes for the references and the one word, whatever the size of the file
    assert size < 1_500, size  # the whole review, as before, was 8.6 MB for 5,000 such cues (a 0.5 MB file)
    expected_doc = crashed.session.doc.to_bytes()
    expected_state = full_state(crashed.session.state)
    expected_current = crashed.session.state.current
    # the "crash": the window is never closed, so nothing cleans up the snapshot

    window = make_window()
    window.ask = lambda *a: QMessageBox.Yes
    with qtbot.waitSignal(window.review.casing_finished, timeout=180_000):
        assert window.recovery.check_recovery()
    assert window.session.doc.to_bytes() == expected_doc
    assert full_state(window.session.state) == expected_state
    assert window.session.state.current == expected_current and window.review.is_modified()
    crashed.ask = lambda *a: QMessageBox.Discard


def test_a_snapshot_refuses_an_opened_file_that_now_cases_otherwise(qtbot, make_window, tmp_path):
    path = sound_film(tmp_path / "film.srt", cues=20)
    window = make_window()
    open_and_wait(qtbot, window, path)
    window.view.setFocus()
    qtbot.keyClick(window.view, Qt.Key_N)
    qtbot.keyClick(window.view, Qt.Key_U)
    data = window.session.snapshot()
    data["origin_fingerprint"] = "0" * 64  # as if the model or the house style had changed since
    from subcase.review import autosave
    with pytest.raises(autosave.RestoreError, match="no longer cases as it did"):
        autosave.restore(data, (window.session.doc, window.session.state))
