"""``subcase bench`` runs each system in its own process and prints one row each (numbers not judged here)."""

from __future__ import annotations

import re

from subcase.cli import main


def test_bench_prints_a_row_per_system(capsys):
    # with ../shared the film's 14th cue has a number among its words: baselines must skip it
    rc = main(["bench", "--cues", "60", "--runs", "2", "--films", "2", "--long-cue", "30"])
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


def test_bench_refuses_zero_runs(capsys):
    assert main(["bench", "--runs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
