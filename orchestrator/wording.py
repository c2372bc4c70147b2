"""Counts in messages: `1 step`, `2 steps`, `1 retry`, `0 retries`."""

from __future__ import annotations

_IRREGULAR = {"retry": "retries", "entry": "entries"}


def count(n: int, noun: str) -> str:
    """`n` and `noun`, plural unless `n` is 1."""
    return f"{n} {noun if n == 1 else _IRREGULAR.get(noun, noun + 's')}"
