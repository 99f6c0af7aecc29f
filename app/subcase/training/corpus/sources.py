"""The vetted caption and transcript sources (shared/notes/caption-corpora.md), one entry each.

A source lists its documents from the snapshot's file names alone (``refs``), each with the unit the
test set holds out whole (``group``: a show, a course, a series season, an arc), and parses one
document on demand (``parse``), so a capped source reads only the files it keeps.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from . import formats
from .formats import Cue
from .mirror import Mirror


@dataclass(frozen=True)
class DocRef:
    id: str
    group: str
    path: str


@dataclass
class Source:
    key: str                 # shard and test-file prefix
    repo: str
    lang: str
    genre: str               # talks | tv | sdh | podcasts | meetings | interviews | speeches | parliament
    licence: str
    paths: str               # where the text lives, as globs
    refs: Callable[[Mirror], list[DocRef]]
    parse: Callable[[Mirror, DocRef], list[Cue] | None]
    cue_cuts: bool           # the source's own cue cuts (subtitles) or turns/paragraphs (transcripts)
    test_words: int = 0      # test-set budget; -1: the whole source goes to the test set
    train_cap: int | None = None
    note: str = ""
    extra: dict = field(default_factory=dict)


def _text(mirror: Mirror, path: str) -> str:
    return formats.decode(mirror.read(path))


def _refs(pattern: str, group: Callable[[PurePosixPath], str], exclude: str | None = None) -> Callable[[Mirror], list[DocRef]]:
    rx = re.compile(pattern)
    rx_ex = re.compile(exclude) if exclude else None

    def refs(mirror: Mirror) -> list[DocRef]:
        return [DocRef(p, group(PurePosixPath(p)), p) for p in mirror.paths()
                if rx.search(p) and not (rx_ex and rx_ex.search(p))]
    return refs


def _first_dir(p: PurePosixPath) -> str:
    return p.parts[0]


def _parent(p: PurePosixPath) -> str:
    return str(p.parent)


def _file(p: PurePosixPath) -> str:
    return str(p)


def _items(items: list[str] | None) -> list[Cue] | None:
    return [Cue(t) for t in items] if items else None


# --- English ---------------------------------------------------------------------------------------

def _changelog(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    return _items(formats.markdown_turns(_text(mirror, ref.path)))


_LOST_ITALICS = re.compile(r"\s[.,;:?!]")
_RUN_ON = re.compile(r"([a-z][.?!])([A-Z][a-z])")


def _oyc(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    text = _RUN_ON.sub(r"\1 \2", _text(mirror, ref.path).strip().lstrip(":").strip())
    text = formats.tidy(text).replace("\n", " ")
    # the scrape lost italic words ("faced with ."): such sentences are not what was said
    kept = [s for s in formats.sentences(text) if not _LOST_ITALICS.search(s)]
    return _items(formats.paragraphs_of(" ".join(kept)))


def _marked_share(cues: list[str]) -> float:
    tokens = " ".join(cues).split()
    return sum(t[-1] in ".,?!" for t in tokens) / max(1, len(tokens))


def _lines(mirror: Mirror, ref: DocRef) -> list[str]:
    return [formats.tidy(html.unescape(line)) for line in _text(mirror, ref.path).splitlines() if line.strip()]


_CREDIT = re.compile(r"^(Translator|Reviewer|Transcriber|Translated by|Reviewed by)\s*:", re.IGNORECASE)


def _ted(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    lines = [line for line in _lines(mirror, ref) if line and not _CREDIT.match(line)]
    # YouTube automatic captions (no marks) sit among the human subtitles: < 3 % of tokens marked
    if _marked_share(lines) < 0.03:
        return None
    return _items(lines)


def _qmsum(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    data = json.loads(mirror.read(ref.path))
    items = []
    for turn in data.get("meeting_transcripts", []):
        text = formats.detokenize(str(turn.get("content", "")))
        if text:
            items.append(f"{str(turn.get('speaker', '')).strip()}: {text}" if turn.get("speaker") else text)
    return _items(items)


def _timed(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    return formats.timed_text_cues(_text(mirror, ref.path)) or None


def _ass(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    return formats.ass_cues(_text(mirror, ref.path)) or None


def _ttml(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    return formats.ttml_cues(_text(mirror, ref.path)) or None


def _startrek(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    data = json.loads(mirror.read(ref.path))
    items = []
    for part in data.values():
        if not isinstance(part, dict):
            continue
        for lines in part.values():
            if not isinstance(lines, list):
                continue
            for entry in lines:
                if isinstance(entry, list) and len(entry) == 2:
                    text = formats.tidy(str(entry[1])).replace("\n", " ")
                    if re.search(r"[^\W\d_]", text):
                        items.append(f"{formats.tidy(str(entry[0]))}: {text}")
    return _items(items)


def _paragraphs(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    text = _text(mirror, ref.path).replace("\r\n", "\n")
    paras = [formats.tidy(p).replace("\n", " ") for p in re.split(r"\n\s*\n", text)]
    return _items([p for p in paras if re.search(r"[^\W\d_]", p)])


def _said(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    return _items([formats.tidy(line) for line in _text(mirror, ref.path).splitlines()
                   if re.search(r"[^\W\d_]", line)])


def _language_refs(inner: Callable[[Mirror], list[DocRef]], lang: str,
                   parse: Callable[[Mirror, DocRef], list[Cue] | None]) -> Callable[[Mirror], list[DocRef]]:
    """The documents of ``inner`` whose group is in ``lang``, judged on the group's first document."""
    def refs(mirror: Mirror) -> list[DocRef]:
        out: list[DocRef] = []
        verdict: dict[str, bool] = {}
        for ref in inner(mirror):
            if ref.group not in verdict:
                cues = parse(mirror, ref) or []
                verdict[ref.group] = formats.stopword_language(" ".join(c.text for c in cues[:400]))[0] == lang
            if verdict[ref.group]:
                out.append(ref)
        return out
    return refs


def _one_release_per_episode(mirror: Mirror) -> list[DocRef]:
    """anime-subtitle-archival: ``<Show>/<group>/<ep>/*.ass``; several groups release the same episode,
    so one file per (show, episode): the first by name."""
    chosen: dict[tuple[str, str], str] = {}
    for p in mirror.paths():
        parts = PurePosixPath(p).parts
        if len(parts) >= 4 and p.lower().endswith(".ass"):
            key = (parts[0], parts[-2])
            chosen.setdefault(key, p)
    return [DocRef(p, show, p) for (show, _), p in sorted(chosen.items())]


def _c3_refs(mirror: Mirror) -> list[DocRef]:
    return [DocRef(p, str(PurePosixPath(p).parent), p) for p in mirror.paths()
            if p.startswith("www/tests/data/transforms/sbv-align/") and p.endswith("/result.sbv")]


def _onepace(suffix: str) -> Callable[[Mirror], list[DocRef]]:
    rx = re.compile(rf" (?:{suffix})\.ass$")

    def refs(mirror: Mirror) -> list[DocRef]:
        out = []
        for p in mirror.paths():
            parts = PurePosixPath(p).parts
            if parts[0] == "main" and "Release" not in parts and rx.search(p) and " dub " not in p:
                out.append(DocRef(p, parts[1], p))
        return out
    return refs


# --- Spanish, French, German, Portuguese ------------------------------------------------------------

def _cfk(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    lines = _text(mirror, ref.path).replace("\r\n", "\n").split("\n")
    # the title, its underline and the "[Lunes 04 de Agosto del 2008]" date are not speech
    for i, line in enumerate(lines[:12]):
        if re.fullmatch(r"\s*\[.*\]\s*", line):
            lines = lines[i + 1:]
            break
    else:
        lines = lines[2:]
    paras = [formats.tidy(p).replace("\n", " ") for p in re.split(r"\n\s*\n", "\n".join(lines))]
    return _items([p for p in paras if re.search(r"[^\W\d_]", p)])


def _subtitle_lines(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    text = _text(mirror, ref.path)
    if "\ufffd" in text:          # mis-decoded when scraped
        return None
    lines = [formats.tidy(line) for line in text.splitlines()]
    # Narcos' narration is in capitals; so are on-screen titles
    return _items([line for line in lines if re.search(r"[^\W\d_]", line) and not (line.isupper() and len(line) > 3)])


def _kaamelott(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    items = []
    for line in _text(mirror, ref.path).splitlines():
        speaker, _, said = line.partition("\t")
        said = formats.tidy(said)
        if said and re.search(r"[^\W\d_]", said):
            items.append(f"{formats.tidy(speaker)}: {said}" if speaker.strip() else said)
    return _items(items)


def _bundestag_refs(mirror: Mirror) -> list[DocRef]:
    return [DocRef(p, p, p) for p in mirror.paths() if re.match(r"parser/data_(19|20|21)/.*\.xml$", p)]


_SPEECH_PARAGRAPH = re.compile(r'<(p) klasse="(?:J|J_1|O)">(.*?)</p>|<(kommentar)>(.*?)</kommentar>', re.DOTALL)


def _bundestag(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    """A session's speeches: ``<p klasse="J|J_1|O">`` paragraphs and the ``<kommentar>`` interjections
    ("(Beifall bei der SPD)"), in order."""
    text = _text(mirror, ref.path)
    # the annexes (<anlagen>) hold written answers and statements for the record, not speech
    text = text.split("</sitzungsverlauf>", 1)[0]
    items = []
    for m in _SPEECH_PARAGRAPH.finditer(text):
        body = html.unescape(re.sub(r"<[^>]*>", "", m.group(2) if m.group(1) else m.group(4)))
        body = formats.tidy(body).replace("\n", " ")
        if re.search(r"[^\W\d_]", body):
            items.append(body)
    return _items(items)


def _dilma(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    page = _text(mirror, ref.path)
    start = page.find('id="parent-fieldname-text"')
    if start < 0:
        return None
    end = page.find("</div>", start)
    paras = formats.html_paragraphs(page[start:end if end > 0 else None])
    # the first paragraph is the place and date, in bold
    if paras and re.search(r"\d{4}$", paras[0]):
        paras = paras[1:]
    return _items(paras)


def _fansub_group(p: PurePosixPath) -> str:
    return "/".join(p.parts[:3] if p.parts[0] == "Okaeri" else p.parts[:2])


def _fansub(mirror: Mirror, ref: DocRef) -> list[Cue] | None:
    cues = formats.ass_cues(_text(mirror, ref.path))
    # a few English lines (song translations, notes) sit among the Portuguese ones
    kept = [c for c in cues if formats.stopword_language(c.text)[0] in (None, "pt", "es")]
    return kept or None


def sources() -> list[Source]:
    anime_all = _one_release_per_episode
    return [
        Source("changelog", "thechangelog/transcripts", "en", "podcasts", "CC-BY-SA-4.0 (bigtent/: Grafana Labs)",
               "<show>/*.md", _refs(r"^[a-z]+/.+\.md$", _first_dir, r"^(scripts|\.github)/"), _changelog,
               cue_cuts=False, test_words=40_000, train_cap=3_500_000,
               note="human transcripts; **Name:** turns kept as 'Name: ...'; Markdown escapes, links, inline times stripped"),
        Source("ted", "saranyan/TED-Talks", "en", "talks", "MIT (repo); TED content CC BY-NC-ND",
               "cleaned_ted_data/**.md", _refs(r"^cleaned_ted_data/.+\.md$", _file, r"README\.md$"), _ted,
               cue_cuts=True, test_words=35_000, train_cap=3_000_000,
               note="one cue per line; files with < 3% of tokens marked (YouTube auto captions) dropped"),
        Source("teded", "saranyan/TED-Talks", "en", "talks", "MIT (repo); TED content CC BY-NC-ND",
               "cleaned_teded_data/**.md", _refs(r"^cleaned_teded_data/.+\.md$", _file, r"README\.md$"), _ted,
               cue_cuts=True, train_cap=600_000, note="TED-Ed narrated explainers; auto-caption files dropped as for TED"),
        Source("oyc", "siwei-li/NLP_summarization", "en", "talks", "MIT (repo); Open Yale Courses CC BY-NC-SA",
               "yale_dataset/<dept>/<course>/*_transcript.txt",
               _refs(r"^yale_dataset/.+_transcript\.txt$", _parent), _oyc, cue_cuts=False, train_cap=2_000_000,
               note="lectures; sentences with lost italic words (' .') dropped; cut into ~80-word paragraphs"),
        Source("coursera", "acli/Coursera-subtitles", "en", "talks", "none stated",
               "*/*.en.srt", _refs(r"^[^/]+/.+\.en\.srt$", _first_dir), _timed, cue_cuts=True,
               note="Amara volunteer subtitles with times"),
        Source("c3-en", "c3subtitles/subtitleStatus", "en", "talks", "none stated",
               "www/tests/data/transforms/sbv-align/*/result.sbv", _language_refs(_c3_refs, "en", _timed), _timed,
               cue_cuts=True, test_words=-1, note="human CCC transcripts synced to times; all of it is test set"),
        Source("qmsum", "Yale-LILY/QMSum", "en", "meetings", "MIT (repo); AMI CC BY 4.0",
               "data/{Product,Academic,Committee}/all/*.json",
               _refs(r"^data/(Product|Academic|Committee)/all/.+\.json$", _file), _qmsum, cue_cuts=False,
               note="AMI/ICSI detokenized, {disfmarker}-style tags dropped; 'Speaker: text' turns"),
        Source("anime", "Subtitle-Archival-Initiative/anime-subtitle-archival", "en", "tv", "none stated",
               "<Show>/<group>/<ep>/*.ass", _language_refs(anime_all, "en", _ass), _ass, cue_cuts=True,
               test_words=25_000, train_cap=3_000_000,
               note="one release per episode; dialogue styles only; override tags stripped"),
        Source("onepace-en", "one-pace/one-pace-public-subtitles", "en", "tv", "none stated",
               "main/<arc>/**/* en.ass", _onepace("en"), _ass, cue_cuts=True, test_words=12_000,
               note="dialogue styles only (Main, Flashbacks, Thoughts, Narrator); Captions/sign styles dropped"),
        Source("netflix-sdh", "anwaldt/closed_captions", "en", "sdh", "none stated",
               "RAW/**.xml", _refs(r"^RAW/.+\.xml$", _file), _ttml, cue_cuts=True, test_words=35_000,
               note="Netflix SDH TTML; the lines of a cue joined with '\\n'"),
        Source("startrek", "ComputerMachine/script-search", "en", "tv", "none stated",
               "json_transcripts/<series>/*.json", _refs(r"^json_transcripts/.+\.json$", _parent), _startrek,
               cue_cuts=False, train_cap=2_000_000, note="fan transcripts; 'SPEAKER: line'; stage directions left out"),
        Source("trump", "unendin/Trump_Campaign_Corpus", "en", "interviews", "none stated",
               "text/*(..., As spoken)*.txt", _refs(r"^text/.+As spoken.+\.txt$", _file), _paragraphs, cue_cuts=False,
               train_cap=1_500_000,
               note="speeches, TV interviews, debates, press conferences as spoken; the 'As written' texts left out"),
        Source("debates", "mytakedotorg/us-presidential-debates", "en", "interviews", "none stated",
               "ingredients/<year>/*.said", _refs(r"^ingredients/.+\.said$", _file), _said, cue_cuts=False,
               note="debates.org transcripts; the *.vtt (YouTube auto captions) are never read"),
        Source("cfk", "mgaitan/discursos_cfk", "es", "speeches", "none stated",
               "<year>/*.md", _refs(r"^\d{4}/.+\.md$", _file), _cfk, cue_cuts=False, train_cap=1_200_000,
               note="stenographic versions of speeches; title and date header dropped"),
        Source("lirondos", "lirondos/subtitles", "es", "tv", "none stated",
               "txt/<show>/*.txt", _refs(r"^txt/[^/]+/.+\.txt$", lambda p: p.parts[1]), _subtitle_lines,
               cue_cuts=True, test_words=20_000, note="one subtitle line per line; mis-decoded files and capitals dropped"),
        Source("onepace-es", "one-pace/one-pace-public-subtitles", "es", "tv", "none stated",
               "main/<arc>/**/* es.ass", _onepace("es"), _ass, cue_cuts=True, test_words=15_000,
               note="dialogue styles only"),
        Source("onepace-fr", "one-pace/one-pace-public-subtitles", "fr", "tv", "none stated",
               "main/<arc>/**/* fr.ass", _onepace("fr"), _ass, cue_cuts=True, test_words=15_000,
               note="dialogue styles only"),
        Source("kaamelott", "Alex-bzh/corpus-kaamelott", "fr", "tv", "CeCILL",
               "txt/*.txt", _refs(r"^txt/.+\.txt$", _file), _kaamelott, cue_cuts=False,
               test_words=20_000, note="fan transcriptions; 'Speaker: line'; held out by episode"),
        Source("onepace-de", "one-pace/one-pace-public-subtitles", "de", "tv", "none stated",
               "main/<arc>/**/* de.ass", _onepace("de"), _ass, cue_cuts=True, test_words=20_000,
               note="dialogue styles only"),
        Source("c3-de", "c3subtitles/subtitleStatus", "de", "talks", "none stated",
               "www/tests/data/transforms/sbv-align/*/result.sbv", _language_refs(_c3_refs, "de", _timed), _timed,
               cue_cuts=True, test_words=-1, note="human CCC transcripts synced to times; all of it is test set"),
        Source("bundestag", "sevenbanisch/bundestagsreden", "de", "parliament",
               "GPL-3.0 (repo); bundestag.de open data", "parser/data_{19,20,21}/**.xml",
               _bundestag_refs, _bundestag, cue_cuts=False, train_cap=1_200_000,
               note="plenary protocols: paragraphs J, J_1, O and the <kommentar> interjections"),
        Source("dilma", "dfalbel/discursos-dilma", "pt", "speeches", "MIT",
               "data-raw/discursos/*.html", _refs(r"^data-raw/discursos/.+\.html$", _file), _dilma,
               cue_cuts=False, train_cap=1_200_000, note="Planalto transcriptions of speeches and interviews"),
        Source("fansubs-pt", "atorres1985-junkyard/arquivos-de-fansubs", "pt", "tv", "CC0",
               "TUDO by reu/<show>/**.ssa, Okaeri/Subtitles/**.ass, shakaw/**",
               _refs(r"\.(ssa|ass)$", _fansub_group), _fansub, cue_cuts=True, test_words=25_000,
               note="dialogue styles only; English lines dropped"),
        Source("onepace-pt", "one-pace/one-pace-public-subtitles", "pt", "tv", "none stated",
               "main/<arc>/**/* ptbr.ass, * pt.ass", _onepace("ptbr|pt"), _ass, cue_cuts=True, test_words=10_000,
               note="dialogue styles only"),
    ]
