"""Subtitle phenomena the plain corpora under-represent, built into training documents.

A pilot model failed most on these in real subtitles: acronyms ("FBI" came out
"Fbi"), ALL-CAPS speaker labels ("NARRATOR:"), bracketed sound cues
("[door slams]"), honorifics ("Your Grace", "the King") and product names in
talks ("iPhone", "PowerPoint").  A later model over-learned two of the cures:
it read any "phrase:" at a line start as a speaker label ("Web accessibility:"
came out "WEB ACCESSIBILITY:"), and it capitalised web addresses read out in
talks ("w3.org" came out "W3.Org").  Data v4 adds headings with a colon that are
not labels, web addresses, and the names of organisations and documents
("the Open Data Initiative") beside generic uses ("our data guidelines").
Each generator returns documents of cues with the casing a professional
subtitler would write.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from .corpora import Doc

SCOWL = Path("/usr/share/dict/scowl")
INSANE = Path("/usr/share/dict/american-english-insane")

# Acronyms common in talks and documentaries that the word lists lack.
TECH_ACRONYMS = (
    "AI API ARIA ATAG CSS CEO CPU DVD EU FAQ GPS GPU HTML HTTP ID IT NASA NGO PDF PhD QR SMS "
    "SQL UI UN URL USA USB UX VR WAI WCAG XML UK BBC CNN NBC CBS ABC NYPD LAPD MIT UCLA NYU "
    "OK TV FBI CIA DNA HIV ER ICU NFL NBA CD DJ UAAG ISO W3C"
).split()

PRODUCTS = (
    "iPhone iPad iPod iTunes iOS macOS YouTube PowerPoint JavaScript TypeScript GitHub GitLab "
    "LinkedIn PayPal eBay WordPress WhatsApp FaceTime PlayStation McDonald's McDonald "
    "SharePoint OneDrive DropBox TikTok WiFi VoiceOver TalkBack NVDA JAWS"
).split()

SOUND_CUES = (
    "door slams", "phone ringing", "audience laughing", "laughter", "music playing", "sighs",
    "applause", "dog barking", "footsteps approaching", "indistinct chatter", "thunder rumbling",
    "keyboard clicking", "gasps", "coughs", "upbeat music", "soft piano music", "crowd cheering",
    "car horn honks", "knocking on door", "siren wailing", "whispering", "glass shatters",
    "birds chirping", "clears throat", "chuckles", "doorbell rings", "engine starts", "silence",
)

NARRATORS = ("NARRATOR", "ANNOUNCER", "REPORTER", "DOCTOR", "TEACHER", "WOMAN", "MAN", "BOTH",
             "ALL", "OFFICER", "HOST", "INTERVIEWER", "SPEAKER")

ACRONYM_TEMPLATES = (
    "the {A} called this morning.", "I work for the {A}.", "did you talk to the {A}?",
    "she's with the {A} now,", "we got a letter from the {A}.", "the {A} wants an answer by Friday.",
    "{A} stands for something, right?", "you need an {A} for that.", "the new {A} rules are out.",
    "he spent ten years at the {A}", "according to the {A},", "that's what the {A} said.",
    "and the {A} is still checking", "our {A} team fixed it.", "I read about it on the {A} website.",
    "is the {A} involved?", "so we asked the {A}", "the {A} guidelines say", "they sent it to the {A} office",
)

PRODUCT_TEMPLATES = (
    "open {P} and go to settings.", "I'll show you in {P}.", "you can do this on {P} too.",
    "I have it on my {P}.", "so {P} reads the page out loud.", "let's switch to {P}",
    "the {P} version works differently", "we posted it on {P}.", "with {P} you just tap twice.",
)

HONORIFIC_LINES = (
    "Yes, Your Grace.", "Your Majesty, the King is here.", "Long live the King!",
    "The Queen will see you now.", "Thank you, Your Honor.", "Mr. President, we have a problem.",
    "Good morning, Madam Secretary.", "Your Highness, forgive me.", "The King's men are coming.",
    "As you wish, my lord.", "Sir, the General wants you.", "Please rise for the Judge.",
    "Father Michael will say Mass.", "Dr. Smith will see you now.", "Captain, we're being hailed.",
    "Mrs. Johnson called again.", "Aunt May is here.", "Prince Harry and the Queen",
    "the Prime Minister said today", "the Pope visited Rome", "Your Grace, the Lord Commander is here.",
)


URL_TEMPLATES = (
    "visit {U}", "for more information, visit {U}.", "go to {U}", "the address is {U}.",
    "you can find it at {U}.", "it's all on {U}", "check out {U} for the details.", "see {U}",
    "email us at {E}.", "write to {E}", "the link is {U}", "more at {U}.",
)
TLDS = ("com", "org", "net", "edu", "gov", "io", "co.uk", "org.uk", "eu", "info", "dev")

NAME_SUFFIXES = (
    "Initiative", "Guidelines", "Act", "Convention", "Foundation", "Institute", "Council", "Association",
    "Consortium", "Commission", "Agency", "Project", "Program", "Report", "Methodology", "Committee",
    "Working Group", "Task Force", "Alliance", "Network", "Tool", "Checklist", "Standard", "Awards",
    "Conference", "Summit", "Framework", "Center", "Society", "Fund", "Declaration", "Strategy",
)
NAME_TEMPLATES = (
    "the {N} was published last year.", "we follow the {N}", "she chairs the {N}.", "according to the {N},",
    "this is covered by the {N}.", "the {N} says that", "I joined the {N} in May.", "read the {N} first.",
    "they started the {N} to help", "the {N} and its partners", "it's part of the {N}.",
)
GENERIC_TEMPLATES = (
    "our {n} {s} are simple.", "these {n} {s} help a lot.", "some {n} {s} work better", "a new {n} {s}",
    "any {n} {s} will do.", "we wrote our own {s}.", "the {s} we use are free.", "his {n} {s} failed",
)
GENERIC_SUFFIXES = ("guidelines", "tools", "report", "project", "program", "strategy", "checklist", "standard",
                    "network", "framework", "group", "committee", "policy", "methods")


def read_word_list(path: Path) -> list[str]:
    """The words of a Debian word list, or none if it is not installed.

    Today's SCOWL and wamerican lists are UTF-8; older releases were ISO-8859-1.  Reading a
    UTF-8 list as Latin-1 turns "arrêt" into "arrÃªt", which looks mixed-case and ended up
    in the case-mask lexicon, so UTF-8 is tried first.
    """
    if not path.exists():
        return []
    data = path.read_bytes()
    try:
        return data.decode("utf-8").split()
    except UnicodeDecodeError:
        return data.decode("latin-1").split()


def common_words(levels: tuple[int, ...] = (10, 20, 35, 40, 50)) -> set[str]:
    """Ordinary lower-case English words (SCOWL sizes up to 50)."""
    return {w for level in levels for w in read_word_list(SCOWL / f"english-words.{level}") if w.islower()}


def acronyms() -> list[str]:
    found = set(TECH_ACRONYMS)
    # "TRIP" or "AIDS" read as ordinary words in lower case: leave such ambiguous ones out.
    common = common_words()
    for level in (35, 40, 50, 60, 70, 80):
        for w in read_word_list(SCOWL / f"english-abbreviations.{level}"):
            if re.fullmatch(r"[A-Z]{2,5}", w) and w.lower() not in common:
                found.add(w)
    return sorted(found)


def mixed_case_words() -> dict[str, str]:
    """Mixed-case forms from Debian word lists: {"mcadams": "McAdams", ...}."""
    from subcase.casing.tags import Tag, tag_of

    forms: dict[str, str] = {}
    for path in [INSANE, *sorted(SCOWL.glob("english-upper.*")), *sorted(SCOWL.glob("english-proper-names.*"))]:
        for w in read_word_list(path):
            if w.endswith("'s") or not w.isalpha():
                continue
            if tag_of(w) is Tag.M:
                forms.setdefault(w.lower(), w)
    for w in PRODUCTS + TECH_ACRONYMS:
        if tag_of(w) is Tag.M:
            forms[w.lower()] = w
    return forms


def proper_names() -> list[str]:
    names = [w for w in read_word_list(SCOWL / "english-proper-names.35") + read_word_list(SCOWL / "english-proper-names.50")
             if w.isalpha() and w[0].isupper() and w[1:].islower()]
    return names or ["John", "Mary", "Smith"]


def _cap_first(s: str) -> str:
    return s[:1].upper() + s[1:]


def web_address(rng: random.Random, vocab: list[str], acr: list[str]) -> str:
    """A host name as people write it (lower case), sometimes with a path."""
    host = rng.choice(vocab) + (rng.choice(vocab) if rng.random() < 0.3 else "")
    if rng.random() < 0.15:
        host += str(rng.randint(1, 9))
    url = ("www." if rng.random() < 0.25 else "") + host + "." + rng.choice(TLDS)
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        r = rng.random()
        segment = rng.choice(acr) if r < 0.25 else _cap_first(rng.choice(vocab)) if r < 0.35 else rng.choice(vocab)
        url += "/" + segment
    return url


def organisation_name(rng: random.Random, vocab: list[str]) -> str:
    words = [_cap_first(rng.choice(vocab)) for _ in range(rng.choice((1, 2, 2, 3)))]
    return " ".join(words + [rng.choice(NAME_SUFFIXES)])


def _url_line(rng: random.Random, vocab: list[str], acr: list[str]) -> str:
    template = rng.choice(URL_TEMPLATES)
    email = f"{rng.choice(vocab)}@{rng.choice(vocab)}.{rng.choice(TLDS)}"
    return _cap_first(template.format(U=web_address(rng, vocab, acr), E=email))


def _name_line(rng: random.Random, vocab: list[str]) -> str:
    if rng.random() < 0.6:
        return _cap_first(rng.choice(NAME_TEMPLATES).format(N=organisation_name(rng, vocab)))
    return _cap_first(rng.choice(GENERIC_TEMPLATES).format(n=rng.choice(vocab), s=rng.choice(GENERIC_SUFFIXES)))


def phenomenon_docs(rng: random.Random, n_docs: int = 2500) -> list[Doc]:
    """Short documents mixing acronym, product, honorific, web address and name lines."""
    acr = acronyms()
    prods = PRODUCTS
    vocab = sorted(w for w in common_words((10, 20, 35)) if w.isalpha() and 3 <= len(w) <= 10)
    docs = []
    for _ in range(n_docs):
        cues = []
        for _ in range(rng.randint(3, 8)):
            r = rng.random()
            if r < 0.3:
                cues.append(_cap_first(rng.choice(ACRONYM_TEMPLATES).format(A=rng.choice(acr))))
            elif r < 0.45:
                cues.append(_cap_first(rng.choice(PRODUCT_TEMPLATES).format(P=rng.choice(prods))))
            elif r < 0.6:
                cues.append(rng.choice(HONORIFIC_LINES))
            elif r < 0.8:
                cues.append(_url_line(rng, vocab, acr))
            else:
                cues.append(_name_line(rng, vocab))
        docs.append(Doc("synthetic", cues))
    return docs


def decorate(doc: Doc, rng: random.Random, names: list[str]) -> Doc:
    """Add SDH-style speaker labels and sound cues to a document's cues."""
    out: list[str] = []
    for i, cue in enumerate(doc.cues):
        speaker = doc.speakers[i] if i < len(doc.speakers) else None
        if rng.random() < 0.04:
            sound = rng.choice(SOUND_CUES)
            if rng.random() < 0.2:
                sound = _cap_first(sound)
            out.append(f"({sound})" if rng.random() < 0.3 else f"[{sound}]")
        r = rng.random()
        if r < 0.025 and i + 1 < len(doc.cues):
            # a heading with a colon that is not a speaker label: "Web accessibility: essential for all"
            phrase = [w for w in doc.cues[i + 1].split()[:rng.choice((1, 2, 2, 3))] if w.isalpha()]
            if phrase:
                cue = f"{_cap_first(' '.join(phrase))}:{' ' if rng.random() < 0.7 else chr(10)}{cue}"
        elif r < 0.05:
            label = speaker or rng.choice(NARRATORS)
            if rng.random() < 0.3:
                label = f"{rng.choice(names)} {rng.choice(names)}"
            sep = "\n" if "\n" not in cue and rng.random() < 0.3 else " "
            cue = f"{label.upper()}:{sep}{cue}"
        elif r < 0.07:
            cue = f"- {cue}" if "\n" not in cue else "- " + cue.replace("\n", "\n- ", 1)
        out.append(cue)
    return Doc(doc.source, out)
