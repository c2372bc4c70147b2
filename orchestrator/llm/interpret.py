"""The model reads the policy sentences the grammar could not: `plan --interpret`.

    read_sentence(llm, sentence) -> Interpretation     one forced `read_policy` tool call
    PolicyInterpreter(make_llm)(sentences)               the planner's synchronous adapter

The tool's input schema is the plan's sentence model, `PolicyStatement` (its
JSON Schema, references inlined), plus a reason for the reviewer. An answer that
does not fit the model is an LLMError naming the sentence's line; the caller
reports it and goes on. The prompt is `prompts/read_policy.md.j2`. Calls carry
`where` = `interpret/<section>/<line>` (no path), so a recording made in one
folder replays from a copy of the spec anywhere.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from orchestrator.contracts import JsonSchema
from orchestrator.errors import LLMError
from orchestrator.llm.client import LanguageModel, ToolDefinition
from orchestrator.llm.prompts import PromptTemplates
from orchestrator.llm.sync import SyncModel
from orchestrator.policy import PolicyStatement
from orchestrator.spec.model import UnreadSentence

READ_POLICY_TOOL = "read_policy"


class Interpretation(BaseModel):
    """The model's reading of one sentence."""

    model_config = ConfigDict(frozen=True)

    sentence: UnreadSentence
    statement: PolicyStatement
    reason: str = ""
    model: str = ""


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.rsplit("/", 1)[1]], defs)
        return {k: _inline(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def tool_schema() -> JsonSchema:
    """The `read_policy` tool's input: a PolicyStatement and a reason."""
    schema = PolicyStatement.model_json_schema()
    statement = _inline(schema, schema.get("$defs", {}))
    return {
        "type": "object",
        "properties": {"statement": statement, "reason": {"type": "string"}},
        "required": ["statement", "reason"],
        "additionalProperties": False,
    }


def _where(sentence: UnreadSentence) -> str:
    line = sentence.where.rpartition(":")[2]
    return f"interpret/{sentence.section}/{line}"


async def read_sentence(
    llm: LanguageModel, sentence: UnreadSentence, *, prompts: PromptTemplates | None = None
) -> Interpretation:
    """Ask the model what `sentence` states; LLMError when its answer does not fit the model."""
    prompts = prompts if prompts is not None else PromptTemplates()
    prompt = prompts.render(
        "read_policy", sentence=sentence.text, section=sentence.section, steps=list(sentence.steps),
        step_name=sentence.step_name, problem=sentence.problem,
    )
    tool = ToolDefinition(name=READ_POLICY_TOOL, description=prompt.tool_description, input_schema=tool_schema())
    answer = await llm.ask(prompt, tool, where=_where(sentence))
    if answer.input is None:
        raise LLMError(answer.problem or "the model gave no answer", where=sentence.where)
    try:
        statement = PolicyStatement.model_validate(answer.input.get("statement") or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        raise LLMError(f"the model's reading does not fit the policy model: {at}: {first['msg']}",
                       where=sentence.where) from None
    return Interpretation(sentence=sentence, statement=statement, reason=str(answer.input.get("reason", "")).strip(),
                          model=answer.model)


async def _read_one(llm: LanguageModel, *, sentence: UnreadSentence, prompts: PromptTemplates) -> Interpretation:
    return await read_sentence(llm, sentence, prompts=prompts)


class PolicyInterpreter:
    """`interpreter(sentences)` → one Interpretation (or LLMError) per sentence, in order.

    The planner is synchronous: the calls run on this object's own event-loop thread,
    so it works with or without a running loop. `close()` closes the client there."""

    def __init__(self, make_llm: Callable[[], LanguageModel], prompts: PromptTemplates | None = None) -> None:
        self._model = SyncModel(make_llm, "policy-interpreter")
        self._prompts = prompts if prompts is not None else PromptTemplates()

    def __call__(self, sentences: Sequence[UnreadSentence]) -> list[Interpretation | LLMError]:
        out: list[Interpretation | LLMError] = []
        for sentence in sentences:
            try:
                out.append(self._model.run(functools.partial(_read_one, sentence=sentence, prompts=self._prompts)))
            except LLMError as exc:
                if exc.where is None:
                    exc.where = sentence.where
                out.append(exc)
        return out

    def close(self) -> None:
        self._model.close()
