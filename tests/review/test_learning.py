"""Learning from every fix, through the real review core and the real model."""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import Tag, apply_casing, case_document
from subcase.review import Accept, EditLog, ReviewSession, ReviewState, SetTag, Status, read_records
from subcase.review.flags import FlagContext, flag_reasons
from subcase.review.learning import SURE_LOWER, UNPUNCTUATED_SURE_LOWER, make_learner
from subcase.subtitles import load

FILM = """1
00:00:01,000 --> 00:00:02,000
[laughing]

2
00:00:03,000 --> 00:00:04,000
where were you?

3
00:00:05,000 --> 00:00:06,000
[door slams]
i waited.

4
00:00:07,000 --> 00:00:08,000
[joel sighs]

5
00:00:09,000 --> 00:00:10,000
[man on pa] train to boston.

6
00:00:11,000 --> 00:00:12,000
[train horn blows]
"""

TALK = """1
00:00:01,000 --> 00:00:02,000
so we opened the silver gate first.

2
00:00:03,000 --> 00:00:04,000
then we opened the silver gate first again.

3
00:00:05,000 --> 00:00:06,000
the gate was quiet near the silver shop.
"""


def open_session(tmp_path: Path, engine, text: str, log: bool = False):
    path = tmp_path / "file.srt"
    path.write_text(text, encoding="utf-8")
    doc = load(path)
    casing = case_document(engine, doc, punctuate="never")
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing)
    editlog = EditLog(tmp_path / "log.jsonl") if log else None
    session = ReviewSession(doc, state, path, model_version=engine.info.version,
                            model_sha256=engine.info.sha256, log=editlog)
    session.learner = make_learner(engine)
    return session


def find(state: ReviewState, cue: int, word: str):
    for s, w in enumerate(state.cues[cue]):
        if w.form.lower() == word:
            return (cue, s)
    raise AssertionError(f"no {word!r} in cue {cue}")


def test_a_style_learned_from_one_fix_restyles_other_sound_cues(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    # The model cases these cues inconsistently ("[LAUGHING]" but "[door slams]");
    # the editor's first fix in a sound cue says how this file writes them.
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    assert doc.cues[2].text == "[DOOR SLAMS]\nI waited."
    assert doc.cues[0].text == "[LAUGHING]"
    assert doc.cues[3].text == "[JOEL SIGHS]"
    assert doc.cues[4].text == "[MAN ON PA] Train to Boston."  # the words after the cue keep the model's casing
    assert doc.cues[5].text == "[TRAIN HORN BLOWS]"
    assert state.word(find(state, 2, "door")).status is Status.CHANGED
    assert state.word(find(state, 2, "slams")).status is Status.LEARNED


def test_a_learned_style_settles_the_flagged_words_already_written_that_way(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM, log=True)
    state, doc = session.state, session.doc
    laughing = find(state, 0, "laughing")
    # the model wrote "[LAUGHING]" in capitals, but not surely: on the review list
    assert state.word(laughing).form == "LAUGHING" and state.word(laughing).needs_review(state.threshold)
    action = SetTag(find(state, 2, "door"), Tag.U, engine.form)
    session.perform(action)  # the file writes its sound cues in capitals
    w = state.word(laughing)
    assert w.form == "LAUGHING" and w.status is Status.LEARNED and not w.needs_review(state.threshold)
    assert doc.cues[0].text == "[LAUGHING]"
    session.state.flag_context = FlagContext(doc=doc, learner=session.learner)
    assert [r.code for r in flag_reasons(state, laughing)][0] == "learned"
    assert str(flag_reasons(state, laughing)[0]) == "confirmed by what you taught"
    # one undo takes it back to the model's word, on the list again
    session.revert(action)
    w = state.word(laughing)
    assert w.status is Status.UNTOUCHED and w.needs_review(state.threshold)
    session.close()
    records = read_records(tmp_path / "log.jsonl")
    human = next(r for r in records if r["action"] == "changed_tag")
    # the settled word is listed in the fix that caused it, still written as it was
    assert any([0, state.word(laughing).word_index] in g["at"] for g in human["caused"] if g["tag"] == "U")
    assert all(r["action"] != "learned" for r in records)


def test_a_failed_style_check_puts_the_settled_words_back_on_the_list(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM)
    state = session.state
    laughing = find(state, 0, "laughing")
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    assert state.word(laughing).status is Status.LEARNED
    # the check: an ordinary word of the next restyled cue is raised ("on" of "[MAN ON PA]");
    # the editor puts it back, so the file does not write every sound cue in capitals
    check = next(p for p in state.positions() if (state.word(p).raised or "").startswith("check: "))
    assert state.word(check).status is Status.LEARNED
    session.perform(SetTag(check, Tag.L, engine.form))
    w = state.word(laughing)
    assert w.form == "LAUGHING" and w.status is Status.UNTOUCHED and w.needs_review(state.threshold)


def test_lower_style_leaves_proper_names_alone(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    assert doc.cues[0].text == "[LAUGHING]"
    session.perform(SetTag(find(state, 0, "laughing"), Tag.L, engine.form))
    assert doc.cues[3].text == "[Joel sighs]"                    # a name keeps its capital
    # so does an acronym; whether "pa" reads as PA or Pa is a near tie for the int8 model that
    # flips with the CPU (U 0.56 / T 0.40 with VNNI, T 0.53 / U 0.44 on AVX2, measured under
    # qemu -cpu Haswell), so the test asks only that lower style did not lower it
    assert doc.cues[4].text in ("[man on PA] Train to Boston.", "[man on Pa] Train to Boston.")
    assert doc.cues[5].text == "[train horn blows]"
    assert doc.cues[2].text.startswith("[door slams]")


def test_a_phrase_fix_recases_the_same_phrase_elsewhere_and_nothing_else(tmp_path, engine):
    session = open_session(tmp_path, engine, TALK)
    state, doc = session.state, session.doc
    before = [c.text for c in doc.cues]
    assert "the silver gate first" in before[0] and "the silver gate first" in before[1]
    # the model writes the phrase in lower case without being sure of it (P(lower) under SURE_LOWER)
    assert all(state.word(find(state, 1, w)).probs[0] < SURE_LOWER for w in ("silver", "gate"))
    session.perform(SetTag(find(state, 0, "silver"), Tag.T, engine.form))
    session.perform(SetTag(find(state, 0, "gate"), Tag.T, engine.form))
    assert "the Silver Gate first" in doc.cues[0].text
    assert "the Silver Gate first" in doc.cues[1].text
    assert doc.cues[2].text == before[2]  # "gate" and "silver" in another context stay as they were
    assert state.word(find(state, 1, "silver")).status is Status.LEARNED
    assert state.word(find(state, 1, "gate")).status is Status.LEARNED


def test_a_phrase_fix_asks_where_the_model_is_sure_of_lower_case(tmp_path, engine):
    # the same phrase between the same neighbours, in another context (no context rule applies)
    session = open_session(tmp_path, engine, subtitles("so we did some easy checks first.",
                                                       "yesterday i ran some easy checks first."))
    state, doc = session.state, session.doc
    before = doc.cues[1].text
    session.perform(SetTag(find(state, 0, "easy"), Tag.T, engine.form))
    session.perform(SetTag(find(state, 0, "checks"), Tag.T, engine.form))
    assert doc.cues[1].text == before
    # "easy" was raised by the first fix already ("you wrote 'Easy'"); "checks" by the phrase
    for word, why in (("easy", "you wrote 'Easy' in cue 1"), ("checks", "you wrote 'Easy Checks' in cue 1")):
        w = state.word(find(state, 1, word))
        assert w.probs[0] >= SURE_LOWER and w.status is Status.UNTOUCHED
        assert w.raised == why and w.needs_review(state.threshold)


def test_a_title_fix_inside_quotes_raises_the_rest_of_the_quotation(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles(
        'wai provides guidance in "involving users in web projects for better accessibility".',
        "the users of the web projects can read it."))
    state = session.state
    quoted = ["users", "projects", "better", "accessibility"]
    action = SetTag(find(state, 0, "involving"), Tag.T, engine.form)
    session.perform(action)
    for word in quoted:  # raised (or on the list already), never changed
        w = state.word(find(state, 0, word))
        assert w.form == word and w.needs_review(state.threshold), word
    assert any(state.word(find(state, 0, word)).raised == "in the same quotation as 'Involving', which you "
               "capitalised: a title?" for word in quoted)
    assert state.word(find(state, 0, "web")).raised is None  # a short word stays lower in a title
    assert state.word(find(state, 0, "guidance")).raised is None  # outside the quotation
    assert all(w.raised is None for w in state.cues[1])
    session.revert(action)
    assert all(w.raised is None for w in state.cues[0])


def test_reviewed_words_are_never_changed(tmp_path, engine):
    session = open_session(tmp_path, engine, TALK)
    state = session.state
    reviewed = find(state, 1, "silver")
    session.perform(Accept(reviewed))
    form = state.word(reviewed).form
    session.perform(SetTag(find(state, 0, "silver"), Tag.T, engine.form))
    session.perform(SetTag(find(state, 0, "gate"), Tag.T, engine.form))
    assert state.word(reviewed).form == form and state.word(reviewed).status is Status.ACCEPTED
    # the rest of the phrase around it still learned
    assert state.word(find(state, 1, "gate")).form == "Gate"


def test_one_undo_removes_a_fix_and_everything_it_caused(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM)
    texts = [c.text for c in session.doc.cues]
    statuses = [[w.status for w in ws] for ws in session.state.cues]
    action = SetTag(find(session.state, 2, "door"), Tag.U, engine.form)
    session.perform(action)
    assert [c.text for c in session.doc.cues] != texts
    session.revert(action)
    assert [c.text for c in session.doc.cues] == texts
    assert [[w.status for w in ws] for ws in session.state.cues] == statuses
    assert session.learner.styles == {}
    # redo does it all again
    session.perform(action)
    assert session.doc.cues[3].text == "[JOEL SIGHS]"


def check_words(state: ReviewState) -> list:
    """The words still on the review list for a house-style check."""
    return [p for p in state.positions()
            if (state.word(p).raised or "").startswith("check: ") and state.word(p).needs_review(state.threshold)]


def test_a_style_learned_from_one_fix_is_checked_on_the_next_restyled_cue(tmp_path, engine):
    """Every other sound cue is restyled at once, and the next restyled one is also put on
    the review list, so the editor's next stop in the category says whether the file is
    written that way; keeping it settles the style."""
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    checks = check_words(state)
    # The first restyled cue after the fix with two ordinary words or more (words the model, casing the
    # cue as a plain sentence, is sure are lower case): "[joel sighs]" has one at most, "[man on pa]" two
    # when the model is sure of "man" as well, else "[train horn blows]" three.  Which of the last two
    # depends on the int8 kernel, so either may be the check.
    assert len(checks) >= 2 and {p[0] for p in checks} in ({4}, {5})
    assert {state.word(p).form for p in checks} <= {"MAN", "ON", "PA", "TRAIN", "HORN", "BLOWS"}
    assert doc.cues[3].text == "[JOEL SIGHS]" and doc.cues[4].text.startswith("[MAN ON PA]")
    for p in checks:
        w = state.word(p)
        assert w.status is Status.LEARNED and w.needs_review(state.threshold)
        assert w.raised == "check: your fix in cue 3 restyled the sound cues (upper)"
    assert all(p in [q for q in state.positions() if state.word(q).needs_review(state.threshold)] for p in checks)
    # kept as restyled: the style stands, nothing else is on the list because of it
    session.perform(Accept(checks[0]))
    assert check_words(state) == []
    assert doc.cues[5].text == "[TRAIN HORN BLOWS]"
    assert session.learner.styles


@pytest.mark.parametrize("man, check", [((0.95, 0.04, 0.005, 0.005), 4), ((0.55, 0.43, 0.01, 0.01), 5)])
def test_the_style_check_goes_to_the_next_cue_of_two_ordinary_words(tmp_path, scripted, man, check):
    """The rule the test above meets either way, on both sides: "[man on pa]" is the check when the plain
    sentence is sure "man" is lower case (with "on": two ordinary words), else "[train horn blows]"."""
    engine = scripted({"joel": (0.01, 0.98, 0.005, 0.005), "pa": (0.02, 0.03, 0.94, 0.01), "man": man})
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    assert doc.cues[3].text == "[JOEL SIGHS]" and doc.cues[4].text.startswith("[MAN ON PA]")
    assert doc.cues[5].text == "[TRAIN HORN BLOWS]"
    checks = check_words(state)
    expected = {4: {"MAN", "ON"}, 5: {"TRAIN", "HORN", "BLOWS"}}[check]
    assert {p[0] for p in checks} == {check} and {state.word(p).form for p in checks} == expected


def test_a_style_put_back_at_its_check_is_undone_everywhere(tmp_path, engine):
    """A file with on-screen text in capitals and descriptions in lower case: one fix in the
    first must not put every description in capitals, unseen."""
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    texts = [c.text for c in doc.cues]
    fix = SetTag(find(state, 2, "door"), Tag.U, engine.form)
    session.perform(fix)
    restyled = [c.text for c in doc.cues]
    [first, *_] = check_words(state)
    assert state.word(first).form in ("MAN", "ON", "PA", "TRAIN", "HORN", "BLOWS")  # which cue: the test above
    back = SetTag(first, Tag.L, engine.form)  # the editor writes this description in lower case
    session.perform(back)
    # a human decision (back to the model's own form, so it counts as accepted)
    assert state.word(first).form in ("man", "on", "pa", "train", "horn", "blows")
    assert state.word(first).status is Status.ACCEPTED
    assert doc.cues[2].text == "[DOOR slams]\nI waited."  # the editor's fix stays; what it caused goes
    for c in (0, 3, 4, 5):
        assert doc.cues[c].text == texts[c]
    assert all(w.status is not Status.LEARNED for ws in state.cues for w in ws)
    assert check_words(state) == []
    # the category is left to the model from now on: another fix in it teaches no style
    sighs = SetTag(find(state, 3, "sighs"), Tag.L, engine.form)
    session.perform(sighs)
    assert doc.cues[0].text == texts[0] and session.learner.styles
    session.revert(sighs)
    # one undo brings the restyle and its check back; one more removes the first fix and all of it
    session.revert(back)
    assert [c.text for c in doc.cues] == restyled
    assert check_words(state) and state.word(first).status is Status.LEARNED
    session.revert(fix)
    assert [c.text for c in doc.cues] == texts and check_words(state) == []
    assert session.learner.styles == {}


def test_the_edit_log_links_app_changes_to_the_human_decision(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM, log=True)
    action = SetTag(find(session.state, 2, "door"), Tag.U, engine.form)
    session.perform(action)
    session.revert(action)
    session.close()
    records = read_records(tmp_path / "log.jsonl")
    human = [r for r in records if r["action"] == "changed_tag"]
    assert [r["action"] for r in records] == ["changed_tag", "undo"]  # no record per learned word
    # what the fix caused is listed in its record: positions by status and tag
    caused = {tuple(p) for g in human[0]["caused"] if (g["status"], g["tag"]) == ("learned", "U") for p in g["at"]}
    assert human[0]["caused_count"] >= 5 and len(caused) >= 5
    state = session.state
    assert {(c, state.word(find(state, c, w)).word_index)
            for c, w in ((2, "slams"), (3, "sighs"), (5, "train"), (5, "horn"), (5, "blows"))} <= caused
    assert records[1]["undoes"] == [human[0]["seq"]]
    assert all(r["schema"] == 5 for r in records)


def test_flag_reasons_explain_a_highlight(tmp_path, engine):
    session = open_session(tmp_path, engine, TALK)
    state, doc = session.state, session.doc
    state.flag_context = FlagContext(doc, session.learner, engine.lexicon, session.learner.is_rare)
    session.perform(SetTag(find(state, 0, "silver"), Tag.T, engine.form))
    # one fix is thin evidence: the same context elsewhere is shown, with what the editor wrote there
    taught = [str(r) for r in flag_reasons(state, find(state, 1, "silver"))]
    assert state.word(find(state, 1, "silver")).form == "silver"
    assert "you wrote 'Silver' in the same context" in taught
    # "silver" in cue 3 was raised for review: the editor wrote "Silver" in cue 1 and the file has both forms
    other = flag_reasons(state, find(state, 2, "silver"))
    assert [r.code for r in other][:1] in (["low_confidence"], ["raised"])
    assert "raised" in [r.code for r in other]
    assert "cased differently in cue 1 ('Silver')" in [str(r) for r in other]
    # a word nobody flagged has no reasons, whatever the file says about it
    calm = next(p for p in state.positions() if not state.word(p).flagged(state.threshold)
                and state.word(p).status is Status.UNTOUCHED)
    assert flag_reasons(state, calm) == []


def test_a_flagged_word_after_a_silence_says_so(tmp_path, engine):
    # no sentence punctuation: the silence before cue 3 was weighed into its first word (casing/pauses.py)
    text = ("1\n00:00:01,000 --> 00:00:03,000\nwe waited at the station for an hour\n\n"
            "2\n00:00:03,100 --> 00:00:05,000\nthe train never came that morning\n\n"
            "3\n00:00:06,500 --> 00:00:08,000\nand the rest is history\n")
    session = open_session(tmp_path, engine, text)
    state = session.state
    state.flag_context = FlagContext(session.doc, session.learner, engine.lexicon, session.learner.is_rare)
    opener = find(state, 2, "and")
    assert state.word(opener).flagged(state.threshold)
    assert "after 1.5 s of silence, a new sentence is likelier" in [str(r) for r in flag_reasons(state, opener)]
    for pos in state.positions():  # no other word, flagged or not, names a silence
        if pos != opener:
            assert "pause" not in [r.code for r in flag_reasons(state, pos)]


LABELS = """1
00:00:01,000 --> 00:00:02,000
- joel: fine.
- clementine: whatever.

2
00:00:03,000 --> 00:00:04,000
web accessibility: essential for some.

3
00:00:05,000 --> 00:00:06,000
- joel: okay.
- clementine: bye.
"""


def test_a_speaker_label_fix_restyles_the_other_labels_only(tmp_path, engine):
    session = open_session(tmp_path, engine, LABELS)
    state, doc = session.state, session.doc
    joel = find(state, 0, "joel")
    target = Tag.U if state.word(joel).tag is not Tag.U else Tag.T
    session.perform(SetTag(joel, target, engine.form))
    label = engine.form("clementine", target)
    assert doc.cues[0].text.splitlines()[1].startswith(f"- {label}:")
    assert doc.cues[2].text.splitlines()[0].startswith(f"- {engine.form('joel', target)}:")
    assert doc.cues[2].text.splitlines()[1].startswith(f"- {label}:")
    # "Web accessibility:" is a heading, not a speaker label: untouched
    assert state.word((1, 0)).status is Status.UNTOUCHED and state.word((1, 1)).status is Status.UNTOUCHED


def subtitles(*lines: str) -> str:
    return "".join(f"{i + 1}\n00:00:0{i},000 --> 00:00:0{i},500\n{line}\n\n" for i, line in enumerate(lines))


def test_other_occurrences_cased_otherwise_are_raised_for_review_not_changed(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles("we met the members today.", "a friend came.",
                                                       "so the members came over."))
    state = session.state
    first, other = find(state, 0, "members"), find(state, 2, "members")
    assert state.word(first).form == state.word(other).form == "members"
    session.perform(SetTag(first, Tag.T, engine.form))
    w = state.word(other)
    # another context, a common word: not changed, but back in the review queue with its reason
    assert w.form == "members" and w.status is Status.UNTOUCHED and w.needs_review(state.threshold)
    assert w.raised == "you wrote 'Members' in cue 1"
    assert [str(r) for r in flag_reasons(state, other)] == ["you wrote 'Members' in cue 1"]


def test_a_title_fix_at_a_line_start_raises_no_other_occurrence(tmp_path, engine):
    """A capital at the start of a line may be the line's (a verse, a sentence whose full stop was left
    out): "Get well soon / We wish you" says nothing of every other "we" in the file."""
    session = open_session(tmp_path, engine, subtitles("get well, get well soon\nwe wish you to get well",
                                                       "i think we met the members today.",
                                                       "so the members came over."))
    state = session.state
    fixed, elsewhere = find(state, 0, "we"), find(state, 1, "we")
    assert state.word(fixed).form == "we"
    session.perform(SetTag(fixed, Tag.T, engine.form))
    assert state.word(fixed).form == "We"
    assert not state.word(elsewhere).raised and state.word(elsewhere).form == "we"
    # the same word fixed inside a line is evidence about it: its other occurrences are raised
    first, other = find(state, 1, "members"), find(state, 2, "members")
    session.perform(SetTag(first, Tag.T, engine.form))
    assert state.word(other).raised == "you wrote 'Members' in cue 2"


def test_a_title_fix_in_a_file_without_punctuation_raises_only_doubted_occurrences(tmp_path, scripted):
    """Without . ! ? a sentence start inside a cue looks like any other place: "you" fixed to "You"
    there is the sentence's capital, not the word's, and says nothing of the other "you"s the model is
    sure of (in six held-out Seinfeld episodes without punctuation such raises cost 546 visits for 4
    errors).  Occurrences the model doubts are still raised.  A scripted casing: the real model's
    P(lower) for such a "you" sits at the rule's bound on one int8 kernel and above it on another."""
    engine = scripted({(0, "you"): (0.60, 0.38, 0.01, 0.01),        # a sentence start it doubts
                       (1, "you"): (0.995, 0.003, 0.001, 0.001),    # sure: at or above UNPUNCTUATED_SURE_LOWER
                       (2, "you"): (UNPUNCTUATED_SURE_LOWER, 0.008, 0.001, 0.001),
                       (2, "members"): (0.95, 0.04, 0.005, 0.005)})  # not flagged, but under the bound
    session = open_session(tmp_path, engine, subtitles("i waited for hours you never came",
                                                       "did you see the members today",
                                                       "we met the members and you left early"))
    state = session.state
    fixed = find(state, 0, "you")
    others = [find(state, 1, "you"), find(state, 2, "you")]
    assert state.word(fixed).needs_review(state.threshold)  # the model doubts the sentence start
    session.perform(SetTag(fixed, Tag.T, engine.form))
    assert state.word(fixed).form == "You"
    for o in others:
        assert state.word(o).form == "you" and not state.word(o).raised
        assert not state.word(o).needs_review(state.threshold)
    # a name fixed in the same file still raises the occurrences the model doubts
    first, doubted = find(state, 1, "members"), find(state, 2, "members")
    assert not state.word(doubted).needs_review(state.threshold)
    session.perform(SetTag(first, Tag.T, engine.form))
    assert state.word(doubted).form == "members" and state.word(doubted).raised == "you wrote 'Members' in cue 2"
    assert state.word(doubted).needs_review(state.threshold)


def test_a_title_fix_in_a_punctuated_file_raises_every_occurrence_cased_otherwise(tmp_path, scripted):
    """The same fix where the file marks its sentence ends: a capital inside a sentence is the word's,
    so the other occurrences are raised however sure the model is of them."""
    engine = scripted({(1, "you"): (0.60, 0.38, 0.01, 0.01)})
    session = open_session(tmp_path, engine, subtitles("i waited for hours.", "and you never came.",
                                                       "did you see them?"))
    state = session.state
    fixed, other = find(state, 1, "you"), find(state, 2, "you")
    assert state.word(other).probs[0] >= UNPUNCTUATED_SURE_LOWER
    session.perform(SetTag(fixed, Tag.T, engine.form))
    assert state.word(other).form == "you" and state.word(other).raised == "you wrote 'You' in cue 2"


def test_an_accepted_acronym_settles_its_other_doubted_occurrences(tmp_path, engine):
    """The model doubts "SVG" each time; the editor's accept says this file writes it so."""
    session = open_session(tmp_path, engine, subtitles("we talked about svg at work.", "the svg team wrote it.",
                                                       "so svg helps everyone."))
    state = session.state
    first, last = find(state, 0, "svg"), find(state, 2, "svg")
    assert state.word(first).form == state.word(last).form == "SVG"
    assert state.word(first).needs_review(state.threshold) and state.word(last).needs_review(state.threshold)
    action = Accept(first)
    session.perform(action)
    w = state.word(last)
    assert w.form == "SVG" and w.status is Status.LEARNED and not w.needs_review(state.threshold)
    # one undo puts it back on the list with the accept
    session.revert(action)
    assert state.word(last).status is Status.UNTOUCHED and state.word(last).needs_review(state.threshold)
    # an acronym the editor writes two ways settles nothing more
    session.perform(SetTag(first, Tag.L, engine.form))
    session.perform(Accept(find(state, 1, "svg")))
    assert state.word(last).status is Status.UNTOUCHED and state.word(last).needs_review(state.threshold)
    session.close()


NAME = ("i saw gammy at work.", "then gammy left early.", "so i called gammy again.", "did gammy answer?")


def test_a_name_accepted_twice_settles_its_other_doubted_occurrences(tmp_path, engine):
    """The model doubts "Gammy" at most occurrences; two accepts away from sentence starts say it is a name."""
    session = open_session(tmp_path, engine, subtitles(*NAME))
    state = session.state
    first, second, last = find(state, 0, "gammy"), find(state, 1, "gammy"), find(state, 3, "gammy")
    assert all(state.word(p).form == "Gammy" and state.word(p).needs_review(state.threshold)
               for p in (first, second, last))
    session.perform(Accept(first))
    assert state.word(last).needs_review(state.threshold)  # one decision is not enough
    action = Accept(second)
    session.perform(action)
    w = state.word(last)
    assert w.form == "Gammy" and w.status is Status.LEARNED and not w.needs_review(state.threshold)
    assert str(flag_reasons(state, last)[0]) == "confirmed by what you taught"  # then its low confidence
    session.revert(action)  # one undo puts it back on the list with the accept
    assert state.word(last).status is Status.UNTOUCHED and state.word(last).needs_review(state.threshold)
    session.close()


def test_a_file_without_sentence_punctuation_settles_no_title(tmp_path, engine):
    """There a Title word may open a sentence the file does not mark: nothing is settled."""
    session = open_session(tmp_path, engine, subtitles(*(line.rstrip(".?") for line in NAME)))
    state = session.state
    places = [find(state, c, "gammy") for c in range(4)]
    flagged = [p for p in places if state.word(p).needs_review(state.threshold) and state.word(p).form == "Gammy"]
    if len(flagged) < 3:
        pytest.skip(f"the model doubts 'Gammy' at fewer places without punctuation: {flagged}")
    session.perform(Accept(flagged[0]))
    session.perform(Accept(flagged[1]))
    assert state.word(flagged[2]).status is Status.UNTOUCHED and state.word(flagged[2]).needs_review(state.threshold)
    session.close()


def test_words_between_two_title_fixes_are_raised_for_review_not_changed(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles(
        "hello there.", "our guide on involving users in web projects for better easier accessibility is out."))
    state = session.state
    web, accessibility = find(state, 1, "web"), find(state, 1, "accessibility")
    after_web = find(state, 1, "projects")
    between = [find(state, 1, w) for w in ("better", "easier")]
    others = [find(state, 1, w) for w in ("for", "users", "is", "out")]
    assert not any(state.word(p).needs_review(state.threshold) for p in [after_web, *between, *others])  # sure
    session.perform(SetTag(web, Tag.T, engine.form))
    # one Title fix is no title yet; the word right after it may be part of a name (see the next test)
    assert not any(state.word(p).raised for p in between)
    assert state.word(after_web).raised == "after 'Web', which you capitalised: part of a name?"
    second = SetTag(accessibility, Tag.T, engine.form)
    session.perform(second)
    for p in between:
        w = state.word(p)
        assert w.form == w.proposed and w.status is Status.UNTOUCHED and w.needs_review(state.threshold)
        assert w.raised == "between 'Web' and 'Accessibility', which you capitalised: part of a title?"
        assert [str(r) for r in flag_reasons(state, p)][-1] == w.raised
    assert not any(state.word(p).raised for p in others)  # a small word stays lower in a title; outside: no
    assert state.word(after_web).raised.startswith("after 'Web'")  # raised already: keeps its first reason
    session.revert(second)
    assert not any(state.word(p).raised for p in between)
    assert state.word(after_web).raised.startswith("after 'Web'")


def test_the_word_after_a_title_fix_is_raised_for_review_not_changed(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles("hello there.", "we drank mountain water at the party."))
    state = session.state
    mountain, water = find(state, 1, "mountain"), find(state, 1, "water")
    others = [find(state, 1, w) for w in ("drank", "at", "party")]
    assert not any(state.word(p).needs_review(state.threshold) for p in [water, *others])  # the model is sure
    fix = SetTag(mountain, Tag.T, engine.form)
    session.perform(fix)
    w = state.word(water)
    assert w.form == "water" and w.status is Status.UNTOUCHED and w.needs_review(state.threshold)
    assert w.raised == "after 'Mountain', which you capitalised: part of a name?"
    assert not any(state.word(p).raised for p in others)
    session.revert(fix)
    assert state.word(water).raised is None
    # names and titles capitalise every word in English only ("La Marche turque", German nouns)
    assert make_learner(engine, "en").raise_after_title and make_learner(engine).raise_after_title
    assert not any(make_learner(engine, lang).raise_after_title for lang in ("es", "fr", "de", "pt"))


def test_an_upper_form_carries_over_to_every_occurrence_away_from_sentence_starts(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles("we met the tigers today.", "a friend came.",
                                                       "so the tigers came over.", "later the tigers came over again."))
    state = session.state
    w = state.word(find(state, 2, "tigers"))
    assert w.form == "tigers" and w.probs[0] < SURE_LOWER  # the model writes it lower case, unsure
    session.perform(SetTag(find(state, 0, "tigers"), Tag.U, engine.form))
    # one fix is thin evidence: where the model reads the word as lower case it is only put on the list
    assert w.form == "tigers" and w.needs_review(state.threshold)
    session.perform(SetTag(find(state, 2, "tigers"), Tag.U, engine.form))
    w = state.word(find(state, 3, "tigers"))
    assert w.form == "TIGERS" and w.status is Status.LEARNED


def test_an_ordinary_word_written_upper_is_not_carried_over_where_the_model_is_sure(tmp_path, engine):
    # a sound cue whose brackets are gone (or a shout): its capitals are the cue's style, not the word's
    session = open_session(tmp_path, engine, subtitles("knocking on door", "come on jerry let's go",
                                                       "i live on this floor", "he turned it on again"))
    state = session.state
    others = [find(state, c, "on") for c in (1, 2, 3)]
    assert all(state.word(p).probs[0] >= SURE_LOWER for p in others)  # the model is sure of these
    session.perform(SetTag(find(state, 0, "on"), Tag.U, engine.form))
    assert [state.word(p).form for p in others] == ["on", "on", "on"]
    assert all(state.word(p).status is Status.UNTOUCHED for p in others)


def test_accepting_a_learned_word_makes_it_reviewed(tmp_path, engine):
    session = open_session(tmp_path, engine, FILM)
    state = session.state
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    slams = find(state, 2, "slams")
    assert state.word(slams).status is Status.LEARNED
    action = Accept(slams)
    session.perform(action)
    assert state.word(slams).status is Status.CHANGED  # a human now stands behind "SLAMS"
    session.revert(action)
    assert state.word(slams).status is Status.LEARNED


def test_raised_words_go_back_once_the_editor_writes_the_word_both_ways(tmp_path, engine):
    session = open_session(tmp_path, engine, subtitles("we met the members today.", "so the members came over.",
                                                       "and the members left."))
    state = session.state
    first, second, third = (find(state, c, "members") for c in range(3))
    session.perform(SetTag(first, Tag.T, engine.form))
    assert state.word(second).raised and state.word(third).raised
    action = Accept(third)  # the editor keeps "members" here: the file writes it both ways
    session.perform(action)
    assert state.word(second).raised is None  # back to what its confidence says
    session.revert(action)
    assert state.word(second).raised == "you wrote 'Members' in cue 1"


def test_a_new_learner_rebuilds_what_was_taught_from_the_reviewed_words(tmp_path, engine):
    """After a crash recovery the session goes on learning from the decisions already made."""
    session = open_session(tmp_path, engine, FILM)
    state, doc = session.state, session.doc
    session.perform(SetTag(find(state, 2, "door"), Tag.U, engine.form))
    texts = [c.text for c in doc.cues]
    fresh = make_learner(engine)
    fresh.learn_from_reviewed(doc, state)
    assert fresh.styles == session.learner.styles and fresh.styles
    assert [c.text for c in doc.cues] == texts  # rebuilding changes nothing


def test_a_file_learns_with_the_model_of_its_language(engine):
    """A Spanish file's learner uses the model that cased it: to the English tokenizer every
    Spanish word is rare (split), which would let a Title fix carry to every occurrence."""
    from subcase.review.learning import main_language

    if engine.engine_for("es") is None:
        pytest.skip("no model for Spanish in this model folder")
    assert main_language(["es", "es", "en"]) == "es" and main_language([]) is None
    english, spanish = make_learner(engine), make_learner(engine, "es")
    for word in ("pantalla", "instrucciones", "lector"):
        assert english.is_rare(word) and not spanish.is_rare(word)
    assert make_learner(engine, "en").is_rare("pantalla")  # English files: as before


GLOSSES = """1
00:00:01,000 --> 00:00:03,000
we use redis (which means remote dictionary server)

2
00:00:04,000 --> 00:00:05,000
(music)

3
00:00:06,000 --> 00:00:08,000
it keeps data in memory (which is much faster)
"""


def test_a_style_check_asks_a_cue_of_several_words_before_a_lone_word(tmp_path, scripted):
    """A lone word in brackets is often a name the model barely knows ("(Redis)"), so keeping its capital
    would confirm a style the file does not have: the check goes to a cue of two ordinary words or more.
    A scripted casing: the real model writes "dictionary" lower case (P 0.54) on one int8 kernel and
    Title (0.62) on another, where the fix changes nothing and teaches no style."""
    engine = scripted({"redis": (0.005, 0.95, 0.02, 0.025), "dictionary": (0.54, 0.44, 0.015, 0.005)})
    session = open_session(tmp_path, engine, GLOSSES)
    state = session.state
    assert state.word(find(state, 0, "dictionary")).form == "dictionary"
    session.perform(SetTag(find(state, 0, "dictionary"), Tag.T, engine.form))
    assert session.learner.styles  # Title style learned for the parentheses
    # both later cues are restyled, and the lone word is as ordinary as the others: only its count differs
    assert session.doc.cues[1].text == "(Music)"
    assert session.doc.cues[2].text == "it keeps data in memory (Which Is Much Faster)"
    checks = check_words(state)
    assert len(checks) == 4 and {p[0] for p in checks} == {2}
    assert state.word(find(state, 1, "music")).raised is None
