"""A text edit reads again only what it changed (review/structure.py, issue #56 item 5): the structure a
``DocumentStructure`` keeps up to date cue by cue is the one the whole document gives, after every edit and
undo, for sentence starts carried across cues, labels counted over the file, sounds, quotations, silences,
line starts and the word index; and cues after the edit are not read again."""

from __future__ import annotations

import random

import pytest

from subcase.casing import DocumentCasing, Tag, WordCasing, apply_casing, apply_tag
from subcase.casing.housestyle import categories_of
from subcase.casing.pauses import for_unpunctuated, opening_words, pauses_of
from subcase.review import EditText, ReviewState
from subcase.review.positions import has_sentence_punctuation, line_starts, sentence_initial
from subcase.review.structure import DocumentStructure, Structure, quoted_spans
from subcase.subtitles import loads

TEXTS = ["we went home", "we went home.", "JOHN: we went home", ">> MARY: so what", "[door opens] hello",
         'he said "come in" and left', "the end. and then\nanother line", "no. no. no", "what?\nwhy not",
         "mary: it is late", "", "so the station", "\u201cquoted words\u201d here", "and... then"]


def file(n: int, punctuated: bool) -> str:
    out = []
    for i in range(n):
        text = TEXTS[i % len(TEXTS)]
        text = text if punctuated else text.replace(".", "").replace("?", "")
        gap = 3000 if i % 4 == 0 else 100  # some pauses before cues, for the silences of an unpunctuated file
        start = i * 3000 + gap
        out.append(f"{i + 1}\n{ms(start)} --> {ms(start + 2000)}\n{text or '-'}\n")
    return "\n".join(out)


def ms(t: int) -> str:
    return f"00:{t // 60000:02d}:{t // 1000 % 60:02d},{t % 1000:03d}"


def opened(srt: str) -> tuple:
    doc = loads(srt.encode("utf-8"), "talk.srt")
    words = []
    for c, cue in enumerate(doc.cues):
        for k, tok in enumerate(cue.words()):
            tag = Tag.U if tok.text.isupper() else Tag.T if tok.text.lower() in ("john", "mary") else Tag.L
            out = apply_tag(tok.text, tag)
            words.append(WordCasing(c, k, tok.start, tok.end, tok.text, out, out, tag, (0.7, 0.1, 0.1, 0.1)))
    casing = DocumentCasing(words, "restore", 0.9)
    apply_casing(doc, casing)
    return doc, ReviewState.from_casing(len(doc.cues), casing)


def whole(doc, state) -> Structure:
    """The structure as the module functions give it for the whole document (what it was computed as)."""
    cues = doc.cues
    tokens = [cue.tokens() for cue in cues]
    pauses = for_unpunctuated(tokens, pauses_of(cues))
    silences = {c: (cues[c].start_ms - cues[c - 1].end_ms) / 1000 for c, _ in opening_words(tokens, pauses)}
    index: dict = {}
    for pos in state.positions():
        index.setdefault(state.word(pos).form.lower(), []).append(pos)
    return Structure(sentence_initial(doc, state), frozenset(line_starts(doc, state)), has_sentence_punctuation(doc),
                     categories_of(doc, state.cues), silences, {k: tuple(v) for k, v in index.items()},
                     quoted_spans(doc, state))


def test_the_structure_kept_cue_by_cue_is_the_whole_documents():
    rng = random.Random(56)
    for punctuated in (True, False):
        doc, state = opened(file(40, punctuated))
        owner = DocumentStructure()
        assert owner.of(doc, state) == whole(doc, state)
        done = []
        for _ in range(60):
            if done and rng.random() < 0.25:
                done.pop().undo(doc, state)
            else:
                text = rng.choice(TEXTS) or "so"
                edit = EditText(rng.randrange(len(doc.cues)), text if punctuated else text.replace(".", ""))
                edit.do(doc, state)
                done.append(edit)
            assert owner.of(doc, state) == whole(doc, state)


def test_an_edit_reads_again_the_cue_and_only_the_cues_whose_sentence_start_it_moves():
    doc, state = opened(file(200, True))
    owner = DocumentStructure()
    first = owner.of(doc, state)
    tables = first.initial, first.line_starts, first.index
    assert first.initial[(142, 0)] is True
    EditText(141, "we went home").do(doc, state)  # was "we went home.": cue 142 now opens mid-sentence
    second = owner.of(doc, state)
    assert second is not first and second == whole(doc, state)
    assert owner.reread == {141}  # the sentence carried on into cue 142 is read there, not the cue again
    assert second.initial[(142, 0)] is False
    # the whole-file tables are patched in place, not copied (a copy was most of a cue edit at 150,000 words)
    assert (second.initial, second.line_starts, second.index) == tables
    assert all(a is b for a, b in zip((second.initial, second.line_starts, second.index), tables))


# -- decisions on a real film: marks move sentence starts into the next cue --------------------------------------
SINTEL = "meyer1994__srt__sintel_en.srt"


@pytest.fixture(scope="module")
def film(engine, dev_subtitles):
    from subcase.evaluation.simulate import SimulateOptions, prepare

    path = next((p for p in dev_subtitles if p.name == SINTEL), None)
    if path is None:
        pytest.skip(f"shared dev subtitle missing: {SINTEL}")
    return prepare(path, engine, SimulateOptions(strip_punct=True))


def opened_film(film, engine):
    from subcase.casing import CasedFile
    from subcase.casing.pipeline import write_marks
    from subcase.review import OpenOptions, open_review

    doc = film.source.copy()
    casing = write_marks(doc, film.casing)
    return open_review(CasedFile(doc, casing, apply_casing(doc, casing)), engine,
                       OpenOptions(mode=film.casing.mode, punctuate=film.punctuate))


def test_a_structure_updated_decision_by_decision_is_the_one_read_whole(film, engine):
    """On a real film cased by the real model with its marks restored, after each of many decisions on marks,
    on words and on cue texts, and after their undo, the structure kept up to date is the one read whole."""
    from subcase.casing.marks import MARKS
    from subcase.review import Accept, SetMark, SetTag

    session = opened_film(film, engine)
    doc, state = session.doc, session.state
    owner = DocumentStructure()
    assert owner.of(doc, state) == Structure.compute(doc, state)
    assert owner.of(doc, state).punctuated  # the restored marks: the update applies (else it reads whole)
    positions = list(state.positions())
    done, partial = [], 0
    for k, pos in enumerate(positions[::2]):
        if k % 7 == 3:
            c = pos[0]
            action = EditText(c, doc.cues[c].text + " and so")
        elif k % 7 == 5:
            action = SetTag(pos, state.word(pos).model_tag or state.word(pos).tag, engine.form)
        elif not SetMark.applies(doc, state, pos):
            action = Accept(pos)
        else:
            now = SetMark.mark_at(doc, state, pos)
            action = SetMark(pos, MARKS[(MARKS.index(now) + 2 + k) % len(MARKS)], engine.form)
        session.perform(action)
        done.append(action)
        assert owner.of(doc, state) == Structure.compute(doc, state), (k, pos, type(action).__name__)
        partial += owner.reread is not None
    # the test is worth something only if the partial update ran (not a whole reading each time)
    assert sum(isinstance(a, SetMark) for a in done) > 30 and partial > 30
    for action in reversed(done[-40:]):
        session.revert(action)
        assert owner.of(doc, state) == Structure.compute(doc, state)
    session.close()
