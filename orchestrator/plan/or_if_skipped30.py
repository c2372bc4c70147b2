"""A value said for an input whose producer may not run: "rooms from ( iv ) if it ran (otherwise it's just 1 room)".

    rooms from ( iv ) if it ran (otherwise it's just 1 room)     rooms <- step-4's rooms, or 1 if it did not run
    the discount from step 3, or 0 if it was skipped              discount <- step-3's discount, or 0
    seats = what the booking step gave, else 2 when it didn't run seats <- the booking step's seats, or 2
    lane from the triage step if any, otherwise "standard"        lane <- the triage step's lane, or "standard"
    order_t from (c), put 0 if (c) did not happen                 order_t <- step c's order_t, or 0

A step whose input is bound to an earlier step's output (a step with a condition, which may be skipped)
and whose text, in the clause that names the input, says both that the step may not have run ("if it
ran", "if it was skipped", "when it didn't run", "if any") and a value for that case ("otherwise N",
"else N", "or N", "otherwise it's just N room", "put N if (c) did not happen", "write N"), takes that value when the producer has no output
(`InputBinding.if_skipped`; the engine gives it instead of leaving the input out). The value is a
number, true/false or a quoted string; words alone ("otherwise skip it") are no value. The clause runs
from the input's name to the next clause naming another input the skill reads, or the sentence's end.
Each reading is warned at the step with what it means, and the plan's input line shows it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection
from typing import Any

from orchestrator.errors import Diagnostic
from orchestrator.plan.location import from_spec, warning_at
from orchestrator.plan.model import InputBinding, Provenance
from orchestrator.spec.model import StepSpec
from orchestrator.spec.regex_cache import Patterns

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

CODE = "plan.if-skipped"

# the producer may not run: "if it ran", "if it was skipped", "when it didn't run", "if any"
_MAYBE = _rx(r"(?i)(?<![\w-])(?:if|when|in[ \t]++case)[ \t]++(?:it|that|they|the[ \t]++step|(?:step[ \t]++)?+"
             r"(?:\([ \t]*+[a-z\d]{1,6}+[ \t]*+\)|[\divxlc]{1,6}+))[ \t]++(?:ran|runs|did[ \t]++run|was[ \t]++run|has[ \t]++run|"
             r"was[ \t]++skipped|is[ \t]++skipped|got[ \t]++skipped|didn['’]t[ \t]++run|did[ \t]++not[ \t]++run|"
             r"wasn['’]t[ \t]++run|was[ \t]++not[ \t]++run|never[ \t]++ran|did[ \t]++not[ \t]++happen|"
             r"didn['’]t[ \t]++happen|never[ \t]++happened|happened)(?![\w-])|(?<![\w-])if[ \t]++any(?![\w-])")
# the value for that case: "otherwise it's just 1 room", "else 0", "or 2 if skipped", 'otherwise "standard"'
_VALUE = _rx(r"(?i)(?<![\w-])(?:otherwise|else|or|put|write|enter|record)[ \t,]*+(?:(?:it|that)(?:['’]s|[ \t]++is|[ \t]++will[ \t]++be)"
             r"[ \t]++|use[ \t]++|take[ \t]++)?+(?:just[ \t]++|only[ \t]++|simply[ \t]++)?+"
             r"(?P<v>-?\d{1,12}+(?:\.\d{1,6}+)?+(?![\w.])|true(?![\w-])|false(?![\w-])|\"[^\"\n]{1,60}+\"|"
             r"'[^'\n]{1,60}+'|“[^”\n]{1,60}+”)")
_END = _rx(r"\.(?:[ \t]|$)")
_CUE = _rx(r"(?i)otherwise|else|[ \t]or[ \t]|(?<![\w-])(?:put|write|enter|record)[ \t]")


def _value(said: str) -> Any:
    if said[0] in "\"'“":
        return said[1:-1]
    if said.lower() in ("true", "false"):
        return said.lower() == "true"
    return json.loads(said) if said.lstrip("-").replace(".", "", 1).isdigit() else said


def _clause(text: str, name: str, others: Collection[str]) -> str | None:
    """The words from the first naming of `name` to the next naming of another input, or the sentence's end."""
    at = re.search(rf"(?i)(?<![\w-]){re.escape(name)}(?![\w-])", text)
    if at is None:
        return None
    rest = text[at.start():at.start() + 300]
    end = len(rest)
    if (stop := _END.search(rest)) is not None:
        end = stop.start()
    for other in others:
        if other != name and (o := re.compile(rf"(?i)(?<![\w-]){re.escape(other)}(?![\w-])").search(rest, len(name))) is not None:
            end = min(end, o.start())
    return rest[:end]


def read_if_skipped(step: StepSpec, text: str, bindings: dict[str, InputBinding], provenance: dict[str, Provenance],
                    conditional: Collection[str], path: str) -> list[Diagnostic]:
    """Set `if_skipped` on each step binding whose clause says a value for a producer that did not run
    (module docstring); the warnings, one per reading."""
    found: list[Diagnostic] = []
    if not _CUE.search(text):
        return found
    for name, binding in list(bindings.items()):
        if binding.source != "step" or binding.step is None or binding.if_skipped is not None \
                or binding.step not in conditional:
            continue
        clause = _clause(text, name, bindings)
        if clause is None or _MAYBE.search(clause) is None or (v := _VALUE.search(clause)) is None:
            continue
        value = _value(v.group("v"))
        bindings[name] = binding.model_copy(update={"if_skipped": value, "optional": True})
        old = provenance.get(f"inputs.{name}")
        note = (old.note + "; " if old is not None else "") + f"or {value!r} if {binding.step} did not run " \
                                                              f"('{' '.join(clause.split())[:80]}')"
        provenance[f"inputs.{name}"] = from_spec(step.where, note)
        found.append(warning_at(step.where, path, f"{step.id} ({step.name}): '{' '.join(clause.split())[:80]}' is "
                                f"read as: `{name}` from {binding.step}, or {value!r} when {binding.step} did not run "
                                f"(its condition was false); if another value is meant, write it after 'otherwise'",
                                CODE))
    return found


_rx.save()
