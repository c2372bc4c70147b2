"""A success check that compares a yes/no output with 1/0, yes/no or Y/N, read as true/false (round 54).

    The run is OK when file-report comes back filed=1.        (file-report: "Outputs: filed (true/false)")
    Done when `posted` is Y.                                  (an output schema: posted {type: boolean})
    - Success criteria: paid == yes                           (a skill that says nothing of `paid`'s kind)

The readers give such a check `{"const": 1}` (or "yes", "Y"), which a skill that answers `true` never meets:
the run ended failed on the author's own success. The check is compiled here against what the step's skill
says of the field:

- boolean (its output schema's `type`, or its instructions' words after the name: "(true/false)", "(true or
  false)", "(boolean)", "(bool)", "(a flag)"): 1, yes, y, true -> `true`; 0, no, n, false -> `false`
  (`filed == true`);
- not known (no schema type, no such words): the value as written and its truth both pass (`filed == 1 or
  true`), as either may be what the skill answers;
- any other kind said (integer, string, "(text)", "(whole number)"): left as written.

What was done is said in the check's written form, which the plan shows ("filed == true (file-report's
`filed` is true/false: 1 read as true)"). Only a check of one field against one such value is changed.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import RunCheck
from orchestrator.plan.wanted import Instructions
from orchestrator.spec.model import ContractSpec

_TRUE = frozenset({"1", "yes", "y", "true"})
_FALSE = frozenset({"0", "no", "n", "false"})
_BOOL_ABOUT = re.compile(r"(?i)^\W*(?:true\s*(?:/|or)\s*false|false\s*(?:/|or)\s*true|boolean|bool|a\s+flag)\b")
_OTHER_ABOUT = re.compile(r"(?i)^\W*(?:text|string|whole\s+number|number|integer|int|count|list|date|object)\b")


def _truth(value: object) -> bool | None:
    if isinstance(value, bool):
        return None
    said = str(value).strip().lower() if isinstance(value, int | str) else ""
    return True if said in _TRUE else False if said in _FALSE else None


def field_kind(field: str, skill: BoundSkill | None, instructions: Mapping[str, Instructions]) -> str | None:
    """"boolean", "other" or None (not known) for a skill's output field."""
    if skill is None:
        return None
    props = (skill.output_schema or {}).get("properties") or {}
    said = props.get(field) if isinstance(props, dict) else None
    kinds = said.get("type") if isinstance(said, dict) else None
    kinds = [kinds] if isinstance(kinds, str) else kinds if isinstance(kinds, list) else []
    if "boolean" in kinds:
        return "boolean"
    if kinds:
        return "other"
    named = next((n for n in (instructions.get(skill.name) or Instructions()).outputs if n.name == field), None)
    if named is not None and named.about:
        return "boolean" if _BOOL_ABOUT.match(named.about) else "other" if _OTHER_ABOUT.match(named.about) else None
    return None


def _keywords(keywords: dict[str, Any], kind: str | None) -> tuple[dict[str, Any], str] | None:
    """The field's check compiled for its kind, and what was done; None when left as it is."""
    if set(keywords) != {"const"} or kind == "other":
        return None
    truth = _truth(keywords["const"])
    if truth is None:
        return None
    shown = "true" if truth else "false"
    if kind == "boolean":
        return {"const": truth}, f"{keywords['const']!s} read as {shown}"
    return {"enum": [keywords["const"], truth]}, f"its kind is not known: {keywords['const']!s} and {shown} both pass"


def _schema(schema: dict[str, Any], skill: BoundSkill | None, instructions: Mapping[str, Instructions],
            ) -> tuple[dict[str, Any], list[str]]:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return schema, []
    out = copy.deepcopy(schema)
    notes: list[str] = []
    for name, keywords in props.items():
        if not isinstance(keywords, dict):
            continue
        kind = field_kind(name, skill, instructions)
        got = _keywords(keywords, kind)
        if got is not None:
            out["properties"][name] = got[0]
            notes.append(f"`{name}` is true/false: {got[1]}" if kind == "boolean" else f"`{name}`: {got[1]}")
    return out, notes


def _written(written: str, notes: list[str], skill: BoundSkill | None) -> str:
    for note in notes:
        value = note.rsplit(" read as ", 1)[-1] if " read as " in note else None
        if value is not None:
            written = re.sub(r"==\s*+\S++", f"== {value}", written, count=1)
    return f"{written} ({(skill.name + ': ') if skill else ''}{'; '.join(notes)})" if notes else written


def truth_checks(contracts: Sequence[ContractSpec], checks: Sequence[RunCheck], bound: Mapping[str, BoundSkill],
                 instructions: Mapping[str, Instructions]) -> tuple[list[ContractSpec], tuple[RunCheck, ...]]:
    """The step contracts and the run's checks, each yes/no check compiled for its field's kind (module docstring)."""
    out_checks: list[RunCheck] = []
    for check in checks:
        skill = bound.get(check.step)
        schema, notes = _schema(check.schema_, skill, instructions)
        out_checks.append(check.model_copy(update={"schema_": schema, "written": _written(check.written, notes, skill)})
                          if notes else check)
    out: list[ContractSpec] = []
    for c in contracts:
        skill = bound.get(c.producer)
        if c.consumer is not None or c.json_schema is not None or not c.constraints:
            out.append(c)
            continue
        constraints = dict(c.constraints)
        changed = False
        for name, keywords in c.constraints.items():
            if name == "":
                schema, notes = _schema(keywords, skill, instructions)
            else:
                got = _keywords(keywords, field_kind(name, skill, instructions))
                schema, notes = (got[0], [got[1]]) if got else (keywords, [])
            if notes:
                constraints[name] = schema
                changed = True
        out.append(c.model_copy(update={"constraints": constraints}) if changed else c)
    return out, tuple(out_checks)
