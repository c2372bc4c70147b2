"""The `llm` skill kind: a SKILL.md body rendered with the input, answered through a tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import respx

from orchestrator.config import Settings
from orchestrator.kinds import BoundSkill, BuiltinKind
from orchestrator.llm.client import LLM
from orchestrator.llm.fake import error_reply, text_message, tool_use_message
from orchestrator.llm.runner import LLMStepRunner, create_runner, skill_body
from orchestrator.plan.model import Plan, SpecRef
from orchestrator.policy import ErrorClass
from orchestrator.runner import RunnerContext, StepRequest, StepRunner

pytestmark = pytest.mark.httpx2(base_url="https://llm.test")

SUMMARY_SCHEMA = {
    "type": "object",
    "properties": {"summary": {"type": "string"}},
    "required": ["summary"],
}


def llm_skill(tmp_path: Path, body: str) -> BoundSkill:
    folder = tmp_path / "summarize"
    folder.mkdir(exist_ok=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: summarize\ndescription: Summarizes a text.\n---\n{body}\n", encoding="utf-8"
    )
    return BoundSkill(
        name="summarize",
        kind=BuiltinKind.LLM,
        path=str(folder),
        origin="spec",
        sha256="0" * 64,
        description="Summarizes a text.",
        output_schema=SUMMARY_SCHEMA,
    )


def step(skill: BoundSkill, step_input: Any, schema: Any = None) -> StepRequest:
    return StepRequest(
        run_id="run-1",
        step_id="summarize",
        attempt=1,
        idempotency_key="run-1:summarize:1",
        skill=skill,
        input=step_input,
        output_schema=schema,
    )


def sent(route: respx.Route) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route.calls.last.request.content)
    return body


def answer(tool_input: dict[str, Any], **usage: int) -> respx.MockResponse:
    return respx.MockResponse(200, json=tool_use_message("submit_output", tool_input, **usage))


async def test_the_body_is_rendered_with_the_input_and_the_tool_input_is_the_output(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=answer({"summary": "short"}, input_tokens=40, output_tokens=9)
    )
    skill = llm_skill(tmp_path, "Summarize this in {{ words }} words: {{ text }}")
    outcome = await LLMStepRunner(LLM(settings)).run(
        step(skill, {"text": "A long text.", "words": 5})
    )

    assert outcome.ok
    assert outcome.output == {"summary": "short"}
    assert (outcome.usage.input_tokens, outcome.usage.output_tokens) == (40, 9)
    body = sent(route)
    assert body["messages"][0]["content"][0]["text"] == "Summarize this in 5 words: A long text."
    assert body["tools"][0]["input_schema"] == SUMMARY_SCHEMA
    assert body["tool_choice"] == {"type": "tool", "name": "submit_output"}
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}


async def test_a_body_that_names_no_input_gets_the_input_appended(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=answer({"summary": "s"}))
    skill = llm_skill(tmp_path, "Summarize the input.")
    await LLMStepRunner(LLM(settings)).run(step(skill, {"text": "UNIQUE TEXT"}))
    assert "UNIQUE TEXT" in sent(route)["messages"][0]["content"][0]["text"]


async def test_a_schema_that_is_not_an_object_is_wrapped_and_unwrapped(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=answer({"output": ["a", "b"]}))
    skill = llm_skill(tmp_path, "List the tags of {{ text }}")
    schema = {"type": "array", "items": {"type": "string"}}
    outcome = await LLMStepRunner(LLM(settings)).run(step(skill, {"text": "t"}, schema))

    assert outcome.output == ["a", "b"]
    assert sent(route)["tools"][0]["input_schema"]["properties"]["output"] == schema


@pytest.mark.httpx2(base_url="https://llm.test", assert_all_called=False)
async def test_a_field_the_input_lacks_is_invalid_input(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=answer({"summary": "s"}))
    skill = llm_skill(tmp_path, "Summarize {{ text }}")
    outcome = await LLMStepRunner(LLM(settings)).run(step(skill, {"other": 1}))
    assert outcome.failure is not None
    assert outcome.failure.error_class is ErrorClass.INVALID_INPUT
    assert "'text' is undefined" in outcome.failure.message


@pytest.mark.parametrize(
    ("kind", "error_class"),
    [
        ("authentication_error", ErrorClass.UNRECOVERABLE),
        ("overloaded_error", ErrorClass.TRANSIENT),
        ("rate_limit_error", ErrorClass.TRANSIENT),
        ("invalid_request_error", ErrorClass.UNRECOVERABLE),
    ],
)
async def test_api_failures_become_classified_step_failures(
    httpx2_mock: respx.Router,
    settings: Settings,
    tmp_path: Path,
    kind: str,
    error_class: ErrorClass,
) -> None:
    reply = error_reply(kind, retry_after_ms=1)
    httpx2_mock.post("/v1/messages").respond(reply.status, json=reply.body, headers=reply.headers)
    skill = llm_skill(tmp_path, "Summarize {{ text }}")
    outcome = await LLMStepRunner(LLM(settings, max_retries=1)).run(step(skill, {"text": "t"}))
    assert outcome.failure is not None
    assert outcome.failure.error_class is error_class
    assert kind in outcome.failure.message


async def test_prose_instead_of_the_tool_is_a_code_error(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    httpx2_mock.post("/v1/messages").respond(200, json=text_message("Sure!"))
    skill = llm_skill(tmp_path, "Summarize {{ text }}")
    outcome = await LLMStepRunner(LLM(settings)).run(step(skill, {"text": "t"}))
    assert outcome.failure is not None
    assert outcome.failure.error_class is ErrorClass.CODE_ERROR
    assert outcome.usage.total == 15


def test_the_factory_gives_a_step_runner_of_kind_llm(settings: Settings, tmp_path: Path) -> None:
    plan = Plan(
        name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
    )
    ctx = RunnerContext(settings=settings, plan=plan, run_id="r", run_dir=tmp_path)
    runner = create_runner(ctx)
    assert isinstance(runner, StepRunner)
    assert runner.kind == "llm"
    assert isinstance(ctx.llm(), LLM)


def test_the_body_is_what_follows_the_frontmatter(tmp_path: Path) -> None:
    (tmp_path / "SKILL.md").write_text("---\nname: x\ndescription: y\n---\n\nDo {{ it }}.\n")
    assert skill_body(tmp_path) == "Do {{ it }}."


async def test_the_answer_is_capped_by_what_is_left_of_the_runs_token_budget(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=answer({"summary": "s"}))
    skill = llm_skill(tmp_path, "Summarize {{ text }}.")
    runner = LLMStepRunner(LLM(settings))

    await runner.run(step(skill, {"text": "t"}).model_copy(update={"tokens_left": 300}))
    assert sent(route)["max_tokens"] == 300
    await runner.run(step(skill, {"text": "t"}).model_copy(update={"tokens_left": 10**9}))
    assert sent(route)["max_tokens"] == settings.max_tokens  # never more than configured

    spent = await runner.run(step(skill, {"text": "t"}).model_copy(update={"tokens_left": 0}))
    assert spent.failure is not None and spent.failure.error_class is ErrorClass.UNRECOVERABLE
    assert "no LLM tokens left" in spent.failure.message
    assert route.call_count == 2  # not asked when nothing is left
