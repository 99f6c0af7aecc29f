"""Term lists: the three formats, phrase matching, and flag-not-force for terms that are ordinary words.

The application tests use a scripted casing (a real ``DocumentCasing`` written by hand) so that the
rules are pinned where the model's probabilities say what they say, not on a near-tie of the int8 model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing, apply_tag
from subcase.review import ReviewState, Status
from subcase.review.profiles.profile import Profile
from subcase.review.profiles.apply import apply_profile
from subcase.review.terms import TermListError, parse_terms, read_terms, with_terms
from subcase.subtitles import load

# Lines in the form of Subtitle Edit's Dictionaries/en_names.xml (SubtitleEdit/subtitleedit): names
# and multi-word names in their casing, and a <blacklist> of words that are not names.
SE_NAMES = """<?xml version="1.0" encoding="utf-8"?>
<!-- This list contains names/words with specific casing - and specific to English only -->
<names>
  <name>Addis Ababa</name>
  <name>Buenos Aires</name>
  <name>Dr. Grey</name>
  <name>Kuala Lumpur</name>
  <name>Legolas</name>
  <blacklist>
    <name>Grant</name>
  </blacklist>
</names>
"""

# CCExtractor's --capfile (CCExtractor/show_specific_dictionaries): one word per line, written exactly
# as it should appear, lines starting with # are comments.
CAPFILE = "# dict_seinfeld.txt\n# characters\nElaine\nKramer\nNewman\n\n# places\nMonk's\n"


def test_plain_text_one_term_per_line_in_the_form_to_write(tmp_path):
    p = tmp_path / "series terms.txt"
    p.write_text("\ufeffWCAG\niPhone\nMountain Dew\n\n  Kramer  \nwcag\n", encoding="utf-8")
    terms = read_terms(p)
    assert terms.format == "text" and terms.name == "series terms.txt"
    assert terms.terms == ("WCAG", "iPhone", "Mountain Dew", "Kramer")  # the first form of a term wins


def test_ccextractor_capfile_skips_comments():
    terms = parse_terms(CAPFILE, "dict_seinfeld.txt")
    assert terms.format == "capfile"
    assert terms.terms == ("Elaine", "Kramer", "Newman", "Monk's")


def test_subtitle_edit_names_xml_without_its_blacklist():
    terms = parse_terms(SE_NAMES, "en_names.xml")
    assert terms.format == "subtitle-edit"
    assert terms.terms == ("Addis Ababa", "Buenos Aires", "Dr Grey", "Kuala Lumpur", "Legolas")


@pytest.mark.parametrize("raw, message", [
    (b"\xff\xfeK\x00", "not UTF-8"),
    (b"<names><name>Ada</name>", "invalid XML"),
    (b"# only a comment\n\n", "no terms"),
    (b"Ada\x00Lovelace", "binary"),
])
def test_an_unusable_term_list_is_a_clear_error(tmp_path, raw, message):
    p = tmp_path / "list.txt"
    p.write_bytes(raw)
    with pytest.raises(TermListError, match=message) as exc:
        read_terms(p)
    assert "list.txt" in str(exc.value)


def test_a_missing_term_list_names_the_file(tmp_path):
    with pytest.raises(TermListError, match="no such term list"):
        read_terms(tmp_path / "nope.txt")


def test_terms_survive_the_profile_file(tmp_path):
    profile = with_terms(None, [parse_terms(CAPFILE, "dict_seinfeld.txt")], "0.2.0")
    again = Profile.from_bytes(profile.to_bytes())
    e = again.entries["term"]["kramer"]
    assert (e.form, e.source) == ("Kramer", "dict_seinfeld.txt")
    assert again.describe("term:kramer") == "the term list 'dict_seinfeld.txt' writes 'Kramer'"


# -- applying a list, with a scripted casing -----------------------------------------------------

LINES = [
    "we flew to buenos aires in may.",   # 0: a phrase; "may" the month, the model doubts it
    "the buenos days are over.",         # 1: "buenos" alone is no phrase
    "you may call kramer now.",          # 2: "may" the verb, the model is sure; "kramer" unknown to it
    "tell us about the bill.",           # 3: "us", "bill": ordinary words the model is sure of
    "ask us first.",                     # 4: "us" the model doubts
]
SURE_LOWER = (0.99, 0.006, 0.002, 0.002)
PROBS = {
    (0, "may"): (0.6, 0.38, 0.01, 0.01),
    (0, "we"): (0.02, 0.97, 0.005, 0.005),
    (1, "the"): (0.02, 0.97, 0.005, 0.005),
    (2, "you"): (0.02, 0.97, 0.005, 0.005),
    (2, "kramer"): (0.55, 0.44, 0.005, 0.005),
    (3, "tell"): (0.02, 0.97, 0.005, 0.005),
    (4, "ask"): (0.02, 0.97, 0.005, 0.005),
    (4, "us"): (0.7, 0.05, 0.24, 0.01),
}
RARE = {"kramer", "aires"}  # what the model's tokenizer splits: words it barely knows


def open_scripted(tmp_path: Path):
    path = tmp_path / "episode.srt"
    path.write_text("\n".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\n{t}\n" for i, t in enumerate(LINES, 1)),
                    encoding="utf-8")
    doc = load(path)
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            p = PROBS.get((c, tok.text), SURE_LOWER)
            tag = max(zip(p, (Tag.L, Tag.T, Tag.U, Tag.M)))[1]
            out = apply_tag(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, p))
    casing = DocumentCasing(words, "restore", 0.9)
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing, 0.9)


def forms(state: ReviewState, cue: int) -> list[str]:
    return [w.form for w in state.cues[cue]]


def test_a_term_list_writes_its_terms_and_matches_phrases_whole(tmp_path):
    doc, state = open_scripted(tmp_path)
    terms = parse_terms("Buenos Aires\nKramer\n", "names.txt")
    app = apply_profile(doc, state, with_terms(None, [terms], "scripted"), apply_tag, lambda w: w in RARE)
    assert forms(state, 0)[3:5] == ["Buenos", "Aires"]
    assert forms(state, 1)[1] == "buenos"          # one word of a phrase is not the phrase
    kramer = state.word((2, 3))
    assert kramer.form == "Kramer" and kramer.status is Status.PROFILE
    assert app.reason((2, 3)) == "the term list 'names.txt' writes 'Kramer'"
    assert "Buenos Aires" in doc.cues[0].text and "Kramer" in doc.cues[2].text


def test_a_term_that_is_an_ordinary_word_is_raised_where_the_context_does_not_settle_it(tmp_path):
    doc, state = open_scripted(tmp_path)
    terms = parse_terms("May\nUS\nBill\n", "us-terms.txt")
    apply_profile(doc, state, with_terms(None, [terms], "scripted"), apply_tag, lambda w: w in RARE)
    month, verb = state.word((0, 6)), state.word((2, 1))
    # "in may": the model leans to the verb, without being sure: raised, not changed, the list named
    assert month.form == "may" and month.status is Status.UNTOUCHED
    assert month.raised == "'May' is in the term list 'us-terms.txt', and 'may' is also an ordinary word: check"
    # "you may", "tell us", "the bill": the model is sure of the ordinary word; nothing is forced
    assert (verb.form, verb.raised) == ("may", None)
    assert forms(state, 3) == ["Tell", "us", "about", "the", "bill"]
    assert all(w.raised is None and w.status is Status.UNTOUCHED for w in state.cues[3])
    # "ask us first": doubted, raised
    assert state.word((4, 1)).form == "us" and "us-terms.txt" in state.word((4, 1)).raised
    assert "may" in doc.cues[0].text and "May" not in doc.cues[0].text


def test_a_term_never_overrides_a_reviewed_word(tmp_path):
    doc, state = open_scripted(tmp_path)
    state.word((2, 3)).status = Status.ACCEPTED
    apply_profile(doc, state, with_terms(None, [parse_terms("Kramer\n", "n.txt")], "scripted"), apply_tag,
                  lambda w: w in RARE)
    assert state.word((2, 3)).form == "kramer"
