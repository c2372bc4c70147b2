"""Small builders for planner unit tests: specs, skills and a catalog, without files."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from orchestrator.config import Settings
from orchestrator.errors import Diagnostic, NotFoundError, SkillError
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.spec.model import FieldSpec, InputSpec, StepSpec, WorkflowSpec

PATH = "flow.md"
SETTINGS = Settings()


def at(line: int) -> str:
    return f"{PATH}:{line}"


def skill(
    name: str,
    kind: str = "script",
    description: str = "",
    *,
    input_schema: dict[str, Any] | None = None,
    output_schema: dict[str, Any] | None = None,
    timeout_s: float | None = None,
) -> BoundSkill:
    return BoundSkill(
        name=name,
        kind=BuiltinKind(kind),
        path=f"/skills/{name}",
        origin="dir",
        sha256=f"sha-{name}",
        description=description,
        timeout_s=timeout_s,
        input_schema=input_schema,
        output_schema=output_schema,
    )


def obj(required: tuple[str, ...] = (), **props: str | dict[str, Any]) -> dict[str, Any]:
    """`obj(("a",), a="string", b={"type": "array"})` -> an object schema."""
    properties = {k: ({"type": v} if isinstance(v, str) else v) for k, v in props.items()}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = list(required)
    return schema


class _Entry:
    def __init__(self, bound: BoundSkill) -> None:
        self._bound = bound

    def bound(self) -> BoundSkill:
        return self._bound


class FakeCatalog:
    """The catalog protocol the planner uses: iteration and `get`, with refused names."""

    def __init__(self, *skills: BoundSkill, refused: Mapping[str, str] | None = None) -> None:
        self._skills = {s.name: _Entry(s) for s in skills}
        self._refused = dict(refused or {})
        self.problems: tuple[Diagnostic, ...] = ()

    def __iter__(self) -> Iterator[_Entry]:
        return iter(self._skills.values())

    def get(self, name: str) -> _Entry:
        if name in self._refused:
            raise SkillError(Diagnostic(file=f"/skills/{name}/SKILL.md", line=2, message=self._refused[name]))
        if name not in self._skills:
            raise NotFoundError(f"unknown skill {name}")
        return self._skills[name]


def field(name: str, type: str | None = None, *, line: int = 1, **kw: Any) -> FieldSpec:
    return FieldSpec(name=name, type=type, where=at(line), **kw)


def step(number: int, name: str, skill_text: str | None = None, *, line: int | None = None, **kw: Any) -> StepSpec:
    heading = line if line is not None else number * 10
    return StepSpec(
        id=kw.pop("id", f"step-{number}"),
        number=number,
        name=name,
        where=at(heading),
        skill=skill_text,
        skill_where=at(heading + 1) if skill_text is not None else None,
        **kw,
    )


def workflow(*steps: StepSpec, inputs: tuple[str, ...] = (), **kw: Any) -> WorkflowSpec:
    return WorkflowSpec(
        name=kw.pop("name", "flow"),
        path=PATH,
        format=kw.pop("format", "markdown"),
        sha256="0" * 64,
        inputs=tuple(InputSpec(name=n, type="string", where=at(2)) for n in inputs),
        steps=steps,
        **kw,
    )


def plan_of_text(text: str, catalog: Any, path: str = "doc.md") -> Any:
    """The plan of a markdown spec's text over `catalog` (its skill names the reader's vocabulary); it
    must plan without errors."""
    from orchestrator.plan.build import draft_plan
    from orchestrator.spec import parse_spec_text
    from orchestrator.spec.vocabulary import Vocabulary

    words = Vocabulary.of([(s.bound().name, None) for s in catalog])
    plan, errors = draft_plan(parse_spec_text(text, path, "markdown", words), catalog, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan


def step_by_skill(plan: Any, skill_name: str) -> Any:
    """The plan's step that runs `skill_name`."""
    return next(s for s in plan.steps if s.skill == skill_name)


def loop_of(step: Any) -> tuple[str, str | None, str]:
    """A step's For each as (item, source step, pointer)."""
    assert step.for_each is not None, f"{step.id} has no For each"
    return step.for_each.item, step.for_each.source.step, step.for_each.source.pointer


class _Said:
    """A catalog entry whose SKILL.md body is given: what `plan.wanted` reads a skill's instructions from."""

    def __init__(self, bound: BoundSkill, body: str) -> None:
        self._bound, self.name, self.body, self.skill_md = bound, bound.name, body, f"/skills/{bound.name}/SKILL.md"

    def bound(self) -> BoundSkill:
        return self._bound


class SaidCatalog(FakeCatalog):
    """Skills by name with the body of their SKILL.md (the words the planner reads for their I/O)."""

    def __init__(self, bodies: dict[str, str]) -> None:
        super().__init__(*(skill(n) for n in bodies))
        self._skills = {n: _Said(skill(n), b) for n, b in bodies.items()}  # type: ignore[misc]


def finished_state(plan: Any, outputs: Mapping[str, Any], skipped: tuple[str, ...] = ()) -> Any:
    """A run of `plan` whose steps in `outputs` succeeded with those outputs and whose `skipped` were skipped:
    what the run's checks are evaluated on (`engine.run_checks37`, `engine.success_compare`)."""
    from orchestrator.engine.model import StepStatus
    from orchestrator.engine.state import RunState

    state = RunState("r", plan)
    for sid, out in outputs.items():
        st = state.steps[sid]
        st.status, st.has_output, st.output = StepStatus.SUCCEEDED, True, out
    for sid in skipped:
        state.steps[sid].status = StepStatus.SKIPPED
    return state
