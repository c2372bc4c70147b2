"""The repair loop end to end in one process: the engine, the real SDK, a mocked Messages API.

The demo spec (specs/examples/repair-demo) runs its scripts through a plain
Python subprocess runner here; the e2e tests run the same through the sandbox.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest
import respx

from orchestrator.compile import compile_spec
from orchestrator.config import Settings
from orchestrator.engine import RunStatus, RunSummary, create_run, execute_run
from orchestrator.llm.client import LLM
from orchestrator.llm.fake import tool_use_message
from orchestrator.policy import ErrorClass
from orchestrator.runner import StepFailure, StepOutcome, StepRequest

pytestmark = pytest.mark.httpx2(base_url="https://llm.test")

DEMO = Path(__file__).resolve().parents[3] / "specs" / "examples" / "repair-demo"
FIXED = (DEMO / "fix" / "main.py").read_text(encoding="utf-8")
STILL_BROKEN = FIXED.replace('record["name"].strip()', 'record["nickname"].strip()')


class PythonRunner:
    """Runs a script skill's entry (or its regenerated version) with this Python, unsandboxed."""

    kind = "script"

    async def run(self, request: StepRequest) -> StepOutcome:
        skill_dir = Path(request.skill.path)
        script = request.script_override or skill_dir / (request.skill.entry or "scripts/main.py")
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            str(script),
            cwd=skill_dir,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await process.communicate(json.dumps(request.input).encode())
        stderr = err.decode()
        if process.returncode != 0:
            last = stderr.strip().splitlines()[-1] if stderr.strip() else ""
            failure = StepFailure(
                error_class=ErrorClass.CODE_ERROR,
                kind="exception",
                message=f"exit {process.returncode}: {last}",
                detail=stderr,
            )
            return StepOutcome(failure=failure, stderr_tail=stderr)
        return StepOutcome(output=json.loads(out))

    async def aclose(self) -> None:
        return None


def answers(*codes: str) -> list[respx.MockResponse]:
    return [
        respx.MockResponse(
            200,
            json=tool_use_message(
                "submit_script",
                {"summary": "fix", "code": code},
                number=n,
                input_tokens=1000 + n,
                output_tokens=200 + n,
                cache_write_tokens=500 if n == 1 else 0,
                cache_read_tokens=0 if n == 1 else 500,
            ),
        )
        for n, code in enumerate(codes, start=1)
    ]


async def run_demo(settings: Settings, llm: LLM) -> RunSummary:
    plan = compile_spec(DEMO / "repair-demo.md", settings)
    inputs: dict[str, Any] = json.loads((DEMO / "contacts.json").read_text())
    run_id = create_run(plan, inputs, settings)
    return await execute_run(run_id, settings, runners={"script": PythonRunner()}, llm_client=llm)


@pytest.fixture
def run_settings(settings: Settings, tmp_path: Path) -> Settings:
    return settings.model_copy(update={"state_dir": tmp_path / "state"})


async def test_the_demo_is_repaired_by_the_first_regeneration(
    httpx2_mock: respx.Router, run_settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").side_effect = answers(FIXED)
    llm = LLM(run_settings)
    summary = await run_demo(run_settings, llm)

    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("step-1").regenerations == 1
    assert summary.step("step-1").attempts == 2
    assert summary.outputs["step-2"] == {
        "domains": {"analytical.example": 2, "bletchley.example": 1},
        "without_email": 1,
    }
    versions = list((run_settings.state_dir).rglob("code/step-1/*/main.py"))
    assert [v.read_text() for v in versions] == [FIXED]
    diff = versions[0].with_name("main.py.diff").read_text()
    assert '-    email = record["email"].strip().lower()' in diff


async def test_a_repair_that_needs_two_regenerations_converges(
    httpx2_mock: respx.Router, run_settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = answers("def normalize(:\n", FIXED)
    summary = await run_demo(run_settings, LLM(run_settings))

    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("step-1").regenerations == 2
    assert route.call_count == 2
    second_prompt = json.loads(route.calls[1].request.content)["messages"][0]["content"][0]["text"]
    assert "does not compile" in second_prompt


async def test_a_spent_regeneration_budget_takes_the_fallback(
    httpx2_mock: respx.Router, run_settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = answers("def normalize(:\n", STILL_BROKEN)
    summary = await run_demo(run_settings, LLM(run_settings))

    assert summary.status is RunStatus.FAILED
    step = summary.step("step-1")
    assert step.regenerations == 2  # the plan's "Regenerate script (2 attempts)"
    assert step.fallback == "fail"
    assert "KeyError: 'nickname'" in step.message
    assert route.call_count == 2  # never a third request


async def test_the_runs_token_totals_are_the_sums_of_the_mocked_usage(
    httpx2_mock: respx.Router, run_settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").side_effect = answers("def normalize(:\n", FIXED)
    llm = LLM(run_settings)
    summary = await run_demo(run_settings, llm)

    tokens = summary.totals.tokens
    assert tokens.input_tokens == 1001 + 1002
    assert tokens.output_tokens == 201 + 202
    assert tokens.cache_write_tokens == 500
    assert tokens.cache_read_tokens == 500
    assert tokens == llm.usage
