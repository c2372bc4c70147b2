"""A gather said on a step's Input line in words that are no field names: still read as a gather.

    ## bucket
    - **Tool:** `bucket-changes`
    - **Takes:** everything `classify` produced, all PRs together

The Input line ("Takes", "Feed", "Input") is read into field names (`spec.fields`); a clause that
is no name ("all PRs together", "every blurb from the loop") was warned (`spec.field`) and then lost
to the planner: the step's other text did not say the gather, so its skill's list input
(`classified`) was given nothing. `spec.steps34a` keeps the Input line's words; `says_every`
searches them after the step's text, for the one rule that reads them: a plural input that nothing
else gives takes the results of the nearest `For each` step before it, gathered (`plan.mapping`,
warned as ever). No other reading sees those words (a retry or a condition written there is still
not the step's).
"""

from __future__ import annotations

import re
from typing import Protocol

from orchestrator.spec.model import StepSpec
from orchestrator.spec.steps34a import input_words


class _Searches(Protocol):
    def search(self, text: str) -> re.Match[str] | None: ...


def says_every(says: _Searches, text: str, step: StepSpec) -> re.Match[str] | None:
    """`says.search` (a `SaysGather`) over the step's text, then over its Input line's words."""
    found = says.search(text)
    if found is None and (words := input_words(step)):
        found = says.search(words)
    return found
