"""What the holdout e2e tests share (holdout11_kit, holdout12_kit, holdout13_kit): each spec's plan through
the real `skillweave plan`, made once a module (`Plans`), and what its expect.yaml says of each step, of the
whole run and of each line that carries a policy, a condition, an approval or a success check, put in the
plan's terms so a test can say "read as meant" or "warned at its line".

A `Holdout` is one folder of specs with its `when` and `approval` tables (expect.yaml's conditions and
approvals in words, as the plan's expressions with `#N` for the plan id of the author's step N, each with
the expressions that mean the same for the values said) and its reading of expect.yaml's input sources
(`meant_inputs`: the words differ by holdout). Each kit binds one and names its methods as functions."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from foreign_kit import FIXTURES, folders_of, line_of, plan_json, policy_misses, reduce_dependencies
from foreign_kit import expectation as _expectation

# warnings about a step's skill, shape or inputs: none of them says how a policy or check line was read
SHAPE_WARNINGS = frozenset({"spec.anchored", "derived-inputs", "ambiguous-input", "plan.input-not-given", "spec.field",
                            "plan.inputs-in-prose", "spec.field-type", "spec.unknown-label", "spec.placed"})
Ids = dict[int, str]
ApprovalCheck = Callable[[dict[str, Any] | None, dict[str, Any] | None, Callable[[str], str]], bool]


def expr(text: str, ids: Ids) -> str:
    """`#N` in an expression as the plan id of the author's step N."""
    return re.sub(r"#(\d+)", lambda m: ids.get(int(m[1]), "?"), text)


def meant_inputs(said: Any, ids: Ids) -> list[dict[str, Any]]:
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


def approval_among(want: dict[str, Any] | None, got: dict[str, Any] | None, spell: Callable[[str], str]) -> bool:
    """The approval meant: its listed keys equal, its `when` one of those listed."""
    if want is None:
        return got is None
    same = got is not None and all(got.get(k) == v for k, v in want.items() if k != "when")
    return same and got is not None and got.get("when") in [spell(w) for w in want["when"]]


class Holdout:
    """One holdout folder's readings of expect.yaml against a plan (module docstring)."""

    def __init__(self, name: str, when: dict[tuple[str, int], tuple[int, tuple[str, ...]]],
                 approval: dict[tuple[str, int], dict[str, Any]],
                 meant_inputs: Callable[[Any, Ids], list[dict[str, Any]]], not_about: frozenset[str] | set[str],
                 approval_check: ApprovalCheck = approval_among) -> None:
        self.root = FIXTURES / name
        self.folders = folders_of(self.root)
        self.when, self.approval, self.meant_inputs = when, approval, meant_inputs
        self.not_about, self.approval_check = frozenset(not_about), approval_check
        self.expect = functools.cache(self._expect)

    def _expect(self, folder: str) -> dict[str, Any]:
        """The folder's expect.yaml, read once (the cases read it hundreds of times)."""
        return _expectation(self.root / folder)

    def spec_of(self, folder: str) -> Path:
        return self.root / folder / self.expect(folder)["spec"]

    def meant_steps(self, folder: str) -> dict[int, dict[str, Any]]:
        return {m["number"]: m for m in self.expect(folder)["steps"]}

    def ids_of(self, plan: dict[str, Any], folder: str) -> Ids:
        """The author's step numbers -> the id of the plan step that runs that step's skill."""
        by_skill = {s["skill"]: s["id"] for s in reversed(plan["steps"])}
        return {n: by_skill[m["skill"]] for n, m in self.meant_steps(folder).items() if m["skill"] in by_skill}

    def step_of(self, plan: dict[str, Any], folder: str, number: int) -> dict[str, Any]:
        sid = self.ids_of(plan, folder)[number]
        return dict(next(s for s in plan["steps"] if s["id"] == sid))

    def aspects(self, folder: str) -> list[tuple[int, str]]:
        """(author's step number, aspect) for each thing expect.yaml says of each step."""
        out = []
        for n, m in self.meant_steps(folder).items():
            out += [(n, "skill"), (n, "depends_on"), (n, "for_each"), (n, "condition"), (n, "approval")]
            out += [(n, "join")] if m.get("join") else []
            out += [(n, f"input {name}") for name in m["inputs"]]
        return out

    def misread(self, plan: dict[str, Any], folder: str, number: int, aspect: str) -> str | None:
        """None when the plan has the step's aspect as expect.yaml means it; else what the plan has."""
        meant, ids = self.meant_steps(folder)[number], self.ids_of(plan, folder)
        if number not in ids:
            return f"no plan step runs `{meant['skill']}`"
        step = self.step_of(plan, folder, number)
        if aspect == "skill":
            at = plan["steps"][number - 1]["skill"] if number <= len(plan["steps"]) else None
            return None if at == meant["skill"] else f"step {number} of the plan runs {at}"
        if aspect in ("depends_on", "join"):
            numbers = {sid: n for n, sid in ids.items()}
            got = reduce_dependencies({numbers.get(s["id"], s["id"]): {numbers.get(d, d) for d in s["depends_on"]}
                                       for s in plan["steps"]})[number]
            want = reduce_dependencies({n: set(m["depends_on"]) for n, m in self.meant_steps(folder).items()})[number]
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
            return None if (src.get("step"), src.get("pointer")) == (ids.get(int(said[1])), f"/{said[2]}") \
                else f"for each {fe}"
        if aspect == "condition":
            _line, whens = self.when.get((folder, number), (0, (None,)))
            return None if step["when"] in [w and expr(w, ids) for w in whens] else f"when {step['when']!r}"
        if aspect == "approval":
            got = step["policy"]["approval"]
            ok = self.approval_check(self.approval.get((folder, number)), got, lambda w: expr(w, ids))
            return None if ok else f"approval {got}"
        name = aspect.removeprefix("input ")
        bound = step["inputs"].get(name)
        if bound is None:
            return "not bound"
        for want in self.meant_inputs(meant["inputs"][name], ids):
            got = {k: sorted(bound[k]) if k == "any_of" and bound.get(k) else bound.get(k) for k in want}
            if got == want:
                return None
        return f"bound to {bound}"

    def line_items(self, folder: str) -> list[tuple[str, int, int, int]]:
        """(kind, line, author's step number or 0, n-th of that kind on the line) for each line of the
        spec that carries a policy, a condition, an approval, a whole-run limit or a success check."""
        meant = self.expect(folder)
        out: list[tuple[str, int, int, int]] = []
        for w in meant.get("workflow_policies") or []:
            out.append(("limit", int(w["line"]), 0, 0))
        if meant.get("success_criteria"):
            out.append(("success", int(meant["success_criteria"]["line"]), 0, 0))
        for n, m in self.meant_steps(folder).items():
            seen: dict[int, int] = {}
            for p in m["policies"]:
                seen[p["line"]] = seen.get(p["line"], -1) + 1
                out.append(("policy", int(p["line"]), n, seen[p["line"]]))
            if (folder, n) in self.when:
                out.append(("condition", self.when[(folder, n)][0], n, 0))
            if m.get("approval"):
                out.append(("approval", int(m["approval_lines"]["line"]), n, 0))
        return out

    def read_as_meant(self, plan: dict[str, Any], folder: str, kind: str, line: int, number: int, nth: int) -> bool:
        meant = self.expect(folder)
        if kind == "limit":
            [w] = [w for w in meant["workflow_policies"] if w["line"] == line]
            where = plan["limits_provenance"]["wall_time_s"].get("where")
            return plan["limits"]["wall_time_s"] == w["meaning"]["timeout_s"] and line_of(where) in (line, line - 1)
        if kind == "success":
            return any(w.get("line") == line and w["code"] == "spec.success" and "is read as the run's success check"
                       in w["message"] for w in plan["warnings"])
        if kind in ("condition", "approval"):
            return self.misread(plan, folder, number, kind) is None
        if number not in self.ids_of(plan, folder):
            return False
        policy = [p for p in self.meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
        return policy_misses(self.step_of(plan, folder, number)["policy"], policy["meaning"]) == []

    def warned_at(self, plan: dict[str, Any], folder: str, lines: set[int]) -> list[str]:
        """The plan's warnings about how a line was read, at one of `lines`."""
        return [w["message"] for w in plan["warnings"] if w.get("line") in lines and w["code"] not in self.not_about
                and Path(w.get("file") or "").name == self.spec_of(folder).name]

    def plans(self) -> Plans:
        return Plans(self)


class Plans:
    """Each folder's plan JSON, planned on first use."""

    def __init__(self, holdout: Holdout) -> None:
        self._holdout, self._got = holdout, dict[str, dict[str, Any]]()

    def __getitem__(self, folder: str) -> dict[str, Any]:
        if folder not in self._got:
            self._got[folder] = plan_json(self._holdout.spec_of(folder))
        return self._got[folder]
