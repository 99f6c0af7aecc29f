"""A profile's UPPER house style settles the flagged sound-cue words already written in capitals, as a
style learned in the file does: in the held-out Seinfeld episodes, whose sound cues are UPPER, the last
episode's "[FAX BEEPS]" and the like cost the editor a visit each with the profile and none without it.
Scripted casing: the probabilities say the model doubts them."""

from __future__ import annotations

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing, apply_tag
from subcase.review import ReviewState, Status
from subcase.review.profiles.profile import Profile
from subcase.review.profiles.apply import apply_profile
from subcase.subtitles import load

LINES = ["[FAX BEEPS]", "ELAINE: what is that?", "[PHONE RINGS]"]
DOUBTED_UPPER = (0.3, 0.1, 0.55, 0.05)


def opened(tmp_path):
    path = tmp_path / "ep.srt"
    path.write_text("\n".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\n{t}\n" for i, t in enumerate(LINES, 1)),
                    encoding="utf-8")
    doc = load(path)
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            p = DOUBTED_UPPER if c != 1 else (0.99, 0.005, 0.003, 0.002)
            tag = max(zip(p, (Tag.L, Tag.T, Tag.U, Tag.M)))[1]
            out = apply_tag(tok.text.lower(), tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, p))
    casing = DocumentCasing(words, "restore", 0.9)
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing, 0.9)


def test_an_upper_profile_style_settles_flagged_cue_words_written_so(tmp_path):
    doc, state = opened(tmp_path)
    cue_words = [w for c in (0, 2) for w in state.cues[c]]
    assert all(w.needs_review(state.threshold) for w in cue_words)
    app = apply_profile(doc, state, Profile("s", "scripted", styles={"sound-cues": "upper"}), apply_tag)
    assert [w.form for w in cue_words] == ["FAX", "BEEPS", "PHONE", "RINGS"]
    assert all(w.status is Status.PROFILE and not w.needs_review(state.threshold) for w in cue_words)
    assert app.reason((0, 0)) == "your profile writes sound cues in upper case"


def test_a_style_of_another_category_settles_no_sound_cue(tmp_path):
    doc, state = opened(tmp_path)
    apply_profile(doc, state, Profile("s", "scripted", styles={"speaker-labels": "upper"}), apply_tag)
    assert all(w.needs_review(state.threshold) for c in (0, 2) for w in state.cues[c])


def test_a_lower_case_confirm_does_not_settle_a_word_beside_a_name(tmp_path):
    from subcase.review.profiles.profile import Entry
    from subcase.casing import DocumentCasing, WordCasing
    # lines in the form of the W3C symposium talks (w3c/wai-website, wai-videos/symposium2/do_no_harm.vtt)
    lines = ["and our we count project.", "then we went home."]
    path = tmp_path / "talk.srt"
    path.write_text("\n".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\n{t}\n" for i, t in enumerate(lines, 1)),
                    encoding="utf-8")
    doc = load(path)
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            p = {"we": (0.7, 0.28, 0.01, 0.01), "count": (0.02, 0.97, 0.005, 0.005)}.get(tok.text, (0.99, 0.006, 0.002, 0.002))
            if (c, k) == (1, 0):
                p = (0.02, 0.97, 0.005, 0.005)
            tag = max(zip(p, (Tag.L, Tag.T, Tag.U, Tag.M)))[1]
            out = apply_tag(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, p))
    casing = DocumentCasing(words, "restore", 0.9)
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing, 0.9)
    profile = Profile("talks", "scripted")
    profile.entries["confirm"]["we"] = Entry("we", decisions=40, changes=0, files=4)
    apply_profile(doc, state, profile, apply_tag)
    beside_name, plain = state.word((0, 2)), state.word((1, 1))
    assert (beside_name.form, beside_name.status) == ("we", Status.UNTOUCHED) and beside_name.needs_review(0.9)
    assert (plain.form, plain.status) == ("we", Status.PROFILE)  # confirmed: off the list
