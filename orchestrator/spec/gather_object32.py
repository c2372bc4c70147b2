"""A skill named as the object of a gather is where the step's input comes from, not the step's skill.

    3) collect every dock-fill answer and build the truck plan   → `dock-fill`'s results are gathered here;
    merge all the fetch-page results into one index                 the step runs the other skill it names
    sum each price-job output, then print-sheet                     (`rebalance-plan`, `index-build`, ...)

A bare hyphenated skill name after "every", "each", "all (of) (the)" and before a word for what a step gives back
("answer", "result", "output", "reply", "response", "finding", "row", "record", in the singular or plural) is that
earlier step's results, so it is not taken as the name of the step's own skill (`spec.step`'s plain names); the
step's skill is then the other name it says, or its words decide, as when no name is said.
"""

from __future__ import annotations

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_GATHERED = _rx(r"(?i)\b(?:every|each|all(?:[ \t]++of)?+(?:[ \t]++the)?+)[ \t]++([a-z][a-z0-9]*+(?:-[a-z0-9]++)++)"
                r"(?:'s)?+[ \t]++(?:answers?|results?|outputs?|repl(?:y|ies)|responses?|findings?|rows?|records?)\b")


def gathered_names(text: str) -> frozenset[str]:
    """The skill names `text` speaks of as results to gather (module docstring)."""
    return frozenset(name.lower() for name in _GATHERED.findall(text))


_rx.save()
