"""The `llm` skill kind: a step whose skill is a prompt.

The SKILL.md body is a Jinja2 template (sandboxed, strict) rendered with the
step's input: `input` is the whole input and, when it is an object, its fields
are variables too. The model must answer through a tool whose input schema is
the step's output schema; the tool input is the step's output (an output schema
that is not an object is wrapped as `{"output": ...}` and unwrapped here). The
engine validates it like any other output.

Failures become `StepFailure`s, never exceptions:

    missing or rejected key, replay miss     unrecoverable
    429, 529, overloaded, connection         transient
    no tool call, cut off                     code_error (a bad answer)
    template needs a field the input lacks    invalid_input
    other API refusals, a broken template     unrecoverable
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta

from orchestrator.config import ENV_MAX_SPEC_BYTES, file_caps
from orchestrator.contracts import JsonSchema
from orchestrator.errors import LLMAuthError, LLMError, ReplayMissError
from orchestrator.filecap import read_capped
from orchestrator.llm.client import LanguageModel, ToolAnswer, ToolDefinition, language_model
from orchestrator.llm.prompts import Excerpt, PromptTemplates, template_environment
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepFailure, StepOutcome, StepRequest
from orchestrator.templating import render

TOOL = "submit_output"
WRAPPED_FIELD = "output"
INPUT_LIMIT = 8_000


def skill_body(skill_dir: Path) -> str:
    """The SKILL.md body: the text after the YAML frontmatter."""
    text = read_capped(skill_dir / "SKILL.md", file_caps().spec_bytes, ENV_MAX_SPEC_BYTES).decode("utf-8", "replace")
    if text.startswith("---"):
        lines = text.splitlines(keepends=True)
        for index in range(1, len(lines)):
            if lines[index].rstrip() == "---":
                return "".join(lines[index + 1 :]).strip()
    return text.strip()


def answer_schema(output_schema: JsonSchema | None) -> tuple[JsonSchema, bool]:
    """The tool's input schema for an output schema, and whether it wraps it."""
    if not output_schema:
        return {"type": "object"}, False
    if output_schema.get("type") == "object":
        return output_schema, False
    return {
        "type": "object",
        "properties": {WRAPPED_FIELD: output_schema},
        "required": [WRAPPED_FIELD],
    }, True


class LLMStepRunner:
    """`StepRunner` for kind `llm`."""

    kind = "llm"

    def __init__(self, llm: LanguageModel, prompts: PromptTemplates | None = None) -> None:
        self.llm = llm
        self.prompts = prompts if prompts is not None else PromptTemplates()
        self._env = template_environment(self.prompts.directory, sandboxed=True)

    async def run(self, request: StepRequest) -> StepOutcome:
        started = time.monotonic()
        where = f"{request.step_id}/{request.attempt}"
        if request.item_index is not None:
            where = f"{request.step_id}[{request.item_index}]/{request.attempt}"
        try:
            body, mentions_input = self._body(request)
        except OSError as exc:
            return _failed(
                ErrorClass.UNRECOVERABLE, "setup", f"cannot read the skill: {exc}", started
            )
        except jinja2.TemplateSyntaxError as exc:
            message = f"SKILL.md body, line {exc.lineno}: {exc.message}"
            return _failed(ErrorClass.UNRECOVERABLE, "template", message, started)
        except jinja2.UndefinedError as exc:
            message = f"the SKILL.md body needs a value the input lacks: {exc.message}"
            return _failed(ErrorClass.INVALID_INPUT, "template", message, started)
        except jinja2.TemplateError as exc:  # e.g. past the template bounds (templating)
            message = f"the SKILL.md body cannot be rendered: {exc.message or exc}"
            return _failed(ErrorClass.UNRECOVERABLE, "template", message, started)
        schema, wrapped = answer_schema(request.output_schema or request.skill.output_schema)
        prompt = self.prompts.render(
            "llm_skill",
            skill={"name": request.skill.name, "description": request.skill.description},
            tool_name=TOOL,
            output_schema=schema,
            body=body,
            show_input=not mentions_input,
            input=Excerpt.of_json(request.input, INPUT_LIMIT),
        )
        tool = ToolDefinition(name=TOOL, description=prompt.tool_description, input_schema=schema)
        if request.tokens_left is not None and request.tokens_left <= 0:
            message = "no LLM tokens left in the run's budget (limit max_llm_tokens)"
            return _failed(ErrorClass.UNRECOVERABLE, "token_budget", message, started)
        try:
            answer = await self.llm.ask(prompt, tool, where=where, max_tokens=request.tokens_left)
        except (LLMAuthError, ReplayMissError) as exc:
            return _failed(
                ErrorClass.UNRECOVERABLE,
                "llm_auth" if isinstance(exc, LLMAuthError) else "replay_miss",
                exc.message,
                started,
            )
        except LLMError as exc:
            error_class = ErrorClass.TRANSIENT if exc.transient else ErrorClass.UNRECOVERABLE
            return _failed(error_class, "llm_api", exc.message, started)
        return _outcome(answer, wrapped, started)

    def _body(self, request: StepRequest) -> tuple[str, bool]:
        source = skill_body(Path(request.skill.path))
        variables: dict[str, Any] = dict(request.input) if isinstance(request.input, dict) else {}
        variables["input"] = request.input
        template = self._env.from_string(source)
        mentioned = jinja2.meta.find_undeclared_variables(self._env.parse(source))
        return render(template, **variables), bool(mentioned & set(variables))

    async def aclose(self) -> None:
        """Close the run's client (it reopens if the regenerator still needs it)."""
        close = getattr(self.llm, "aclose", None)
        if close is not None:
            await close()


def _meta(answer: ToolAnswer) -> dict[str, str]:
    return {
        "model": answer.model,
        "llm_retries": str(answer.retries),
        "message_id": answer.message_id,
    }


def _outcome(answer: ToolAnswer, wrapped: bool, started: float) -> StepOutcome:
    duration = time.monotonic() - started
    if answer.input is None:
        failure = StepFailure(
            error_class=ErrorClass.CODE_ERROR,
            message=answer.problem or "no answer",
            kind="llm_answer",
        )
        return StepOutcome(
            failure=failure, usage=answer.usage, duration_s=duration, meta=_meta(answer)
        )
    output: Any = answer.input
    if wrapped:
        if WRAPPED_FIELD not in answer.input:
            failure = StepFailure(
                error_class=ErrorClass.CODE_ERROR,
                message=f"the answer has no '{WRAPPED_FIELD}' field",
                kind="llm_answer",
            )
            return StepOutcome(
                failure=failure, usage=answer.usage, duration_s=duration, meta=_meta(answer)
            )
        output = answer.input[WRAPPED_FIELD]
    return StepOutcome(output=output, usage=answer.usage, duration_s=duration, meta=_meta(answer))


def _failed(error_class: ErrorClass, kind: str, message: str, started: float) -> StepOutcome:
    failure = StepFailure(error_class=error_class, message=message, kind=kind)
    return StepOutcome(failure=failure, duration_s=time.monotonic() - started)


def create_runner(ctx: RunnerContext) -> LLMStepRunner:
    """The `llm` kind's runner factory (`orchestrator.kinds.llm`)."""
    return LLMStepRunner(language_model(ctx.llm()))
