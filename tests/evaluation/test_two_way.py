"""Words a file's own reference writes two ways (evaluation/two_way.py), by hand and through
`subcase evaluate` on real files."""

from __future__ import annotations

import pytest

from subcase.evaluation.metrics import WordOutcome, score
from subcase.evaluation.two_way import two_way_entry, two_way_forms


def _words(triples: list[tuple[str, str, bool]]) -> list[WordOutcome]:
    """(reference, output, sentence-initial); the first word of the list opens its cue."""
    return [WordOutcome(ref, hyp, start, cue_initial=k == 0) for k, (ref, hyp, start) in enumerate(triples)]


TALK = _words([
    ("So", "So", True), ("the", "the", False), ("Web", "web", False), ("is", "is", False),
    ("open", "open", False), ("and", "and", False), ("the", "the", False), ("web", "web", False),
    ("is", "is", False), ("big", "big", False), ("Paris", "paris", False), ("The", "The", True),
    ("Web", "Web", True),
])


def test_a_word_written_two_ways_inside_sentences_is_set_apart() -> None:
    assert two_way_forms(TALK) == {"web": {"Web", "web"}}
    entry = two_way_entry([TALK])
    assert (entry["words"], entry["errors"], entry["examples"]) == (2, 1, ["Web / web"])
    # the other words: the sentence-initial "Web" stays, "Paris" is still an error
    rest = [o for o in TALK if o.sentence_initial or o.ref.lower() != "web"]
    assert entry["rest"]["errors"] == score(rest)["errors"] == 1
    assert entry["rest"]["f1"] == score(rest)["f1"] < 1.0


def test_sentence_and_cue_starts_and_other_files_are_no_second_form() -> None:
    # "E" opens a sentence (or a cue whose full stop the reference left out): not a spelling of "e"
    cue = _words([("E", "E", False), ("eu", "eu", False), ("e", "e", False), ("tu", "tu", False)])
    sentence = [WordOutcome("Depois", "Depois", True), WordOutcome("e", "e", False), WordOutcome("E", "e", True)]
    assert two_way_forms(cue) == {} and two_way_forms(sentence) == {}
    # each file writes "docker" one way: two house styles, no word set apart
    one = _words([("usa", "usa", False), ("Docker", "docker", False)])
    other = _words([("usa", "usa", False), ("docker", "docker", False)])
    entry = two_way_entry([one, other])
    assert entry["words"] == 0 and entry["rest"]["errors"] == 1


@pytest.mark.model
def test_evaluate_reports_them_in_total_and_per_language(dev_subtitles_ml, evaluate_punctuated) -> None:
    """The French W3C talks write "Web" and "web" in one file: evaluate says so and scores the rest."""
    paths = [p for p in dev_subtitles_ml["fr"] if "conformance-evaluation" in p.name or "wwa_captions" in p.name]
    out, results = evaluate_punctuated(paths)
    assert "two casings inside sentences" in out
    total = results["systems"]["subcase"]["punct"]
    two_way = total["two_way"]
    assert "Web / web" in two_way["examples"]
    assert 0 < two_way["errors"] <= two_way["words"] < total["words"]
    # every error is on a two-way word or among the other words' errors
    assert two_way["errors"] + two_way["rest"]["errors"] == total["errors"]
    assert two_way["rest"]["words"] == total["words"] - two_way["words"]
    assert results["languages"]["fr"]["systems"]["subcase"]["punct"]["two_way"] == two_way
