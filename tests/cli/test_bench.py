"""``subcase bench`` runs each system in its own process and prints one row each (numbers not judged here)."""

from __future__ import annotations

import re

import pytest

from subcase.cli import main


@pytest.mark.model
def test_bench_prints_a_row_per_system(capsys):
    # with ../shared the film's 14th cue has a number among its words: baselines must skip it
    rc = main(["bench", "--cues", "60", "--runs", "2", "--films", "2", "--long-cue", "30,60", "--long-file", "2000"])
    out = capsys.readouterr().out
    assert rc == 0
    rows = {line.split()[0]: line for line in out.splitlines()
            if re.match(r"(subcase|truecase|first word \+ I) +\d", line)}
    assert "subcase" in rows and "first" in rows  # truecase only when the bench extra is installed
    words, words_per_s = rows["subcase"].split()[1:3]
    assert int(words) > 100 and float(words_per_s) > 0
    assert "median of 2 runs" in out
    assert out.startswith("CPU: ") and "AVX2" in out  # the host every figure came from
    assert re.search(r"vs first word \+ I +[0-9.]+x without start-up", out)
    whole = re.search(r"one film: [0-9.]+ s median of 2 -> (\d+) words/s with start-up", out)
    assert whole and int(whole.group(1)) > 0
    ceiling = re.search(r"onnxruntime alone .*: (\d+) sub-tokens/s .* caps one process at (\d+) words/s", out)
    assert ceiling and int(ceiling.group(1)) > 0 and int(ceiling.group(2)) > int(words_per_s) / 2
    jobs = re.findall(r"--jobs (\d), whole process, 2 films \((\d+) words\)", out)
    assert [j for j, _ in jobs] == ["1", "2"] and jobs[0][1] == jobs[1][1] == str(2 * int(words))
    long_cue = re.search(r"one cue of 30 KB \(([\d,]+) words\): convert ([\d.]+) s", out)
    assert long_cue and int(long_cue.group(1).replace(",", "")) > 4000, out
    # a row per size, each with its time and peak memory, and both per MB (issue #54: cost against size)
    sizes = re.findall(r"^one cue of (\d+) KB \(([\d,]+) words\): convert ([\d.]+) s \(.*peak RSS (\d+) MB\); "
                       r"per MB: ([\d.]+) s, ([\d,]+) MB above the film's peak$", out, re.M)
    assert [row[0] for row in sizes] == ["30", "60"], out
    words = [int(row[1].replace(",", "")) for row in sizes]
    assert 1.8 < words[1] / words[0] < 2.2 and all(int(row[3]) > 0 for row in sizes)
    # the long files, plain and rolling, each with its time and peak memory beside the film's (issue #56)
    long_files = re.findall(r"^  (plain-2000\.srt|rolling-2000\.vtt) +([\d,]+) words: +[\d,]+ words/s, convert "
                            r"[\d.]+ s, peak RSS (\d+) MB$", out, re.M)
    assert [row[0] for row in long_files] == ["plain-2000.srt", "rolling-2000.vtt"], out
    # the rolling file shows each word up to three times (new line, snapshot, line above): words as written
    plain, rolling = (int(row[1].replace(",", "")) for row in long_files)
    assert 1900 <= plain <= 2000 and rolling >= plain and all(int(row[2]) > 0 for row in long_files)
    assert re.search(r"^  the film +[\d,]+ words: .* peak RSS \d+ MB$", out, re.M)
    # every language model: a film per language, cased by the multilingual model
    from subcase.evaluation.bench import SHARED_DEV_ML
    if SHARED_DEV_ML.is_dir():
        langs = re.findall(r"^  (es|fr|de|pt): (\d+) words, (\d+) words/s median .*x the English film, "
                           r"onnxruntime alone caps it at (\d+) words/s; detected (\w+), threshold ([\d.]+)", out, re.M)
        assert [row[0] for row in langs] == ["es", "fr", "de", "pt"], out
        for lang, words, rate, cap, detected, threshold in langs:
            assert int(words) > 100 and int(rate) > 0 and int(cap) > int(rate) / 2 and detected == lang
            assert threshold != f"{0:.3f}"


@pytest.mark.parametrize("sizes", ["10,x", "-5", "10,0"])
def test_long_cue_sizes_must_be_kilobytes(sizes, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["bench", "--long-cue", sizes])
    assert stop.value.code == 2 and "--long-cue" in capsys.readouterr().err


def test_bench_without_other_languages(capsys):
    assert main(["bench", "--cues", "20", "--runs", "1", "--films", "0", "--long-cue", "0", "--no-baseline",
                 "--no-languages"]) == 0
    out = capsys.readouterr().out
    assert "other languages" not in out
    # on a host whose int8 kernel is not the users' AVX2 one, it says how to time that kernel here
    kernel = re.search(r"int8 kernel ([^;\n]+)", out).group(1)
    assert ("python bench/avx2_only.py subcase bench" in out) == (not kernel.startswith(("AVX2", "SSE", "unknown")))


def test_bench_refuses_zero_runs(capsys):
    assert main(["bench", "--runs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err


def test_the_instruction_sets_are_read_as_this_process_sees_them():
    import platform
    from pathlib import Path

    from subcase.evaluation import cpuid

    sample = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma avx512f avx512bw avx512_vnni\n"
    assert cpuid.from_proc_cpuinfo(sample) == {"AVX2": True, "AVX-512": True, "AVX512-VNNI": True,
                                               "AVX-VNNI": False, "AMX-INT8": False}
    assert cpuid.int8_kernel({"AVX2": True, "AVX-512": True, "AVX512-VNNI": True}) == "AVX-512 VNNI"
    assert cpuid.int8_kernel({"AVX2": True}).startswith("AVX2 (vpmaddubsw")
    seen = cpuid.from_cpuid()
    if platform.machine().lower() not in ("x86_64", "amd64") or not Path("/proc/cpuinfo").is_file():
        return
    assert seen is not None  # x86-64 Linux: CPUID is asked, not guessed
    booted = cpuid.from_proc_cpuinfo(Path("/proc/cpuinfo").read_text())
    assert booted is not None and seen["AVX2"] == booted["AVX2"]
    for label, present in seen.items():  # a process may be told less than the kernel found, never more
        assert booted[label] or not present, label
