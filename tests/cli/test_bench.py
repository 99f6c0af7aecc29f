"""``subcase bench`` runs each system in its own process and prints one row each (numbers not judged here)."""

from __future__ import annotations

import re

from subcase.cli import main


def test_bench_prints_a_row_per_system(capsys):
    # with ../shared the film's 14th cue has a number among its words: baselines must skip it
    rc = main(["bench", "--cues", "60", "--runs", "2", "--long-cue", "30"])
    out = capsys.readouterr().out
    assert rc == 0
    rows = {line.split()[0]: line for line in out.splitlines() if re.match(r"(subcase|truecase|first) ", line)}
    assert "subcase" in rows and "first" in rows  # truecase only when the bench extra is installed
    words, words_per_s = rows["subcase"].split()[1:3]
    assert int(words) > 100 and float(words_per_s) > 0
    assert "median of 2 runs" in out
    long_cue = re.search(r"one cue of 30 KB \(([\d,]+) words\): convert ([\d.]+) s", out)
    assert long_cue and int(long_cue.group(1).replace(",", "")) > 4000, out


def test_bench_refuses_zero_runs(capsys):
    assert main(["bench", "--runs", "0"]) == 2
    assert "at least 1" in capsys.readouterr().err
