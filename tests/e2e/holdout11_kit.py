"""What the holdout11 e2e tests share (tests/fixtures/foreign-specs-holdout11, specs 69-74): each spec's
plan through the real `skillweave plan`, made once a module (`plans`), and what its expect.yaml says of
each step, of the whole run and of each line that carries a policy, a condition, an approval or a
success check, put in the plan's terms so a test can say "read as meant" or "warned at its line".

expect.yaml gives conditions and approvals in words ("step 2 output foreign_count > 0"); `WHEN` and
`APPROVAL` below are those words as the plan's expressions (with `#N` for the plan id of the author's
step N), with the line each is said at. An otherwise is read as meant when it is the negation of its
other branch's condition, or an expression listed beside it that means the same for the values said."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from foreign_kit import FIXTURES, folders_of, line_of, plan_json, policy_misses, reduce_dependencies
from foreign_kit import expectation as _expectation

HOLDOUT = FIXTURES / "foreign-specs-holdout11"
FOLDERS = folders_of(HOLDOUT)
QPCR, PAYOUT, VANS, GATE, FACTS, TRIP = FOLDERS

# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    (PAYOUT, 3): (26, ("steps['#2'].output.foreign_count > 0",)),
    # "#3a didn't happen (no foreign payees)": foreign_count is a count, so 0 and "not > 0" are one case
    (PAYOUT, 4): (36, ("not (steps['#2'].output.foreign_count > 0)", "not steps['#2'].output.foreign_count",
                       "steps['#2'].output.foreign_count == 0")),
    (GATE, 4): (16, ("steps['#3'].output.green", "steps['#3'].output.green is true")),
    (GATE, 5): (17, ("not (steps['#3'].output.green)", "not (steps['#3'].output.green is true)")),
    (TRIP, 3): (15, ("steps['#1'].output.missing_count > 0",)),
    (TRIP, 4): (19, ("not (steps['#1'].output.missing_count > 0)", "steps['#1'].output.missing_count == 0")),
}
# (folder, author's step number) -> the step's approval meant (its line is expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (PAYOUT, 3): {"required": True, "timeout_s": 86400.0, "on_timeout": "reject",
                  "when": "steps['#2'].output.gross_total > 20000"},
    (TRIP, 5): {"required": True, "timeout_s": 21600.0, "on_timeout": "reject",
                "when": "steps['#2'].output.quote_total > 800"},
}
# warnings about a step's skill, shape or inputs: none of them says how a policy or check line was read
NOT_ABOUT_THE_LINE = {"spec.anchored", "derived-inputs", "ambiguous-input", "plan.input-not-given", "spec.field",
                      "plan.inputs-in-prose", "spec.field-type", "spec.unknown-label", "spec.placed"}


class Plans:
    """Each folder's plan JSON, planned on first use."""

    def __init__(self) -> None:
        self._got: dict[str, dict[str, Any]] = {}

    def __getitem__(self, folder: str) -> dict[str, Any]:
        if folder not in self._got:
            self._got[folder] = plan_json(spec_of(folder))
        return self._got[folder]


def plans_fixture() -> Callable[[], Plans]:
    """A module-scoped fixture `plans` (bind it to that name): one plan per spec for the module."""

    @pytest.fixture(scope="module", name="plans")
    def plans() -> Plans:
        return Plans()

    return plans


@functools.cache
def expect(folder: str) -> dict[str, Any]:
    """The folder's expect.yaml, read once (the cases read it hundreds of times)."""
    return _expectation(HOLDOUT / folder)


def spec_of(folder: str) -> Path:
    return HOLDOUT / folder / expect(folder)["spec"]


def meant_steps(folder: str) -> dict[int, dict[str, Any]]:
    return {m["number"]: m for m in expect(folder)["steps"]}


def ids_of(plan: dict[str, Any], folder: str) -> dict[int, str]:
    """The author's step numbers -> the id of the plan step that runs that step's skill."""
    by_skill = {s["skill"]: s["id"] for s in reversed(plan["steps"])}
    return {n: by_skill[m["skill"]] for n, m in meant_steps(folder).items() if m["skill"] in by_skill}


def step_of(plan: dict[str, Any], folder: str, number: int) -> dict[str, Any]:
    sid = ids_of(plan, folder)[number]
    return dict(next(s for s in plan["steps"] if s["id"] == sid))


def _expr(text: str, ids: dict[int, str]) -> str:
    return re.sub(r"#(\d+)", lambda m: ids.get(int(m[1]), "?"), text)


def meant_input(said: Any, ids: dict[int, str]) -> dict[str, Any]:
    """The keys of a plan input binding that expect.yaml's source in words fixes (holdout11's words:
    "workflow input x", "each item of step N output f (the whole item)", "each item's field f", "all
    results of step N, gathered", "step N or step M output f (whichever ran)", "step N output f", or
    a value written in the spec)."""
    text = str(said)
    if text.startswith("workflow input"):
        return {"source": "input", "name": text.split()[-1]}
    if text.startswith("each item of"):
        return {"source": "item", "pointer": ""}
    if text.startswith("each item's field"):
        return {"source": "item", "pointer": f"/{text.split()[-1]}"}
    if m := re.fullmatch(r"all results of step (\d+), gathered", text):
        return {"source": "step", "step": ids.get(int(m[1])), "pointer": "", "gather": True}
    if m := re.fullmatch(r"step (\d+) or step (\d+) output (\w+) \(whichever ran\)", text):
        return {"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[2]), "?")]),
                "pointer": f"/{m[3]}"}
    if m := re.fullmatch(r"step (\d+) output (\w+)", text):
        return {"source": "step", "step": ids.get(int(m[1])), "pointer": f"/{m[2]}"}
    return {"source": "literal", "value": said if not isinstance(said, str) else text.split(" (")[0]}


def aspects(folder: str) -> list[tuple[int, str]]:
    """(author's step number, aspect) for each thing expect.yaml says of each step."""
    out = []
    for n, m in meant_steps(folder).items():
        out += [(n, "skill"), (n, "depends_on"), (n, "for_each"), (n, "condition"), (n, "approval")]
        out += [(n, "join")] if m.get("join") else []
        out += [(n, f"input {name}") for name in m["inputs"]]
    return out


def misread(plan: dict[str, Any], folder: str, number: int, aspect: str) -> str | None:
    """None when the plan has the step's aspect as expect.yaml means it; else what the plan has."""
    meant, ids = meant_steps(folder)[number], ids_of(plan, folder)
    if number not in ids:
        return f"no plan step runs `{meant['skill']}`"
    step = step_of(plan, folder, number)
    if aspect == "skill":
        at = plan["steps"][number - 1]["skill"] if number <= len(plan["steps"]) else None
        return None if at == meant["skill"] else f"step {number} of the plan runs {at}"
    if aspect in ("depends_on", "join"):
        numbers = {sid: n for n, sid in ids.items()}
        got = reduce_dependencies({numbers.get(s["id"], s["id"]): {numbers.get(d, d) for d in s["depends_on"]}
                                   for s in plan["steps"]})[number]
        want = reduce_dependencies({n: set(m["depends_on"]) for n, m in meant_steps(folder).items()})[number]
        if aspect == "join":
            return None if step.get("join") == "any" and got == want else f"join {step.get('join')}, after {got}"
        return None if got == want else f"after {sorted(map(str, got))}"
    if aspect == "for_each":
        fe, over = step["for_each"], meant["for_each"]
        if over is None:
            return None if fe is None else f"for each {fe}"
        said = re.fullmatch(r"step (\d+) output (\w+)", over["over"])
        assert said, over
        src = (fe or {}).get("source") or {}
        return None if (src.get("step"), src.get("pointer")) == (ids.get(int(said[1])), f"/{said[2]}") else f"for each {fe}"
    if aspect == "condition":
        _line, whens = WHEN.get((folder, number), (0, (None,)))
        return None if step["when"] in [w and _expr(w, ids) for w in whens] else f"when {step['when']!r}"
    if aspect == "approval":
        want = APPROVAL.get((folder, number))
        got = step["policy"]["approval"]
        ok = got == ({**want, "when": _expr(want["when"], ids)} if want else None)
        return None if ok else f"approval {got}"
    name = aspect.removeprefix("input ")
    bound, want = step["inputs"].get(name), meant_input(meant["inputs"][name], ids)
    if bound is None:
        return "not bound"
    got = {k: sorted(bound[k]) if k == "any_of" and bound.get(k) else bound.get(k) for k in want}
    return None if got == want else f"bound to {bound}"


def line_items(folder: str) -> list[tuple[str, int, int, int]]:
    """(kind, line, author's step number or 0, n-th of that kind on the line) for each line of the
    spec that carries a policy, a condition, an approval, a whole-run limit or a success check."""
    meant = expect(folder)
    out: list[tuple[str, int, int, int]] = []
    for w in meant.get("workflow_policies") or []:
        out.append(("limit", int(w["line"]), 0, 0))
    if meant.get("success_criteria"):
        out.append(("success", int(meant["success_criteria"]["line"]), 0, 0))
    for n, m in meant_steps(folder).items():
        seen: dict[int, int] = {}
        for p in m["policies"]:
            seen[p["line"]] = seen.get(p["line"], -1) + 1
            out.append(("policy", int(p["line"]), n, seen[p["line"]]))
        if (folder, n) in WHEN:
            out.append(("condition", WHEN[(folder, n)][0], n, 0))
        if m.get("approval"):
            out.append(("approval", int(m["approval_lines"]["line"]), n, 0))
    return out


def read_as_meant(plan: dict[str, Any], folder: str, kind: str, line: int, number: int, nth: int) -> bool:
    meant = expect(folder)
    if kind == "limit":
        [w] = [w for w in meant["workflow_policies"] if w["line"] == line]
        where = plan["limits_provenance"]["wall_time_s"].get("where")
        return plan["limits"]["wall_time_s"] == w["meaning"]["timeout_s"] and line_of(where) in (line, line - 1)
    if kind == "success":
        return any(w.get("line") == line and w["code"] == "spec.success" and "is read as the run's success check"
                   in w["message"] for w in plan["warnings"])
    if kind in ("condition", "approval"):
        return misread(plan, folder, number, kind) is None
    if number not in ids_of(plan, folder):
        return False
    policy = [p for p in meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
    return policy_misses(step_of(plan, folder, number)["policy"], policy["meaning"]) == []


def warned_at(plan: dict[str, Any], folder: str, kind: str, line: int, number: int, nth: int) -> list[str]:
    """The plan's warnings about how the item's line was read, at its line (or where its sentence
    starts, when expect.yaml's notes say so)."""
    lines = {line}
    if kind == "policy":
        policy = [p for p in meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
        lines |= {int(n) for n in re.findall(r"starts on line (\d+)", policy.get("notes") or "")}
    return [w["message"] for w in plan["warnings"] if w.get("line") in lines and w["code"] not in NOT_ABOUT_THE_LINE
            and Path(w.get("file") or "").name == spec_of(folder).name]
