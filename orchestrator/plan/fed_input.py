"""A workflow input told apart from another by its first words, taken by the step whose text says them.

    You'll be asked for: the EDC AE listing export and the safety DB case listing.
    ## A. Pull the AE listing         **Feed:** the EDC listing export      (skill reads `rows`)
    ## B. Pull the safety cases       **Feed:** the safety DB case listing  (skill reads `listing`)

Both things could be the `listing` a skill reads, so `plan.prose_inputs` names them by their first
words: `edc_listing` and `safety_listing`. A step whose text says every word of exactly one such name
("edc" and "listing") takes that input: as the skill input it was told apart for when its skill reads
that name, else as the one name its skill reads that nothing before gives (a guess, warned at the
step). A step whose text says the words of two such names, or none, takes neither.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from orchestrator.plan.near_input import singular_word
from orchestrator.plan.prose_inputs import TOLD_APART
from orchestrator.spec.model import InputSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_NOT_WORD = _rx(r"[^0-9a-z]++")


def _words(text: str) -> set[str]:
    return {singular_word(w) for w in _NOT_WORD.split(text.lower()) if w}


def told_apart_inputs(said: Sequence[InputSpec]) -> dict[str, str]:
    """Each input named by its first words (`plan.prose_inputs.told_apart`) -> the skill input it could be."""
    return {i.name: i.description.rsplit(TOLD_APART, 1)[1] for i in said if TOLD_APART in i.description}


def fed_input(text: str, reads: Collection[str], given: Collection[str],
              told: Mapping[str, str]) -> tuple[str, str, bool] | None:
    """(skill input, workflow input, a guess) for the one told-apart input whose words the step's `text`
    says; `reads`: the names its skill reads, `given`: those something else gives. None when none fits."""
    said = _words(text)
    fits = [own for own in told if _words(own.replace("_", " ")) <= said]
    if len(fits) != 1:
        return None
    own = fits[0]
    if told[own] in reads:
        return told[own], own, False
    left = [n for n in reads if n not in given]
    return (left[0], own, True) if len(left) == 1 else None


_rx.save()
