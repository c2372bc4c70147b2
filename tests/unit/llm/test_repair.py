"""The regenerator: the real SDK against a mocked Messages API answering with scripts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import respx

from orchestrator.config import Settings
from orchestrator.errors import LLMAuthError
from orchestrator.kinds import BoundSkill
from orchestrator.llm.client import LLM
from orchestrator.llm.fake import error_reply, text_message, tool_use_message
from orchestrator.llm.repair import ScriptRegenerator, create_regenerator, sha256_text
from orchestrator.plan.model import Plan, SpecRef
from orchestrator.policy import ErrorClass
from orchestrator.runner import (
    AttemptSummary,
    RegenerationRequest,
    RunnerContext,
    StepFailure,
)

pytestmark = pytest.mark.httpx2(base_url="https://llm.test")

BUGGY = 'import json, sys\nrecords = json.load(sys.stdin)["records"]\nprint(json.dumps({"records": [r["email"].lower() for r in records]}))\n'
FIXED = 'import json, sys\nrecords = json.load(sys.stdin)["records"]\nprint(json.dumps({"records": [r.get("email", "").lower() for r in records]}))\n'


def failure(skill: BoundSkill) -> StepFailure:
    return StepFailure(
        error_class=ErrorClass.CODE_ERROR,
        kind="exception",
        message="the script raised KeyError: 'email'",
        detail=f"Traceback (most recent call last):\n  File \"{skill.path}/scripts/main.py\", line 3\nKeyError: 'email'\n",
    )


def request(skill: BoundSkill, **changes: Any) -> RegenerationRequest:
    values: dict[str, Any] = {
        "run_id": "run-1",
        "step_id": "clean",
        "attempt": 1,
        "skill": skill,
        "instructions": "Read a list of contact records and lower-case each email.",
        "current_code": BUGGY,
        "current_path": "scripts/main.py",
        "failing_input": {"records": [{"name": "Ada"}]},
        "failure": failure(skill),
        "input_schema": skill.input_schema,
        "output_schema": skill.output_schema,
    }
    values.update(changes)
    return RegenerationRequest(**values)


def script_answer(code: str, number: int = 1, **usage: int) -> respx.MockResponse:
    body = tool_use_message(
        "submit_script",
        {"summary": "Default a missing email.", "code": code},
        number=number,
        **usage,
    )
    return respx.MockResponse(200, json=body)


def sent(route: respx.Route, index: int = -1) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route.calls[index].request.content)
    return body


async def test_a_repair_succeeds_on_the_first_regeneration(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    httpx2_mock.post("/v1/messages").mock(
        return_value=script_answer(FIXED, input_tokens=900, output_tokens=120)
    )
    result = await ScriptRegenerator(LLM(settings)).regenerate(request(contact_skill))

    assert result.code == FIXED
    assert result.rejected is None
    assert result.code_sha256 == sha256_text(FIXED)
    assert result.diff.startswith("--- a/scripts/main.py\n+++ b/scripts/main.py\n")
    assert '-print(json.dumps({"records": [r["email"].lower() for r in records]}))' in result.diff
    assert (
        '+print(json.dumps({"records": [r.get("email", "").lower() for r in records]}))'
        in result.diff
    )
    assert (result.usage.input_tokens, result.usage.output_tokens) == (900, 120)


async def test_the_repair_request_carries_everything_the_model_needs(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=script_answer(FIXED))
    earlier = AttemptSummary(attempt=1, code_sha256="f" * 64, failure=failure(contact_skill))
    await ScriptRegenerator(LLM(settings)).regenerate(
        request(
            contact_skill, attempt=2, history=(earlier,), feedback="the validator found no emails"
        )
    )

    body = sent(route)
    system = body["system"][0]
    user = body["messages"][0]["content"][0]["text"]
    assert system["cache_control"] == {"type": "ephemeral"}
    assert "lower-case each email" in system["text"]
    assert '"records"' in system["text"]  # the input schema
    assert '"required"' in system["text"]  # the output schema
    assert 'r["email"].lower()' in user
    assert '"name": "Ada"' in user
    assert "KeyError: 'email'" in user
    assert "the validator found no emails" in user
    assert "Attempt 1 (script sha256 ffffffffffff)" in user
    assert contact_skill.path not in user  # machine paths are scrubbed
    assert 'File "<skill>/scripts/main.py"' in user
    assert body["tool_choice"] == {"type": "tool", "name": "submit_script"}
    assert body["tools"][0]["input_schema"]["required"] == ["summary", "code"]


async def test_code_that_does_not_compile_is_refused_and_its_tokens_counted(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    httpx2_mock.post("/v1/messages").mock(
        return_value=script_answer("def broken(:\n    pass\n", output_tokens=77)
    )
    result = await ScriptRegenerator(LLM(settings)).regenerate(request(contact_skill))

    assert result.code is None
    assert result.rejected == "the new script does not compile: scripts/main.py:1: invalid syntax"
    assert result.usage.output_tokens == 77


async def test_a_repair_that_needs_two_regenerations(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = [
        script_answer("print(json.dumps(\n", number=1, input_tokens=800, output_tokens=60),
        script_answer(FIXED, number=2, input_tokens=850, output_tokens=90),
    ]
    llm = LLM(settings)
    regenerator = ScriptRegenerator(llm)
    first = await regenerator.regenerate(request(contact_skill, attempt=1))
    second = await regenerator.regenerate(request(contact_skill, attempt=1))

    assert first.code is None and first.rejected is not None
    assert second.code == FIXED
    second_prompt = sent(route, 1)["messages"][0]["content"][0]["text"]
    assert "were refused" in second_prompt
    assert "does not compile: scripts/main.py:1: '(' was never closed" in second_prompt
    assert (first.usage + second.usage) == llm.usage
    assert llm.usage.input_tokens == 1650


async def test_the_same_code_again_is_refused(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=script_answer(BUGGY))
    result = await ScriptRegenerator(LLM(settings)).regenerate(request(contact_skill))
    assert result.code is None
    assert result.rejected == "the new script is the same as the failing one"


async def test_prose_instead_of_a_script_is_refused(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    httpx2_mock.post("/v1/messages").mock(
        return_value=respx.MockResponse(200, json=text_message("Here it is"))
    )
    result = await ScriptRegenerator(LLM(settings)).regenerate(request(contact_skill))
    assert result.code is None
    assert result.rejected is not None and "did not call the tool submit_script" in result.rejected
    assert result.usage.total == 15


async def test_a_fenced_script_is_unwrapped(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=script_answer(f"```python\n{FIXED}```"))
    result = await ScriptRegenerator(LLM(settings)).regenerate(request(contact_skill))
    assert result.code == FIXED


async def test_a_skill_without_a_script_gets_a_first_version(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=script_answer(FIXED))
    result = await ScriptRegenerator(LLM(settings)).regenerate(
        request(contact_skill, current_code=None, failure=None)
    )

    assert result.code == FIXED
    assert result.diff.startswith("--- /dev/null\n+++ b/scripts/main.py\n")
    assert "first version of `scripts/main.py`" in sent(route)["messages"][0]["content"][0]["text"]


@pytest.mark.httpx2(base_url="https://llm.test", assert_all_called=False)
async def test_no_tokens_left_means_no_call(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=script_answer(FIXED))
    result = await ScriptRegenerator(LLM(settings)).regenerate(
        request(contact_skill, tokens_left=0)
    )
    assert result.code is None
    assert result.rejected == "no LLM tokens left in the run's budget"
    assert route.call_count == 0


async def test_the_answer_is_capped_by_the_tokens_left(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=script_answer(FIXED))
    await ScriptRegenerator(LLM(settings), max_tokens=2048).regenerate(
        request(contact_skill, tokens_left=500)
    )
    assert sent(route)["max_tokens"] == 500


async def test_the_factory_uses_the_runs_client_and_scrubs_the_run_directory(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill, tmp_path: Path
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=script_answer(FIXED))
    run_dir = tmp_path / "runs" / "run-1"
    plan = Plan(
        name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
    )
    llm = LLM(settings)
    ctx = RunnerContext(
        settings=settings, plan=plan, run_id="run-1", run_dir=run_dir, llm_client=llm
    )
    detail = f"{run_dir}/versions/clean/2.py failed for run-1"
    broken = failure(contact_skill).model_copy(update={"detail": detail})

    result = await create_regenerator(ctx).regenerate(request(contact_skill, failure=broken))

    assert result.code == FIXED
    assert llm.calls == 1
    assert (
        "<run>/versions/clean/2.py failed for <run-id>"
        in sent(route)["messages"][0]["content"][0]["text"]
    )


async def test_a_rejected_key_is_raised_once_and_never_asked_again(
    httpx2_mock: respx.Router, settings: Settings, contact_skill: BoundSkill
) -> None:
    rejected = error_reply("authentication_error", "invalid x-api-key")
    route = httpx2_mock.post("/v1/messages").respond(rejected.status, json=rejected.body)
    regenerator = ScriptRegenerator(LLM(settings))
    for attempt in (1, 2):
        with pytest.raises(LLMAuthError, match="invalid x-api-key"):
            await regenerator.regenerate(request(contact_skill, attempt=attempt))
    assert route.call_count == 1


def test_without_a_key_the_factory_says_regeneration_cannot_happen(tmp_path: Path) -> None:
    plan = Plan(
        name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
    )
    ctx = RunnerContext(settings=Settings(), plan=plan, run_id="run-1", run_dir=tmp_path)
    with pytest.raises(LLMAuthError, match="no API key: set ANTHROPIC_API_KEY"):
        create_regenerator(ctx)


def test_a_replay_needs_no_key(tmp_path: Path) -> None:
    replay = tmp_path / "calls.jsonl"
    replay.write_text("")
    plan = Plan(
        name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), steps=(), skills={}
    )
    ctx = RunnerContext(
        settings=Settings(llm_replay=replay), plan=plan, run_id="run-1", run_dir=tmp_path
    )
    assert isinstance(create_regenerator(ctx), ScriptRegenerator)
