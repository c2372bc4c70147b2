"""Plans over the tiny test skills in tests/e2e/skills, and a way to run `skillweave` on them."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.plan.build import seal
from orchestrator.plan.model import (
    ForEach,
    InputBinding,
    Plan,
    PlanInput,
    PlanStep,
    SpecRef,
    StepPolicy,
)
from orchestrator.policy import ApprovalPolicy, Limits

SKILLS = Path(__file__).resolve().parent / "skills"
VALUE = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "trail": {"type": "array", "items": {"type": "string"}}},
    "required": ["value", "trail"],
}


def skill(name: str) -> BoundSkill:
    folder = SKILLS / name
    digest = hashlib.sha256((folder / "scripts" / "main.py").read_bytes()).hexdigest()
    return BoundSkill(
        name=name, kind=BuiltinKind.SCRIPT, path=str(folder), origin="dir", sha256=digest,
        entry="scripts/main.py", timeout_s=30,
    )


def calc(step_id: str, after: str | None, *, add: int, sleep_ms: int, **fields: Any) -> PlanStep:
    inputs = {
        "add": InputBinding(source="literal", value=add),
        "sleep_ms": InputBinding(source="literal", value=sleep_ms),
    }
    if after is None:
        inputs["value"] = InputBinding(source="input", name="start")
    else:
        inputs["value"] = InputBinding(source="step", step=after, pointer="/value")
        inputs["trail"] = InputBinding(source="step", step=after, pointer="/trail")
    return PlanStep(id=step_id, name=step_id, skill="step-calc", inputs=inputs, output_schema=VALUE, **fields)


def chaos_plan(chain: int = 11, sleep_ms: int = 120) -> Plan:
    """A chain of `chain` calc steps, a 6-item fan-out beside it, and a merge: chain + 2 steps."""
    steps = [calc("c01", None, add=1, sleep_ms=sleep_ms)]
    for i in range(2, chain + 1):
        steps.append(calc(f"c{i:02d}", f"c{i - 1:02d}", add=i, sleep_ms=sleep_ms))
    steps.append(
        PlanStep(
            id="squares",
            name="squares",
            skill="fan-square",
            for_each=ForEach(item="n", source=InputBinding(source="input", name="numbers")),
            inputs={"n": InputBinding(source="item"), "sleep_ms": InputBinding(source="literal", value=sleep_ms)},
            output_schema={"type": "object", "required": ["n", "square"]},
        )
    )
    steps.append(
        PlanStep(
            id="merge",
            name="merge",
            skill="merge-total",
            inputs={
                "squares": InputBinding(source="step", step="squares"),
                "value": InputBinding(source="step", step=f"c{chain:02d}", pointer="/value"),
            },
        )
    )
    return seal(
        Plan(
            name="chaos",
            spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
            inputs=(PlanInput(name="start", schema={"type": "integer"}), PlanInput(name="numbers", schema={"type": "array"})),
            steps=tuple(steps),
            skills={n: skill(n) for n in ("step-calc", "fan-square", "merge-total")},
            limits=Limits(concurrency=4),
        )
    )


def approval_plan() -> Plan:
    steps = (
        calc("prepare", None, add=1, sleep_ms=0),
        PlanStep(
            id="publish",
            name="publish",
            skill="approve-publish",
            inputs={"value": InputBinding(source="step", step="prepare", pointer="/value")},
            policy=StepPolicy(approval=ApprovalPolicy()),
        ),
    )
    return seal(
        Plan(
            name="gated",
            spec=SpecRef(path="<e2e>", sha256="0" * 64, format="yaml"),
            inputs=(PlanInput(name="start", schema={"type": "integer"}),),
            steps=steps,
            skills={n: skill(n) for n in ("step-calc", "approve-publish")},
        )
    )


def write_plan(plan: Plan, folder: Path, name: str = "plan.json") -> Path:
    path = folder / name
    path.write_text(plan.to_json())
    return path


def skillweave_command(*args: str | Path) -> list[str]:
    return [str(Path(sys.executable).with_name("skillweave")), *map(str, args)]


def skillweave(*args: str | Path, timeout: float = 120, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKILLWEAVE_STATE")}
    return subprocess.run(
        skillweave_command(*args), capture_output=True, text=True, timeout=timeout, cwd=cwd, env=env, check=False
    )


def read_events(state_dir: Path, run_id: str) -> list[tuple[int, str, str | None, int | None, dict[str, Any]]]:
    """(seq, type, step, item, data) of every committed event, read as another process would."""
    conn = sqlite3.connect(state_dir / "journal.db", timeout=10)
    try:
        rows = conn.execute(
            "SELECT seq, type, step, item, data FROM events WHERE run_id = ? ORDER BY seq", (run_id,)
        ).fetchall()
    finally:
        conn.close()
    return [(seq, kind, step, item, json.loads(data)) for seq, kind, step, item, data in rows]


def sandboxes_under(work: Path) -> list[int]:
    """Pids whose command line names a directory under `work` (a run's sandboxes)."""
    prefix = os.fsencode(str(work.absolute())) + b"/"
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as fh:
                    if any(arg.startswith(prefix) for arg in fh.read().split(b"\0")):
                        found.append(int(entry))
            except OSError:
                continue
    return found
