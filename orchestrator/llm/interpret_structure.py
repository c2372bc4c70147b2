"""The model reads the STRUCTURE the rules could not: `plan --interpret` on a doubtful spec.

    read_structure(llm, request) -> StructureAnswer     one forced `read_structure` tool call
    StructureInterpreter(make_llm)(request)              the planner's synchronous adapter
    request_for(spec, doubts, catalog) -> StructureRequest

The tool's input schema is `plan.structure_reading.StructureReading` (its JSON Schema,
references inlined). The prompt (`prompts/read_structure.md.j2`) shows the spec with
its line numbers, the rules' doubts and the catalog's skills. An answer that does not
fit the model is an LLMError naming the spec; the caller checks a fitting one against
the spec and the catalog before using it. The call carries `where` =
`interpret/structure` (no path), so a recording made in one folder replays from a copy
of the spec anywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.contracts import JsonSchema
from orchestrator.errors import Diagnostic, LLMError
from orchestrator.kinds import INSTRUCTIONS
from orchestrator.llm.client import LanguageModel, ToolDefinition
from orchestrator.llm.interpret import _inline
from orchestrator.llm.prompts import PromptTemplates
from orchestrator.llm.sync import SyncModel
from orchestrator.plan.structure_reading import StructureReading
from orchestrator.skills import Catalog
from orchestrator.spec.model import WorkflowSpec

READ_STRUCTURE_TOOL = "read_structure"
WHERE = "interpret/structure"


class SkillLine(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    description: str = ""


class StructureRequest(BaseModel):
    """What the model is shown: the spec's lines, the doubts, the skills and the inputs read."""

    model_config = ConfigDict(frozen=True)

    name: str  # the spec's file name (no folder: recordings replay from anywhere)
    lines: tuple[str, ...]
    doubts: tuple[Diagnostic, ...]
    skills: tuple[SkillLine, ...]
    inputs: tuple[str, ...] = ()


class StructureAnswer(BaseModel):
    model_config = ConfigDict(frozen=True)

    reading: StructureReading
    model: str = ""


def tool_schema() -> JsonSchema:
    """The `read_structure` tool's input: a StructureReading."""
    schema = StructureReading.model_json_schema()
    inlined = _inline(schema, schema.get("$defs", {}))
    return {**inlined, "required": ["steps", "reason"]}


async def read_structure(llm: LanguageModel, request: StructureRequest, *,
                         prompts: PromptTemplates | None = None) -> StructureAnswer:
    """Ask the model for the spec's step graph; LLMError when its answer does not fit the model."""
    prompts = prompts if prompts is not None else PromptTemplates()
    prompt = prompts.render("read_structure", path=request.name, lines=list(request.lines),
                            doubts=list(request.doubts), skills=list(request.skills), inputs=list(request.inputs))
    tool = ToolDefinition(name=READ_STRUCTURE_TOOL, description=prompt.tool_description, input_schema=tool_schema())
    answer = await llm.ask(prompt, tool, where=WHERE)
    if answer.input is None:
        raise LLMError(answer.problem or "the model gave no answer", where=request.name)
    try:
        reading = StructureReading.model_validate(answer.input)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        raise LLMError(f"the model's reading of the structure does not fit the structure model: {at}: "
                       f"{first['msg']}", where=request.name) from None
    return StructureAnswer(reading=reading, model=answer.model)


async def _read(llm: LanguageModel, *, request: StructureRequest, prompts: PromptTemplates) -> StructureAnswer:
    return await read_structure(llm, request, prompts=prompts)


class StructureInterpreter:
    """`interpreter(request)` → the model's StructureAnswer (LLMError when it gave none that fits).

    The planner is synchronous: the call runs on this object's own event-loop thread.
    `close()` closes the client there."""

    def __init__(self, make_llm: Callable[[], LanguageModel], prompts: PromptTemplates | None = None) -> None:
        self._model = SyncModel(make_llm, "structure-interpreter")
        self._prompts = prompts if prompts is not None else PromptTemplates()

    def __call__(self, request: StructureRequest) -> StructureAnswer:
        return self._model.run(functools.partial(_read, request=request, prompts=self._prompts))

    def close(self) -> None:
        self._model.close()


def request_for(spec: WorkflowSpec, doubts: Sequence[Diagnostic], catalog: Catalog) -> StructureRequest:
    """The request for `spec`: its lines, the doubts, the catalog's executable skills."""
    skills = tuple(SkillLine(name=s.name, description=" ".join(s.description.split())[:300])
                   for s in sorted(catalog, key=lambda s: s.name) if s.kind != INSTRUCTIONS)
    return StructureRequest(name=Path(spec.path).name, lines=tuple(spec.text.splitlines()), doubts=tuple(doubts),
                            skills=skills, inputs=tuple(i.name for i in spec.inputs))
