"""Metrics on hand-made examples, checked against counts worked out by hand."""

import pytest

from subcase.evaluation.metrics import WordOutcome, calibration_table, review_view, score


def outcomes(ref: str, hyp: str, initial=None, conf=None):
    r, h = ref.split(), hyp.split()
    initial = initial or [i == 0 for i in range(len(r))]
    return [WordOutcome(a, b, s, None if conf is None else conf[i]) for i, (a, b, s) in enumerate(zip(r, h, initial))]


def test_perfect():
    s = score(outcomes("The FBI met John in London", "The FBI met John in London"))
    assert s["f1"] == 1.0 and s["ser"] == 0.0 and s["cer"] == 0.0


def test_counts_by_hand():
    # ref slots: The, FBI, John, London (4). hyp: The ok, Fbi wrong (fp+fn), john missed (fn), in -> In (fp)
    s = score(outcomes("The FBI met John in London", "The Fbi met john In London"))
    assert s["precision"] == pytest.approx(2 / 4)   # tp=2 (The, London), fp=2 (Fbi, In)
    assert s["recall"] == pytest.approx(2 / 4)      # fn=2 (FBI, John)
    assert s["ser"] == pytest.approx(3 / 4)         # 3 wrong words / 4 slots
    # upper-case letters in ref: T F B I J L = 6; wrong: B, I, J missing + I inserted = 4
    assert s["cer"] == pytest.approx(4 / 6)
    # intrinsic drops the sentence-initial "The": slots 3, tp 1
    assert s["intrinsic_recall"] == pytest.approx(1 / 3)


def test_review_view():
    o = outcomes("The FBI met", "The Fbi met", conf=[0.99, 0.4, 0.97])
    (row,) = review_view(o, [0.9])
    assert row["review_load"] == pytest.approx(1 / 3) and row["catch_rate"] == 1.0


def test_default_review_takes_each_word_s_own_threshold():
    """An English word under 0.967 and a Spanish one under 0.977: each model's own default."""
    from subcase.evaluation.metrics import default_review

    o = outcomes("The FBI met", "The Fbi met", conf=[0.968, 0.4, 0.968])
    o[0].threshold, o[1].threshold, o[2].threshold = 0.967, 0.967, 0.977
    r = default_review(o)
    assert r["thresholds"] == [0.967, 0.977]
    assert (r["flagged"], r["caught"], r["errors"]) == (2, 1, 1)
    assert r["review_load"] == pytest.approx(2 / 3) and r["catch_rate"] == 1.0


def test_calibration_table():
    ece, rows = calibration_table([0.95, 0.95, 0.55, 0.55], [True, True, True, False])
    assert ece == pytest.approx(0.5 * 0.05 + 0.5 * 0.05)
    assert sum(r["words"] for r in rows) == 4


def test_baseline_words_line_up_with_scored_words_when_a_cue_has_numbers():
    from subcase.evaluation.baselines import first_word_and_i
    from subcase.evaluation.metrics import scored_words
    from subcase.subtitles.words import tokenize

    cues = [tokenize("in 1969 nasa sent 3 men."), tokenize("i was there.")]
    forms = first_word_and_i(cues, punctuated=True)
    assert forms == [["In", "nasa", "sent", "men"], ["I", "was", "there"]]
    assert [len(f) for f in forms] == [sum(1 for c, _, _ in scored_words(cues) if c == i) for i in range(2)]


def test_a_dot_inside_an_address_or_abbreviation_ends_no_sentence():
    from subcase.evaluation.metrics import scored_words
    from subcase.subtitles.words import tokenize

    cues = [tokenize("Visit w3.org/WAI. Then the U.S.A. team"), tokenize("wait... What? no.")]
    starts = {tok.text: start for _, tok, start in scored_words(cues)}
    # a mark followed by a space still ends a sentence, even after an abbreviation ("U.S.A. team")
    assert starts == {"Visit": True, "w3": False, "org": False, "WAI": False, "Then": True, "the": False,
                      "U": False, "S": False, "A": False, "team": True, "wait": False, "What": True, "no": True}
