"""A value a step's own text names that comes from outside the run.

A skill's instructions say it reads `ledger_csv`; no step outputs it; the step's text says "parse-ledger
on ledger_csv" (or `ledger_csv`, =ledger_csv=): that name is a workflow input, written where the step
says what it runs on. A plain word counts only when it looks like a name (it has an underscore or a
digit: "ledger_csv", "q3_rows"), so that an everyday word ("the date") is not taken for one.

When the text names each value its skill reads this way (or the value is a workflow input or an
earlier output by that name), the other values the text mentions in passing ("same time as the
invoices one") are no inputs of the step and make it wait for nothing.

The document's intro may name such a value in words instead ("Needs the batch id ..., plus the target
ABV off the recipe card" for `target_abv`): every part of a name with an underscore, in order, as
words (`said_in_words`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_EACH = re.compile(r"(?i)\b(?:for|with|on)\s+(?:each|every)\b")


def _plain(name: str, text: str) -> bool:
    """`name` as a word that looks like a name (an underscore or a digit), outside backticks, in a text
    that does not fan out ("for every user ... the user's last_login": a field of each item)."""
    if not re.search(r"[_\d]", name) or _EACH.search(text):
        return False
    return re.search(rf"(?<![\w`-]){re.escape(name)}(?![\w`-])", text) is not None


def said_in_words(name: str, text: str) -> bool:
    """`name` (two or more parts joined by underscores) written as those words in order ("target ABV",
    "batch-id") in `text`, case aside."""
    parts = [p for p in name.split("_") if p]
    if len(parts) < 2 or len(parts) > 4 or any(not p.isalpha() for p in parts):
        return False
    words = r"[\s-]{1,3}".join(re.escape(p) for p in parts)
    return re.search(rf"(?i)(?<![\w-]){words}(?![\w-])", text) is not None


def written_as_name(name: str, text: str) -> bool:
    """`name` in backticks in `text`, or the word itself when it looks like a name (module docstring)."""
    return f"`{name}`" in text or _plain(name, text)


def said_by_name(wanted: Iterable[str], given: set[str], text: str) -> bool:
    """True when the text writes, as a plain word, at least one of the names its skill reads that nothing
    gives, and every name the skill reads is either given (a workflow input, an earlier output) or so
    written. (A name in backticks may be the target of a value named before it: "`hit` as `x`".)"""
    names = list(wanted)
    outside = [n for n in names if n not in given and _plain(n, text)]
    return bool(outside) and all(n in given or n in outside for n in names)


def how_to_name(name: str, text: str) -> str:
    """What to write so that `name` takes the value meant: never what the text already says."""
    if written_as_name(name, text):
        return (f"the text already names `{name}`: if it comes from outside the run, declare it in an Inputs "
                f"section (`- {name}: ...`); if from a step, write `{name} (from Step N)`")
    return f"write `{name}` in the step's text next to the value it takes"
