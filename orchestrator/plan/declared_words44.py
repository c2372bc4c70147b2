"""A workflow input the text names after its words, kept for the skill input its words say.

    WHAT YOU NEED: ..., bodyweight in kg on the day (bw_kg), ...     -> workflow input `bw_kg`
    c) DOG -> canine-dose-calc, same inputs as (b)     (reads `weight_kg`) -> weight_kg <- input bw_kg

A document that names its inputs after words ("said in the text as 'bodyweight in kg on the day'",
`spec.intro_inputs`, `spec.need_list44`) says what each one is. A skill input that no step before gives and
no input has as its name, whose name's every word is a word of exactly one such input's words (a word said
may end with it, four letters or more: "bodyweight" says `weight`; plural and singular are the same word),
is that input (`plan.input_names_kept` marks it, `plan.renamed_input` binds it, the planner warns at the
input). Two such inputs or two such skill inputs bind nothing: the unbound warning stays.
"""

from __future__ import annotations

import re

from orchestrator.plan.near_input import singular_word

_SAID = re.compile(r"^said in the text as '(.{1,200}?)'(?:;|$)")
_WORD = re.compile(r"[a-z0-9]++")
_ENDS_WITH = 4  # "bodyweight" says `weight`; a shorter word must be said whole


def said_words(description: str) -> str | None:
    """The words the text says an input in ("said in the text as '...'"), None when it says none."""
    m = _SAID.match(description)
    return m.group(1) if m is not None else None


def _says(word: str, said: list[str]) -> bool:
    w = singular_word(word)
    return any(singular_word(s) == w or (len(w) >= _ENDS_WITH and s.endswith(w)) for s in said)


def words_say(name: str, words: str) -> bool:
    """Every word of `name` (split at `_`) is a word of `words`, or the end of one (module docstring)."""
    parts = [p for p in name.lower().split("_") if p]
    said = _WORD.findall(words.lower())
    return bool(parts) and all(_says(p, said) for p in parts)
