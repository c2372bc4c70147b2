"""Where a run gets its step runners and its regenerator: given ones, else the factories.

A kind's runner is created on first use by its registered `SkillKind`
(`orchestrator.kinds`; so a plan of script steps never imports the MCP or LLM
stacks); a kind that is not registered, whose module is not installed, or whose
factory fails, makes the steps of that kind fail as unrecoverable with the reason.
The set also answers what the engine may rely on about a kind: its `KindTraits`.
The regenerator is created on the first code error; if that fails (no LLM module,
no API key) regeneration is unavailable for the run and each step that needed it
records why and takes its fallback.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from orchestrator.errors import RunError, SkillweaveError
from orchestrator.kinds import KindRegistry, KindTraits, kind_registry
from orchestrator.plan.model import Plan
from orchestrator.runner import (
    REGENERATOR_FACTORY,
    Regenerator,
    RunnerContext,
    StepRunner,
    load_factory,
)


class UnavailableError(RunError):
    """A runner or the regenerator cannot be had; the message says why."""

    code = "unavailable"


def _load(spec: str, what: str) -> object:
    try:
        return load_factory(spec)
    except ModuleNotFoundError as exc:
        raise UnavailableError(f"{what} is not installed (module {exc.name} not found)") from exc
    except AttributeError as exc:
        raise UnavailableError(f"{what}: factory {spec} not found") from exc


class RunnerSet:
    """The runners of one run, by skill kind. Closes the ones it created."""

    def __init__(
        self, ctx: RunnerContext, given: Mapping[str, StepRunner] | None = None, kinds: KindRegistry | None = None
    ) -> None:
        self._ctx = ctx
        self._given = dict(given or {})
        self._made: dict[str, StepRunner] = {}
        self._failed: dict[str, str] = {}
        self._kinds = kinds or kind_registry()
        self.traits: Callable[[str], KindTraits] = self._kinds.traits  # what the engine may rely on about a kind

    def get(self, kind: str) -> StepRunner:
        runner = self._given.get(kind) or self._made.get(kind)
        if runner is not None:
            return runner
        if kind in self._failed:
            raise UnavailableError(self._failed[kind])
        registered = self._kinds.get(kind)
        try:
            if registered is None:
                problem = self._kinds.problems.get(kind)
                raise UnavailableError(f"no runner executes skills of kind {kind!r}" + (f" ({problem})" if problem else ""))
            try:
                made = registered.create_runner(self._ctx)
            except SkillweaveError as exc:
                raise UnavailableError(f"the {kind!r} runner could not start: {exc.explain()}") from exc
            except ModuleNotFoundError as exc:
                raise UnavailableError(f"the {kind!r} runner is not installed (module {exc.name} not found)") from exc
        except UnavailableError as exc:
            self._failed[kind] = str(exc)
            raise
        self._made[kind] = made
        return made

    def prepare(self, plan: Plan, done: Collection[str] = ()) -> None:
        """As the run starts: runners of the kinds of the plan's steps not `done` that offer
        `prepare(steps)` start in the background what their first attempt would wait for
        (the MCP runner: its servers). A kind's runner is made this early only when its
        traits say `prepared_at_start` (making an `llm` runner creates the model client:
        that waits for its first step); a kind that cannot run is left for its first
        attempt to report."""
        steps = {step.id for step in plan.steps if step.id not in done}
        kinds = sorted({skill.kind for step in plan.steps
                        if step.id in steps and (skill := plan.skills.get(step.skill))})  # fmt: skip
        for kind in kinds:
            runner = self._given.get(kind) or self._made.get(kind)
            if runner is None and self.traits(kind).prepared_at_start:
                try:
                    runner = self.get(kind)
                except UnavailableError:
                    continue
            prepare = getattr(runner, "prepare", None)
            if callable(prepare):
                prepare(steps)

    async def aclose(self) -> None:
        made, self._made = self._made, {}
        for runner in made.values():
            await runner.aclose()


class RegeneratorSource:
    """The run's regenerator: the given one, else created once from the factory."""

    def __init__(self, ctx: RunnerContext, given: Regenerator | None = None) -> None:
        self._ctx = ctx
        self._regenerator = given
        self._failed: str | None = None

    def get(self) -> Regenerator:
        if self._regenerator is not None:
            return self._regenerator
        if self._failed is not None:
            raise UnavailableError(self._failed)
        try:
            factory = _load(REGENERATOR_FACTORY, "the regenerator (LLM repair)")
            try:
                made = factory(self._ctx)  # type: ignore[operator]
            except SkillweaveError as exc:
                raise UnavailableError(f"regeneration is unavailable: {exc.explain()}") from exc
        except UnavailableError as exc:
            self._failed = str(exc)
            raise
        self._regenerator = made
        return made  # type: ignore[no-any-return]
