"""ULIDs and clocks, both injectable so tests are reproducible.

A ULID is 48 bits of milliseconds and 80 random bits in Crockford base32 (26 characters).
``IdSource`` is monotonic: within one millisecond (or if the clock steps back) it increments
the random part, so ids from one source sort in the order they were made.
"""

from __future__ import annotations

import os
import random
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

__all__ = ["Clock", "IdSource", "is_ulid", "system_clock", "ulid_time"]

Clock = Callable[[], datetime]

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_ULID_RE = re.compile(r"[0-7][0-9A-HJKMNP-TV-Z]{25}")
_RANDOM_BITS = 80
_MAX_RANDOM = (1 << _RANDOM_BITS) - 1
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ONE_MS = timedelta(milliseconds=1)


def system_clock() -> datetime:
    """The wall clock, in UTC."""
    return datetime.now(UTC)


def is_ulid(value: str) -> bool:
    """True when ``value`` is a well-formed ULID (upper-case Crockford base32)."""
    return bool(_ULID_RE.fullmatch(value))  # not `$`: it would accept a trailing newline


def ulid_time(value: str) -> datetime:
    """The UTC time encoded in a ULID's first ten characters."""
    if not is_ulid(value):
        raise ValueError(f"{value!r} is not a ULID")
    ms = 0
    for char in value[:10]:
        ms = ms * 32 + _ALPHABET.index(char)
    return _EPOCH + ms * _ONE_MS


_PAIRS = [a + b for a in _ALPHABET for b in _ALPHABET]  # 10 bits -> two characters


def _time_chars(ms: int) -> str:
    """A ULID's first ten characters: its 48 bits of milliseconds (two leading zeros)."""
    p = _PAIRS
    return (
        p[ms >> 40 & 1023] + p[ms >> 30 & 1023] + p[ms >> 20 & 1023] + p[ms >> 10 & 1023]
        + p[ms & 1023]
    )  # fmt: skip


def _high_chars(high: int) -> str:
    """A ULID's 11th to 24th characters: the top 70 of its 80 random bits, ``high``, ten at a
    time, unrolled; the last ten bits are the last two characters. Ids made in one
    millisecond count up, so these change once in 1024 ids (a ULID is made for every event)."""
    p = _PAIRS
    return (
        p[high >> 60 & 1023] + p[high >> 50 & 1023] + p[high >> 40 & 1023]
        + p[high >> 30 & 1023] + p[high >> 20 & 1023] + p[high >> 10 & 1023] + p[high & 1023]
    )  # fmt: skip


class IdSource:
    """Makes monotonic ULIDs; thread-safe. Pass ``clock`` and ``rng`` to make them reproducible."""

    def __init__(self, clock: Clock = system_clock, rng: random.Random | None = None) -> None:
        self._clock = clock
        self._rng = rng
        self._lock = threading.Lock()
        self._last_ms = -1
        self._last_random = 0
        self._time = (-1, "")  # the last millisecond encoded and its characters
        self._high = (-1, "")  # the last random part's top 70 bits and their characters

    def _random(self) -> int:
        if self._rng is not None:
            return self._rng.getrandbits(_RANDOM_BITS)
        return int.from_bytes(os.urandom(10), "big")

    def now(self) -> datetime:
        """The injected clock's time, normalised to UTC."""
        moment = self._clock()
        if moment.utcoffset() is None:
            raise ValueError("the clock must return timezone-aware datetimes")
        return moment.astimezone(UTC)

    def new(self, moment: datetime | None = None) -> str:
        """A new ULID for ``moment`` (default: now), greater than every earlier one."""
        if moment is None:
            moment = self.now()
        elif moment.utcoffset() is None:  # a naive time would silently be read as local time
            raise ValueError("moment must be timezone-aware")
        return self._at(moment)

    def stamp(self) -> tuple[datetime, str]:
        """``(now(), new(that moment))`` with one reading of the clock: an event's time and id."""
        # the system clock's time is UTC already: nothing to check or convert (every event)
        moment = datetime.now(UTC) if self._clock is system_clock else self.now()
        return moment, self._at(moment)

    def _at(self, moment: datetime) -> str:
        ms = (moment - _EPOCH) // _ONE_MS  # exact: float timestamps can round down a ms
        if ms < 0:
            raise ValueError(f"a ULID cannot encode {moment.isoformat()}, before 1970")
        with self._lock:
            if ms <= self._last_ms:
                ms = self._last_ms
                if self._last_random >= _MAX_RANDOM:  # 2^80 ids in one ms: borrow the next ms
                    ms += 1
                    self._last_random = self._random() >> 1
                else:
                    self._last_random += 1
            else:
                # Leave headroom so increments within the millisecond cannot overflow.
                self._last_random = self._random() >> 1
            self._last_ms = ms
            if self._time[0] != ms:  # ids made within one millisecond share these
                self._time = (ms, _time_chars(ms))
            n = self._last_random
            if self._high[0] != n >> 10:
                self._high = (n >> 10, _high_chars(n >> 10))
            return self._time[1] + self._high[1] + _PAIRS[n & 1023]
