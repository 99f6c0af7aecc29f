"""review.open_review: the one way a file becomes a review session, with the real model."""

from __future__ import annotations

from pathlib import Path

from subcase.casing import case_file
from subcase.review import Status
from subcase.review.autosave import fingerprint
from subcase.review.opening import OpenOptions, open_review, profile_adapter
from subcase.review.profiles.build import build_from_logs

from .test_profile import EPISODES, logs, positions  # noqa: F401 (logs is a fixture)


def episode(tmp_path: Path, k: int) -> Path:
    src = tmp_path / f"next{k}.srt"
    src.write_text(EPISODES[k], encoding="utf-8")
    return src


def test_an_opened_file_has_its_origin_learner_flags_and_profile(tmp_path, engine, logs):  # noqa: F811
    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = episode(tmp_path, 2)
    plain = open_review(src, engine, OpenOptions(punctuate="never"))
    session = open_review(src, engine, OpenOptions(profile=profile, punctuate="never"))
    places = positions(session.state, "proog")
    assert places and all(session.state.word(p).status is Status.PROFILE for p in places)
    assert plain.profile is None and session.profile is not None and set(session.profile.by_pos) == set(places)
    # the origin's fingerprint is the casing's, taken before the profile: a restore cases the file again
    assert session.origin.path == src.resolve() and session.origin.fingerprint == plain.origin.fingerprint
    assert plain.origin.fingerprint == fingerprint(plain.state)
    assert session.changed_cues == {c for c, _ in places}
    assert session.learner is not None and session.state.flag_context.learner is session.learner
    assert session.state.flag_context.structure is session.structure
    assert open_review(src, engine, OpenOptions(learning=False, punctuate="never")).learner is None


def test_batch_conversion_writes_the_document_the_editor_opens(tmp_path, engine, logs):  # noqa: F811
    profile = build_from_logs("Proog show", engine.info.version, logs)
    src = episode(tmp_path, 2)
    cased = case_file(engine, src, punctuate="never")
    changed = profile_adapter(profile, engine)(cased.doc, cased.casing)
    opened = open_review(src, engine, OpenOptions(profile=profile, punctuate="never"))
    assert changed == len(opened.profile.by_pos) > 0
    assert cased.doc.to_bytes() == opened.doc.to_bytes()


def test_batch_conversion_with_a_house_style_and_a_profile_writes_what_the_editor_opens(tmp_path, engine):
    """``convert --sound-cues upper --profile P`` where P writes sound cues in lower case: the editor
    gets P's lower case (the profile comes after the chosen style), and so does the converted file.
    The batch used to apply the profile to the words as the model cased them, not as the style left
    them, so a profile form equal to the model's was never written over the style's."""
    from subcase.casing.housestyle import Category, Style, apply_styles, words_of
    from subcase.review.profiles.profile import Profile

    src = tmp_path / "film.srt"
    src.write_text("1\n00:00:01,000 --> 00:00:02,000\n[door slams]\nwho is there?\n\n"
                   "2\n00:00:03,000 --> 00:00:04,000\n[dog barking]\nit is only me.\n", encoding="utf-8")
    styles = {Category.SOUND: Style.UPPER}
    profile = Profile("Film", engine.info.version, styles={"sound-cues": "lower"})
    cased = case_file(engine, src, punctuate="never")
    apply_styles(cased.doc, words_of(cased.casing, len(cased.doc.cues)), styles, engine)
    profile_adapter(profile, engine)(cased.doc, cased.casing)
    opened = open_review(src, engine, OpenOptions(styles=styles, profile=profile, punctuate="never"))
    assert "[door slams]" in opened.doc.cues[0].text and "[dog barking]" in opened.doc.cues[1].text
    assert cased.doc.to_bytes() == opened.doc.to_bytes()
