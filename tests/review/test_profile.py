"""Profiles: built from real edit logs of real review sessions with the real model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from subcase.casing import Tag, apply_casing, case_document
from subcase.cli import main
from subcase.evaluation.simulate import KEYS
from subcase.review import EditLog, ReviewSession, ReviewState, SetTag, Status
from subcase.review.profiles import store as profile_store
from subcase.review.flags import FlagContext, flag_reasons
from subcase.review.learning import make_learner
from subcase.review.profiles.profile import Profile, ProfileError
from subcase.review.profiles.build import build_from_logs
from subcase.review.profiles.apply import RemoveEntry, apply_profile

# Episodes of one made-up series: "proog" is a name the model writes in lower case.
EPISODES = [
    "1\n00:00:01,000 --> 00:00:02,000\nso we asked proog about it.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nthen we went home with proog and the dog.\n",
    "1\n00:00:01,000 --> 00:00:02,000\nlater proog wrote a letter.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nwe all thanked proog for the cake.\n",
    "1\n00:00:01,000 --> 00:00:02,000\nwe met proog at the station.\n\n"
    "2\n00:00:03,000 --> 00:00:04,000\nthe dog followed proog to the park.\n",
]


def open_file(path: Path, engine, log: Path | None = None) -> ReviewSession:
    from subcase.subtitles import load
    doc = load(path)
    casing = case_document(engine, doc, punctuate="never")
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing)
    session = ReviewSession(doc, state, path, model_version=engine.info.version, model_sha256=engine.info.sha256,
                            log=EditLog(log) if log else None)
    session.learner = make_learner(engine)
    return session


def positions(state: ReviewState, word: str) -> list[tuple[int, int]]:
    return [p for p in state.positions() if state.word(p).form.lower() == word]


def review_episode(tmp_path: Path, engine, k: int) -> Path:
    """The editor fixes every "proog" of episode ``k`` to "Proog" and saves; returns its log."""
    src = tmp_path / f"ep{k}.srt"
    src.write_text(EPISODES[k], encoding="utf-8")
    log = tmp_path / "logs" / f"ep{k}.jsonl"
    session = open_file(src, engine, log)
    for pos in positions(session.state, "proog"):
        if session.state.word(pos).form != "Proog":
            session.perform(SetTag(pos, Tag.T, engine.form))
    assert all(session.state.word(p).form == "Proog" for p in positions(session.state, "proog"))
    session.save(tmp_path / f"ep{k}.reviewed.srt")
    session.close()
    return log


@pytest.fixture
def logs(tmp_path, engine) -> list[Path]:
    return [review_episode(tmp_path, engine, 0), review_episode(tmp_path, engine, 1)]


def test_a_profile_rebuilt_from_the_same_logs_is_byte_identical(tmp_path, engine, logs):
    version = engine.info.version
    first = build_from_logs("Proog show", version, logs).to_bytes()
    again = build_from_logs("Proog show", version, list(reversed(logs))).to_bytes()
    folder = build_from_logs("Proog show", version, [tmp_path / "logs"]).to_bytes()
    assert first == again == folder
    profile = Profile.from_bytes(first)
    entry = profile.entries["word"]["proog"]
    assert (entry.form, entry.files) == ("Proog", 2) and entry.changes >= 2
    assert profile.sources["documents"] == 2


def test_one_file_is_not_enough_evidence(engine, logs):
    assert "proog" not in build_from_logs("one", engine.info.version, logs[:1]).entries["word"]


def test_a_profile_recases_the_next_episode_and_says_why(tmp_path, engine, logs):
    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = tmp_path / "ep2.srt"
    src.write_text(EPISODES[2], encoding="utf-8")
    session = open_file(src, engine)
    state = session.state
    app = apply_profile(session.doc, state, profile, engine.form, session.learner.is_rare, engine)
    state.flag_context = FlagContext(session.doc, session.learner, profile=app)
    places = positions(state, "proog")
    assert places and all(state.word(p).form == "Proog" and state.word(p).status is Status.PROFILE for p in places)
    assert "Proog" in session.doc.cues[0].text and "Proog" in session.doc.cues[1].text
    reason = flag_reasons(state, places[0])[0]
    assert reason.code == "profile" and "your profile writes this 'Proog'" in reason.text
    # nothing else changed
    assert sum(w.status is Status.PROFILE for w in state.all_words()) == len(places)


def test_a_profile_never_changes_a_reviewed_word(tmp_path, engine, logs):
    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = tmp_path / "ep2.srt"
    src.write_text(EPISODES[2], encoding="utf-8")
    session = open_file(src, engine)
    state = session.state
    kept, other = positions(state, "proog")
    # The editor (in an earlier sitting restored after a crash) wrote this one in lower case on purpose.
    session.learner = None
    session.perform(SetTag(kept, Tag.U, engine.form))
    session.perform(SetTag(kept, Tag.L, engine.form))
    assert state.word(kept).status in (Status.ACCEPTED, Status.CHANGED)
    apply_profile(session.doc, state, profile, engine.form, make_learner(engine).is_rare, engine)
    assert state.word(kept).form == "proog" and state.word(kept).status is not Status.PROFILE
    assert state.word(other).form == "Proog" and state.word(other).status is Status.PROFILE


def test_removing_a_wrong_entry_is_one_step_and_can_be_undone(tmp_path, engine, logs):
    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = tmp_path / "ep2.srt"
    src.write_text(EPISODES[2], encoding="utf-8")
    session = open_file(src, engine)
    before = [c.text for c in session.doc.cues]
    app = apply_profile(session.doc, session.state, profile, engine.form, session.learner.is_rare, engine)
    after = [c.text for c in session.doc.cues]
    assert after != before
    remove = RemoveEntry(app, "word:proog")
    session.perform(remove)
    assert [c.text for c in session.doc.cues] == before
    assert all(session.state.word(p).status is Status.UNTOUCHED for p in positions(session.state, "proog"))
    assert profile.removed == ["word:proog"] and "proog" not in profile.active("word")
    session.revert(remove)
    assert [c.text for c in session.doc.cues] == after and profile.removed == []
    # a removed entry stays removed when the profile is rebuilt (the CLI keeps the list)
    profile.remove("word:proog")
    rebuilt = build_from_logs("Proog show", engine.info.version, logs, removed=profile.removed)
    assert rebuilt.active("word") == {} and rebuilt.removed == ["word:proog"]


def test_corrupt_lines_and_unknown_schemas_are_skipped_with_a_count(tmp_path, engine, logs):
    clean = build_from_logs("x", engine.info.version, logs)
    damaged = tmp_path / "damaged.jsonl"
    lines = logs[0].read_bytes().split(b"\n")
    record = json.loads(lines[0])
    record["schema"] = 99
    damaged.write_bytes(b"\n".join([lines[0], b'{"seq": 1, "act', json.dumps(record).encode(), b"\x00\xff garbage",
                                    *lines[1:]]))
    built = build_from_logs("x", engine.info.version, [damaged, logs[1]])
    assert built.sources["skipped"] == {"corrupt": 2, "schema": 1, "no_context": 0}
    assert built.entries == clean.entries


def test_export_import_round_trip_and_refusals(tmp_path, engine, logs, monkeypatch):
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "data"))
    version = engine.info.version
    profile = build_from_logs("Proog show", version, logs)
    path = profile_store.save(profile)
    assert path == tmp_path / "data" / "profiles" / "Proog show.json"
    assert profile_store.names() == ["Proog show"]
    shared = profile_store.export("Proog show", tmp_path)
    profile_store.delete("Proog show")
    assert profile_store.names() == []
    imported = profile_store.import_file(shared, version)
    assert imported.to_bytes() == profile.to_bytes() == path.read_bytes()
    with pytest.raises(ProfileError, match="exists already"):
        profile_store.import_file(shared, version)
    # another model's profile is refused, on import and on use
    with pytest.raises(ProfileError, match="built for model"):
        profile_store.import_file(shared, "9.9.9", name="other")
    with pytest.raises(ProfileError, match="rebuild it from its logs"):
        profile_store.load("Proog show", "9.9.9")
    # validated, never executed: an unknown schema, an entry that changes letters, not JSON
    data = json.loads(shared.read_text())
    for bad, why in ((dict(data, schema=99), "schema 99"),
                     (dict(data, entries={"word": {"proog": {"form": "Prog"}}}), "invalid word entry"),
                     (dict(data, name="../evil"), "invalid profile name")):
        f = tmp_path / "bad.json"
        f.write_text(json.dumps(bad))
        with pytest.raises(ProfileError, match=why):
            profile_store.import_file(f, version, name="bad")
    (tmp_path / "bad.json").write_bytes(b"import os; os.system('x')")
    assert main(["profile", "import", str(tmp_path / "bad.json")]) == 1
    assert profile_store.names() == ["Proog show"]


def test_profile_cli_build_show_list_delete(tmp_path, engine, logs, monkeypatch, capsys):
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "data"))
    assert main(["profile", "build", "Proog show", "--logs", str(tmp_path / "logs")]) == 0
    out = capsys.readouterr().out
    assert "built profile Proog show" in out and "skipped 0 corrupt" in out
    first = (tmp_path / "data" / "profiles" / "Proog show.json").read_bytes()
    assert main(["profile", "build", "Proog show", "--logs", str(tmp_path / "logs")]) == 0
    assert (tmp_path / "data" / "profiles" / "Proog show.json").read_bytes() == first
    assert main(["profile", "show", "Proog show"]) == 0
    assert "word:proog\tProog" in capsys.readouterr().out
    assert main(["profile", "list"]) == 0
    assert capsys.readouterr().out.startswith("Proog show\t5 entries")  # the name, and 4 contexts to ask about
    # convert --profile writes the name the profile knows
    src = tmp_path / "ep2.srt"
    src.write_text(EPISODES[2], encoding="utf-8")
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "--profile", "Proog show", "-q"]) == 0
    assert (tmp_path / "out" / "ep2.srt").read_text().count("Proog") == 2
    assert main(["profile", "delete", "Proog show"]) == 0
    assert main(["convert", str(src), "-o", str(tmp_path / "out2"), "--profile", "Proog show", "-q"]) == 1


@pytest.mark.model
def test_series_mode_on_three_small_files(tmp_path, dev_subtitles):
    files = [p for p in dev_subtitles if "perspectives_c" in p.name][:3]
    assert len(files) == 3
    out = tmp_path / "series.json"
    assert main(["simulate-review", "--series", *map(str, reversed(files)), "--json", str(out), "-q",
                 "--keep-logs", str(tmp_path / "logs")]) == 0
    data = json.loads(out.read_text())
    assert set(data) == {"with_profile", "without_profile", "files", "skipped"} and data["skipped"] == []
    assert [f["file"] for f in data["files"]] == sorted(p.name for p in files)  # name order
    for key in ("with_profile", "without_profile"):
        assert set(KEYS) <= set(data[key])
        # totals cover files 2 and 3
        assert data[key]["words"] == sum(f[key]["words"] for f in data["files"][1:])
        for f in data["files"]:
            assert set(KEYS) <= set(f[key]) and 0 <= f[key]["before_review"]["ser"] <= 1
    # the first file has no profile: both runs are the same there
    first = data["files"][0]
    assert first["profile_entries"] == 0 and first["with_profile"] == first["without_profile"]
    # each file left a real edit log with its saved document, which the next profile read
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    assert len(logs) == 3
    assert any(json.loads(line)["action"] == "saved" and "saved_sha256" in json.loads(line)
               for line in logs[0].read_text().splitlines())


def test_simulate_review_with_a_profile_fixes_what_it_knows(tmp_path, engine, logs, monkeypatch, capsys):
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "data"))
    profile_store.save(build_from_logs("Proog show", engine.info.version, logs))
    ref = tmp_path / "ep2.ref.srt"  # the episode as the editor would deliver it
    ref.write_text(EPISODES[2].replace("proog", "Proog").replace("\nwe", "\nWe").replace("\nthe", "\nThe"),
                   encoding="utf-8")
    out = {}
    # The model writes an unknown "proog" in lower case and is fairly sure of it (0.985 and 0.988 with model
    # 0.2.0's 7-bit weights, against the default threshold 0.975): a threshold of 0.999 sends the editor to
    # both without leaning on where the model's calibration puts them.
    for name, extra in (("with", ["--profile", "Proog show"]), ("without", [])):
        assert main(["simulate-review", str(ref), "--threshold", "0.999", "--json", str(tmp_path / f"{name}.json"),
                     *extra]) == 0
        out[name] = json.loads((tmp_path / f"{name}.json").read_text())["total"]
    assert out["with"]["learned_fixed"] >= 2 and out["with"]["learned_broken"] == 0
    assert out["with"]["residual_errors"] <= out["without"]["residual_errors"]
    # the two "Proog" the model writes in lower case are the profile's: the editor is not sent to them
    assert out["without"]["actions"]["tag_changes"] == 2 and out["with"]["actions"]["tag_changes"] == 0
    assert out["with"]["visited"] < out["without"]["visited"]
    assert main(["simulate-review", str(ref), "--profile", "nobody"]) == 1
    assert "no profile named 'nobody'" in capsys.readouterr().err


def test_updating_with_the_next_file_s_log_equals_a_rebuild(tmp_path, engine, logs):
    from subcase.review.profiles.build import updated

    version = engine.info.version
    one = build_from_logs("Proog show", version, logs[:1])
    assert updated(one, logs[1]).to_bytes() == build_from_logs("Proog show", version, logs).to_bytes()
    # logs that are not on this computer (a colleague's profile): no silent loss of entries
    one.sources["logs"] = [str(tmp_path / "elsewhere.jsonl")]
    with pytest.raises(ProfileError, match="not on this computer"):
        updated(one, logs[1])
    del one.sources["logs"]
    with pytest.raises(ProfileError, match="not built from edit logs"):
        updated(one, logs[1])


def test_accepting_a_profile_word_makes_it_reviewed(tmp_path, engine, logs):
    from subcase.review import Accept

    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = tmp_path / "ep2.srt"
    src.write_text(EPISODES[2], encoding="utf-8")
    session = open_file(src, engine)
    apply_profile(session.doc, session.state, profile, engine.form, session.learner.is_rare, engine)
    pos = positions(session.state, "proog")[0]
    action = Accept(pos)
    session.perform(action)
    assert session.state.word(pos).status is Status.CHANGED  # the editor now owns the profile's form
    session.revert(action)
    assert session.state.word(pos).status is Status.PROFILE


def test_convert_profile_reaches_worker_processes(tmp_path, engine, logs, monkeypatch, capsys):
    # --jobs 2: each worker builds the profile's adapter around its own engine
    monkeypatch.setenv("SUBCASE_DATA_DIR", str(tmp_path / "data"))
    assert main(["profile", "build", "Proog show", "--logs", str(tmp_path / "logs")]) == 0
    src = tmp_path / "eps"
    src.mkdir()
    for k in range(3):
        (src / f"ep{k}.srt").write_text(EPISODES[2], encoding="utf-8")
    for jobs in ("1", "2"):
        assert main(["convert", str(src), "-o", str(tmp_path / f"out{jobs}"), "--profile", "Proog show",
                     "--jobs", jobs, "-q"]) == 0
    one = {p.name: p.read_bytes() for p in (tmp_path / "out1").iterdir()}
    two = {p.name: p.read_bytes() for p in (tmp_path / "out2").iterdir()}
    assert one == two and len(two) == 3
    assert all(text.decode().count("Proog") == 2 for text in two.values())


def as_schema_3(log: Path, out: Path) -> Path:
    """The same log as subcase wrote it before schema 4: the saved document held in the record,
    one undo record per record undone, one "learned" record per word the app changed."""
    lines = []
    for r in map(json.loads, log.read_text(encoding="utf-8").splitlines()):
        r["schema"] = 3
        if r["action"] == "saved":
            r["document"] = Path(r.pop("saved_to")).read_text(encoding="utf-8")
            r["saved_to"] = "/somewhere/else.srt"  # the document in the record is what counts
            del r["saved_sha256"], r["saved_bytes"]
        if r["action"] == "undo":
            lines += [dict(r, undoes=s) for s in r["undoes"]]
            continue
        groups = r.pop("caused", [])
        r.pop("caused_count", None)
        lines.append(r)
        for g in groups:
            for c, w in g["at"]:
                lines.append({**r, "action": "learned", "cue_index": c, "word_index": w, "caused_by": r["seq"],
                              "seq": r["seq"] * 1000 + len(lines)})
    out.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return out


def test_logs_of_the_previous_schema_still_build_the_same_profile(tmp_path, engine, logs):
    version = engine.info.version
    new = build_from_logs("Proog show", version, logs)
    assert new.entries["word"]["proog"].form == "Proog"
    (tmp_path / "old").mkdir()
    old = [as_schema_3(p, tmp_path / "old" / p.name) for p in logs]
    assert all(json.loads(line)["schema"] == 3 for p in old for line in p.read_text().splitlines())
    for p in logs:  # the saved files are gone: only the old logs' documents can tell what was saved
        for line in p.read_text().splitlines():
            if json.loads(line)["action"] == "saved":
                Path(json.loads(line)["saved_to"]).unlink()
    rebuilt = build_from_logs("Proog show", version, old)
    assert rebuilt.entries == new.entries and rebuilt.sources["documents"] == 2
    assert build_from_logs("Proog show", version, logs).sources["documents"] == 0  # schema 4: read from disk
