"""What a list holds, in the author's words: "the list of patients due (`due`)", "`good` (the sheets that pass)".

A step said to run "once per patient on the overdue list" or "for every sheet that passed
validation" loops over a list an earlier step makes. `plan.fan_words` finds that list by names:
the skill reads `patient` and a step before outputs `patients`, or the words count the list by its
name. Often the list has a name of its own (`due`, `good`) and no declared type, and only its words
say what it holds: the step that makes it says "Comes back with the list of patients due for a
cleaning (`due`)", its skill's SKILL.md says "`good` (the sheets that pass, route upper-cased)". A
person reads the loop from those words: the list that holds patients is the one to go through.

This module reads those words; `plan.fan_made` keeps them per step and `plan.fan_words` asks them.

- `described_fields(text, names)`: the words said about each of `names` in a step's text: the words
  right before `(`name`)` back to the clause's start, and the words in a parenthesis or after a
  colon or dash right after `` `name` ``.
- `held_items(words)`: the one-item words (singular, lower case) the words say a list holds: each
  plural noun of the first clause ("the list of **patients**", "the **sheets** that pass") and a
  noun before a word for records ("the overdue **patient** objects", "one **route** row each").
"""

from __future__ import annotations

from collections.abc import Iterable

from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_TICKED = _rx(r"`([A-Za-z_][\w-]*+)`")
_WORDS = _rx(r"[A-Za-z][a-z-]*+")
# where the words about a name stop: a clause's end, markup, another parenthesis
_STOPS = ".;:,()`*[]|\n"
# words for one record of a list: "patient objects", "order records", "route rows"
_RECORDS = frozenset(("objects", "records", "entries", "rows", "dicts", "items", "structs", "lines", "documents",
                      "docs", "elements", "members"))
# words ending in s that are no plural noun, or that count nothing a step loops over
_NOT_PLURAL = frozenset((
    "this", "has", "was", "is", "does", "its", "yes", "less", "unless", "always", "us", "thus", "plus", "gets",
    "goes", "gives", "returns", "drops", "makes", "says", "keeps", "takes", "reads", "writes", "sends", "needs",
    "counts", "numbers", "totals", "sums", "ids", "names", "details", "results", "outputs", "values", "fields",
    "keys", "days", "hours", "minutes", "seconds", "times", "bytes", "whereas", "perhaps", "besides", "sometimes",
    "towards", "afterwards", "contains", "holds", "lists", "matches", "passes", "fails", "means", "as", "comes",
))


def _one(word: str) -> str:
    """`patients` -> `patient`, `batches` -> `batch`, `entries` -> `entry` (lower case)."""
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ches", "shes", "sses", "xes", "zes")):
        return w[:-2]
    return w[:-1] if w.endswith("s") and not w.endswith(("ss", "us", "is")) else w


def _clause_before(text: str, end: int, reach: int = 120) -> str:
    """The words of `text` before `end` back to the clause's start (at most `reach` characters)."""
    start = max(0, end - reach)
    cut = max(text.rfind(c, start, end) for c in _STOPS)
    return text[max(start, cut + 1):end].strip()


def _clause_after(text: str, start: int, reach: int = 120) -> str:
    """The words of `text` from `start`: a parenthesis's, or those after a colon or dash, to a stop."""
    rest = text[start:start + reach].lstrip()
    if rest.startswith("("):
        close = rest.find(")")
        return rest[1:close if close > 0 else len(rest)].strip()
    for lead in (":", "—", "–", "- ", "= "):
        if rest.startswith(lead):
            rest = rest[len(lead):]
            cut = min((i for i in (rest.find(c) for c in ".;()`*|\n") if i >= 0), default=len(rest))
            return rest[:cut].strip()
    return ""


def described_fields(text: str, names: Iterable[str]) -> dict[str, str]:
    """The words said about each of `names` (a backticked name) in `text`: before `(`name`)` and after it."""
    wanted = {n.lower(): n for n in names}
    said: dict[str, list[str]] = {}
    for m in _TICKED.finditer(text):
        name = wanted.get(m.group(1).lower())
        if name is None:
            continue
        words: list[str] = []
        before = text[:m.start()].rstrip()
        if before.endswith("(") and text[m.end():m.end() + 3].lstrip().startswith(")"):
            words.append(_clause_before(before, len(before) - 1))  # "the list of patients due (`due`)"
        words.append(_clause_after(text, m.end()))  # "`good` (the sheets that pass)", "`good`: the sheets ..."
        said.setdefault(name, []).extend(w for w in words if w)
    return {name: "; ".join(words) for name, words in said.items() if words}


def held_items(words: str) -> frozenset[str]:
    """The one-item words (singular, lower case) a list's `words` say it holds (module docstring)."""
    found: set[str] = set()
    for clause in words.split(";"):
        cut = min((i for i in (clause.find(c) for c in ",.:(") if i >= 0), default=len(clause))
        said = [w.lower() for w in _WORDS.findall(clause[:cut])]
        for i, word in enumerate(said):
            if word in _RECORDS and i and said[i - 1] not in _NOT_PLURAL and len(said[i - 1]) > 2:
                found.add(_one(said[i - 1]))  # "patient objects": patients
            elif len(word) > 3 and word not in _NOT_PLURAL and word not in _RECORDS and _one(word) != word:
                found.add(_one(word))
    return frozenset(found)


_rx.save()
