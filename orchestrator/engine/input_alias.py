"""A run's input given under another name than the one the planner read for it.

When the spec declares no inputs, the planner names them itself: from what the skills read
(`rates`) or from the author's words (`panel_sheet`), warned. Whoever starts the run may call a
value otherwise: `comp_rates` for the skill's `rates`. Such a key is taken as the plan's input
when:

- the plan's inputs are its own reading (a warning says so: `derived-inputs`, `plan.inputs-in-prose`);
- the plan takes the input and the run gives no value for it;
- the names are close (`plan.near_input`: one is a run of the other's words at its end or start,
  or its plural or singular): `comp_rates` ~ `rates`, `sheet` ~ `panel_sheet`;
- each word of the key the input's name lacks is said, whole or as its start ("comp" for
  "competitor"), by the skill of a step that takes the input (its description) or by the words the
  input was read from: "Takes the competitor rates" agrees that `comp_rates` are its `rates`;
- exactly one input fits the key, and no other key fits that input: two are a guess, refused as an
  unknown input, which names both sides.

A key that differs from one plan input only in letter case (`APP_LOG` for `app_log`, as a CI
file's variables and its steps spell the same value) is that input whatever read the plan's inputs,
when exactly one input is so spelled and the run gives no value under its own name.

Each key so taken is said (`notes`): the front end prints it with how to give it plainly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from orchestrator.plan.model import Plan
from orchestrator.plan.near_input import close_names, singular_word

_WORD = re.compile(r"[a-z0-9]+")
_OWN_READING = frozenset({"derived-inputs", "plan.inputs-in-prose"})


def _said_by(plan: Plan, name: str) -> str:
    """What the skills of the steps that take input `name` and the input itself say, lower-cased."""
    skills = {s.skill for s in plan.steps for b in s.inputs.values() if b.source == "input" and b.name == name}
    texts = [plan.skills[k].description for k in skills if k in plan.skills]
    texts += [str(i.schema_.get("description", "")) for i in plan.inputs if i.name == name]
    return " ".join(texts).lower()


def _agrees(key: str, name: str, said: str) -> bool:
    own = {singular_word(w) for w in name.lower().split("_")}
    words = [w for w in _WORD.findall(said)]
    extra = [w for w in key.lower().split("_") if singular_word(w) not in own]
    return all(len(w) >= 3 and any(s.startswith(w) for s in words) for w in extra)


def input_aliases(plan: Plan, given: Iterable[str]) -> dict[str, str]:
    """Each key of `given` the plan does not take -> the plan input it is taken as (module docstring)."""
    given = list(given)
    names = {i.name for i in plan.inputs}
    open_names = [n for n in sorted(names) if n not in given]
    fits: dict[str, list[str]] = {}
    for key in given:
        if key not in names and len(spelled := [n for n in open_names if n.lower() == key.lower()]) == 1:
            fits[key] = spelled  # `APP_LOG` for `app_log`: the same name in other letters
    if not any(w.code in _OWN_READING for w in plan.warnings):
        taken = [n for found in fits.values() for n in found]
        return {key: found[0] for key, found in fits.items() if taken.count(found[0]) == 1}
    for key in given:
        if key in names or key in fits:
            continue
        found = [n for n in open_names if close_names(key, n) and _agrees(key, n, _said_by(plan, n))]
        if len(found) == 1:
            fits[key] = found
    taken = [n for found in fits.values() for n in found]
    return {key: found[0] for key, found in fits.items() if taken.count(found[0]) == 1}


def alias_notes(aliases: Mapping[str, str]) -> list[str]:
    """What to print for each key taken as another input."""
    return [f"input {key!r} is taken as the plan's input {name!r} (the same name in other letter case): give it as "
            f"{name!r} to say so plainly" if key.lower() == name.lower() else
            f"input {key!r} is taken as the plan's input {name!r} (the spec declares no inputs; the planner read "
            f"this one as {name!r}): to say so plainly give it as {name!r}, or declare `{key}` in the spec's Inputs "
            "section" for key, name in aliases.items()]
