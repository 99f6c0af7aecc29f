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
