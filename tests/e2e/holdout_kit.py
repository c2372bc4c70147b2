"""What the holdout e2e tests share (test_foreign_specs_holdouts.py over the data modules holdout_book11 ..
holdout_book36): each spec's plan through the real `skillweave plan`, made once a session (`Plans`), and what
its expect.yaml says of each step, of the whole run and of each line that carries a policy, a condition, an
approval or a success check, put in the plan's terms so a test can say "read as meant" or "warned at its line".

A `Holdout` is one folder of specs with its `when` and `approval` tables (expect.yaml's conditions and
approvals in words, as the plan's expressions with `#N` for the plan id of the author's step N, each with
the expressions that mean the same for the values said) and its reading of expect.yaml's input sources
(`meant_inputs`). A `Book` is a data module read once: its Holdout and its lists of what is not so yet, each
with its reason (REFUSED, KNOWN, KNOWN_POLICY, KNOWN_WHOLE, SILENT, NOT_RUN, FAILS, UNPAUSED, PAUSED_AT,
NOT_A_SUCCESS, ANSWERED; a data module leaves out the lists it has nothing in). expect.yaml's words changed over
the sets and both are read: an approval's line in `approval_lines` or in the `approval` block itself; a success
check as a block with its `line` or as words naming it; a join as "(whichever ran)", "..., whichever ran" (each
step its own field) or "..., or step 4 output X when step 3 was skipped"; a step's join "after 4, and after 5
if 5 runs" as no `join` with step 4 unconditional (the engine waits for what ran); a run's approvals as
`approvals: {4: approved}`, `approval_response` or `approval_answer`; what silence does as words or as
`on_silence_meaning`."""

from __future__ import annotations

import fcntl
import functools
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml
from foreign_kit import (
    FIXTURES,
    ON_SILENCE,
    RunReports,
    folders_of,
    line_of,
    plan_json,
    policy_misses,
    reduce_dependencies,
    run,
    run_inputs,
)
from foreign_kit import expectation as _expectation

# warnings about a step's skill, shape or inputs: none of them says how a policy or check line was read
SHAPE_WARNINGS = frozenset({"spec.anchored", "derived-inputs", "ambiguous-input", "plan.input-not-given", "spec.field",
                            "plan.inputs-in-prose", "spec.field-type", "spec.unknown-label", "spec.placed"})
Ids = dict[int, str]
ApprovalCheck = Callable[[dict[str, Any] | None, dict[str, Any] | None, Callable[[str], str]], bool]
Plan = dict[str, Any]


def expr(text: str, ids: Ids) -> str:
    """`#N` in an expression as the plan id of the author's step N."""
    return re.sub(r"#(\d+)", lambda m: ids.get(int(m[1]), "?"), text)


def _exclusive(steps: list[dict[str, Any]]) -> bool:
    """Two steps of which exactly one runs: one's condition is the other's, negated."""
    whens = [s.get("when") or "" for s in steps]
    return len(whens) == 2 and all(whens) and (whens[0] == f"not ({whens[1]})" or whens[1] == f"not ({whens[0]})")


# a join said as "runs after 4, and after 5 if 5 runs": the second step may be skipped, the first not
_AFTER_IF_RUNS = re.compile(r"after (\d+), and after (\d+) if \2 runs")


def _after_if_runs(said: str, step: dict[str, Any], plan: Plan, ids: Ids) -> bool:
    """A join "after 4, and after 5 if 5 runs" as the engine runs it: no `join`, and step 4 has no condition
    (a step is skipped as on a branch not taken only when every step it waits on was skipped)."""
    m = _AFTER_IF_RUNS.search(said)
    first = next((s for s in plan["steps"] if m and s["id"] == ids.get(int(m[1]))), None)
    return first is not None and step.get("join") is None and not first.get("when")


def truthy(value: str) -> tuple[str, ...]:
    """The `when` expressions that mean a book's condition `value` is true."""
    return (value, f"{value} == true", f"{value} is true", f"{value} == True")


def falsy(value: str) -> tuple[str, ...]:
    """The `when` expressions that mean `value` is false (the otherwise of `truthy`)."""
    return (f"not ({value})", f"not {value}", f"{value} == false", f"{value} is false", f"not ({value} == true)",
            f"not ({value} is true)", f"not ({value} == True)")


def meant_inputs(said: Any, ids: Ids) -> list[dict[str, Any]]:
    """The bindings expect.yaml's source in words allows (each: the keys it fixes); more than one where it
    says "x (or step N output x)"; "(optional)" after a source says the skill may go without it."""
    text = str(said).removesuffix(" (optional)")
    if m := re.fullmatch(r"(workflow input \w+) \(or (step \d+ output \w+)\)", text):
        return meant_inputs(m[1], ids) + meant_inputs(m[2], ids)
    if m := re.fullmatch(r"each item's field (\w+)", text):
        return [{"source": "item", "pointer": f"/{m[1]}"}]
    if m := re.fullmatch(r"constant (\S+) \(.*\)", text):
        return [{"source": "literal", "value": m[1]}]
    if m := re.fullmatch(r"literal '(.*)' \(.*\)", text):
        return [{"source": "literal", "value": m[1]}]
    if m := re.fullmatch(r"workflow input (\w+), field (\w+)", text):
        return [{"source": "input", "name": m[1], "pointer": f"/{m[2]}"}]
    if m := re.fullmatch(r"workflow input (\w+)( \(.*\))?", text):
        return [{"source": "input", "name": m[1], "pointer": ""}]
    if text.startswith("each item of"):
        return [{"source": "item", "pointer": ""}]
    if m := re.fullmatch(r"all results of step (\d+), gathered", text):
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": "", "gather": True}]
    if m := re.fullmatch(r"step (\d+) output (\w+),? or step (\d+) output \2 \(whichever ran\)", text):
        return [{"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[3]), "?")]),
                 "pointer": f"/{m[2]}"}]
    if m := re.fullmatch(r"step (\d+) or step (\d+) output (\w+) \(whichever ran\)", text):  # the same, said once
        return [{"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[2]), "?")]),
                 "pointer": f"/{m[3]}"}]
    if m := re.fullmatch(r"step (\d+) output (\w+),? or step (\d+) output (\w+),? whichever ran", text):
        fields = {ids.get(int(m[1]), "?"): f"/{m[2]}", ids.get(int(m[3]), "?"): f"/{m[4]}"}
        if m[2] == m[4]:  # the same field of each, said without parentheses (holdout25)
            return [{"source": "step", "any_of": sorted(fields), "pointer": f"/{m[2]}"}]
        return [{"source": "step", "any_of": sorted(fields), "pointers": fields}]  # each step its own field
    if m := re.fullmatch(r"step (\d+) output (\w+), or step (\d+) output \2 when step (?:\1 was skipped|\3 ran instead)", text):
        return [{"source": "step", "any_of": sorted([ids.get(int(m[1]), "?"), ids.get(int(m[3]), "?")]),
                 "pointer": f"/{m[2]}"}]  # a join said as one branch's output, the other's when it ran instead
    if m := re.fullmatch(r"step (\d+) output (\w+), or (\S+) if step \1 did not run", text):  # its value if skipped
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": f"/{m[2]}", "if_skipped": yaml.safe_load(m[3])}]
    if m := re.fullmatch(r"step (\d+) output (\w+)", text):
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": f"/{m[2]}"}]
    if m := re.fullmatch(r"step (\d+) output \(whole(?: object)?\)", text):  # the step's whole output (holdout19)
        return [{"source": "step", "step": ids.get(int(m[1])), "pointer": ""}]
    if m := re.fullmatch(r"((?:step \d+ output \w+(?:, | and ))+step \d+ output \w+), joined into one list", text):
        parts = re.findall(r"step (\d+) output (\w+)", m[1])  # several steps' values put together, in order
        return [{"source": "step", "joined": [(ids.get(int(n)), f"/{f}") for n, f in parts]}]
    return [{"source": "literal", "value": said}]


def approval_line(meant_step: dict[str, Any], said_at: int | None = None) -> int:
    """The line an expect.yaml step's approval is said at: `approval_lines.line` (holdouts up to 19), the
    `approval` block's own `line` (holdout20 on), or, where expect.yaml gives none (holdouts 23-24), the line the
    data module's APPROVAL entry says (`said_at`)."""
    said = (meant_step.get("approval_lines") or meant_step["approval"]).get("line") or said_at
    assert said, f"step {meant_step['number']}: its approval's line is said neither in expect.yaml nor in APPROVAL"
    return int(said)


def silence_meant(approval: dict[str, Any]) -> tuple[float, str]:
    """What expect.yaml's approval block says of silence: its wait (`wait_s`) and the plan approval's `on_timeout`
    that does what it says on silence (`on_silence_meaning`'s kind, else `on_silence`, or `on_timeout` in words:
    "reject and stop the run", "skip step 3 (no order), ...": the first word)."""
    if kind := (approval.get("on_silence_meaning") or {}).get("kind"):  # holdout25: what silence does, as a kind
        # "continue" after a step silence keeps from running (its output stood in: posted=false) is that step skipped
        return float(approval["wait_s"]), {**ON_SILENCE, "continue": "skip"}[kind]
    said = str(approval.get("on_silence") or approval["on_timeout"])
    # "approve - send the quote anyway (step 5 runs)" (holdout29): silence approves
    return float(approval["wait_s"]), {**ON_SILENCE, "approve": "approve"}[said.split()[0].strip(",;:")]


def success_line(said: dict[str, Any] | str) -> int:
    """The line a success check is said at: its `line` (up to holdout21), or the first line its words name
    ("... (line 51: ...)", "(lines 5-6)", holdout22; "(HEALTHCHECK, line 33; ...)", holdout25)."""
    if isinstance(said, dict):
        return int(said["line"])
    found = re.search(r"\([^()]*?\blines? (\d+)", said)  # "(line 51: ...)", "(HEALTHCHECK, line 33; ...)"
    assert found, f"success check {said!r}: no line"
    return int(found[1])


def approval_among(want: dict[str, Any] | None, got: dict[str, Any] | None, spell: Callable[[str], str]) -> bool:
    """The approval meant: its listed keys equal (but its `line`), its `when` one of those listed (None: asked
    whenever its step runs)."""
    if want is None:
        return got is None
    same = got is not None and all(got.get(k) == v for k, v in want.items() if k not in ("when", "line"))
    return same and got is not None and got.get("when") in [w and spell(w) for w in want.get("when", (None,))]


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
        self.validate_code = functools.cache(self._validate_code)

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
            if aspect == "join":  # after whichever ran: a join, or after both of an if/otherwise pair (one is skipped)
                joined = step.get("join") == "any" or _exclusive([s for s in plan["steps"]
                                                                   if numbers.get(s["id"]) in want]) \
                    or _after_if_runs(str(meant["join"]), step, plan, ids)
                return None if joined and got == want else f"join {step.get('join')}, after {got}"
            return None if got == want else f"after {sorted(map(str, got))}"
        if aspect == "for_each":
            fe, over = step["for_each"], meant["for_each"]
            if over is None:
                return None if fe is None else f"for each {fe}"
            if isinstance(over, str):  # said as its words alone ("step 1 output stations", holdout28)
                over = {"over": over}
            src = (fe or {}).get("source") or {}
            if said := re.fullmatch(r"workflow input (\w+)", over["over"]):  # a loop over an input (89's reroute)
                return None if (src.get("source"), src.get("name"), src.get("pointer") or "") == ("input", said[1], "") \
                    else f"for each {fe}"
            said = re.fullmatch(r"step (\d+) output (\w+)", over["over"])
            assert said, over
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
            got = {k: sorted(bound[k]) if k == "any_of" and bound.get(k) else
                   [(p.get("step"), p.get("pointer")) for p in bound[k]] if k == "joined" and bound.get(k) else
                   bound.get(k) for k in want}
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
            out.append(("success", success_line(meant["success_criteria"]), 0, 0))
        for n, m in self.meant_steps(folder).items():
            seen: dict[int, int] = {}
            for p in m["policies"]:
                seen[p["line"]] = seen.get(p["line"], -1) + 1
                out.append(("policy", int(p["line"]), n, seen[p["line"]]))
            if (folder, n) in self.when:
                out.append(("condition", self.when[(folder, n)][0], n, 0))
            if m.get("approval"):
                out.append(("approval", approval_line(m, self.approval.get((folder, n), {}).get("line")), n, 0))
        return out

    def read_as_meant(self, plan: dict[str, Any], folder: str, kind: str, line: int, number: int, nth: int) -> bool:
        meant = self.expect(folder)
        if kind == "limit":
            [w] = [w for w in meant["workflow_policies"] if w["line"] == line]
            where = plan["limits_provenance"]["wall_time_s"].get("where")
            # said at its line, or by the key its comment there explains on the line before or after (142's
            # `# whole thing gets 30 minutes max` over `timeout-minutes: 30`)
            return plan["limits"]["wall_time_s"] == w["meaning"]["timeout_s"] and line_of(where) in (line - 1, line,
                                                                                                       line + 1)
        if kind == "success":
            # "spec.placed": the check said away from its step, placed on the step its words name (a row label)
            return any(w.get("line") == line and w["code"] in ("spec.success", "spec.placed")
                       and "is read as the run's success check" in w["message"] for w in plan["warnings"])
        if kind in ("condition", "approval"):
            return self.misread(plan, folder, number, kind) is None
        if number not in self.ids_of(plan, folder):
            return False
        policy = [p for p in self.meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
        return policy_misses(self.step_of(plan, folder, number)["policy"], policy["meaning"]) == []

    def warned_at(self, plan: Plan, folder: str, kind: str, line: int, number: int, nth: int) -> list[str]:
        """The plan's warnings about how a line item was read, at its line (or where its sentence starts, when
        expect.yaml's notes say so)."""
        lines = {line}
        if kind == "policy":
            policy = [p for p in self.meant_steps(folder)[number]["policies"] if p["line"] == line][nth]
            lines |= {int(n) for n in re.findall(r"starts on line (\d+)", policy.get("notes") or "")}
        return [w["message"] for w in plan["warnings"] if w.get("line") in lines and w["code"] not in self.not_about
                and Path(w.get("file") or "").name == self.spec_of(folder).name]

    def run_cases(self) -> list[tuple[str, int]]:
        """(folder, run: 0 the author's inputs, n the n-th of more_runs) for each run expect.yaml gives."""
        return [(f, n) for f in self.folders for n in range(1 + len(self.expect(f).get("more_runs") or []))]

    def answers(self, folder: str, n: int) -> dict[int, str]:
        """How run `n`'s approvals are answered, author's step -> "approved" or "silence": more_runs' `approvals`
        ({4: approved}), or for the one step that asks `approval_response` ("approved", "none (silence for 2 hours)"),
        `approval` ("granted by Mrs. Halvorsen", "silence for 2 hours"), `approval_answer` ("approved", "no answer
        within 2h") or a `final_output_after_approval` (granted)."""
        said = self.expect(folder) if n == 0 else self.expect(folder)["more_runs"][n - 1]
        answer = said.get("approval_response") or said.get("approval") or said.get("approval_answer")
        if answer is None and "final_output_after_approval" in said:  # the output is the one after it is granted
            answer = "approved"
        if answer is not None:
            [number] = [k for k, m in self.meant_steps(folder).items() if m.get("approval")]
            said = {"approvals": {number: answer}}
        return {int(k): "silence" if re.search(r"silence|no answer", str(v)) else "approved"
                for k, v in (said.get("approvals") or {}).items()}

    def _validate_code(self, folder: str) -> int:
        """`skillweave validate`'s exit code for the folder's spec (asked once: `validate_code`)."""
        return run("validate", str(self.spec_of(folder)), "--json").returncode



class Plans:
    """Each folder's plan JSON, planned on first use; with `shared`, planned once for all test processes of the
    session (under a lock, kept as a file there: the xdist workers would each plan it otherwise). A spec the
    plan refuses raises its refusal on each use, so a case of a REFUSED folder is tried for real."""

    def __init__(self, shared: Path | None = None) -> None:
        self._shared, self._got = shared, dict[Path, dict[str, Any]]()

    def of(self, holdout: Holdout, folder: str) -> Plan:
        spec = holdout.spec_of(folder)
        if spec not in self._got:
            self._got[spec] = self._plan(spec, folder)
        got = self._got[spec]
        assert "refused" not in got, got["refused"]
        plan: Plan = got["plan"]
        return plan

    def _plan(self, spec: Path, folder: str) -> dict[str, Any]:
        if self._shared is None:
            return _planned(spec)
        kept = self._shared / f"{folder}.json"
        with (self._shared / f"{folder}.lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not kept.exists():
                kept.write_text(json.dumps(_planned(spec)), encoding="utf-8")
            got: dict[str, Any] = json.loads(kept.read_text(encoding="utf-8"))
        return got


def _planned(spec: Path) -> dict[str, Any]:
    """`{"plan": plan JSON}`, or `{"refused": why}` where `skillweave plan` refuses the spec."""
    try:
        return {"plan": plan_json(spec)}
    except AssertionError as refused:
        return {"refused": str(refused)}


class AnsweredRuns(RunReports):
    """`skillweave run --json` of each run case (RunReports); a run that pauses at an approval its author answers
    `approved` is approved and resumed, as an operator would (`skillweave approve RUN STEP`, then `skillweave resume
    RUN`, same state dir); one its author answers with silence stays paused (the test asserts the plan's timeout and
    what it does, rather than wait it out)."""

    def __init__(self, base: Path, holdout: Holdout, answers: Callable[[str, int], dict[int, str]],
                 plan_of: Callable[[str], Plan]) -> None:
        super().__init__(base, holdout.spec_of, holdout.expect)
        self._holdout, self._answers, self._plan_of, self._answered = holdout, answers, plan_of, set[tuple[str, int]]()

    def __call__(self, folder: str, n: int) -> dict[str, Any]:
        report = super().__call__(folder, n)
        approved = [k for k, v in self._answers(folder, n).items() if v == "approved"]
        if (folder, n) in self._answered or not approved or report.get("status") != "paused":
            return report
        self._answered.add((folder, n))
        ids = self._holdout.ids_of(self._plan_of(folder), folder)
        yes, state = {ids[k] for k in approved if k in ids}, str(self._base / f"{folder.split('-', 1)[0]}-{n}" / "state")
        for _ in yes:
            if report.get("status") != "paused" or not set(report.get("awaiting") or ["?"]) <= yes:
                break
            for sid in report["awaiting"]:
                run("approve", report["run_id"], sid, "--state-dir", state)
            report = json.loads(run("resume", report["run_id"], "--json", "--state-dir", state).stdout)
        self._made[(folder, n)] = report
        return report


# what stops a run reaching its author's output, asserted on the plan (None for a refused spec)
Blocker = Callable[[Holdout, Plan | None, str, int], bool]


def still_misread(number: int, aspect: str) -> Blocker:
    """Blocked while the author's step `number` has `aspect` not as meant."""
    return lambda h, plan, folder, _n: plan is not None and h.misread(plan, folder, number, aspect) is not None


def inputs_refused(h: Holdout, plan: Plan | None, folder: str, n: int) -> bool:
    """Blocked while the plan does not take the run's inputs ('unknown input')."""
    return plan is not None and not set(run_inputs(h.expect(folder), n)) <= {i["name"] for i in plan["inputs"]}


def inputs_missing(h: Holdout, plan: Plan | None, folder: str, n: int) -> bool:
    """Blocked while the plan requires an input the run does not give ('missing required input')."""
    return plan is not None and bool({i["name"] for i in plan["inputs"] if i.get("required")} - set(run_inputs(h.expect(folder), n)))


def refused(h: Holdout, _plan: Plan | None, folder: str, _n: int) -> bool:
    """Blocked while `skillweave validate` refuses the spec."""
    return h.validate_code(folder) == 2


INPUTS_REFUSED = "the plan does not take the author's inputs ('unknown input'): "
INPUTS_MISSING = "the plan requires inputs its author does not give ('missing required input'): "
# warnings that say nothing of how a policy, condition, approval or check line was read (an approval's timeout
# against the wall time, 'limits', says the approval was kept, not how its condition was read)
NOT_ABOUT_THE_LINE = SHAPE_WARNINGS | {"limits"}


@dataclass(frozen=True)
class Book:
    """One holdout's data module, read: its Holdout and its lists of what is not so yet, each with its reason."""

    name: str
    holdout: Holdout
    refused: Mapping[str, str]
    known: Mapping[tuple[str, int, str], str]
    known_policy: Mapping[tuple[str, int, int] | tuple[str, int, int, int], str]  # (.., step) where steps share a line
    known_whole: Mapping[tuple[str, str, int], str]
    silent: Mapping[tuple[str, int] | tuple[str, int, int] | tuple[str, int, str], str]  # (.., kind): two kinds a line
    not_run: Mapping[tuple[str, int], tuple[Blocker, str]]
    fails: Mapping[tuple[str, int], str]
    unpaused: Mapping[tuple[str, int], str]
    paused_at: Mapping[tuple[str, int], tuple[int, str]]
    not_a_success: Mapping[tuple[str, int], str]
    answered: Mapping[tuple[str, int], dict[int, str]]

    def answers(self, folder: str, n: int) -> dict[int, str]:
        """How run `n`'s approvals are answered: expect.yaml's words, or the data module's ANSWERED where only
        its notes say so ("this output assumes they sign off")."""
        return self.answered.get((folder, n)) or self.holdout.answers(folder, n)

    @classmethod
    def of(cls, data: ModuleType) -> Book:
        """The Book of a data module (NAME, WHEN, APPROVAL and the lists; MEANT_INPUTS, NOT_ABOUT and
        APPROVAL_CHECK where its words or its warnings differ from the shared ones)."""
        holdout = Holdout(data.NAME, data.WHEN, data.APPROVAL, getattr(data, "MEANT_INPUTS", meant_inputs),
                          getattr(data, "NOT_ABOUT", NOT_ABOUT_THE_LINE), getattr(data, "APPROVAL_CHECK", approval_among))
        lists = {k: getattr(data, k.upper(), {}) for k in ("refused", "known", "known_policy", "known_whole", "silent",
                                                          "fails", "unpaused", "paused_at", "not_a_success")}
        refused_runs = {(f, n): (refused, lists["refused"][f]) for f, n in holdout.run_cases() if f in lists["refused"]}
        return cls(data.NAME.removeprefix("foreign-specs-"), holdout, not_run={**refused_runs, **data.NOT_RUN},
                   answered={k: v for k, (v, _why) in getattr(data, "ANSWERED", {}).items()}, **lists)
