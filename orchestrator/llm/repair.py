"""The repair loop's LLM side: write or repair a script skill's code on request.

The engine decides when (a code error with budget left, a validator's findings
sent back, a script skill without its entry) and keeps every version; this
module turns one `RegenerationRequest` into one `RegenerationResult`:

1. render `prompts/repair_script.md.j2` (or `write_script.md.j2` when there is no
   code yet) with the instructions, the schemas, the current code, the failing
   input (cut to size), the failure (tail of its error output), the validator's
   feedback and a summary of earlier attempts;
2. ask for the complete replacement through the `submit_script` tool (forced);
3. refuse an answer that is not a whole Python file that compiles, or that
   repeats the failing code: `code=None`, `rejected` says why (the engine counts
   it against the budget, and the tokens it cost are still in `usage`);
   an LLM failure raises (LLMError, LLMAuthError, ReplayMissError); after a
   rejected key every later request raises at once, without a call;
   refused answers are listed in the next prompt for the same step, so the
   model does not send the same broken file twice;
4. return the code, its sha256 and the unified diff against the current code.

Absolute paths of the run and the skill are replaced by `<run>` and `<skill>` in
the text sent, so prompts (and recordings) do not depend on where a run lives.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Mapping
from typing import Any

from orchestrator.errors import LLMAuthError
from orchestrator.llm.client import LLM, LanguageModel, ToolDefinition, language_model
from orchestrator.llm.prompts import Excerpt, PromptTemplates
from orchestrator.runner import (
    AttemptSummary,
    RegenerationRequest,
    RegenerationResult,
    RunnerContext,
    StepFailure,
    TokenUsage,
)

TOOL = "submit_script"
DEFAULT_ENTRY = "scripts/main.py"
INPUT_LIMIT = 4_000  # characters of the failing input, from its start
DETAIL_LIMIT = 3_000  # characters of error output, from its end
FEEDBACK_LIMIT = 4_000
HISTORY_MESSAGE_LIMIT = 300


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unified_diff(old: str | None, new: str, path: str) -> str:
    """`git diff`-style text from `old` (None: a new file) to `new`."""
    before = [] if old is None else _lines(old)
    return "".join(
        difflib.unified_diff(
            before,
            _lines(new),
            fromfile="/dev/null" if old is None else f"a/{path}",
            tofile=f"b/{path}",
        )
    )


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _lines(text: str) -> list[str]:
    return _ended(text).splitlines(keepends=True)


def _unfenced(code: str) -> str:
    """The code without a Markdown fence around it, should the model add one."""
    lines = code.strip("\n").splitlines()
    if len(lines) >= 2 and lines[0].startswith("```") and lines[-1].strip() == "```":
        return "\n".join(lines[1:-1]) + "\n"
    return code


def check_code(code: str, path: str) -> str | None:
    """Why `code` cannot be run (it does not compile), or None. Compiling runs nothing."""
    if not code.strip():
        return "the answer's code is empty"
    try:
        compile(code, path, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"the new script does not compile: {path}:{exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"the new script does not compile: {type(exc).__name__}: {exc}"
    return None


class Scrubber:
    """Replaces machine-specific strings (absolute paths, run ids) by placeholders."""

    def __init__(self, replacements: Mapping[str, str]) -> None:
        self._pairs = sorted(
            ((old, new) for old, new in replacements.items() if old), key=lambda p: -len(p[0])
        )

    def __call__(self, text: str) -> str:
        for old, new in self._pairs:
            text = text.replace(old, new)
        return text


class ScriptRegenerator:
    """The engine's `Regenerator` (see `orchestrator.runner`)."""

    def __init__(
        self,
        llm: LanguageModel,
        prompts: PromptTemplates | None = None,
        *,
        max_tokens: int | None = None,
        scrub: Mapping[str, str] | None = None,
    ) -> None:
        self.llm = llm
        self.prompts = prompts if prompts is not None else PromptTemplates()
        self.max_tokens = max_tokens
        self._scrub = Scrubber(scrub or {})
        self._tool_schema = self.prompts.tool_schema(TOOL)
        self._auth_failure: LLMAuthError | None = None
        self._refused: dict[str, list[str]] = {}  # step id -> why earlier answers were refused

    async def regenerate(self, request: RegenerationRequest) -> RegenerationResult:
        if request.tokens_left is not None and request.tokens_left <= 0:
            return RegenerationResult(code=None, rejected="no LLM tokens left in the run's budget")
        entry = request.current_path or request.skill.entry or DEFAULT_ENTRY
        prompt = self.prompts.render(
            "write_script" if request.current_code is None else "repair_script",
            **self._variables(request, entry),
        )
        tool = ToolDefinition(
            name=TOOL, description=prompt.tool_description, input_schema=self._tool_schema
        )
        if self._auth_failure is not None:
            raise self._auth_failure  # a rejected key stays rejected: no more calls
        try:
            answer = await self.llm.ask(
                prompt,
                tool,
                where=f"{request.step_id}/{request.attempt}",
                max_tokens=self._max_tokens(request),
            )
        except LLMAuthError as exc:
            self._auth_failure = exc
            raise
        if answer.input is None:
            return self._refuse(request, answer.problem or "no answer", answer.usage)
        code = answer.input.get("code")
        if not isinstance(code, str):
            return self._refuse(request, f"the {TOOL} answer has no 'code' string", answer.usage)
        code = _unfenced(code)
        code = code if code.endswith("\n") else code + "\n"
        problem = check_code(code, entry)
        if (
            problem is None
            and request.current_code is not None
            and code == _ended(request.current_code)
        ):
            problem = "the new script is the same as the failing one"
        if problem is not None:
            return self._refuse(request, problem, answer.usage)
        self._refused.pop(request.step_id, None)
        return RegenerationResult(
            code=code,
            code_sha256=sha256_text(code),
            diff=unified_diff(request.current_code, code, entry),
            usage=answer.usage,
        )

    def _refuse(
        self, request: RegenerationRequest, reason: str, usage: TokenUsage
    ) -> RegenerationResult:
        """An answer that will not run: remembered for the step's next prompt."""
        self._refused.setdefault(request.step_id, []).append(reason)
        return RegenerationResult(code=None, rejected=reason, usage=usage)

    def _max_tokens(self, request: RegenerationRequest) -> int | None:
        if request.tokens_left is None:
            return self.max_tokens
        if self.max_tokens is None:
            return request.tokens_left
        return min(self.max_tokens, request.tokens_left)

    def _variables(self, request: RegenerationRequest, entry: str) -> dict[str, Any]:
        skill = request.skill
        scrub = Scrubber({skill.path: "<skill>"})
        failing_input = (
            None
            if request.failing_input is None and request.current_code is None
            else Excerpt.of_json(request.failing_input, INPUT_LIMIT)
        )
        return {
            "skill": {"name": skill.name, "description": skill.description},
            "instructions": request.instructions,
            "input_schema": request.input_schema
            if request.input_schema is not None
            else skill.input_schema,
            "output_schema": request.output_schema
            if request.output_schema is not None
            else skill.output_schema,
            "network": skill.network,
            "entry": entry,
            "step_id": request.step_id,
            "attempt": request.attempt,
            "code": (request.current_code or "").rstrip("\n"),
            "failing_input": failing_input,
            "failure": self._failure(request.failure, scrub),
            "feedback": self._scrub(scrub(request.feedback))[:FEEDBACK_LIMIT]
            if request.feedback
            else None,
            "history": [
                self._summary(past, scrub)
                for past in request.history
                if past.attempt != request.attempt  # the current failure has its own section
            ],
            "refused": list(self._refused.get(request.step_id, ())),
        }

    def _failure(self, failure: StepFailure | None, scrub: Scrubber) -> dict[str, Any] | None:
        if failure is None:
            return None
        return {
            "error_class": failure.error_class.value,
            "kind": failure.kind,
            "message": self._scrub(scrub(failure.message)),
            "pointer": failure.pointer,
            "detail": Excerpt.tail(self._scrub(scrub(failure.detail)).rstrip(), DETAIL_LIMIT),
        }

    def _summary(self, past: AttemptSummary, scrub: Scrubber) -> dict[str, Any]:
        message = self._scrub(scrub(past.failure.message))
        return {
            "attempt": past.attempt,
            "code_sha256": past.code_sha256,
            "error_class": past.failure.error_class.value,
            "kind": past.failure.kind,
            "message": Excerpt.head(message, HISTORY_MESSAGE_LIMIT).text,
        }


def create_regenerator(ctx: RunnerContext) -> ScriptRegenerator:
    """`orchestrator.runner.REGENERATOR_FACTORY`: a regenerator on the run's one client.

    Raises LLMAuthError when there is no key (and no replay): the engine then
    reports regeneration as unavailable, with that message, instead of asking.
    """
    llm = ctx.llm()
    if isinstance(llm, LLM):
        llm.require_key()
    return ScriptRegenerator(
        language_model(llm),
        max_tokens=ctx.settings.max_tokens,
        scrub={
            str(ctx.run_dir.resolve()): "<run>",
            str(ctx.run_dir): "<run>",
            ctx.run_id: "<run-id>",
        },
    )
