"""``subcase convert``/``evaluate`` never overwrite what they should not, and say
why in one line.  Real files, the real model."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


import subcase.batch.convert as convert
import subcase.batch.plan as outputs
from subcase.batch import ConvertOptions, convert_batch
from subcase.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "resources" / "examples" / "lowercase-example.srt"
FEATURES_VTT = ROOT / "tests" / "fixtures" / "subtitles" / "features.vtt"


def _vtt_copy(path: Path) -> Path:
    """The example as WebVTT (a different input that maps to the same name under --format srt)."""
    text = EXAMPLE.read_text(encoding="utf-8").replace(",", ".")
    path.write_text("WEBVTT\n\n" + text, encoding="utf-8")
    return path


def test_two_inputs_with_one_output_name_fail_the_later(engine, tmp_path, capsys):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(EXAMPLE, tmp_path / "a" / "x.srt")
    (tmp_path / "b" / "x.srt").write_bytes(EXAMPLE.read_bytes().replace(b"nasa", b"esa"))
    out = tmp_path / "out"
    rc = main(["convert", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(out), "-q"])
    captured = capsys.readouterr()
    assert rc == 1
    assert "converted 1 file(s), 1 failed" in captured.out
    failed = [line for line in captured.err.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 1 and str(tmp_path / "b" / "x.srt") in failed[0]
    assert str(tmp_path / "a" / "x.srt") in failed[0]  # names the input that owns the output
    assert b"NASA" in (out / "x.srt").read_bytes()  # a's output, not replaced by b's
    assert sorted(p.name for p in out.iterdir()) == ["x.srt"]


def test_names_that_differ_in_case_are_one_output_where_the_folder_ignores_case(tmp_path, monkeypatch):
    """macOS and Windows (and exFAT or SMB anywhere) keep ``Film.srt`` and ``film.srt`` as one file:
    the second input must fail instead of replacing the first one's output.  This kernel has no
    case-folding file system to mount (no vfat, tmpfs without casefold), so the probe's answer is
    set here; the probe itself is tested for real below."""
    for sub, name in (("a", "Film.srt"), ("b", "film.srt")):
        (tmp_path / sub).mkdir()
        shutil.copy(EXAMPLE, tmp_path / sub / name)
    inputs = [tmp_path / "a" / "Film.srt", tmp_path / "b" / "film.srt"]
    plan = list(outputs.plan_outputs(inputs, tmp_path / "out", None))
    assert [p.error for p in plan] == [None, None]  # this folder keeps both names apart
    monkeypatch.setattr(outputs, "ignores_case", lambda folder: True)
    first, second = outputs.plan_outputs(inputs, tmp_path / "out", None)
    assert first.error is None and second.dst is None
    assert "already the output of " + str(inputs[0]) in second.error


def test_the_case_probe_reads_a_case_sensitive_folder_as_such(tmp_path):
    from subcase.batch.plan import ignores_case

    (tmp_path / "Subs").mkdir()
    (tmp_path / "subs").mkdir()  # possible only where case matters
    assert not ignores_case(tmp_path / "Subs")
    assert not ignores_case(tmp_path / "Subs" / "not" / "made" / "yet")  # probes the nearest folder there is
    assert not ignores_case(Path("/"))


def test_an_existing_output_that_is_an_input_under_another_name_is_refused(engine, tmp_path, capsys):
    """Where case is ignored, ``out/X.srt`` *is* the input ``out/x.srt``; a hard link is the same
    situation on this file system: the existing output is compared with the inputs as files."""
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    shutil.copy(EXAMPLE, src / "x.srt")
    os.link(src / "x.srt", out / "x.srt")
    before = (src / "x.srt").read_bytes()
    rc = main(["convert", str(src / "x.srt"), "-o", str(out), "-q"])
    err = capsys.readouterr().err
    assert rc == 1 and "would overwrite the input" in err and "Traceback" not in err
    assert (src / "x.srt").read_bytes() == before and (out / "x.srt").read_bytes() == before


def test_srt_and_vtt_of_one_name_under_format_srt(engine, tmp_path, capsys):
    src = tmp_path / "in"
    src.mkdir()
    shutil.copy(EXAMPLE, src / "x.srt")
    _vtt_copy(src / "x.vtt")
    rc = main(["convert", str(src / "x.vtt"), str(src / "x.srt"), "-o", str(tmp_path / "out"), "--format", "srt", "-q"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "FAILED " + str(src / "x.srt") in err and "already the output of " + str(src / "x.vtt") in err
    assert (tmp_path / "out" / "x.srt").is_file()


def test_details_may_not_replace_an_input(engine, tmp_path, capsys):
    src = tmp_path / "in.srt"
    shutil.copy(EXAMPLE, src)
    before = src.read_bytes()
    rc = main(["convert", str(src), "-o", str(tmp_path / "out"), "--details", str(src), "-q"])
    err = capsys.readouterr().err
    assert rc == 1 and src.read_bytes() == before
    assert "--details would overwrite the input" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # refused before any work


def test_details_may_not_replace_an_output(engine, tmp_path, capsys):
    src = tmp_path / "in.srt"
    shutil.copy(EXAMPLE, src)
    out = tmp_path / "out"
    rc = main(["convert", str(src), "-o", str(out), "--details", str(out / "in.srt"), "-q"])
    err = capsys.readouterr().err
    assert rc == 1 and "--details would overwrite the output" in err
    assert not out.exists()
    assert main(["convert", str(src), "-o", str(out), "--details", str(out), "-q"]) == 1
    assert "--details names the output folder" in capsys.readouterr().err
    assert not out.exists()


def test_details_in_a_missing_folder_is_refused_before_converting(tmp_path):
    """One line, no traceback, and nothing converted first (run as the real command)."""
    src = tmp_path / "in.srt"
    shutil.copy(EXAMPLE, src)
    proc = subprocess.run([sys.executable, "-m", "subcase", "convert", str(src), "-o", str(tmp_path / "out"),
                           "--details", str(tmp_path / "nonexistent" / "x.jsonl"), "-q"],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "does not exist" in lines[0] and "--details" in lines[0]
    assert not (tmp_path / "out").exists()


def test_evaluate_json_in_a_missing_folder_is_refused_up_front(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "subcase", "evaluate", str(EXAMPLE), "--no-baselines",
                           "--json", str(tmp_path / "nonexistent" / "x.json")],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]  # exactly one line
    assert "--json" in proc.stderr and "does not exist" in proc.stderr
    assert proc.stdout == ""  # no evaluation ran


def test_evaluate_json_may_not_replace_a_reference(tmp_path, capsys):
    ref = tmp_path / "ref.srt"
    shutil.copy(EXAMPLE, ref)
    before = ref.read_bytes()
    assert main(["evaluate", str(ref), "--no-baselines", "--json", str(ref)]) == 1
    assert "--json would overwrite the input" in capsys.readouterr().err
    assert ref.read_bytes() == before


def test_simulate_review_json_may_not_replace_a_reference(tmp_path, capsys):
    ref = tmp_path / "ref.srt"
    shutil.copy(EXAMPLE, ref)
    before = ref.read_bytes()
    assert main(["simulate-review", str(ref), "--json", str(ref)]) == 1
    assert "--json would overwrite the input" in capsys.readouterr().err
    assert ref.read_bytes() == before
    assert main(["simulate-review", str(ref), "--json", str(tmp_path / "missing" / "x.json")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_fifo_is_refused_as_a_fifo_not_missing(tmp_path, capsys):
    fifo = tmp_path / "a.srt"
    os.mkfifo(fifo)
    device = tmp_path / "dev.srt"
    device.symlink_to("/dev/null")
    rc = main(["convert", str(fifo), str(device), "-o", str(tmp_path / "out"), "-q"])
    err = capsys.readouterr().err
    assert rc == 1
    assert "no such file" not in err
    assert f"FAILED {fifo}: is a FIFO (named pipe), not a regular file" in err
    assert f"FAILED {device}: is a device, not a regular file" in err


def test_progress_reaches_100_only_with_the_last_file(engine, tmp_path, monkeypatch, capsys):
    src = tmp_path / "in"
    src.mkdir()
    for name in ("a.srt", "b.srt"):
        shutil.copy(EXAMPLE, src / name)
    real = convert.convert_file

    def marked(engine, planned, *a, **kw):
        sys.stderr.write(f"START {planned.src.name}\n")
        return real(engine, planned, *a, **kw)

    monkeypatch.setattr(convert, "convert_file", marked)
    assert main(["convert", str(src), "-o", str(tmp_path / "out")]) == 0  # stderr is not a tty: plain lines
    err = capsys.readouterr().err.splitlines()
    start_b = err.index("START b.srt")
    full = [i for i, line in enumerate(err) if line.startswith("100.0%")]
    assert full and full[0] > start_b, err
    half = [line for line in err[:start_b] if "%" in line]
    assert half and float(half[-1].split("%")[0]) <= 50.0, err


def test_run_batch_progress_is_never_ahead(engine, tmp_path):
    inputs = []
    for name in ("a.srt", "b.srt", "c.srt", "d.srt"):
        shutil.copy(EXAMPLE, tmp_path / name)
        inputs.append(tmp_path / name)
    seen: list[tuple[float, int]] = []
    done_files: list[int] = []

    def progress(i, n, done, total):
        seen.append(((i + done / total) / n, len(done_files)))

    plan = outputs.plan_outputs(inputs, tmp_path / "out", None)
    convert_batch(plan, ConvertOptions(jobs=1, punctuate="never"), progress=progress, on_file_done=lambda r: done_files.append(1),
                  engine=lambda: engine)
    for fraction, finished in seen:
        # While k files are finished the bar is within file k: at most (k + 1) / n.
        assert fraction <= (finished + 1) / 4 + 1e-9
    assert seen[-1][0] == 1.0


def test_escape_codes_in_names_are_not_sent_to_the_terminal(engine, tmp_path, capsys):
    evil = tmp_path / "clear\x1b[2J\x1b]0;pwned\x07.srt"
    shutil.copy(EXAMPLE, evil)
    missing = tmp_path / "gone\x1b[31m.srt"
    rc = main(["convert", str(evil), str(missing), "-o", str(tmp_path / "out"), "-v"])
    captured = capsys.readouterr()
    assert rc == 1
    for stream in (captured.out, captured.err):
        assert "\x1b" not in stream and "\x07" not in stream
    assert "gone\\x1b[31m.srt" in captured.err  # shown, visibly
    assert (tmp_path / "out" / evil.name).is_file()  # the file itself still converts under its real name


def test_vtt_to_srt_lists_what_it_drops(engine, tmp_path, capsys):
    rc = main(["convert", str(FEATURES_VTT), "-o", str(tmp_path / "out"), "--format", "srt", "-q"])
    err = capsys.readouterr().err
    assert rc == 0
    assert "drops 2 voice name(s): Roger Bingham, Esme" in err
    assert "NOTE/STYLE/REGION block(s): 3 NOTE, 1 STYLE, 1 REGION" in err
    assert "drops 2 cue identifier(s): intro, cue-with-entities" in err
    assert "class span(s)" in err and "<c.yellow.bg_blue>" in err
    # Same format: nothing is dropped, nothing is said.
    assert main(["convert", str(FEATURES_VTT), "-o", str(tmp_path / "same"), "-q"]) == 0
    assert "drops" not in capsys.readouterr().err


def test_second_run_into_input_cased_skips_its_own_outputs(engine, tmp_path, capsys):
    src = tmp_path / "films"
    src.mkdir()
    for name in ("a.srt", "b.srt"):
        shutil.copy(EXAMPLE, src / name)
    assert main(["convert", str(src), "-o", str(src / "cased"), "-q"]) == 0
    capsys.readouterr()
    # --overwrite: the first run's outputs exist, and are replaced rather than converted again as inputs
    assert main(["convert", str(src), "-o", str(src / "cased"), "-q", "--overwrite"]) == 0
    assert "converted 2 file(s), 0 failed" in capsys.readouterr().out


def test_user_errors_are_one_line_with_status_1(tmp_path, capsys):
    """A SubcaseError raised anywhere in a command reaches main's single handler."""
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    assert main(["convert", str(EXAMPLE), "-o", str(not_a_folder), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
    assert main(["convert", str(EXAMPLE), "-o", str(tmp_path / "o"), "--details", str(tmp_path), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "names a folder" in err
    locked = tmp_path / "locked.jsonl"
    locked.write_text("keep me\n")
    os.chmod(locked, 0o444)
    assert main(["convert", str(EXAMPLE), "-o", str(tmp_path / "o"), "--details", str(locked), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "read-only" in err and locked.read_text() == "keep me\n"
    assert not (tmp_path / "o").exists()
