"""Waveform samples: a WAV read with the standard library, decoded sound thinned as it
arrives, and the stretch of samples the strip shows for a cue (the cue with its neighbours)."""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .lookup import MediaError


@dataclass
class Waveform:
    """Mono samples in [-1, 1] at ``rate`` per second."""

    samples: np.ndarray
    rate: int

    @property
    def duration_ms(self) -> int:
        return int(len(self.samples) * 1000 // self.rate) if self.rate else 0

    def index(self, ms: int) -> int:
        """The sample at ``ms``, clamped to the samples there are."""
        return max(0, min(len(self.samples), int(round(ms * self.rate / 1000))))


# The strip draws at most a few thousand columns for a few seconds of sound: 8 kHz mono
# keeps a two-hour film's samples at 230 MB of float32 less than at 48 kHz stereo.
WAVEFORM_RATE = 8000


class Thinning:
    """Mono samples thinned to about WAVEFORM_RATE as they arrive, chunk by chunk: of each block of k
    samples the one of largest magnitude (so peaks survive), k a whole divisor of the rate so the new
    rate is whole too.  The blocks run on across chunks, so the result is the same however the sound
    was cut; a two-hour film is never held at its full rate."""

    def __init__(self) -> None:
        self.rate = 0
        self.k = 1
        self._carry = np.zeros(0, dtype=np.float32)
        self._kept: list[np.ndarray] = []

    def add(self, samples: np.ndarray, rate: int) -> None:
        if not self.rate:
            self.rate, self.k = rate, _block(rate)
        data = np.concatenate([self._carry, samples.astype(np.float32, copy=False)]) if len(self._carry) else samples
        usable = len(data) - len(data) % self.k
        if self.k > 1:
            blocks = data[:usable].reshape(-1, self.k)
            self._kept.append(blocks[np.arange(len(blocks)), np.abs(blocks).argmax(axis=1)])
        else:
            self._kept.append(data[:usable])
        self._carry = np.array(data[usable:], dtype=np.float32)

    def waveform(self) -> Waveform:
        samples = np.concatenate(self._kept) if self._kept else np.zeros(0, dtype=np.float32)
        return Waveform(np.ascontiguousarray(samples, dtype=np.float32), (self.rate or WAVEFORM_RATE) // self.k)


def _block(rate: int) -> int:
    k = max(1, rate // WAVEFORM_RATE)
    while rate % k:
        k -= 1
    return k


@dataclass(frozen=True)
class WaveformWindow:
    """What the strip shows: ``start_ms``..``end_ms`` (the previous cue's start to the next
    cue's end), with the current cue's span marked at ``cue_start_ms``..``cue_end_ms``."""

    start_ms: int
    end_ms: int
    cue_start_ms: int
    cue_end_ms: int

    def samples(self, wave_: Waveform) -> tuple[int, int]:
        """First and one-past-last sample index of the window."""
        return wave_.index(self.start_ms), wave_.index(self.end_ms)

    def cue_samples(self, wave_: Waveform) -> tuple[int, int]:
        return wave_.index(self.cue_start_ms), wave_.index(self.cue_end_ms)


def strip_window(starts_ms: list[int], ends_ms: list[int], row: int, margin_ms: int = 500) -> WaveformWindow:
    """The window for cue ``row``: from its previous cue's start to its next cue's end
    (``margin_ms`` either side when it has no neighbour there)."""
    cue_start, cue_end = starts_ms[row], ends_ms[row]
    start = starts_ms[row - 1] if row > 0 else cue_start - margin_ms
    end = ends_ms[row + 1] if row + 1 < len(ends_ms) else cue_end + margin_ms
    return WaveformWindow(max(0, min(start, cue_start)), max(end, cue_end), cue_start, cue_end)


def peaks(samples: np.ndarray, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) of each of ``columns`` equal slices of ``samples`` (zeros where a slice is empty)."""
    columns = max(1, columns)
    lo = np.zeros(columns, dtype=np.float32)
    hi = np.zeros(columns, dtype=np.float32)
    n = len(samples)
    if n == 0:
        return lo, hi
    edges = np.linspace(0, n, columns + 1).astype(np.int64)
    full = edges[1:] > edges[:-1]
    idx = edges[:-1][full]
    lo[full] = np.minimum.reduceat(samples, idx)
    hi[full] = np.maximum.reduceat(samples, idx)
    return lo, hi


def read_wav(path: Path) -> Waveform:
    """A PCM WAV as mono float32 (channels averaged).  MediaError if it is not one."""
    try:
        with wave.open(str(path), "rb") as w:
            channels, width, rate, frames = w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
            raw = w.readframes(frames)
    except (wave.Error, EOFError) as exc:
        raise MediaError(f"not a PCM WAV file ({exc})", path) from None
    except OSError as exc:
        raise MediaError(f"cannot be read ({exc.strerror or exc})", path) from None
    if width == 1:
        data = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128.0) / 128.0
    elif width == 2:
        data = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0
    elif width == 3:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        data = (np.where(v >= 1 << 23, v - (1 << 24), v)).astype(np.float32) / float(1 << 23)
    elif width == 4:
        data = np.frombuffer(raw, dtype="<i4").astype(np.float32) / float(1 << 31)
    else:
        raise MediaError(f"unsupported WAV sample width {width}", path)
    usable = len(data) - len(data) % max(1, channels)
    if channels > 1:
        data = data[:usable].reshape(-1, channels).mean(axis=1)
    return Waveform(np.ascontiguousarray(data, dtype=np.float32), rate)
