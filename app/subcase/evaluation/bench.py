"""``subcase bench``: speed and memory of the truecaser, side by side with baselines.

Everything is measured in the same run, so the ratios between systems hold on
any host even where the absolute figures do not (int8 inference differs about
3x between AVX2-only CPUs and CPUs with VNNI):

- the CPU: model name and the instruction sets int8 inference depends on
  (AVX2, AVX-512, AVX512-VNNI, AVX-VNNI, AMX) as CPUID tells the process, and
  the int8 kernel onnxruntime picks with them (evaluation/cpuid.py);
- each system in its own fresh process on the same feature-length film, so
  start-up time and peak memory (max RSS) are its own: subcase (load the model,
  convert the film, case single cues one by one), truecase (PyPI n-gram
  baseline, with the bench extra) and first word + I (the cost of reading and
  writing alone);
- ``subcase convert`` as a user runs it: the whole process, start-up included;
- the raw onnxruntime ceiling: the engine's own batches for the film replayed
  through the session alone (sub-tokens/s, and the words/s that caps);
- ``subcase convert --jobs N`` on a folder of several films, whole process;
- one cue of one line at each size ``--long-cue`` gives (100 and 250 KB by
  default), its words bare of marks so that they are restored (``--punctuate
  auto``, the default): a row per size with its time and peak memory, and both
  per MB, which stay level where cost is linear in a cue's length (anything
  quadratic shows as a rise; issue #54);
- a long file at each size ``--long-file`` gives (150,000 words by default: a
  three-hour stream), as plain SRT and in YouTube's rolling layout
  (evaluation/long_files.py): its time, words/s and peak memory beside the
  film's, which stay within 400 MB and level with the film's (issue #56);
- every other language model: a film of the same length in each of Spanish,
  French, German and Portuguese (the multilingual dev subtitles, lower-cased),
  cased by subcase as the English film is, with the ratio to the English film
  in the same run (``--no-languages`` skips it).
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .long_files import SHARED_DEV, dev_words, write_long_files

SHARED_DEV_ML = SHARED_DEV.with_name("dev-subtitles-ml")
LONG_FILE_WORDS = (150_000,)  # the long-file rows: a three-hour stream (issue #56)
LONG_FILE_RSS_MB = 400        # the bound its peak memory is held to
OTHER_LANGUAGES = ("es", "fr", "de", "pt")  # the multilingual model's


def _ms(t: float) -> str:
    return f"{1000 * t:.0f} ms"


def make_film(path: Path, n_cues: int, source: Path = SHARED_DEV, bare: bool = False) -> int:
    """A lower-cased SRT film of ``n_cues`` cues, cycling the text of the subtitles in ``source``
    (the English dev subtitles) when present; ``bare``: its words only, line by line, as speech recognition
    without punctuation writes them."""
    from subcase.subtitles import load
    from subcase.subtitles.formats import is_subtitle_path

    texts: list[str] = []
    if source.is_dir():
        for f in sorted(source.iterdir()):
            if is_subtitle_path(f):
                doc = load(f)
                texts += [doc.plain_text(i) for i in range(len(doc.cues)) if doc.plain_text(i).strip()]
    if not texts:
        texts = ["so we went down to the station,\nand nobody was there.", "what did the doctor say?",
                 "i told him about new york and the fbi.", "[door slams]", "narrator: it was monday again."]
    lines = []
    words = 0
    for i in range(n_cues):
        t = texts[i % len(texts)].lower()
        if bare:
            from subcase.subtitles.words import words as words_of
            t = "\n".join(" ".join(words_of(line)) for line in t.splitlines() if words_of(line)) or "hm"
        words += len(t.split())
        s, e = i * 3000, i * 3000 + 2500
        ts = lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
        lines.append(f"{i + 1}\n{ts(s)} --> {ts(e)}\n{t}\n")
    path.write_text("\n".join(lines), encoding="utf-8")
    return words


def make_long_cue(path: Path, n_bytes: int) -> int:
    """An SRT file of one cue of one line holding about ``n_bytes`` of the dev subtitles' words, lower-cased
    and bare of marks (as speech recognition writes them); returns its word count.  Casing and restoring
    marks must stay linear in a cue's length: this is the shape where anything quadratic shows."""
    film = path.with_name("long-cue-source.srt")
    make_film(film, 2000, bare=True)
    from subcase.subtitles import load

    doc = load(film)
    texts = [doc.plain_text(i).replace("\n", " ") for i in range(len(doc.cues))]
    parts, size, words, i = [], 0, 0, 0
    while size < n_bytes:
        text = texts[i % len(texts)]
        parts.append(text)
        size += len(text.encode("utf-8")) + 1
        words += len(text.split())
        i += 1
    path.write_text("1\n00:00:01,000 --> 01:00:00,000\n" + " ".join(parts) + "\n", encoding="utf-8")
    film.unlink()
    return words


# The bench films carry their marks: the casing alone is measured, unless a run says otherwise (the bare film's
# rows, the long cues at the default).
CASING_ONLY = "never"


def worker(system: str, film: Path, model: str | None, runs: int = 3, with_ceiling: bool = True,
           punctuate: str = CASING_ONLY) -> dict:
    """Runs inside the child process; returns the numbers as a dict.  ``punctuate``: subcase's
    ``--punctuate``.

    The film is converted ``runs`` times: the first run is what one ``subcase
    convert`` of one film costs (cold caches); the median is the rate over a folder.
    """
    t_start = time.perf_counter()
    from subcase.subtitles import load, save

    out = Path(tempfile.mkdtemp()) / film.name
    if system == "subcase":
        from subcase.casing import CasingEngine, case_file, case_texts
        engine = CasingEngine(Path(model)) if model else CasingEngine()
        # one tiny call so that the first real call does not pay ORT's lazy set-up
        case_texts(engine, ["warm up"])
        startup = time.perf_counter() - t_start
        times, cpu = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            cased = case_file(engine, film, punctuate=punctuate)
            save(cased.doc, out, backup=False)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        doc = cased.doc
        words = len(cased.casing.words)
        lat = []
        # per-cue latency is a film's measure; a one-cue file would case itself again
        texts = [doc.plain_text(i) for i in range(min(200, len(doc.cues)))] if len(doc.cues) > 1 else []
        for t in texts:
            t1 = time.perf_counter()
            case_texts(engine, [t])
            lat.append(time.perf_counter() - t1)
        guess = cased.casing.language
        language = guess.language if guess is not None else None
        # the model that cased the film: the multilingual one for a Spanish film
        model_engine = (engine.engine_for(language) if language else None) or engine
        ceiling = onnx_ceiling(engine, film, words, model_engine) if with_ceiling else {}
        ceiling |= {"language": language, "threshold": cased.casing.threshold}
    else:
        from subcase.evaluation.baselines import TruecaseBaseline, first_word_and_i
        from subcase.subtitles.words import has_letters
        caser = TruecaseBaseline() if system == "truecase" else None
        startup = time.perf_counter() - t_start
        times, cpu = [], []
        for _ in range(runs):
            t0, c0 = time.perf_counter(), time.process_time()
            doc = load(film)
            tokens = [c.tokens() for c in doc.cues]
            forms = caser.case(tokens, True) if caser else first_word_and_i(tokens, True)
            words = 0
            for c, fs in enumerate(forms):
                # the baselines case the words with letters (as scored); numbers keep their place
                lettered = [w for w in doc.cues[c].words() if has_letters(w.text)]
                spans = [(w.start, w.end, f) for w, f in zip(lettered, fs)]
                doc.recase(c, spans)
                words += len(spans)
            save(doc, out, backup=False)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
        lat = []
        for c in range(min(200, len(tokens))):
            t1 = time.perf_counter()
            caser.case([tokens[c]], True) if caser else first_word_and_i([tokens[c]], True)
            lat.append(time.perf_counter() - t1)
        ceiling = {}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    lat.sort()
    first, median = times[0], statistics.median(times)
    return {"system": system, "startup_s": startup, "convert_s": first, "words": words,
            "words_per_s": words / first if first else 0.0,
            "median_convert_s": median, "median_words_per_s": words / median if median else 0.0, "runs": runs,
            # CPU seconds (all threads): steadier than wall time when other work shares the machine
            "median_cpu_s": statistics.median(cpu), "words_per_cpu_s": words / statistics.median(cpu) if cpu else 0.0,
            "latency_p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
            "latency_p95_ms": 1000 * lat[int(0.95 * (len(lat) - 1))] if lat else 0.0,
            "peak_rss_mb": peak, **ceiling}


def onnx_ceiling(engine, film: Path, words: int, model_engine=None, repeats: int = 3) -> dict:
    """The film's own batches (as the engine builds them) replayed through the ONNX
    session alone, batches side by side as the engine runs them: the most words/s any
    Python around the model could reach.
    ``model_engine``: the engine whose model cases the film (``engine`` itself for English)."""
    from subcase.casing import case_file

    model_engine = model_engine or engine
    recorded = []
    session_run = model_engine.session.run_outputs

    def record(names, *batch):
        recorded.append(batch)
        return session_run(names, *batch)

    model_engine.session.run_outputs = record
    try:
        case_file(engine, film, punctuate=CASING_ONLY)
    finally:
        del model_engine.session.run_outputs  # the session's own method again
    subtokens = int(sum(int(batch[1].sum()) for batch in recorded))
    times, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in model_engine.session.run_all(recorded):  # side by side, as the engine runs them
            pass
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    t, c = statistics.median(times), statistics.median(cpu)
    return {"onnx_s": t, "subtokens": subtokens, "subtokens_per_s": subtokens / t if t else 0.0,
            "onnx_words_per_s_cap": words / t if t else 0.0, "onnx_batches": len(recorded),
            "onnx_cpu_s": c, "subtokens_per_cpu_s": subtokens / c if c else 0.0}


def cpu_info() -> dict:
    """The CPU model and the instruction sets onnxruntime's int8 kernels choose between, as CPUID tells
    this process (evaluation/cpuid.py), or from /proc/cpuinfo where CPUID cannot be asked."""
    import platform

    from . import cpuid

    model, text = platform.processor() or platform.machine(), ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        pass
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            model = value.strip()
            break
    booted = cpuid.from_proc_cpuinfo(text)
    seen = cpuid.from_cpuid()
    flags, source = (seen, "as CPUID tells this process") if seen is not None else (booted, "from /proc/cpuinfo")
    if seen is not None and cpuid.patched_xcr0() is not None:
        source = "as CPUID and onnxruntime's patched XGETBV tell this process (bench/avx2_only.py --patch)"
    hidden = [k for k in cpuid.LABELS if booted and seen and booted[k] and not seen[k]]
    import onnxruntime as ort

    from subcase.casing.onnx_session import available_cores

    return {"model": model, "cores": available_cores(), "flags": flags or {}, "known": flags is not None,
            "source": source, "hidden": hidden, "onnxruntime": f"onnxruntime {ort.__version__}",
            "int8_kernel": cpuid.int8_kernel(flags) if flags else "unknown"}


def whole_process(cmd: list[str], runs: int) -> tuple[float, list[float], subprocess.CompletedProcess]:
    """Median wall time of ``cmd`` as a user runs it (start-up included); stops at a failure."""
    walls: list[float] = []
    while True:
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        walls.append(time.perf_counter() - t0)
        if proc.returncode != 0 or len(walls) >= runs:
            return statistics.median(walls), walls, proc


def _convert_cmd(paths: list[Path], out: Path, model: Path | None, jobs: int) -> list[str]:
    # every run after the first finds the outputs of the one before in its own temporary folder
    return [sys.executable, "-m", "subcase", "convert", *map(str, paths), "-o", str(out), "-q", "--jobs", str(jobs),
            "--overwrite"] + (["--model", str(model)] if model else [])


def _words_of(stdout: str) -> int:
    import re

    m = re.search(r"; (\d+) words", stdout)
    return int(m.group(1)) if m else 0


def _load() -> str:
    try:
        return "load average %.1f / %.1f / %.1f" % os.getloadavg()
    except OSError:  # pragma: no cover - not on Linux
        return "load average unknown"


def _run_worker(system: str, film: Path, runs: int, model: Path | str | None, ceiling: bool = True,
                punctuate: str = CASING_ONLY) -> dict | str:
    """The worker's numbers, or the reason it did not run."""
    cmd = [sys.executable, "-m", "subcase.evaluation.bench", system, str(film), str(runs)] + \
          ([str(model)] if model else []) + ([] if ceiling else ["--no-ceiling"]) + [f"--punctuate={punctuate}"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ))
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return (proc.stderr.strip().splitlines() or ["failed"])[-1]
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    row["process_s"] = wall
    return row


LONG_CUE_KB = (100, 250)  # the one-cue files of the default run: two sizes, a ratio, in under a minute


@dataclass(frozen=True)
class BenchOptions:
    """``subcase bench``'s options (see its --help)."""

    cues: int = 1500              # cues in the synthetic film
    file: Path | None = None      # benchmark this subtitle file instead
    runs: int = 3                 # conversions of the film per system
    films: int = 8                # films in the folder for the --jobs figure (0: skip it)
    jobs: int = 2                 # worker processes for the folder figure
    model: Path | None = None
    no_baseline: bool = False
    no_languages: bool = False    # skip the films in the other languages
    long_cue: tuple[int, ...] = LONG_CUE_KB  # KB of each one-cue file (none: skip them)
    no_punctuation: bool = False  # skip the film without its marks (--punctuate never and auto)
    long_file: tuple[int, ...] = LONG_FILE_WORDS  # words of each long file, plain and rolling (none: skip them)


def run_bench(args: BenchOptions) -> int:
    cpu = cpu_info()
    load_before = _load()
    runs = args.runs
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(args.file) if args.file else Path(tmp) / "film.srt"
        if not args.file:
            make_film(film, args.cues)
        systems = ["subcase"] + ([] if args.no_baseline else ["truecase", "first word + I"])
        rows = []
        for system in systems:
            row = _run_worker(system, film, runs, args.model)
            if isinstance(row, str):
                print(f"{system}: not run ({row})")
                continue
            rows.append(row)
        # subcase convert as a user runs it, one film, start-up included
        conv_s, conv_walls, conv = whole_process(_convert_cmd([film], Path(tmp) / "out1", args.model, 1), runs)
        conv_words = _words_of(conv.stdout)
        folder_rows = []
        if args.films > 0:
            folder = Path(tmp) / "films"
            folder.mkdir()
            for k in range(args.films):
                shutil.copy(film, folder / f"film{k + 1:02d}{film.suffix}")
            for jobs in sorted({1, args.jobs}):
                s_, walls, p = whole_process(_convert_cmd([folder], Path(tmp) / f"out-j{jobs}", args.model, jobs), runs)
                folder_rows.append((jobs, _words_of(p.stdout), s_, walls, p.returncode))
        languages = []
        if not args.file and not args.no_languages:
            for lang in OTHER_LANGUAGES:
                if not (SHARED_DEV_ML / lang).is_dir():
                    continue
                lang_film = Path(tmp) / f"film-{lang}.srt"
                make_film(lang_film, args.cues, SHARED_DEV_ML / lang)
                languages.append((lang, _run_worker("subcase", lang_film, runs, args.model)))
        # the film without its marks, cased as it is and with its punctuation restored (two stages), same run
        punctuation: list[tuple[str, dict | str]] = []
        if not args.file and not args.no_punctuation:
            bare = Path(tmp) / "film-bare.srt"
            make_film(bare, args.cues, bare=True)
            punctuation = [(how, _run_worker("subcase", bare, runs, args.model, ceiling=False, punctuate=how))
                           for how in ("never", "auto")]
        from subcase.casing.restoring import DEFAULT_PUNCTUATE  # not at import: the CLI's parser reads this module

        long_cues: list[tuple[int, dict | str]] = []
        for kb in args.long_cue:
            path = Path(tmp) / f"long-cue-{kb}.srt"
            make_long_cue(path, kb * 1000)
            long_cues.append((kb, _run_worker("subcase", path, 1, args.model, ceiling=False,
                                              punctuate=DEFAULT_PUNCTUATE.value)))
        long_files: list[tuple[int, str, dict | str]] = []
        if args.long_file:

            text = dev_words()
            for n in args.long_file:
                for path in write_long_files(Path(tmp) / "long", n, text):
                    long_files.append((n, path.name, _run_worker("subcase", path, 1, args.model, ceiling=False,
                                                                 punctuate=DEFAULT_PUNCTUATE.value)))

    load_after = _load()
    flags = ", ".join(f"{k} {'yes' if v else 'no'}" for k, v in cpu["flags"].items()) if cpu["known"] else "unknown"
    print(f"CPU: {cpu['model']}; {cpu['cores']} core(s) for this process; {flags} ({cpu['source']})")
    hidden = f"; hidden from this process: {', '.join(cpu['hidden'])}" if cpu["hidden"] else ""
    print(f"     {cpu['onnxruntime']}: int8 kernel {cpu['int8_kernel']}{hidden}")
    print(f"machine: {load_before} before, {load_after} after (other work on the machine slows every figure; "
          f"the CPU-second figures and the ratios suffer least)")
    film_name = film.name if args.file else f"{args.cues} cues (the dev subtitles, lower-cased, in order, repeated)"
    print(f"film: {film_name}")
    print()
    hdr = (f"{'system':16} {'words':>7} {'words/s':>9} {'convert':>9} {'median w/s':>11} {'start-up':>9} "
           f"{'w/s incl.':>10} {'w/CPU-s':>8} {'cue p50':>8} {'cue p95':>8} {'peak RSS':>9}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        incl = r["words"] / (r["startup_s"] + r["convert_s"]) if r["startup_s"] + r["convert_s"] else 0.0
        r["words_per_s_with_startup"] = incl
        print(f"{r['system']:16} {r['words']:7d} {r['words_per_s']:9.0f} {r['convert_s']:8.2f}s "
              f"{r['median_words_per_s']:11.0f} {r['startup_s']:8.2f}s {incl:10.0f} {r['words_per_cpu_s']:8.0f} "
              f"{r['latency_p50_ms']:6.1f}ms {r['latency_p95_ms']:6.1f}ms {r['peak_rss_mb']:7.0f}MB")
    print(f"(convert = read + case + write of the first run, start-up excluded; median w/s = median of {runs} runs "
          f"in the same process; start-up = imports + model load; w/s incl. = words / (start-up + convert); "
          f"w/CPU-s = words per CPU-second over all threads, median run; cue latency = casing one cue alone)")
    by = {r["system"]: r for r in rows}
    if "subcase" in by and len(by) > 1:
        sc = by["subcase"]
        print()
        print("ratios (subcase / other, same run; > 1 means subcase is faster):")
        for name, r in by.items():
            if name == "subcase":
                continue
            ex = sc["median_words_per_s"] / r["median_words_per_s"] if r["median_words_per_s"] else 0.0
            inc = sc["words_per_s_with_startup"] / r["words_per_s_with_startup"] if r["words_per_s_with_startup"] else 0.0
            per_cpu = sc["words_per_cpu_s"] / r["words_per_cpu_s"] if r["words_per_cpu_s"] else 0.0
            print(f"  vs {name:15} {ex:5.2f}x without start-up (median runs), {inc:5.2f}x with start-up, "
                  f"{per_cpu:5.2f}x per CPU-second")
    print()
    if conv.returncode == 0 and conv_words:
        print(f"subcase convert, whole process, one film: {conv_s:.2f} s median of {len(conv_walls)} "
              f"-> {conv_words / conv_s:.0f} words/s with start-up")
    else:
        print(f"subcase convert, whole process: failed ({(conv.stderr.strip().splitlines() or ['?'])[-1]})")
    if "subcase" in by and by["subcase"].get("onnx_s"):
        sc = by["subcase"]
        share = sc["onnx_s"] / sc["median_convert_s"] if sc["median_convert_s"] else 0.0
        print(f"onnxruntime alone on the film's {sc['onnx_batches']} batches: {sc['subtokens_per_s']:.0f} sub-tokens/s "
              f"({sc['subtokens']} sub-tokens, {sc['subtokens'] / max(sc['words'], 1):.2f} per word, windows "
              f"overlapping) -> caps one process at {sc['onnx_words_per_s_cap']:.0f} words/s; "
              f"the model is {100 * share:.0f}% of a conversion's wall time; "
              f"{sc['subtokens_per_cpu_s']:.0f} sub-tokens per CPU-second")
    for jobs, words, secs, walls, rc in folder_rows:
        rate = f"{words / secs:.0f} words/s" if rc == 0 and words else f"failed (exit {rc})"
        print(f"subcase convert --jobs {jobs}, whole process, {args.films} films ({words} words): {secs:.2f} s "
              f"median of {len(walls)} -> {rate} with start-up")
    if languages:
        _print_languages(languages, by.get("subcase"), args.cues)
    if punctuation:
        _print_punctuation(punctuation, args.cues)
    if long_cues:
        _print_long_cues(long_cues, by.get("subcase"))
    if long_files:
        _print_long_files(long_files, by.get("subcase"))
    print()
    print("Absolute figures depend on the host (int8 speed differs about 3x between AVX2-only CPUs and CPUs with "
          "VNNI); compare ratios across hosts.")
    if not cpu["int8_kernel"].startswith(("AVX2", "SSE", "unknown")):
        # the users' machines are AVX2-only: say how to time their kernel on this one (from a checkout)
        print(f"This host's int8 kernel is {cpu['int8_kernel']}; for the AVX2 kernel of AVX2-only CPUs, natively "
              "here: python bench/avx2_only.py subcase bench (a source checkout; docs/performance.md).")
    return 0


def _print_long_files(rows: list[tuple[int, str, dict | str]], film: dict | None) -> None:
    """A row per long file (a three-hour stream, plain and rolling), beside the film of the same run."""
    print()
    print("long files, marks restored (--punctuate auto): time and peak memory beside the film")
    if film:
        print(f"  {'the film':24} {film['words']:>8,} words: {film['words_per_s']:7,.0f} words/s, "
              f"peak RSS {film['peak_rss_mb']:.0f} MB")
    for _, name, r in rows:
        if isinstance(r, str):
            print(f"  {name:24} not run ({r})")
            continue
        print(f"  {name:24} {r['words']:>8,} words: {r['words_per_s']:7,.0f} words/s, convert {r['convert_s']:.1f} s, "
              f"peak RSS {r['peak_rss_mb']:.0f} MB")
    print(f"(bounded: peak RSS within {LONG_FILE_RSS_MB} MB at 150,000 words, words/s level with the film's)")


def _print_long_cues(rows: list[tuple[int, dict | str]], film: dict | None) -> None:
    """A row per one-cue file: time and peak memory, and each per MB of the file over what casing the film
    took (start-up excluded; the process's memory before any file, about the film's peak, counted as base)."""
    print()
    print("one cue of one line, marks restored (--punctuate auto): time and peak memory against size")
    base = film["peak_rss_mb"] if film else 0.0
    for kb, r in rows:
        if isinstance(r, str):
            print(f"one cue of {kb:,} KB: not run ({r})")
            continue
        mb = kb / 1000
        print(f"one cue of {kb:,} KB ({r['words']:,} words): convert {r['convert_s']:.1f} s "
              f"({r['words_per_s']:,.0f} words/s, peak RSS {r['peak_rss_mb']:.0f} MB); per MB: "
              f"{r['convert_s'] / mb:.1f} s, {max(r['peak_rss_mb'] - base, 0.0) / mb:,.0f} MB above the film's peak")
    print("(linear in the cue's length: the per-MB figures stay level as the size grows)")


def _print_punctuation(rows: list[tuple[str, dict | str]], cues: int) -> None:
    """The film without its marks: cased as it is, and with its punctuation restored."""
    print(f"punctuation: the film's {cues} cues without their marks (words only), converted with --punctuate never "
          "and auto")
    done = {how: r for how, r in rows if isinstance(r, dict)}
    for how, r in rows:
        if isinstance(r, str):
            print(f"  --punctuate {how}: not run ({r})")
            continue
        print(f"  --punctuate {how:6} {r['words']} words, {r['median_words_per_s']:.0f} words/s median "
              f"({r['words_per_s']:.0f} in the first run), {r['words_per_cpu_s']:.0f} per CPU-second, "
              f"peak RSS {r['peak_rss_mb']:.0f} MB")
    if len(done) == 2 and done["never"]["median_words_per_s"]:
        ratio = done["auto"]["median_words_per_s"] / done["never"]["median_words_per_s"]
        print(f"  restoring the marks runs at {ratio:.2f}x the speed of casing alone (the head reads the same pass "
              "as the casing; the rest is the head's own arithmetic and writing the marks into the file)")


def _print_languages(languages: list[tuple[str, dict | str]], english: dict | None, cues: int) -> None:
    """The other language models on films of the same length, beside the English film."""
    print(f"other languages: a film of {cues} cues each (the multilingual dev subtitles, lower-cased, repeated), "
          f"cased by subcase as the English film (the multilingual model loads at the first such file: "
          f"its load is in the first run, not in the median)")
    for lang, r in languages:
        if isinstance(r, str):
            print(f"  {lang}: not run ({r})")
            continue
        vs = (f", {r['median_words_per_s'] / english['median_words_per_s']:.2f}x the English film"
              if english and english.get("median_words_per_s") else "")
        cap = f", onnxruntime alone caps it at {r['onnx_words_per_s_cap']:.0f} words/s" if r.get("onnx_s") else ""
        print(f"  {lang}: {r['words']} words, {r['median_words_per_s']:.0f} words/s median "
              f"({r['words_per_s']:.0f} in the first run), {r['words_per_cpu_s']:.0f} per CPU-second{vs}{cap}; "
              f"detected {r.get('language') or '?'}, threshold {r.get('threshold', 0):.3f}; "
              f"peak RSS {r['peak_rss_mb']:.0f} MB")


if __name__ == "__main__":
    argv = [a for a in sys.argv[1:] if a != "--no-ceiling" and not a.startswith("--punctuate=")]
    how = next((a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--punctuate=")), CASING_ONLY)
    system, film, runs = argv[0], Path(argv[1]), int(argv[2])
    model = argv[3] if len(argv) > 3 else None
    print(json.dumps(worker(system, film, model, runs, with_ceiling="--no-ceiling" not in sys.argv, punctuate=how)))
