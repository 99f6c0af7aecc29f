"""TTML time expressions (begin, end, dur) in milliseconds, with the document's timing parameters.

Clock times ("00:00:01.500", with frames "00:00:01:12" and sub-frames "00:00:01:12.1") and offset
times ("1.5s", "90f", "4500000t", "2m") are read; frames and ticks use ttp:frameRate,
ttp:frameRateMultiplier, ttp:subFrameRate and ttp:tickRate as TTML defines their defaults.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

# Digits are bounded so that no time anyone wrote is refused and no absurd one costs int() time.
_CLOCK_RE = re.compile(r"([0-9]{2,9}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9})|:([0-9]{2,9})(?:\.([0-9]{1,9}))?)?")
_OFFSET_RE = re.compile(r"([0-9]{1,12}(?:\.[0-9]{1,9})?)(h|ms|m|s|f|t)")


@dataclass(frozen=True, slots=True)
class Rates:
    frame_rate: Fraction  # effective frames per second (frameRate times frameRateMultiplier)
    sub_frame_rate: int
    tick_rate: int


def rates(params: dict[str, str]) -> Rates:
    """The rates from the root element's ttp: attributes (by local name); bad values use defaults."""
    def number(key: str, default: int) -> int:
        value = params.get(key, "").strip()
        return int(value) if value.isascii() and value.isdigit() and 0 < int(value) < 10**9 else default
    frame_rate = Fraction(number("frameRate", 30))
    multiplier = params.get("frameRateMultiplier", "").split()
    if len(multiplier) == 2 and all(m.isascii() and m.isdigit() and 0 < int(m) < 10**9 for m in multiplier):
        frame_rate *= Fraction(int(multiplier[0]), int(multiplier[1]))
    sub = number("subFrameRate", 1)
    # TTML1 10.2.9: without ttp:tickRate, frameRate x subFrameRate if a frame rate is given, else 1.
    tick = number("tickRate", int(frame_rate * sub) if "frameRate" in params else 1)
    return Rates(frame_rate, sub, max(tick, 1))


def parse_ms(value: str, r: Rates) -> int | None:
    """A time expression in milliseconds, None if it is not one."""
    value = value.strip()
    if m := _CLOCK_RE.fullmatch(value):
        hours, minutes, seconds, fraction, frames, sub = m.groups()
        whole = (int(hours) * 60 + int(minutes)) * 60 + int(seconds)
        if not frames:  # the usual HH:MM:SS.mmm, in integers
            return whole * 1000 + (round(int(fraction) * 1000 / 10 ** len(fraction)) if fraction else 0)
        total = Fraction(whole)
        if fraction:
            total += Fraction(int(fraction), 10 ** len(fraction))
        if frames:
            total += Fraction(int(frames)) / r.frame_rate
        if sub:
            total += Fraction(int(sub)) / r.sub_frame_rate / r.frame_rate
        return round(total * 1000)
    if m := _OFFSET_RE.fullmatch(value):
        units, _, decimals = m.group(1).partition(".")
        number = Fraction(int(units + decimals), 10 ** len(decimals))  # (Fraction(str) is 5 times slower)
        unit = {"h": Fraction(3600), "m": Fraction(60), "s": Fraction(1), "ms": Fraction(1, 1000),
                "f": 1 / r.frame_rate, "t": Fraction(1, r.tick_rate)}[m.group(2)]
        return round(number * unit * 1000)
    return None


def clock(ms: int) -> str:
    """Milliseconds as the clock time subcase writes: HH:MM:SS.mmm."""
    ms = max(ms, 0)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"
