"""The corpus builder's parsers (training/corpus/formats.py), its 8-gram de-duplication and its refusal
of a held-out repository, on small fixtures written here (the real sources are not committed)."""

from __future__ import annotations

import subprocess
import pytest

from subcase.training.corpus import build, formats, heldout, ngrams, testset
from subcase.training.corpus.mirror import Mirror

ASS = r"""[Script Info]
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Main-207+,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:05.00,0:00:07.00,Main-207+,,0,0,0,,Where are you going,\Nsir?
Dialogue: 1,0:00:05.00,0:00:07.00,Main-207+,,0,0,0,,Where are you going,\Nsir?
Dialogue: 0,0:00:01.00,0:00:03.00,Default - Italics,,0,0,0,,{\i1}I have to leave.{\i0}
Dialogue: 0,0:00:01.00,0:00:09.00,Sign - Shop,,0,0,0,,{\pos(200,40)}BAKERY OPEN
Dialogue: 0,0:00:02.00,0:00:04.00,OP Romaji,,0,0,0,,{\k20}a{\k30}ka{\k25}i
Dialogue: 0,0:00:08.00,0:00:10.00,Captions,,0,0,0,,Marine Base Town
Dialogue: 0,0:00:08.00,0:00:10.00,Flashbacks,,0,0,0,,{\p1}m 0 0 l 10 10{\p0}
Dialogue: 0,0:00:11.00,0:00:12.00,Thoughts,,0,0,0,,What now?
Dialogue: 0,0:00:13.00,0:00:14.00,Default,,0,0,0,karaoke,la la la
Comment: 0,0:00:15.00,0:00:16.00,Default,,0,0,0,,a comment, not a line
"""


def test_ass_keeps_only_dialogue_styles_in_time_order():
    cues = formats.ass_cues(ASS)
    assert [c.text for c in cues] == ["I have to leave.", "Where are you going,\nsir?", "What now?"]
    assert (cues[0].start, cues[0].end) == (1.0, 3.0)


@pytest.mark.parametrize("style, dialogue", [
    ("Default", True), ("Main-207-", True), ("Flashbacks-207+", True), ("Thoughts", True), ("Narrator", True),
    ("Recuerdo", True), ("Pensante", True), ("Default - Italics", True),
    ("Captions", False), ("Sign", False), ("OP", False), ("ED Romaji", False), ("Karaoke", False),
    ("TL Note", False), ("Kanji", False), ("Title", False), ("Chat", False), ("Alice", False),
])
def test_dialogue_style_names(style, dialogue):
    assert formats.dialogue_style(style) is dialogue


TTML = """<?xml version="1.0" encoding="UTF-8"?>
<tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttp="http://www.w3.org/ns/ttml#parameter" ttp:tickRate="10000000">
<body><div>
<p begin="10000000t" end="25000000t">NARRATOR:</p>
<p begin="10000000t" end="25000000t"><span>It's an important</span></p>
<p begin="30000000t" end="42000000t">( thunder crashing )</p>
<p begin="00:00:05.000" end="00:00:06.500">Kirk to<br/>Enterprise.</p>
</div></body></tt>"""


@pytest.mark.parametrize("namespace", ["http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1"])
def test_ttml_joins_the_lines_of_a_cue(namespace):
    cues = formats.ttml_cues(TTML.replace("http://www.w3.org/ns/ttml", namespace))
    assert [c.text for c in cues] == ["NARRATOR:\nIt's an important", "( thunder crashing )", "Kirk to\nEnterprise."]
    assert (cues[0].start, cues[0].end) == (1.0, 2.5)
    assert (cues[2].start, cues[2].end) == (5.0, 6.5)


@pytest.mark.parametrize("tokenized, prose", [
    ("Okay Right {vocalsound} Um well this is the kick-off meeting for our our project .",
     "Okay Right Um well this is the kick-off meeting for our our project."),
    ("Did {disfmarker} did it {disfmarker} ? I did n't check , it 's fine .",
     "Did did it? I didn't check, it's fine."),
    ("So we 're gonna , you know , they 'll see .", "So we're gonna, you know, they'll see."),
    ("{vocalsound} .", None),
    ("{disfmarker} {gap}", None),
])
def test_ami_turns_are_detokenized(tokenized, prose):
    assert formats.detokenize(tokenized) == prose


MARKDOWN = r"""**Adam Stacoviak:** Welcome back, this is episode \#103, man... \[laughs\]

Check out [our site](https://changelog.com) at 5by5.tv/changelog.

**Break:** \[01:33\] to \[03:00\]

**Sid Sijbrandij:** \[03:02\] We use it, too. Kelly at \[unintelligible 00:02:59.11\] moved.

**Jerod Santo:** *Really?* That's \_neat\_.
"""


def test_markdown_podcast_turns():
    assert formats.markdown_turns(MARKDOWN) == [
        "Adam Stacoviak: Welcome back, this is episode #103, man... [laughs]",
        "Check out our site at 5by5.tv/changelog.",
        "Sid Sijbrandij: We use it, too. Kelly at [unintelligible] moved.",
        "Jerod Santo: Really? That's _neat_.",
    ]


def test_timed_text_reads_srt_and_sbv():
    srt = "1\n00:00:01,000 --> 00:00:02,500\n<i>Hello</i> there.\n\n2\n00:00:03,000 --> 00:00:04,000\nBye.\n"
    sbv = "0:00:11.372,0:00:15.097\n*music*\n\n0:00:15.097,0:00:23.710\nHerald: Jetzt brauch<br/>ich Hilfe.\n"
    assert [(c.text, c.start, c.end) for c in formats.timed_text_cues(srt)] == [
        ("Hello there.", 1.0, 2.5), ("Bye.", 3.0, 4.0)]
    assert [c.text for c in formats.timed_text_cues(sbv)] == ["*music*", "Herald: Jetzt brauch\nich Hilfe."]


def test_a_cue_run_sharing_an_8_gram_with_protected_text_is_dropped():
    protected = ngrams.text_grams(["Well, I never thought we would see the sea again!"])
    cues = ["Hello there.", "How are you?", "I never thought", "we WOULD see the sea again, did you?",
            "Fine, thanks.", "See you tomorrow."]
    runs, dropped = ngrams.split_on_overlap(cues, protected)
    assert dropped == 2
    assert runs == [["Hello there.", "How are you?"], ["Fine, thanks.", "See you tomorrow."]]
    # seven words in a row are not enough
    assert ngrams.split_on_overlap(["I never thought we would see the"], protected) == (
        [["I never thought we would see the"]], 0)


def test_a_second_release_of_the_same_episode_is_a_near_duplicate():
    episode = [f"Line {i}: the crew of the ship number {i} sails again tonight." for i in range(200)]
    near = ngrams.NearDuplicates()
    assert near.keep(episode)
    assert not near.keep([cue.replace("tonight", "tonight!") for cue in episode])
    assert near.keep([f"Another show, scene {i}, where nobody sails at all today." for i in range(200)])


def test_a_held_out_repository_is_refused(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "held-out-sources.md").write_text("# Sources never to train on\n\n- example-org/evaluation-captions\n"
                                               "- thechangelog/transcripts\n", encoding="utf-8")
    assert heldout.held_out(notes / "held-out-sources.md") == {"example-org/evaluation-captions",
                                                                "thechangelog/transcripts"}
    with pytest.raises(heldout.HeldOutSource, match="held-out-sources.md"):
        heldout.check("TheChangelog/Transcripts", {"thechangelog/transcripts"})
    # the whole command stops before reading anything, with one line
    with pytest.raises(SystemExit) as stop:
        build.main(["--shared", str(tmp_path), "--mirrors", str(tmp_path / "none"), "--out", str(tmp_path / "c"),
                    "--testset", str(tmp_path / "t"), "--sources", "changelog", "--manifest", str(tmp_path / "m.json")])
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip()
    assert err == "subcase: thechangelog/transcripts: on held-out-sources.md: never a training or test-set source"
    assert not (tmp_path / "c").exists() and not (tmp_path / "m.json").exists()


def test_no_registered_source_is_on_the_shared_held_out_list():
    notes = build.SHARED / "notes" / "held-out-sources.md"
    if not notes.is_file():
        pytest.skip(f"{notes} is absent (it sits beside the repository on the dev machine)")
    listed = heldout.held_out(notes)
    assert len(listed) >= 10  # the list was read (its names stay out of the repository)
    for source in build.sources():
        heldout.check(source.repo, listed)


def test_transcript_turns_become_caption_cues_without_the_label():
    cues = testset.timed([formats.Cue("Adam Stacoviak: " + "word " * 20 + "end?")], cue_cuts=False)
    assert [c.text for c in cues] == ["word word word word word word word word\nword word word word word word word word",
                                      "word word word word end?"]
    assert cues[0].start < cues[0].end < cues[1].start
    srt = testset.srt(cues)
    assert srt.startswith("1\n00:00:01,000 --> ")
    assert [c.text for c in formats.timed_text_cues(srt)] == [c.text for c in cues]


def test_the_mirror_reads_blobs_and_skips_symlinks(tmp_path):
    work = tmp_path / "owner+name" / "repo"
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    (work / "a b.txt").write_text("first\n", encoding="utf-8")
    (work / "link.txt").symlink_to("/etc/passwd")
    subprocess.run(["git", "-C", str(work), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"],
                   check=True)
    mirror = Mirror(tmp_path, "owner/name")
    try:
        assert mirror.paths() == ["a b.txt"]
        assert mirror.read("a b.txt") == b"first\n"
        assert len(mirror.commit) == 40
    finally:
        mirror.close()


def test_decode_falls_back_to_cp1252():
    assert formats.decode("Père".encode("utf-8")) == "Père"
    assert formats.decode("Père – ok".encode("cp1252")) == "Père – ok"



@pytest.mark.parametrize("written, spaced", [
    ("Tu viens ?", "Tu viens\u00a0?"),
    ("Quoi ?! Non...", "Quoi\u00a0?! Non..."),
    ("Il dit : « non »", "Il dit\u00a0: « non »"),
    ("oui ?\nAh !", "oui\u00a0?\nAh\u00a0!"),
    ("déjà\u00a0? a ?b", "déjà\u00a0? a ?b"),   # already no-break; a mark glued to the next word is left
])
def test_french_marks_get_their_no_break_space(written, spaced):
    assert formats.french_spacing(written) == spaced


def test_laying_out_a_french_turn_keeps_its_no_break_spaces():
    cues = testset.timed([formats.Cue(formats.french_spacing("Karadoc: Vous venez ? Non !"))], cue_cuts=False)
    assert [c.text for c in cues] == ["Vous venez\u00a0? Non\u00a0!"]
