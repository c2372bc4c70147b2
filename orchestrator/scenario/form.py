"""Read a Testing Plan entry's structured form (see `orchestrator.scenario`) into a ScenarioCase."""

from __future__ import annotations

import json
import re
from typing import Any

from orchestrator.plan.model import Plan, Scenario
from orchestrator.scenario.model import (
    FAULT_KINDS,
    METRICS,
    RUN_STATUSES,
    STEP_STATUSES,
    Expectation,
    Fault,
    FormError,
    ScenarioCase,
)

_CLAUSE = re.compile(r"(?<![\w-])(inputs?|faults?|approve|reject|expect(?:ed)?)\s*:", re.IGNORECASE)
_STEP_N = re.compile(r"^step\s+(\d+)\s*(.*)$", re.IGNORECASE | re.DOTALL)
_TIMES = re.compile(r"^(?:[x×]\s*(\d+)|(\d+)\s*(?:[x×]|times?)|(once)|(twice)|(always))$", re.IGNORECASE)
_METRIC = re.compile(r"^(\w+)\s*(==|=|>=|<=)\s*(\d+)$")


def split_items(text: str) -> list[str]:
    """Split on `;` and `,` outside brackets, braces and quotes; drop empty items."""
    items: list[str] = []
    current: list[str] = []
    depth, quote = 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'" and not (ch == "'" and current and current[-1].isalnum()):
            quote = ch
        elif ch in "[{(":
            depth += 1
        elif ch in "]})":
            depth = max(0, depth - 1)
        elif ch in ";," and depth == 0:
            items.append("".join(current))
            current = []
            continue
        current.append(ch)
    items.append("".join(current))
    return [i.strip() for i in items if i.strip()]


def read_clauses(description: str) -> dict[str, str]:
    """Keyword (inputs, fault, approve, reject, expect) -> the text up to the next keyword."""
    found: dict[str, str] = {}
    marks = list(_CLAUSE.finditer(description))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(description)
        key = m.group(1).lower().rstrip("s").replace("expected", "expect")
        text = description[m.end() : end].strip().rstrip(".").strip()
        found[key] = f"{found[key]}; {text}" if key in found else text
    return found


def _step_ref(text: str, plan: Plan, clause: str) -> tuple[str, str]:
    """(step id, the rest) of `STEP rest`."""
    m = _STEP_N.match(text)
    if m and any(s.id == f"step-{m.group(1)}" for s in plan.steps):
        return f"step-{m.group(1)}", m.group(2).strip()
    head, _, rest = text.partition(" ")
    if not any(s.id == head for s in plan.steps):
        known = ", ".join(s.id for s in plan.steps)
        raise FormError(f"{clause}: no step {head!r} in the plan (steps: {known})")
    return head, rest.strip()


def _times(text: str, item: str) -> int | None:
    if not text:
        return 1
    m = _TIMES.match(text.strip())
    if m is None:
        raise FormError(f"Fault {item!r}: cannot read {text!r} as a count (once, twice, xN, N times, always)")
    if m.group(5):
        return None
    times = 1 if m.group(3) else 2 if m.group(4) else int(m.group(1) or m.group(2))
    if times < 1:
        raise FormError(f"Fault {item!r}: a fault fires at least once ({text.strip()!r}); drop the clause instead")
    return times


def _fault(item: str, plan: Plan) -> Fault:
    step, rest = _step_ref(item, plan, f"Fault {item!r}")
    kind, _, tail = rest.partition(" ")
    kind = kind.lower().replace("_", "-")
    if kind == "returns":
        try:
            value, end = json.JSONDecoder().raw_decode(tail.strip())
        except ValueError as exc:
            raise FormError(f"Fault {item!r}: `returns` needs a JSON value ({exc})") from None
        return Fault(step=step, kind=kind, value=value, times=_times(tail.strip()[end:], item), text=item)
    if kind not in FAULT_KINDS:
        raise FormError(f"Fault {item!r}: unknown fault {kind!r} (one of: {', '.join(FAULT_KINDS)})")
    return Fault(step=step, kind=kind, times=_times(tail, item), text=item)


def _input_value(plan: Plan, name: str, raw: str) -> Any:
    spec = next((i for i in plan.inputs if i.name == name), None)
    if spec is None and plan.inputs:
        known = ", ".join(i.name for i in plan.inputs)
        raise FormError(f"Inputs: the plan has no input {name!r} (inputs: {known})")
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        return raw[1:-1] if raw[0] == "'" else json.loads(raw)
    kind = spec.schema_.get("type") if spec is not None else None
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return raw
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _expectation(item: str, plan: Plan) -> Expectation:
    words = item.lower().split()
    if words and words[0] in ("run", "the") and len(words) > 1:
        words = words[1:] if words[0] == "run" else words[2:] if words[1] == "run" else words
    if len(words) == 1 and words[0] in RUN_STATUSES:
        return Expectation(text=item, check="run", value=words[0])
    if len(words) == 2 and words[0] == "limit":
        return Expectation(text=item, check="limit", value=item.split()[-1])
    step, rest = _step_ref(item, plan, f"Expect {item!r}")
    low = rest.lower().replace(" ", "_")
    if low in STEP_STATUSES:
        return Expectation(text=item, check="status", step=step, value=low)
    if low in ("retried", "regenerated", "compensated"):
        return Expectation(text=item, check=low, step=step)  # type: ignore[arg-type]
    m = _METRIC.match(rest.replace(" ", ""))
    if m and m.group(1) in METRICS:
        return Expectation(text=item, check="metric", step=step, metric=m.group(1), op=m.group(2).replace("==", "="),
                           value=int(m.group(3)))
    # `=`, or blanks holding a space: each blank read once (a run of them is not split many ways)
    fb = re.match(r"^fallback(?:\s*+=|[^\S ]*+ )\s*+(\w+)$", rest, re.IGNORECASE)
    if fb:
        return Expectation(text=item, check="fallback", step=step, value=fb.group(1).lower())
    raise FormError(
        f"Expect {item!r}: cannot read it (a run status, `limit NAME`, or STEP followed by a status, retried, "
        f"regenerated, compensated, `METRIC=N` or `fallback=ACTION`)"
    )


def read_case(scenario: Scenario, plan: Plan) -> ScenarioCase | None:
    """The scenario's structured form; None when it has no `Expect:`. FormError when unreadable."""
    clauses = read_clauses(scenario.description)
    if "expect" not in clauses:
        return None
    inputs: dict[str, Any] = {}
    for item in split_items(clauses.get("input", "")):
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise FormError(f"Inputs: {item!r} is not NAME=VALUE")
        inputs[name.strip()] = _input_value(plan, name.strip(), raw.strip())
    approvals: dict[str, bool] = {}
    for key, verdict in (("approve", True), ("reject", False)):
        for item in split_items(clauses.get(key, "")):
            approvals[_step_ref(item, plan, f"{key.title()} {item!r}")[0]] = verdict
    expectations = tuple(_expectation(i, plan) for i in split_items(clauses["expect"]))
    if not expectations:
        raise FormError("Expect: names nothing to check")
    return ScenarioCase(
        name=scenario.name,
        where=scenario.where,
        inputs=inputs,
        faults=tuple(_fault(i, plan) for i in split_items(clauses.get("fault", ""))),
        approvals=approvals,
        expectations=expectations,
    )
