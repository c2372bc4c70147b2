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
"""

from __future__ import annotations

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
