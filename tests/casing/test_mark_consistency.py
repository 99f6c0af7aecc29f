"""Restored marks and casing agree (issue #55 item 4): a restored sentence end is followed by a capital, no
mark goes inside a sound cue or a speaker label, and a file's restored last cue ends a sentence.  On the real
model; the rules hold whatever the model reads, so no test rests on a near-tie."""

from __future__ import annotations

import pytest

from subcase.casing.marks import SENTENCE_ENDS
from subcase.casing.pipeline import case_document
from subcase.casing.restoring import Punctuate, quiet_words
from subcase.subtitles import loads
from subcase.subtitles.words import tokenize

pytestmark = pytest.mark.model

# Text of our own, lower case and unpunctuated as speech recognition gives it.
SRT = "".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\n{text}\n\n" for i, text in enumerate([
    "so we went down to the harbour",
    "[jaunty piano tune playing softly]",
    "and the boats were all gone",
    "john smith: i never saw them leave",
    "- mary: well they left early today",
    "what do you think happened to them",
    "i guess we will never really know",
], start=1))


def _words_after_marks(doc, casing):
    """(mark, the next word's output) for every restored mark, in text order."""
    outputs = [w for w in casing.words]
    by_pos = {(w.cue_index, w.word_index): w for w in outputs}
    order = sorted(by_pos)
    out = []
    for m in casing.marks:
        at = order.index((m.cue_index, m.word_index)) if (m.cue_index, m.word_index) in by_pos else None
        nxt = by_pos[order[at + 1]] if at is not None and at + 1 < len(order) else None
        out.append((m, nxt))
    return out


def test_quiet_words_are_those_in_brackets_and_speaker_labels():
    def quiet(text):
        toks = tokenize(text)
        return sorted(toks[k].text for k in quiet_words(toks))
    assert quiet("[jaunty piano tune] and then") == ["jaunty", "piano", "tune"]
    assert quiet("john smith: i never saw") == ["john", "smith"]
    assert quiet("- mary: well (laughs) yes") == ["laughs", "mary"]
    assert quiet(">> host: welcome back") == ["host"]
    assert quiet("we said this: no more") == []  # three words before the colon: speech, not a label


# auto mode restores only passages with no punctuation at all: brackets and labels are left out there
PLAIN = "".join(f"{i}\n00:00:0{i},000 --> 00:00:0{i},900\n{text}\n\n" for i, text in enumerate([
    "so we went down to the harbour", "and the boats were all gone", "what do you think happened to them",
    "i guess we will never really know"], start=1))


@pytest.mark.parametrize("punctuate, text", [(Punctuate.ALWAYS, SRT), (Punctuate.AUTO, PLAIN)])
def test_restored_marks_and_casing_agree(engine, punctuate, text):
    doc = loads(text.encode(), "ours.srt")
    casing = case_document(engine, doc, "restore", punctuate=punctuate)
    assert casing.marks, "the unpunctuated file gets marks back"
    cue_texts = [c.text for c in doc.cues]
    for mark, nxt in _words_after_marks(doc, casing):
        words = tokenize(cue_texts[mark.cue_index])
        word_tokens = [k for k, t in enumerate(words) if t.is_word]
        k = word_tokens[mark.word_index]
        assert k not in quiet_words(words), f"a mark inside a sound cue or label: {cue_texts[mark.cue_index]!r}"
        if mark.prediction.mark in SENTENCE_ENDS and nxt is not None and nxt.output[:1].isalpha():
            assert nxt.output[:1].isupper(), f"{mark.prediction.mark!r} then {nxt.output!r}"
    last_cue = len(doc.cues) - 1
    last_word = max(w.word_index for w in casing.words if w.cue_index == last_cue)
    ends = [m for m in casing.marks if (m.cue_index, m.word_index) == (last_cue, last_word)]
    assert ends and ends[0].prediction.mark in SENTENCE_ENDS, "the file's last cue ends a sentence"


# Text of our own where the tagger reads sentence starts the head marks with a comma ("Okay, So,", "Hello,
# Everyone,", "matters, So let's" before the joint choice).  Each of those words is also said mid-sentence,
# where the tagger writes it in lower case, so its capital there is positional by the file's own evidence.
POSITIONAL = "".join(f"{i}\n00:00:{i:02d},000 --> 00:00:{i:02d},900\n{text}\n\n" for i, text in enumerate([
    "okay so what do we do now",
    "hello everyone welcome back to the show today we have a guest",
    "and that's why it matters so let's look at the data",
    "we told everyone that we were tired and so we went home",
], start=1))


def test_no_capital_after_a_restored_comma_unless_the_word_has_one_anyway(engine):
    doc = loads(POSITIONAL.encode(), "ours.srt")
    casing = case_document(engine, doc, "restore", punctuate=Punctuate.AUTO)
    texts = casing.cue_texts([c.text for c in doc.cues])
    for mark, nxt in _words_after_marks(doc, casing):
        if mark.prediction.mark == "," and nxt is not None and nxt.input.lower() in ("so", "everyone", "we"):
            assert nxt.output.islower(), f"a positional capital after a restored comma: {texts}"
    # the words the tagger capitalises everywhere keep their capital
    assert all(w.output == "I" for w in casing.words if w.input == "i")
