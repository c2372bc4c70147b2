"""A step whose text holds the list of the run's inputs and then names one of them again in the same words
(round 54).

    0540 ... Inputs for the run: species, catch kg off the deck scale, and port of landing.
    0548 Grade-catch run on species and catch kg -> gives grade and kg_net.

A log or memo read as one step holds the inputs sentence itself, so its words alone say nothing of the name
(`plan.prose_inputs.author_name` keeps the skill's `kg`). But when the step's text says "catch kg" more
often than the list does - its own clause names the value again - the author calls it `catch_kg`
(`said_again`). A step that says the words only where it holds the list keeps the skill's name.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["said_again"]


def _count(tokens: Sequence[str], run: Sequence[str]) -> int:
    n = len(run)
    return sum(list(tokens[i:i + n]) == list(run) for i in range(len(tokens) - n + 1)) if n else 0


def said_again(step: Sequence[str], lists: Sequence[Sequence[str]], words: Sequence[str]) -> bool:
    """Whether the step's tokens say `words` more often than the list's parts it holds (`lists`, each a part's
    tokens, counted as often as the step holds that part) do: the step names the value again, outside the list."""
    if not words:
        return False
    in_lists = sum(_count(part, words) * _count(step, part) for part in lists if part)
    return _count(step, words) > in_lists
