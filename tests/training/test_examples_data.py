"""The training data builders (no torch needed): what the synthetic lines and the prose filter produce."""

from __future__ import annotations

import random

from subcase.casing.addresses import host_word_indices
from subcase.casing.tags import Tag, tag_of
from subcase.subtitles.words import tokenize
from subcase.training import corpora, synthetic
from subcase.training.corpora import Doc

VOCAB = ["open", "data", "river", "music", "garden", "light"]


def test_web_addresses_have_lower_case_hosts_that_the_run_time_rule_finds():
    rng = random.Random(3)
    for _ in range(200):
        url = synthetic.web_address(rng, VOCAB, ["WAI", "FBI"])
        host = url.split("/")[0]
        assert host == host.lower()
        tokens = tokenize(f"visit {url} now")
        found = {tokens[i].text for i in host_word_indices(tokens)}
        assert found == {t.text for t in tokenize(host) if t.is_word}


def test_organisation_names_are_title_case_and_generic_uses_are_not():
    rng = random.Random(4)
    for _ in range(100):
        name = synthetic.organisation_name(rng, VOCAB)
        assert all(tag_of(w) is Tag.T for w in name.split())
    generic = [synthetic._name_line(rng, VOCAB) for _ in range(300)]
    assert any(line.split()[0] in ("Our", "These", "Some", "A", "Any", "We", "The", "His") and
               all(tag_of(w.strip(".,")) is Tag.L for w in line.split()[1:]) for line in generic)


def test_headings_with_a_colon_keep_sentence_case():
    rng = random.Random(0)
    doc = Doc("x", ["web accessibility matters", "keyboard users need focus."] * 100)
    out = synthetic.decorate(doc, rng, ["John", "Mary"])
    headings = [c for c in out.cues if ":" in c and not c.split(":")[0].isupper()]
    assert headings, "no heading was made"
    for cue in headings:
        head = cue.split(":")[0]
        assert head[0].isupper() and head[1:] == head[1:].lower()


def test_prose_filter_keeps_sentences_and_drops_code():
    page = """<p>The <em>Debian Project</em> is run by its developers, who elect a Project Leader every year.</p>
    <p>Run <code>x = foo(bar)</code> to see the value of the variable in the interpreter.</p>
    <p>Too short.</p>
    <p>THIS PARAGRAPH SHOUTS IN CAPITALS FROM THE START RIGHT TO ITS VERY END.</p>"""
    assert corpora.prose_paragraphs(page) == [
        "The Debian Project is run by its developers, who elect a Project Leader every year."]


def test_mined_expansions_keep_their_casing_and_need_matching_initials():
    from subcase.training import expansions

    doc = Doc("wiki", ["In 1948 the United Nations founded the World Health Organization (WHO) in Geneva.",
                       "Doctors use magnetic resonance imaging (MRI) to see soft tissue.",
                       "He bought a big red dog (FBI) last week.",
                       "The Union of European Football Associations (UEFA) runs the cup."])
    assert expansions.mine_pairs([doc]) == [("World Health Organization", "WHO"),
                                            ("magnetic resonance imaging", "MRI"),
                                            ("Union of European Football Associations", "UEFA")]


def test_invented_expansions_are_title_case_names_whose_initials_spell_the_acronym():
    from subcase.training import expansions

    rng = random.Random(5)
    for _ in range(200):
        name, acronym = expansions.invented_pair(rng, VOCAB)
        counted = [w for w in name.split() if w not in expansions.SKIPPED]
        assert all(tag_of(w) is Tag.T for w in counted), name
        assert acronym == "".join(w[0] for w in counted)


def test_acronym_lines_go_between_sentences_and_keep_the_prose_in_order():
    from subcase.training import expansions

    prose = [Doc("wiki", ["The river rises in the hills", "and runs to the sea.", "Boats carry grain.",
                          "Fish are caught", "in the spring."])]
    rng = random.Random(6)
    for doc in expansions.expansion_docs(rng, [("World Health Organization", "WHO")], prose, VOCAB, 100):
        kept = [c for c in doc.cues if c in prose[0].cues]
        assert kept == [c for c in prose[0].cues if c in kept]
        for i, cue in enumerate(doc.cues):
            if cue not in prose[0].cues:
                assert i == 0 or doc.cues[i - 1].endswith((".", "!", "?")), doc.cues
