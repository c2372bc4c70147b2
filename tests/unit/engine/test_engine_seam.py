"""The backend seam: the decision side acts only through its backend, and any backend will do."""

from __future__ import annotations

import ast
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from orchestrator.config import Settings
from orchestrator.engine import RunStatus, create_run, execute_run
from orchestrator.engine.backend import (
    ApprovalWait,
    PartOutcome,
    RegenerationCall,
    RegenerationReply,
)
from orchestrator.engine.model import ApprovalRequest
from orchestrator.engine.scheduler import Scheduler
from orchestrator.engine.scope import RunScope
from orchestrator.engine.state import RunState
from orchestrator.journal.events import Event, RunCreated
from orchestrator.kinds import BoundSkill
from orchestrator.plan.model import InputBinding, Plan, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy, ErrorClass, RetryPolicy
from orchestrator.runner import StepOutcome, StepRequest
from orchestrator.testing import Fail, FakeClock, FakeRunner, fake_plan

ENGINE = Path(__file__).resolve().parents[3] / "orchestrator" / "engine"
DECISION_MODULES = ("scheduler", "recovery", "regeneration", "approval", "compensation", "scope", "state",
                    "graph", "render", "backend", "model", "success_compare", "carry", "runs37", "run_checks37")
# what the decision side may import: itself, the models it speaks, pure helpers
ALLOWED = {
    "orchestrator.engine." + name for name in DECISION_MODULES
} | {
    "orchestrator.contracts", "orchestrator.errors", "orchestrator.ids", "orchestrator.jsonsafe",
    "orchestrator.policy", "orchestrator.runner", "orchestrator.plan.model", "orchestrator.journal.events",
    "orchestrator.templating",  # the bounded Jinja2 sandbox: pure, no I/O
    "orchestrator.kinds", "orchestrator.hints",
}
ACTING_STDLIB = {"os", "socket", "time", "random", "pathlib", "sqlite3", "subprocess", "shutil", "tempfile",
                 "threading", "io", "datetime", "uuid", "secrets"}


def _imports(module: str) -> set[str]:
    """What `module` imports when it runs (not what `if TYPE_CHECKING:` names for annotations)."""
    tree = ast.parse((ENGINE / f"{module}.py").read_text(encoding="utf-8"))
    found: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        todo.extend(ast.iter_child_nodes(node))
    return found


def test_the_decision_modules_import_nothing_that_acts() -> None:
    for module in DECISION_MODULES:
        for name in _imports(module):
            top = name.split(".")[0]
            if top == "orchestrator":
                assert name in ALLOWED, f"engine/{module}.py imports {name}, which is not on the decision side"
            else:
                assert top not in ACTING_STDLIB, f"engine/{module}.py imports {name}: time, chance and I/O go through the backend"
                assert top in sys.stdlib_module_names or top in ("pydantic", "jinja2", "pydantic_core"), (
                    f"engine/{module}.py imports {name}"
                )


class ListBackend:
    """A backend of the test's own: events in a list, virtual time, runners called directly."""

    items_per_part = None

    def __init__(self, clock: FakeClock, runner: FakeRunner, run_id: str) -> None:
        self.events: list[Event] = []
        self.clock = clock
        self.runner = runner
        self.run_id = run_id
        self.asked: list[str] = []

    def record(self, event: Event) -> None:
        self.events.append(event)

    async def commit(self) -> None:
        return None

    def soon(self) -> None:
        return None

    def next_step(self) -> None:
        return None

    def now(self) -> float:
        return self.clock.now()

    async def sleep(self, seconds: float) -> None:
        await self.clock.sleep(seconds)

    def random(self) -> float:
        return self.clock.random()

    def origin(self) -> tuple[int, str]:
        return 0, "list"

    async def runner_problem(self, skill: BoundSkill) -> str | None:
        return None

    run_dir = None

    async def attempt(self, request: StepRequest, code_path: str | None) -> StepOutcome:
        return await self.runner.run(request)

    def keep_stderr(self, step_id: str, item: int | None, attempt: int, text: str) -> str | None:
        return None

    async def regeneration_problem(self) -> str | None:
        return "no model here"

    async def regenerate(self, call: RegenerationCall) -> RegenerationReply:
        raise AssertionError("regeneration_problem said no")

    async def await_approval(self, request: ApprovalRequest, left: float | None) -> ApprovalWait:
        self.asked.append(request.step_id)
        return ApprovalWait()

    async def run_items(self, step_id: str, items: Sequence[tuple[int, Any]]) -> PartOutcome:
        raise AssertionError("items_per_part is None")


def _plan() -> Plan:
    retry = RetryPolicy(max_retries=2, initial_s=1.0, multiplier=2.0, jitter=False)
    return fake_plan([
        PlanStep(id="fetch", name="Fetch", skill="s", policy=StepPolicy(retry=retry)),
        PlanStep(id="use", name="Use", skill="s", inputs={"doc": InputBinding(source="step", step="fetch")}),
        PlanStep(id="ship", name="Ship", skill="s", depends_on=("use",),
                 policy=StepPolicy(approval=ApprovalPolicy())),
    ])


def _script() -> dict[str, Any]:
    return {"fetch": [Fail(ErrorClass.TRANSIENT, "reset"), {"doc": "d"}]}


def _shape(events: list[Event]) -> list[tuple[str, str | None, int | None]]:
    return [(e.type, e.step, e.attempt) for e in events if e.type not in ("run_created", "run_started")]


async def test_a_backend_of_its_own_gets_the_calls_and_events_the_local_backend_gets(tmp_path: Path) -> None:
    settings = Settings(state_dir=tmp_path / "state")
    run_id = create_run(_plan(), {}, settings)
    summary = await execute_run(run_id, settings, runners={"script": FakeRunner(_script())}, clock=FakeClock())
    assert summary.status is RunStatus.PAUSED
    from orchestrator.journal import Journal

    with Journal(settings.state_dir) as journal:
        local = journal.events(run_id)

    plan = _plan()
    clock = FakeClock()
    state = RunState("run-x", plan)
    state.apply(RunCreated(ts=clock.now(), plan_name=plan.name, plan_sha256="x"))
    runner = FakeRunner(_script())
    backend = ListBackend(clock, runner, "run-x")
    await Scheduler(RunScope(plan=plan, run_id="run-x", state=state, backend=backend)).execute()

    assert state.status is RunStatus.PAUSED
    assert _shape(backend.events) == _shape(local)
    assert [r.step_id for r in runner.requests] == ["fetch", "fetch", "use"]
    assert clock.slept == [1.0]  # the retry waited in the backend's time
    assert backend.asked == ["ship"]  # the gate asked the backend, which had no answer: the run paused
    assert backend.events[0].type == "run_started" and backend.events[0].host == "list"  # type: ignore[attr-defined]


async def test_a_step_without_a_runner_fails_before_any_attempt_when_the_backend_says_so() -> None:
    plan = fake_plan([PlanStep(id="fetch", name="Fetch", skill="s")])
    clock = FakeClock()
    state = RunState("run-y", plan)
    state.apply(RunCreated(ts=clock.now(), plan_name=plan.name, plan_sha256="x"))
    backend = ListBackend(clock, FakeRunner(), "run-y")

    async def nobody(skill: BoundSkill) -> str | None:
        return "no runner on this worker"

    backend.runner_problem = nobody  # type: ignore[method-assign]
    await Scheduler(RunScope(plan=plan, run_id="run-y", state=state, backend=backend)).execute()
    summary = state.summary()
    assert summary.status is RunStatus.ESCALATED
    assert summary.step("fetch").attempts == 0
    assert "no runner on this worker" in summary.step("fetch").message
