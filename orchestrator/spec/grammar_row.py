"""One row of the policy grammar (`spec.grammar`): a phrasing, the slot it fills, what it needs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Row:
    """One phrasing: the slot it fills, its pattern, and what else it needs or gives."""

    slot: str
    pattern: str
    needs: str | None = None  # must match somewhere in the sentence
    value: Any = None  # a constant the slot takes ("doubling" → factor 2), or a reason (VAGUE, DOUBT)
    also: tuple[str, ...] = ()  # more slots the row fills ("fail", "class:timeout")
    unless: tuple[str, ...] = ()  # DOUBT rows: not reported when one of these slots was read
