"""Host names in subtitle text stay lower case, by rule; the model still cases the rest."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from subcase.casing import case_texts
from subcase.casing.addresses import host_word_indices, scan_hosts
from subcase.subtitles.words import tokenize


def host_words(text: str) -> list[str]:
    tokens = tokenize(text)
    return [tokens[i].text for i in sorted(host_word_indices(tokens))]


def test_host_names_and_mail_addresses_are_found():
    assert host_words("visit w3.org/WAI/evaluation") == ["w3", "org"]
    assert host_words("see www.bbc.co.uk.") == ["www", "bbc", "co", "uk"]
    assert host_words("write to jo-ann@my-site.org now") == ["jo", "ann", "my", "site", "org"]


def test_dotted_words_that_are_not_hosts():
    assert host_words("e.g. the U.S. army") == []
    assert host_words("the end. org charts") == []     # a space after the dot: a new sentence
    assert host_words("wait...what") == []
    assert host_words("version 2.0 is out") == []


def test_engine_keeps_host_names_lower_case_and_confident(engine):
    texts = ["for more information, visit w3.org/wai/evaluation.", "or mail us at team@example.com"]
    casing = case_texts(engine, texts)
    out = casing.cue_texts(texts)
    assert "w3.org/" in out[0] and "example.com" in out[1] and "team@" in out[1]
    assert out[0].startswith("For more information")
    hosts = [w for w in casing.words if w.input in ("w3", "org", "team", "example", "com")]
    assert len(hosts) == 5 and all(w.tag.value == "L" and w.confidence == 1.0 for w in hosts)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["w3", "org", "bbc", "co", "uk", "e", "g", "Com", "jo", ".", "@", "-", " ", "/",
                                 "..", ". ", "2", "0"]), max_size=30))
def test_early_exit_finds_what_the_full_scan_finds(parts: list[str]) -> None:
    tokens = tokenize("".join(parts))
    assert host_word_indices(tokens) == scan_hosts(tokens)
