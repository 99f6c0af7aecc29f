"""subcase.media without Qt: which file, which span, which cue, which samples."""

from __future__ import annotations

import os
import wave
from pathlib import Path

import numpy as np
import pytest

from subcase.media import (MediaError, MediaRef, cue_at, fingerprint, media_ref, peaks, play_span, read_wav,
                           same_stem_media, strip_window)


def write_wav(path: Path, samples: np.ndarray, rate: int, width: int = 2, channels: int = 1) -> Path:
    """PCM WAV from float samples in [-1, 1] (one column per channel)."""
    data = np.asarray(samples, dtype=np.float64).reshape(-1, channels)
    if width == 1:
        raw = np.clip(np.round(data * 127 + 128), 0, 255).astype(np.uint8).tobytes()
    elif width == 2:
        raw = np.clip(np.round(data * 32767), -32768, 32767).astype("<i2").tobytes()
    else:
        ints = np.clip(np.round(data * 8388607), -8388608, 8388607).astype(np.int32).reshape(-1)
        raw = np.stack([(ints >> s) & 0xFF for s in (0, 8, 16)], axis=1).astype(np.uint8).tobytes()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(raw)
    return path


# ---------------------------------------------------------------- which file
def test_same_stem_media_prefers_video_and_shorter_stems(tmp_path):
    sub = tmp_path / "film.en.srt"
    sub.write_text("")
    assert same_stem_media(sub) is None
    (tmp_path / "film.wav").write_bytes(b"x")
    assert same_stem_media(sub) == tmp_path / "film.wav"          # film.en.srt -> film.*
    (tmp_path / "film.MKV").write_bytes(b"x")
    assert same_stem_media(sub) == tmp_path / "film.MKV"          # video before audio, any case
    (tmp_path / "film.en.mp3").write_bytes(b"x")
    assert same_stem_media(sub) == tmp_path / "film.en.mp3"       # the full stem first


def test_same_stem_media_ignores_folders_and_dangling_links(tmp_path):
    sub = tmp_path / "film.srt"
    sub.write_text("")
    (tmp_path / "film.mkv").mkdir()
    (tmp_path / "film.mp4").symlink_to(tmp_path / "gone.mp4")
    assert same_stem_media(sub) is None


def test_media_ref_and_fingerprint(tmp_path):
    a = tmp_path / "a.wav"
    a.write_bytes(os.urandom(3 << 20))
    b = tmp_path / "b.wav"
    b.write_bytes(a.read_bytes())
    ref = media_ref(a)
    assert ref == MediaRef(a.resolve(), "a.wav", fingerprint(b))  # same bytes, same fingerprint
    assert MediaRef.from_dict(ref.as_dict()) == ref
    assert MediaRef.from_dict({"path": "x"}) is None and MediaRef.from_dict(None) is None
    data = bytearray(a.read_bytes())
    data[-1] ^= 0xFF  # the last MiB counts
    b.write_bytes(bytes(data))
    assert fingerprint(b) != ref.fingerprint


@pytest.mark.parametrize("make, message", [
    (lambda p: None, "no such media file"),
    (lambda p: p.mkdir(), "not a media file"),
    (lambda p: p.write_bytes(b""), "empty"),
])
def test_media_ref_errors(tmp_path, make, message):
    p = tmp_path / "film.mkv"
    make(p)
    with pytest.raises(MediaError, match=message):
        media_ref(p)


# ---------------------------------------------------------------- which span, which cue
def test_play_span_leads_and_clamps():
    assert play_span(2000, 3000) == play_span(2000, 3000, 300, 300)
    s = play_span(2000, 3000, 300, 300)
    assert (s.start_ms, s.end_ms, s.clipped) == (1700, 3300, False)
    s = play_span(100, 900, 300, 0)
    assert (s.start_ms, s.end_ms) == (0, 900)                     # never before 0
    s = play_span(5000, 7000, 300, 300, duration_ms=6000)
    assert (s.start_ms, s.end_ms, s.clipped) == (4700, 6000, True)  # the media ends first
    s = play_span(8000, 9000, 300, 300, duration_ms=6000)
    assert s.empty                                                  # the cue is past the media's end


def test_cue_at_gaps_and_overlaps():
    starts, ends = [500, 2100, 4000, 4500], [1800, 3400, 5500, 5000]
    assert [cue_at(starts, ends, t) for t in (0, 500, 1799, 1800, 2000, 3399, 4200, 4600, 5200, 6000)] == \
        [None, 0, 0, None, None, 1, 2, 3, 2, None]


# ---------------------------------------------------------------- which samples
def test_strip_window_spans_the_neighbours():
    starts, ends = [500, 2100, 4000], [1800, 3400, 5500]
    w = strip_window(starts, ends, 1)
    assert (w.start_ms, w.end_ms, w.cue_start_ms, w.cue_end_ms) == (500, 5500, 2100, 3400)
    w = strip_window(starts, ends, 0)
    assert (w.start_ms, w.end_ms) == (0, 3400)          # no previous cue: a margin, not below 0
    w = strip_window(starts, ends, 2)
    assert (w.start_ms, w.end_ms) == (2100, 6000)


@pytest.mark.parametrize("width, channels", [(1, 1), (2, 1), (2, 2), (3, 1)])
def test_read_wav_and_the_window_samples(tmp_path, width, channels):
    rate = 16000
    n = 6 * rate
    mono = np.zeros(n)
    mono[int(2.1 * rate):int(3.4 * rate)] = 0.5   # sound only during the middle cue
    samples = np.repeat(mono, channels)
    wave_ = read_wav(write_wav(tmp_path / "a.wav", samples, rate, width, channels))
    assert wave_.rate == rate and len(wave_.samples) == n and wave_.duration_ms == 6000
    tol = 1 / 64 if width == 1 else 1e-3
    assert np.allclose(wave_.samples, mono, atol=tol)
    w = strip_window([500, 2100, 4000], [1800, 3400, 5500], 1)
    assert w.samples(wave_) == (8000, 88000)
    assert w.cue_samples(wave_) == (33600, 54400)
    first, last = w.cue_samples(wave_)
    assert np.all(np.abs(wave_.samples[first:last] - 0.5) < tol)
    assert np.all(np.abs(wave_.samples[8000:first]) < tol) and np.all(np.abs(wave_.samples[last:88000]) < tol)


def test_peaks_cover_every_sample():
    samples = np.array([0, 1, -1, 0, 0.5, -0.25, 0, 0], dtype=np.float32)
    lo, hi = peaks(samples, 4)
    assert lo.tolist() == [0, -1, -0.25, 0] and hi.tolist() == [1, 0, 0.5, 0]
    lo, hi = peaks(samples, 20)                      # more columns than samples: empty ones stay 0
    assert hi.max() == 1 and lo.min() == -1 and len(lo) == 20
    assert [a.tolist() for a in peaks(np.zeros(0, dtype=np.float32), 3)] == [[0, 0, 0], [0, 0, 0]]


def test_read_wav_refuses_what_is_not_a_wav(tmp_path):
    bad = tmp_path / "film.wav"
    bad.write_bytes(b"RIFF\x00\x00\x00\x00WAVEnot really")
    with pytest.raises(MediaError, match="not a PCM WAV"):
        read_wav(bad)


@pytest.mark.parametrize("rate, new_rate", [(48000, 8000), (44100, 8820), (22050, 11025), (8000, 8000), (6000, 6000)])
def test_sound_thinned_chunk_by_chunk_keeps_each_blocks_peak_however_it_was_cut(rate, new_rate):
    """Decoded sound arrives in buffers of any length; its thinning must not depend on where they were cut,
    and each kept sample is the loudest of its block, so a click between two kept samples survives."""
    from subcase.media import Thinning

    rng = np.random.default_rng(3)
    samples = (rng.random(rate // 3 + 7) * 0.2 - 0.1).astype(np.float32)
    samples[1234] = -0.9  # a click
    whole = Thinning()
    whole.add(samples, rate)
    cut = Thinning()
    edges = np.sort(rng.choice(np.arange(1, len(samples)), 40, replace=False))
    for chunk in np.split(samples, edges):
        cut.add(chunk, rate)
    a, b = whole.waveform(), cut.waveform()
    assert a.rate == b.rate == new_rate
    assert np.array_equal(a.samples, b.samples)
    k = rate // new_rate
    assert len(a.samples) == len(samples) // k
    assert a.samples[1234 // k] == np.float32(-0.9)
    assert np.array_equal(a.samples[:5], [samples[i * k:(i + 1) * k][np.abs(samples[i * k:(i + 1) * k]).argmax()]
                                          for i in range(5)])
    assert Thinning().waveform().duration_ms == 0  # nothing decoded: an empty strip, not an error
