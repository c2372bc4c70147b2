"""Where a step's inputs come from, said in prose rather than in a reference.

    Input: `left` = the orders rows from step 2, `key` = "customer_id"
        `left` comes from step 2's output (the field the words name: `rows`);
        `key` is the literal "customer_id"
    Input: `ref` = page_id (if paged) or ticket_id
        `ref` is one of several values, whichever exists (`spec.either_input`): its
        description keeps them, for the planner to find each one's step
    - 9 gets `license_issues` (2), `vulns` (4) and `max_severity` (3).
    - 7 gets `license_issues` from 2, `banned` from 3 and `vulns` from 4.
        (a line of the steps section) step 9's and step 7's inputs, each from the step named

A source read here is explicit: it wins over every other binding rule (docs/spec-format.md,
"Where inputs come from").
"""

from __future__ import annotations

import re
from typing import Any

from orchestrator.spec.blocks import Block, Bullet, Para
from orchestrator.spec.either_input import alternatives
from orchestrator.spec.fields import NUMBER, STEP_WORD, source_of, split_top, step_id
from orchestrator.spec.model import FieldSpec, Reading, StepSpec
from orchestrator.spec.regex_cache import Patterns
from orchestrator.spec.source import Source

_rx = Patterns(__name__)  # its regexes compiled once per install (`spec.regex_cache`)

_ASSIGN = _rx(r"^\s*`?([A-Za-z_]\w*)`?\s*(?:=|:=|←|<-|⟵|⇐|<--)\s*(.+?)\s*$")
_FROM = _rx(rf"(?i)^(?P<words>.*?)\s*\b(?:from|of|out\s+of)\s+(?:the\s+)?(?P<step>{STEP_WORD}\s*[\s_-]*{NUMBER})"
            r"(?:['’]s)?(?:\s+output)?\s*$")
# "price from 2" in a steps table's cell: a row by its number alone, at the end of the words
_FROM_ROW = _rx(r"(?i)^(?P<words>[A-Za-z][^\n]{0,60}?)\s++from\s++(?:(?:row|#)\s*+)?(?P<step>\d{1,3}+)$")
_REF = _rx(r"^`?(?:(step[\s_-]*\d+)|steps\.([\w-]+)\.output)\.([\w.]+)`?$", re.I)
_VARIABLE = _rx(r"[$#]\{\s*+([A-Za-z_]\w*+)\s*+\}")  # not `{{ x }}`: a template
_GETS = _rx(rf"(?i)^\W*(?:{STEP_WORD}\s+)?(?P<n>\d+|{NUMBER})\s+(?:gets|takes|reads|receives|needs)\s+(?P<rest>.+)$")
_GOT = _rx(rf"(?i)`(?P<name>[A-Za-z_]\w*)`\s*(?:\(\s*(?:from\s+)?(?:{STEP_WORD}\s*)?(?P<a>\d+)\s*\)|"
           rf"from\s+(?:{STEP_WORD}\s*)?(?P<b>\d+)\b)?")


def literal_value(text: str) -> tuple[bool, Any]:
    """A quoted text, a number or true/false: (True, the value); else (False, None)."""
    t = text.strip().rstrip(".,;")
    quoted = re.fullmatch(r"[\"'“‘](.*)[\"'”’]", t)
    if quoted:
        return True, quoted.group(1)
    if re.fullmatch(r"-?\d+", t):
        return True, int(t)
    if re.fullmatch(r"-?\d+\.\d+", t):
        return True, float(t)
    if t.lower() in ("true", "false"):
        return True, t.lower() == "true"
    return False, None


def assignment(part: str, where: str) -> tuple[FieldSpec | None, tuple[str, Any] | None]:
    """`name = <value>` -> (a field with its source, None) or (None, (name, literal)); (None,
    None) when `part` is not an assignment."""
    m = _ASSIGN.match(part)
    if m is None:
        return None, None
    name, value = m.group(1), m.group(2).strip()
    held = _VARIABLE.fullmatch(value)  # `${receipts}`, `#{receipts}`: a process variable by its name
    value = held.group(1) if held is not None else value
    arrow = bool(re.match(r"^\s*`?[A-Za-z_]\w*`?\s*(?:←|<-|⟵|⇐)", part))
    short = source_of(value, name, bare_number=arrow)
    if short is not None:  # `raw_alert ← input`, `service ← #1`, `level <- step 1`, `x = parse.service`
        return FieldSpec(name=name, required=False, source=short, where=where), None
    found, literal = literal_value(value)
    if found:
        return None, (name, literal)
    if alternatives(value) is not None:  # `ref` = page_id (if paged) or ticket_id: the planner picks each step's
        return FieldSpec(name=name, required=False, description=value, where=where), None
    ref = _REF.match(value)
    if ref is not None:
        sid = step_id(ref.group(1)) if ref.group(1) else ref.group(2)
        return FieldSpec(name=name, required=False, source=f"steps.{sid}.output.{ref.group(3)}", where=where), None
    source = _FROM.match(value.strip("` ")) or _FROM_ROW.match(value.strip("` "))
    if source is not None and (sid := step_id(source.group("step")) or step_id(f"step {source.group('step')}")):
        words = source.group("words").strip()
        return FieldSpec(name=name, required=False, source=f"steps.{sid}.output", description=words,
                         where=where), None
    bare = re.fullmatch(r"`?([A-Za-z_]\w*)`?", value)
    if bare is not None:
        return FieldSpec(name=name, required=False, source=bare.group(1), where=where), None
    return None, None


def assignments(text: str, where: str) -> tuple[list[FieldSpec], dict[str, Any], list[str]]:
    """An Input line's parts: the assignments read (fields, literals) and the other parts."""
    fields: list[FieldSpec] = []
    literals: dict[str, Any] = {}
    rest: list[str] = []
    for part in split_top(text):
        field, literal = assignment(part, where)
        if field is not None:
            fields.append(field)
        elif literal is not None:
            literals[literal[0]] = literal[1]
            fields.append(FieldSpec(name=literal[0], required=False, where=where))
        else:
            rest.append(part)
    return fields, literals, rest


def gets_sentence(text: str) -> tuple[str, list[tuple[str, str | None]]] | None:
    """"9 gets `license_issues` (2), `vulns` (4)" -> ("step-9", [(name, "step-2"), ...]); a
    name without a step is (name, None). None when the text does not say so."""
    m = _GETS.match(text.strip())
    if m is None:
        return None
    target = step_id(f"step {m.group('n')}")
    found: list[tuple[str, str | None]] = []
    for g in _GOT.finditer(m.group("rest")):
        number = g.group("a") or g.group("b")
        found.append((g.group("name"), f"step-{number}" if number else None))
    if target is None or not found:
        return None
    for i in range(len(found) - 2, -1, -1):  # "`verdict` and `reasons` (9)": both from 9
        if found[i][1] is None:
            found[i] = (found[i][0], found[i + 1][1])
    return target, found


def attach_gets(steps: list[StepSpec], blocks: list[Block], src: Source) -> tuple[list[StepSpec], set[int]]:
    """Lines of a steps section that say what a step gets ("9 gets `vulns` (4)"): each named
    input joins that step's inputs with its source; the lines read are returned."""
    by_id = {s.id: i for i, s in enumerate(steps)}
    read: set[int] = set()
    for block in blocks:
        if not isinstance(block, Bullet | Para):
            continue
        found = gets_sentence(block.text)
        if found is None or found[0] not in by_id:
            continue
        target, names = found
        step = steps[by_id[target]]
        have = {f.name for f in step.inputs}
        where = src.where(block.line)
        added = [FieldSpec(name=name, required=False, where=where,
                           source=f"steps.{sid}.output.{name}" if sid and sid != target else None)
                 for name, sid in names if name not in have]
        reading = Reading(what="input", where=where, text=" ".join(block.text.split())[:160],
                          note="inputs " + ", ".join(f"{n} from {s}" if s else n for n, s in names))
        steps[by_id[target]] = step.model_copy(update={"inputs": (*step.inputs, *added),
                                                       "readings": (*step.readings, reading)})
        read.add(block.line)
    return steps, read


_rx.save()
