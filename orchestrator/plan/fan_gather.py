r"""A gather said in words: a step that takes all the results of a `For each` step before it.

"all the results", "every assessment" and "the whole pile of" were read before (`mapping.SAYS_EVERY`).
People also say it with a verb or a noun of gathering: the scores "are then consolidated", "roll
all of those up", "a roll-up of the stats", "combine the blurbs", "collect the verdicts", "tally",
"pool", "merged into one table", "the resulting scores", "all of them", "in one go", a set
written as maths (`$\{d_r\}_{r \in R}$`). `GATHER_WORDS`
holds them (a skill's own name, `aggregate-scores`, `merge-stats`, is not a word of the text). When
such a step's skill reads a name that no workflow input and no step before gives, that name is the
nearest `For each` step's results, gathered in item order (`mapping`): each item's field of the
name's singular when the loop's output has one (`scores` from each item's `score`: `gathered_pointer`),
else each item's whole output.

"together" about starting is no gather: "kick both off together", "start the scan and the tally
together", "together, at the same time" start steps at once (`blank_start_together` blanks that
`together`, so `SaysGather.search` does not take it for "put the results together").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)

# the alternation, without flags: `mapping.SAYS_EVERY` ends with it
GATHER_SOURCE = (
    r"(?<![\w-])(?:consolidat(?:e|es|ing|ion)|roll(?:s|ed|ing)?(?:[\s-]++(?:\w++\s++){0,4}?up|-up|up)"
    r"|combin(?:e|es|ing)|collect(?:s|ing)?|aggregat(?:e|es|ing)|merg(?:e|es|ing)|tall(?:y|ies|ied)|pool(?:s|ing)?"
    r"|gather(?:s|ing)?|the\s++resulting\s++\w++s|all\s++of\s++(?:them|those|these)"
    # "-ed" only as a verb ("are then consolidated", "merged into one"): "the merged PRs" gathers nothing
    r"|(?:(?:are|is|were|was|be|get|gets|got)\s++(?:then\s++|all\s++|first\s++)?)(?:consolidat|combin|collect|aggregat"
    r"|merg|pool|gather)ed|(?:consolidat|combin|collect|aggregat|merg|pool|gather)ed(?=\s++(?:into|together|in\s++one))"
    r"|in\s++one\s++go|\\\{\s*+[A-Za-z]++_\{?[A-Za-z0-9]++\}?\s*+\\\}_\{?\s*+\w++\s*+(?:\\in|∈)|the\s++full\s++(?:set|list)|(?:put|bring|fold)s?\s++(?:\w++\s++){0,5}?together|together)(?![\w-])")
GATHER_WORDS = _rx(f"(?i){GATHER_SOURCE}")

# a verb of starting, up to 8 words, then `together`; or `together` then "at once"/"in parallel"
_START_TOGETHER = _rx(
    r"(?i)(?<![\w-])(?:kick(?:s|ed|ing)?+|start(?:s|ed|ing)?+|fire[sd]?+|firing|launch(?:es|ed|ing)?+|begin(?:s|ning)?+"
    r"|began|run(?:s|ning)?+|ran|spin(?:s|ning)?+|spun|go|goes|went|happen(?:s|ed|ing)?+)(?![\w-])"
    r"(?:\s++[\w'`,-]++){0,8}?\s++(?P<t>together)(?![\w-])"
    r"|(?<![\w-])(?P<u>together)(?:,\s*+|\s++)(?:at\s++once|at\s++the\s++same\s++time|in\s++parallel|simultaneously)")


def blank_start_together(text: str) -> str:
    """`text` with each `together` that is about starting at once ("kick both off together")
    blanked to spaces of its length, so the gather words do not read it."""
    if "ogether" not in text:
        return text
    spans = [m.span("t") if m.group("t") else m.span("u") for m in _START_TOGETHER.finditer(text)]
    for a, b in spans:
        text = text[:a] + " " * (b - a) + text[b:]
    return text


class SaysGather:
    """A gather pattern that does not read a `together` about starting at once (`blank_start_together`)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(blank_start_together(text))


def singular(word: str) -> str:
    """`replies` -> `reply`, `batches` -> `batch`, `prs` -> `pr`: a plural's one, lower case."""
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes", "zes")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith("ss") else w


def is_plural(name: str) -> bool:
    """`blurbs`, `all_stats`, `results`, `classified`: a name for a list (its last word a plural or a
    participle standing for the things so treated), not `edition` or `total`."""
    last = name.rsplit("_", 1)[-1].lower()
    return singular(last) != last or (last.endswith("ed") and len(last) > 4)


def gathered_pointer(name: str, item_fields: Iterable[str]) -> str:
    """The pointer into each item's output for a gathered `name`: `/score` for `scores` when the
    loop's items output `score`; "" (each item's whole output) otherwise."""
    fields = set(item_fields)
    one = singular(name)
    if one != name.lower() and one in fields:
        return f"/{one}"
    return ""


_rx.save()
