"""Choices the model makes between named options, through a tool with an enum.

`choose_skill` is the planner's tie-breaker: a spec step whose free-text skill
binding matches several catalog skills equally. The planner is synchronous, so
`PlannerChooser` adapts it: a callable `(StepSpec, tied skills) -> name` that runs
the calls on its own event loop thread (usable with or without a running loop)
and keeps each choice with its reason for the plan's reviewer. `route` picks one of an LLM
routing step's named branches. Both force the answer through a tool whose
schema restricts the name to the options; a name outside them (a server that
ignores the enum) is an LLMError, so the caller can report the candidates.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from pydantic import BaseModel, ConfigDict

from orchestrator.errors import LLMError
from orchestrator.kinds import BoundSkill
from orchestrator.llm.client import LanguageModel, ToolAnswer, ToolDefinition
from orchestrator.llm.prompts import Excerpt, PromptTemplates
from orchestrator.llm.sync import SyncModel
from orchestrator.runner import TokenUsage
from orchestrator.spec.model import StepSpec

CHOOSE_SKILL_TOOL = "choose_skill"
ROUTE_TOOL = "choose_branch"
DATA_LIMIT = 6_000


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Candidate(_Frozen):
    name: str
    kind: str = ""
    description: str = ""


class Choice(_Frozen):
    name: str
    reason: str
    usage: TokenUsage = TokenUsage()
    model: str = ""


def _tool(
    prompts: PromptTemplates, name: str, field: str, options: Sequence[str], description: str
) -> ToolDefinition:
    schema = prompts.tool_schema(name)
    properties = dict(schema["properties"])
    properties[field] = {**properties[field], "enum": list(options)}
    return ToolDefinition(
        name=name, description=description, input_schema={**schema, "properties": properties}
    )


def _choice(answer: ToolAnswer, field: str, options: Sequence[str], where: str) -> Choice:
    if answer.input is None:
        raise LLMError(answer.problem or "the model gave no answer", where=where)
    picked = answer.input.get(field)
    if picked not in options:
        raise LLMError(
            f"the model chose {picked!r}, which is not one of {', '.join(options)}", where=where
        )
    reason = str(answer.input.get("reason", "")).strip()
    return Choice(name=str(picked), reason=reason, usage=answer.usage, model=answer.model)


async def choose_skill(
    llm: LanguageModel,
    step_text: str,
    candidates: Sequence[Candidate],
    *,
    step_name: str = "",
    description: str = "",
    outputs: Sequence[str] = (),
    where: str = "plan",
    prompts: PromptTemplates | None = None,
) -> Choice:
    """The candidate that best fits the step, and why.

    `step_text` is the step's free-text skill wanted; `where` names the spec step (file:line).
    """
    if not candidates:
        raise ValueError("choose_skill needs at least one candidate")
    prompts = prompts if prompts is not None else PromptTemplates()
    names = [c.name for c in candidates]
    prompt = prompts.render(
        "choose_skill",
        step_text=step_text,
        step_name=step_name,
        description=description,
        outputs=list(outputs),
        candidates=list(candidates),
    )
    tool = _tool(prompts, CHOOSE_SKILL_TOOL, "skill", names, prompt.tool_description)
    answer = await llm.ask(prompt, tool, where=where)
    return _choice(answer, "skill", names, where)


async def route(
    llm: LanguageModel,
    instructions: str,
    branches: Mapping[str, str],
    data: Any,
    *,
    where: str,
    prompts: PromptTemplates | None = None,
) -> Choice:
    """One of `branches` (name -> description) for `data`, and why. `where` is step/attempt."""
    if not branches:
        raise ValueError("route needs at least one branch")
    prompts = prompts if prompts is not None else PromptTemplates()
    names = list(branches)
    prompt = prompts.render(
        "route_branch",
        instructions=instructions,
        branches=[{"name": name, "description": text} for name, text in branches.items()],
        data=Excerpt.of_json(data, DATA_LIMIT),
    )
    tool = _tool(prompts, ROUTE_TOOL, "branch", names, prompt.tool_description)
    answer = await llm.ask(prompt, tool, where=where)
    return _choice(answer, "branch", names, where)


class PlannerChooser:
    """The planner's `SkillChooser`: `chooser(step, tied) -> name`, backed by the LLM.

    `with PlannerChooser(make_llm) as chooser: compile_spec(path, settings, chooser=chooser)`;
    `choices` maps step id to the `Choice` made (name and reason). With `--llm-record`,
    give it the run's client (`lambda: llm`) so the planner's calls land in the same
    recording: closing the chooser closes the client on its loop, and the client
    reopens on the run's loop at its next call.
    """

    def __init__(
        self, make_llm: Callable[[], LanguageModel], prompts: PromptTemplates | None = None
    ) -> None:
        self._model = SyncModel(make_llm, "skill-chooser")
        self._prompts = prompts if prompts is not None else PromptTemplates()
        self.choices: dict[str, Choice] = {}

    def __call__(self, step: StepSpec, tied: tuple[BoundSkill, ...]) -> str | None:
        candidates = [
            Candidate(name=s.name, kind=s.kind, description=s.description) for s in tied
        ]
        choice = self._model.run(lambda llm: choose_skill(
            llm,
            step.skill or step.name,
            candidates,
            step_name=step.name,
            description=step.description,
            outputs=[field.name for field in step.outputs],
            where=step.skill_where or step.where,
            prompts=self._prompts,
        ))
        self.choices[step.id] = choice
        return choice.name

    def close(self) -> None:
        """Close the client on its loop, then stop the loop's thread."""
        self._model.close()

    def __enter__(self) -> PlannerChooser:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
