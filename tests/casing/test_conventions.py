"""The file's own conventions win over the model in auto mode (issue #56 item 3).

The fixtures (tests/fixtures/conventions/, written by make_conventions.py from our own lines) are person-cased
files that keep a convention the model does not share: lower-case or UPPER sound cues, Title-case speaker
labels, an interview in capitals on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

from subcase.casing import case_file
from subcase.casing.auto import ON_PURPOSE, Passage, decide, decide_why
from subcase.casing.conventions import Category, Style, learn, style_written
from subcase.cli import main
from subcase.review import ReviewState
from subcase.review.flags import flag_reasons
from subcase.subtitles.words import tokenize

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "conventions"
K, C = Passage.KEEP, Passage.CAPS


def _tokens(texts):
    return [tokenize(t) for t in texts]


def _convert(src: Path, tmp_path: Path) -> tuple[str, list[dict]]:
    details = tmp_path / "details.jsonl"
    assert main(["convert", str(src), "-o", str(tmp_path / "out"), "-q", "--details", str(details)]) == 0
    rows = [json.loads(line) for line in details.read_text(encoding="utf-8").splitlines()]
    return (tmp_path / "out" / src.name).read_text(encoding="utf-8"), rows


def test_a_style_is_learned_only_when_the_file_keeps_it():
    cues = _tokens(["It was late.", "[groans]", "Hold on.", "[door slams]", "(laughs) Fine.", "[Maria sighs]"])
    learned = learn(cues, [True] * len(cues))
    assert {c.style for c in learned.values()} == {Style.LOWER}  # 3 of the 3 in a style ("[Maria sighs]" is mixed)
    assert learned[(1, 1)].describe() == "the file writes its sound cues in lower case (3 of 3)"
    # two are too few; two styles in one file are no convention
    assert learn(cues[:4], [True] * 4) == {}
    mixed = _tokens(["[groans]", "[door slams]", "[laughs]", "[GASPS]", "[WIND HOWLS]", "[Sighs]"])
    assert learn(mixed, [True] * len(mixed)) == {}


def test_a_label_counts_when_it_recurs_or_is_in_capitals_and_a_lost_passage_is_no_evidence():
    cues = _tokens(["Mara: Is it open?", "Tomas: No.", "Mara: Then walk.", "Web accessibility: essential",
                    "tomas: i never wanted one", "mara: not since then"])
    kept = [True, True, True, True, False, False]
    learned = learn(cues, kept)
    assert {pos: c.category for pos, c in learned.items()} == {
        (0, 0): Category.LABEL, (1, 0): Category.LABEL, (2, 0): Category.LABEL,
        (4, 0): Category.LABEL, (5, 0): Category.LABEL}  # "Web accessibility:" is seen once
    assert learned[(4, 0)].style is Style.TITLE and learned[(4, 0)].count == 3
    assert style_written(["Web", "accessibility"]) is None and style_written(["I"]) is None


def test_a_passage_in_capitals_runs_across_sound_cues_and_is_kept():
    texts = ["It was late.", "I NEVER THOUGHT I WOULD LEAVE.", "(laughs)", "BUT THE WATER CAME UP",
             "PAST THE SECOND STEP", "AND THEN PAST THE DOOR", "(sighs)", "SO I CARRIED THE STONES.", "Thanks."]
    passages, reasons = decide_why(_tokens(texts))
    assert passages == [K] * len(texts)
    assert reasons[3] == f"{ON_PURPOSE} (5 cues with punctuation), kept" and 2 not in reasons
    # without the punctuation it is no passage on purpose: a long run without marks is still recased
    bare = [t.rstrip(".") for t in texts[1:8]]
    assert decide(_tokens(["It was late.", *bare, "Thanks."]))[3:6] == [C, C, C]


def test_lower_case_sound_cues_stay_lower_and_doubtful_ones_are_flagged(engine, tmp_path):
    src = FIXTURES / "sdh_lower_sound_cues.srt"
    out, rows = _convert(src, tmp_path)
    # was: "[WOMAN singing in the distance]", three sound cues in a row taken for a passage that lost its casing
    assert out == src.read_text(encoding="utf-8")
    conv = [r for r in rows if "convention" in r]  # every word of every sound cue
    assert len(conv) == 30 and {r["convention"] for r in conv} == {
        "the file writes its sound cues in lower case (12 of 12)"}
    flagged = [r for r in rows if r["highlighted"] and "convention" in r]
    # the one the model is sure is a name ("[mara sighs]") is flagged, with the model's form; "[groans]",
    # which it would write "[GROANS]", is not: that is the file's convention, not a doubt
    assert [r["input"] for r in flagged] == ["mara"]
    assert flagged[0]["reason"] == ("the file writes its sound cues in lower case (12 of 12): written 'mara'; "
                                    "the model would write 'MARA' ('Mara' in the file's style)")


def test_the_review_shows_the_convention_as_the_reason(engine):
    cased = case_file(engine, FIXTURES / "sdh_lower_sound_cues.srt")
    state = ReviewState.from_casing(len(cased.doc.cues), cased.casing)
    raised = [w for cue in state.cues for w in cue if w.raised is not None]
    assert [(w.input, w.raised.split(":")[0]) for w in raised] == [
        ("mara", "the file writes its sound cues in lower case (12 of 12)")]
    # the word's details give the convention as the reason it is on the review list
    pos = (raised[0].cue_index, state.cues[raised[0].cue_index].index(raised[0]))
    assert [r.text for r in flag_reasons(state, pos)] == [raised[0].raised]
    # a sound cue in a restored passage is the file's, not a word to review
    singing = next(w for w in state.cues[5] if w.input == "woman")
    assert singing.form == "woman" and singing.confidence == 1.0 and singing.raised is None


def test_upper_case_sound_cues_stay_upper(engine, tmp_path):
    src = FIXTURES / "sdh_upper_sound_cues.srt"
    out, rows = _convert(src, tmp_path)
    # was: "[WOMAN singing in the distance]", "[wind howling through the pass]": three cues in capitals without
    # punctuation, recased as a passage that lost its casing
    assert out == src.read_text(encoding="utf-8")
    assert {r["convention"] for r in rows if "convention" in r} == {
        "the file writes its sound cues in capitals (12 of 12)"}
    assert not any(r["highlighted"] for r in rows if "convention" in r)


def test_an_interview_in_capitals_on_purpose_is_kept_and_not_flagged(engine, tmp_path):
    src = FIXTURES / "interview_in_capitals.srt"
    out, rows = _convert(src, tmp_path)
    # was: "But the water came up / past the second step / and then past the door"
    assert out == src.read_text(encoding="utf-8")
    capitals = [r for r in rows if r["cue"] >= 4 and r["input"].isupper()]
    assert capitals and all(r["passage"] == "keep" and not r["highlighted"] for r in capitals)
    assert {r["passage_reason"] for r in capitals} == {f"{ON_PURPOSE} (6 cues with punctuation), kept"}


def test_speaker_labels_follow_the_file_s_title_case(engine, tmp_path):
    src = FIXTURES / "title_labels.srt"
    out, rows = _convert(src, tmp_path)
    # was: "TOMAS: I never wanted one": the passage that lost its casing is restored, its labels by the model
    assert "\nTomas: I never wanted one\n" in out and "\nMara: not since the Mill closed\n" in out
    assert "\nTomas: and the river took the road\n" in out
    labels = [r for r in rows if r["cue"] in (5, 6, 7) and r["word"] == 0]
    assert {r["convention"] for r in labels} == {"the file writes its speaker labels in Title case (7 of 7)"}
    # everything outside the restored passage is as written
    src_blocks, out_blocks = src.read_text(encoding="utf-8").split("\n\n"), out.split("\n\n")
    assert [b for i, b in enumerate(src_blocks) if i not in (5, 6, 7)] == \
        [b for i, b in enumerate(out_blocks) if i not in (5, 6, 7)]
