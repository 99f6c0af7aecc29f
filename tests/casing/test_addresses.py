"""Host names in subtitle text stay lower case, by rule; the model still cases the rest."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from subcase.casing import case_texts
from subcase.casing.addresses import host_word_indices
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


def _hosts_by_full_scan(tokens) -> set[int]:
    """host_word_indices without its early exit for cues with no dot between two words: the reference."""
    from subcase.casing.addresses import JOINERS, TLDS
    found, i, n = set(), 0, len(tokens)
    while i < n:
        if not tokens[i].is_word:
            i += 1
            continue
        j = i
        while (j + 2 < n and tokens[j + 1].text in JOINERS and tokens[j + 2].is_word
               and tokens[j].end == tokens[j + 1].start and tokens[j + 1].end == tokens[j + 2].start):
            j += 2
        run = tokens[i:j + 1]
        words = [t for t in run if t.is_word]
        if len(words) >= 2 and any(t.text == "." for t in run) and words[-1].text.lower() in TLDS:
            found.update(k for k in range(i, j + 1) if tokens[k].is_word)
        i = j + 1
    return found


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["w3", "org", "bbc", "co", "uk", "e", "g", "Com", "jo", ".", "@", "-", " ", "/",
                                 "..", ". ", "2", "0"]), max_size=30))
def test_early_exit_finds_what_the_full_scan_finds(parts: list[str]) -> None:
    tokens = tokenize("".join(parts))
    assert host_word_indices(tokens) == _hosts_by_full_scan(tokens)
