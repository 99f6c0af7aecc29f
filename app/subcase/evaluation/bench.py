"""``subcase bench``: speed and memory of the truecaser, side by side with baselines.

Each system runs in its own fresh process on the same feature-length film, so
start-up time and peak memory (max RSS) are its own:

- subcase: load the ONNX model, then convert the film (read, case across cues,
  write) and case single cues one by one (interactive latency);
- truecase (PyPI n-gram baseline), when the bench extra is installed;
- first word + I: the rule baseline, for the cost of reading and writing alone.

Then subcase converts one more file, a single cue of about 1 MB (``--long-cue``),
where anything quadratic in a cue's length would show; the target is under 10 s.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHARED_DEV = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "dev-subtitles"


def _ms(t: float) -> str:
    return f"{1000 * t:.0f} ms"


def make_film(path: Path, n_cues: int) -> int:
    """A lower-cased SRT film of ``n_cues`` cues, cycling the dev subtitles' text when present."""
    from subcase.subtitles import load
    from subcase.subtitles.formats import is_subtitle_path

    texts: list[str] = []
    if SHARED_DEV.is_dir():
        for f in sorted(SHARED_DEV.iterdir()):
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
        words += len(t.split())
        s, e = i * 3000, i * 3000 + 2500
        ts = lambda ms: f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d},{ms % 1000:03d}"
        lines.append(f"{i + 1}\n{ts(s)} --> {ts(e)}\n{t}\n")
    path.write_text("\n".join(lines), encoding="utf-8")
    return words


def make_long_cue(path: Path, n_bytes: int) -> int:
    """An SRT file of one cue holding about ``n_bytes`` of lower-cased dev subtitle text
    (lines of about 40 characters); returns its word count.  Casing must stay linear in a
    cue's length: this is the case where anything quadratic shows."""
    film = path.with_name("long-cue-source.srt")
    make_film(film, 2000)
    from subcase.subtitles import load

    doc = load(film)
    texts = [doc.plain_text(i).replace("\n", " ") for i in range(len(doc.cues))]
    lines, size, words, i = [], 0, 0, 0
    while size < n_bytes:
        line = texts[i % len(texts)]
        lines.append(line)
        size += len(line.encode("utf-8")) + 1
        words += len(line.split())
        i += 1
    path.write_text("1\n00:00:01,000 --> 01:00:00,000\n" + "\n".join(lines) + "\n", encoding="utf-8")
    film.unlink()
    return words


def worker(system: str, film: Path, model: str | None, runs: int = 3) -> dict:
    """Runs inside the child process; returns the numbers as a dict.

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
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            cased = case_file(engine, film)
            save(cased.doc, out, backup=False)
            times.append(time.perf_counter() - t0)
        doc = cased.doc
        words = len(cased.casing.words)
        lat = []
        # per-cue latency is a film's measure; a one-cue file would case itself again
        texts = [doc.plain_text(i) for i in range(min(200, len(doc.cues)))] if len(doc.cues) > 1 else []
        for t in texts:
            t1 = time.perf_counter()
            case_texts(engine, [t])
            lat.append(time.perf_counter() - t1)
    else:
        from subcase.evaluation.baselines import TruecaseBaseline, first_word_and_i
        from subcase.subtitles.words import has_letters
        caser = TruecaseBaseline() if system == "truecase" else None
        startup = time.perf_counter() - t_start
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
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
        lat = []
        for c in range(min(200, len(tokens))):
            t1 = time.perf_counter()
            caser.case([tokens[c]], True) if caser else first_word_and_i([tokens[c]], True)
            lat.append(time.perf_counter() - t1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    lat.sort()
    first, median = times[0], statistics.median(times)
    return {"system": system, "startup_s": startup, "convert_s": first, "words": words,
            "words_per_s": words / first if first else 0.0,
            "median_convert_s": median, "median_words_per_s": words / median if median else 0.0, "runs": runs,
            "latency_p50_ms": 1000 * statistics.median(lat) if lat else 0.0,
            "latency_p95_ms": 1000 * lat[int(0.95 * (len(lat) - 1))] if lat else 0.0,
            "peak_rss_mb": peak}


def _run_worker(system: str, film: Path, runs: int, model: str | None) -> dict | str:
    """The worker's numbers, or the reason it did not run."""
    cmd = [sys.executable, "-m", "subcase.evaluation.bench", system, str(film), str(runs)] + \
          ([str(model)] if model else [])
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ))
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        return (proc.stderr.strip().splitlines() or ["failed"])[-1]
    row = json.loads(proc.stdout.strip().splitlines()[-1])
    row["process_s"] = wall
    return row


def run_bench(args) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        film = Path(args.file) if args.file else Path(tmp) / "film.srt"
        if not args.file:
            make_film(film, args.cues)
        systems = ["subcase"] + ([] if args.no_baseline else ["truecase", "first word + I"])
        rows = []
        for system in systems:
            row = _run_worker(system, film, args.runs, args.model)
            if isinstance(row, str):
                print(f"{system}: not run ({row})")
                continue
            rows.append(row)
        long_cue = None
        if args.long_cue > 0:
            path = Path(tmp) / "long-cue.srt"
            make_long_cue(path, args.long_cue * 1000)
            long_cue = _run_worker("subcase", path, 1, args.model)
    cues = args.cues if not args.file else "?"
    print(f"film: {film.name if args.file else f'{cues} cues (synthetic, lower-cased dev subtitles)'}; "
          f"{os.cpu_count()} CPU(s)")
    hdr = (f"{'system':16} {'words':>7} {'words/s':>9} {'convert':>9} {'median w/s':>11} {'start-up':>9} "
           f"{'cue p50':>8} {'cue p95':>8} {'peak RSS':>9}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print(f"{r['system']:16} {r['words']:7d} {r['words_per_s']:9.0f} {r['convert_s']:8.2f}s "
              f"{r['median_words_per_s']:11.0f} {r['startup_s']:8.2f}s "
              f"{r['latency_p50_ms']:6.1f}ms {r['latency_p95_ms']:6.1f}ms {r['peak_rss_mb']:7.0f}MB")
    print(f"(convert = read + case + write of the first run, start-up excluded; median w/s = median of "
          f"{args.runs} runs in the same process; start-up = imports + model load; cue latency = casing one cue alone)")
    if isinstance(long_cue, dict):
        verdict = "OK" if long_cue["convert_s"] < 10 else "OVER 10 s"
        print(f"one cue of {args.long_cue:,} KB ({long_cue['words']:,} words): convert {long_cue['convert_s']:.1f} s "
              f"({long_cue['words_per_s']:,.0f} words/s, peak RSS {long_cue['peak_rss_mb']:.0f} MB) {verdict}")
    elif long_cue is not None:
        print(f"one cue of {args.long_cue:,} KB: not run ({long_cue})")
    return 0


if __name__ == "__main__":
    system, film, runs = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    model = sys.argv[4] if len(sys.argv) > 4 else None
    print(json.dumps(worker(system, film, model, runs)))
