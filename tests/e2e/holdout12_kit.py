"""What the holdout12 e2e tests share (tests/fixtures/foreign-specs-holdout12, specs 75-80): holdout11_kit's
readings of expect.yaml against the plan, for this folder, with the source words holdout12's expect.yaml
adds ("workflow input x, field f", "step N output f or step M output f (whichever ran)", "workflow input
x (or step N output x)", a source with a parenthetical note) and its conditions and approvals.

`WHEN` and `APPROVAL` are expect.yaml's conditions and approvals in words, as the plan's expressions (with
`#N` for the plan id of the author's step N), with the line each is said at; an expression listed beside
another means the same for the values said (a count's `not failed` is `failed == 0`)."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from foreign_kit import FIXTURES, folders_of, line_of, plan_json, policy_misses, reduce_dependencies
from foreign_kit import expectation as _expectation
from holdout11_kit import NOT_ABOUT_THE_LINE as _SHAPE_WARNINGS

HOLDOUT = FIXTURES / "foreign-specs-holdout12"
FOLDERS = folders_of(HOLDOUT)
BREW, LOAN, SUBS, WARD, PODCAST, PERMIT = FOLDERS

_FAILED = "steps['#3'].output.failed"
_BIG = "steps['#1'].output.est_cost > 50000 or steps['#1'].output.work_type == 'structural'"
# (folder, author's step number) -> (the line the condition is said at, the `when` expressions meant)
WHEN: dict[tuple[str, int], tuple[int, tuple[str, ...]]] = {
    # `failed` is a count: "nothing failed" is == 0, not failed, not > 0
    (BREW, 4): (10, (f"{_FAILED} == 0", f"not {_FAILED}", f"not ({_FAILED} > 0)")),
    (BREW, 5): (11, (f"{_FAILED} > 0", _FAILED, f"{_FAILED} != 0", f"not ({_FAILED} == 0)")),
    (PERMIT, 3): (22, (_BIG,)),
    (PERMIT, 4): (25, (f"not ({_BIG})",)),
}
# (folder, author's step number) -> the step's approval meant, its `when` one of those listed (its line is
# expect.yaml's approval_lines)
APPROVAL: dict[tuple[str, int], dict[str, Any]] = {
    (LOAN, 3): {"required": True, "timeout_s": 172800.0, "on_timeout": "reject",
                "when": ("steps['#2'].output.insured_value_eur > 250000",)},
    (WARD, 3): {"required": True, "timeout_s": 7200.0, "on_timeout": "reject",
                "when": ("steps['#1'].output.has_controlled", "steps['#1'].output.has_controlled == true",
                         "steps['#1'].output.has_controlled is true")},
}


# warnings that say nothing of how a policy, condition, approval or check line was read: holdout11's, and
# 'limits' (an approval's timeout against the wall time says the approval was kept, not how its condition was read)
NOT_ABOUT_THE_LINE = _SHAPE_WARNINGS | {"limits"}


class Plans:
    """Each folder's plan JSON, planned on first use."""

    def __init__(self) -> None:
        self._got: dict[str, dict[str, Any]] = {}

    def __getitem__(self, folder: str) -> dict[str, Any]:
        if folder not in self._got:
            self._got[folder] = plan_json(spec_of(folder))
        return self._got[folder]


@functools.cache
def expect(folder: str) -> dict[str, Any]:
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


def meant_inputs(said: Any, ids: dict[int, str]) -> list[dict[str, Any]]:
    """The bindings expect.yaml's source in words allows (each: the keys it fixes); more than one where it
    says "x (or step N output x)"."""
    text = str(said)
    if m := re.fullmatch(r"(workflow input \w+) \(or (step \d+ output \w+)\)", text):
        return meant_inputs(m[1], ids) + meant_inputs(m[2], ids)
    if m := re.fullmatch(r"workflow input (\w+), field (\w+)", text):
        return [{"source": "input", "name": m[1], "pointer": f"/{m[2]}"}]
    if m := re.fullmatch(r"workflow input (\w+)( \(.*\))?", text):
        return [{"source": "input", "name": m[1], "pointer": ""}]
    if text.startswith("each item of"):
        return [{"source": "item", "pointer": ""}]
    if m := re.fullmatch(r"all results of step (\d+), gathered", text):
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": "", "gather": True}]
    if m := re.fullmatch(r"step (\d+) output (\w+) or step (\d+) output \2 \(whichever ran\)", text):
        return [{"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[3]), "?")]),
                 "pointer": f"/{m[2]}"}]
    if m := re.fullmatch(r"step (\d+) output (\w+)", text):
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": f"/{m[2]}"}]
    return [{"source": "literal", "value": said}]


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
        want, got = APPROVAL.get((folder, number)), step["policy"]["approval"]
        if want is None:
            return None if got is None else f"approval {got}"
        ok = got is not None and {k: got.get(k) for k in want if k != "when"} == {k: v for k, v in want.items()
                                                                                 if k != "when"}
        return None if ok and got.get("when") in [_expr(w, ids) for w in want["when"]] else f"approval {got}"
    name = aspect.removeprefix("input ")
    bound = step["inputs"].get(name)
    if bound is None:
        return "not bound"
    for want in meant_inputs(meant["inputs"][name], ids):
        got = {k: sorted(bound[k]) if k == "any_of" and bound.get(k) else bound.get(k) for k in want}
        if got == want:
            return None
    return f"bound to {bound}"


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


def warned_at(plan: dict[str, Any], folder: str, line: int) -> list[str]:
    """The plan's warnings about how a line was read, at that line."""
    return [w["message"] for w in plan["warnings"] if w.get("line") == line and w["code"] not in NOT_ABOUT_THE_LINE
            and Path(w.get("file") or "").name == spec_of(folder).name]
