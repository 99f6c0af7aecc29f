"""Words broken by inline tags (YouTube's word timestamps) are cased as one word."""

from __future__ import annotations

from subcase.casing import Mode
from subcase.casing.joined import join_words, split_words
from subcase.casing.stream import DocumentCasing, WordCasing
from subcase.casing.tags import Tag
from subcase.cli import main
from subcase.subtitles import load

REPRO = ("WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n"
         "no ro<00:00:02.700><c>ll</c><00:00:02.800><c> c</c><00:00:02.900><c>al</c><00:00:03.000><c>l</c>\n")


def _cue(tmp_path, text=REPRO):
    path = tmp_path / "y.vtt"
    path.write_text(text, encoding="utf-8")
    return load(path).cues[0]


def test_join_words_makes_one_token_per_broken_word(tmp_path):
    cue = _cue(tmp_path)
    joined, joins = join_words(cue.text, cue.tokens())
    assert [t.text for t in joined if t.is_word] == ["no", "roll", "call"]
    assert joins is not None
    # "roll" covers its pieces and the tags between them; "call" starts after the space inside <c>
    roll = [t for t in joined if t.text == "roll"][0]
    assert cue.text[roll.start:roll.end] == "ro<00:00:02.700><c>ll"
    assert joins.word_index == [0, 1, 3]


def test_space_entity_or_break_between_pieces_keeps_them_apart():
    from subcase.subtitles.words import tokenize
    for text in ("ro<c> ll</c>", "AT&amp;T", "ro\\Nll"):
        from subcase.subtitles import markup
        tokens = [t for s in markup.split(text) if not s.is_markup for t in tokenize(s.text, s.start)]
        assert join_words(text, tokens)[1] is None, text


def test_split_words_gives_each_piece_the_word_letters(tmp_path):
    # a scripted casing of the joined word (no model): a mixed form is cut at the pieces' places
    text = "mc<c>do</c><00:00:01.000>nald's"
    from subcase.subtitles import markup
    from subcase.subtitles.words import tokenize
    tokens = [t for s in markup.split(text) if not s.is_markup for t in tokenize(s.text, s.start)]
    joined, joins = join_words(text, tokens)
    [word] = [t for t in joined if t.is_word]
    casing = DocumentCasing([WordCasing(0, 0, word.start, word.end, word.text, "McDonald's", "McDonald's",
                                        Tag.M, (0.0, 0.0, 0.0, 1.0))], Mode.RESTORE, 0.9)
    pieces = split_words(casing, [joins]).words
    assert [(w.input, w.output, w.word_index) for w in pieces] == [
        ("mc", "Mc", 0), ("do", "Do", 1), ("nald's", "nald's", 2)]
    assert [text[w.start:w.end] for w in pieces] == ["mc", "do", "nald's"]


def test_convert_cases_broken_words_whole_and_keeps_tags(engine, tmp_path):
    src = tmp_path / "y.vtt"
    src.write_text(REPRO, encoding="utf-8")
    # the casing alone: the caption has no punctuation, which the default would restore
    assert main(["convert", str(src), "-o", str(tmp_path / "o"), "-q", "--punctuate", "never"]) == 0
    out = (tmp_path / "o" / "y.vtt").read_text(encoding="utf-8")
    assert out.lower() == REPRO.lower() and len(out) == len(REPRO)  # only letter case changed
    line = out.splitlines()[3]
    # no capital inside a word: the pieces after a word's first take lower case
    assert "ro<00:00:02.700><c>ll</c><00:00:02.800><c> c</c><00:00:02.900><c>al</c><00:00:03.000><c>l</c>" \
        in line.replace("Ro<", "ro<").replace("> C<", "> c<")
    assert line.split("<")[0].lower() == "no ro"


def test_the_review_takes_a_broken_word_as_one(engine, tmp_path):
    from subcase.review import ReviewSession, ReviewState, SetTag
    from subcase.casing import apply_casing, case_document

    src = tmp_path / "y.vtt"
    src.write_text(REPRO, encoding="utf-8")
    doc = load(src)
    casing = case_document(engine, doc, punctuate="never")
    apply_casing(doc, casing)
    state = ReviewState.from_casing(len(doc.cues), casing, threshold=1.0)  # every word the model doubts at all
    words = state.cues[0]
    assert [w.input for w in words] == ["no", "ro", "ll", "c", "al", "l"]
    roll, call = ((0, 1), (0, 2)), ((0, 3), (0, 4), (0, 5))
    assert state.pieces[(0, 2)] == roll and state.pieces[(0, 3)] == call
    # only a word's first piece is on the review list
    assert not any(state.word(p).needs_review(1.0) for p in (roll[1:] + call[1:]))
    session = ReviewSession(doc, state, src, model_version="test", model_sha256="", log=None)
    session.perform(SetTag((0, 3), Tag.U, engine.form))
    assert [state.word(p).form for p in call] == ["C", "AL", "L"]
    line = doc.cues[0].text
    assert "<c> C</c><00:00:02.900><c>AL</c><00:00:03.000><c>L</c>" in line  # tags byte for byte
    lower = SetTag((0, 4), Tag.L, engine.form)  # from any piece: the whole word
    session.perform(lower)
    assert [state.word(p).form for p in call] == ["c", "al", "l"]
    session.revert(lower)  # undo puts every piece back
    assert [state.word(p).form for p in call] == ["C", "AL", "L"]
    assert "<c> C</c><00:00:02.900><c>AL</c>" in doc.cues[0].text
