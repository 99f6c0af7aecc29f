"""Rolling captions: a line repeated from the cue before is read once and cased as it first was."""

from __future__ import annotations

from pathlib import Path

from subcase.casing import Mode, case_file
from subcase.casing.rolling import find_rolled, with_rolled, without_rolled
from subcase.casing.stream import DocumentCasing, WordCasing
from subcase.casing.tags import Tag
from subcase.subtitles.words import tokenize

# Written in the layout of YouTube's automatic captions (not a real file: see test_real_captions.py)
ROLLING = (Path(__file__).resolve().parents[1] / "fixtures" / "captions" / "youtube_layout_rolling.vtt").read_text(
    encoding="utf-8")


def test_find_rolled_matches_top_lines_against_bottom_lines():
    texts = ["a b\nc d", "C d\ne f", "e f", "x y\ne f"]
    cues = [tokenize(t) for t in texts]
    rolled = find_rolled(texts, cues)
    assert rolled[0] is None
    assert rolled[1] is not None and rolled[1].tokens == 2 and rolled[1].words == 2
    assert rolled[2] is not None and rolled[2].tokens == 2          # the whole cue repeats
    assert rolled[3] is None                                        # a repeat lower down is not a roll
    assert [[t.text for t in c] for c in without_rolled(cues, rolled)] == [
        ["a", "b", "c", "d"], ["e", "f"], [], ["x", "y", "e", "f"]]


def test_with_rolled_copies_the_first_appearance():
    texts = ["hello there", "hello there\nfriend"]
    cues = [tokenize(t) for t in texts]
    rolled = find_rolled(texts, cues)
    read = without_rolled(cues, rolled)
    # a scripted casing of what the model reads: "Hello There" then "friend" (word 0 of what it read)
    words = [WordCasing(0, 0, 0, 5, "hello", "Hello", "Hello", Tag.T, (0.1, 0.9, 0.0, 0.0)),
             WordCasing(0, 1, 6, 11, "there", "There", "There", Tag.T, (0.4, 0.6, 0.0, 0.0)),
             WordCasing(1, 0, read[1][0].start, read[1][0].end, "friend", "friend", "friend", Tag.L,
                        (1.0, 0.0, 0.0, 0.0))]
    out = with_rolled(DocumentCasing(words, Mode.RESTORE, 0.9), cues, rolled)
    second = out.by_cue[1]
    assert [(w.word_index, w.output, w.probs) for w in second] == [
        (0, "Hello", (0.1, 0.9, 0.0, 0.0)), (1, "There", (0.4, 0.6, 0.0, 0.0)), (2, "friend", (1.0, 0.0, 0.0, 0.0))]
    assert out.cue_texts(texts) == ["Hello There", "Hello There\nfriend"]


def _lines(text: str) -> list[list[str]]:
    from subcase.subtitles import markup
    blocks = text.strip().split("\n\n")[1:]
    return [[markup.plain(line) for line in b.splitlines()[1:] if line.strip()] for b in blocks]


def test_repeated_lines_cased_identically(engine, tmp_path):
    src = tmp_path / "roll.vtt"
    src.write_text(ROLLING, encoding="utf-8")
    cased = case_file(engine, src, punctuate="never")
    out = cased.doc.render()
    assert out.lower() == ROLLING.lower() and len(out) == len(ROLLING)
    cues = _lines(out)
    repeats = 0
    for prev, cue in zip(cues, cues[1:]):
        if cue and prev and cue[0].lower() == prev[-1].lower():
            assert cue[0] == prev[-1]
            repeats += 1
    assert repeats == 4


class _Reading:
    """The real engine, remembering the stream it was given."""

    def __init__(self, engine):
        self.engine, self.streams = engine, []
        self.info, self.form = engine.info, engine.form

    def predict(self, stream, **kw):
        self.streams.append([t.text for t in stream])
        return self.engine.predict(stream, **kw)


def test_a_rolled_cue_goes_on_without_a_cue_boundary(engine):
    from subcase.casing.encoder import BOUNDARY
    from subcase.casing.hints import CueHints
    from subcase.casing.stream import case_token_lists
    texts = ["we went down to", "we went down to\nthe river"]
    cues = [tokenize(t) for t in texts]
    rolled = find_rolled(texts, cues)
    reading = _Reading(engine)
    casing = case_token_lists(reading, without_rolled(cues, rolled), Mode.RESTORE,
                              CueHints(rolled=[r is not None for r in rolled]))
    assert reading.streams == [[BOUNDARY, "we", "went", "down", "to", "the", "river"]]
    assert [w.input for w in casing.words] == ["we", "went", "down", "to", "the", "river"]
