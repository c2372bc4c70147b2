"""Approval gates through the MCP server, with clients that can be asked and ones that cannot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_types import CallToolResult, ElicitRequestFormParams, ElicitResult

ClientFactory = Any  # the `connect` fixture (conftest.py)
SPEC = {"spec": "specs/shout-approved.md", "inputs": {"text": "hello there"}}


def ok(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


class Person:
    """An elicitation callback answering with a fixed action, recording what it was asked."""

    def __init__(self, action: str, decision: str | None = None) -> None:
        self.action = action
        self.decision = decision
        self.asked: list[str] = []

    async def __call__(self, context: Any, params: Any) -> ElicitResult:
        assert isinstance(params, ElicitRequestFormParams)
        self.asked.append(params.message)
        if self.action != "accept":
            return ElicitResult(action=self.action)  # type: ignore[arg-type]
        return ElicitResult(action="accept", content={"decision": self.decision or "approve", "comment": "fine"})


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_person_approves_in_the_host_and_the_run_finishes(connect: ClientFactory, mode: str) -> None:
    person = Person("accept", "approve")
    async with connect(mode=mode, elicitation_callback=person) as client:
        with anyio.fail_after(20):
            run = ok(await client.call_tool("run_workflow", SPEC))
    assert run["status"] == "succeeded"
    assert run["outputs"]["step-2"] == {"shouted": "HELLO THERE (2 words)"}
    assert len(person.asked) == 1
    assert "step-2" in person.asked[0]
    if mode == "legacy":  # asked mid-call, with the step's input at hand
        assert '"text": "hello there"' in person.asked[0]
    assert next(s for s in run["steps"] if s["id"] == "step-2")["approval"] == "approved"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_person_rejects_in_the_host_and_the_step_does_not_run(connect: ClientFactory, mode: str) -> None:
    person = Person("accept", "reject")
    async with connect(mode=mode, elicitation_callback=person) as client:
        with anyio.fail_after(20):
            run = ok(await client.call_tool("run_workflow", SPEC))
    step = next(s for s in run["steps"] if s["id"] == "step-2")
    assert step["approval"] == "rejected"
    assert run["status"] != "succeeded"
    assert "step-2" not in run["outputs"]


@pytest.mark.parametrize(("mode", "action"), [("auto", "decline"), ("legacy", "decline"), ("auto", "cancel")])
async def test_a_declined_question_leaves_the_run_paused_for_approve_step(
    connect: ClientFactory, mode: str, action: str
) -> None:
    person = Person(action)
    async with connect(mode=mode, elicitation_callback=person) as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            assert person.asked
            assert paused["status"] == "paused"
            assert paused["awaiting_approval"] == ["step-2"]
            done = ok(await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"}))
    assert done["status"] == "succeeded"


async def test_a_client_without_elicitation_gets_a_paused_run_and_approves_by_tool(connect: ClientFactory) -> None:
    async with connect() as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            assert paused["status"] == "paused"
            assert "approve_step" in paused["next"]
            again = await client.call_tool(
                "approve_step", {"run_id": paused["run_id"], "step": "step-1", "comment": "wrong step"}
            )
            assert again.is_error  # step-1 is not awaiting approval
            done = ok(await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"}))
    assert done["status"] == "succeeded"
    assert done["outputs"]["step-2"]["shouted"].startswith("HELLO THERE")


async def test_an_unanswered_question_leaves_the_run_paused(connect: ClientFactory) -> None:
    silent = anyio.Event()

    async def never_answers(context: Any, params: Any) -> ElicitResult:
        await silent.wait()  # the person walked away
        raise AssertionError("unreachable")

    # A zero timeout: the question is unanswered at once, without a real wait.
    async with connect(mode="legacy", elicitation_callback=never_answers, elicit_timeout_s=0.0) as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
    assert paused["status"] == "paused"
    assert paused["awaiting_approval"] == ["step-2"]


async def test_a_rejection_by_tool_is_recorded_with_its_comment(connect: ClientFactory) -> None:
    async with connect() as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            done = ok(
                await client.call_tool(
                    "approve_step",
                    {"run_id": paused["run_id"], "step": "step-2", "reject": True, "comment": "not today"},
                )
            )
    assert next(s for s in done["steps"] if s["id"] == "step-2")["approval"] == "rejected"
    assert done["status"] != "succeeded"


def _change_the_shout_skill(project: Path) -> None:
    script = project / "specs" / "skills" / "shout" / "scripts" / "main.py"
    script.write_text(script.read_text() + "\n# changed while the run was paused\n")


@pytest.mark.parametrize("wait", [True, False])
async def test_an_approval_recorded_for_a_run_that_cannot_resume_says_so_and_how_to_force_it(
    connect: ClientFactory, project: Path, wait: bool
) -> None:
    async with connect() as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            _change_the_shout_skill(project)
            refused = await client.call_tool(
                "approve_step", {"run_id": paused["run_id"], "step": "step-2", "wait": wait}
            )
            after = ok(await client.call_tool("get_run", {"run_id": paused["run_id"]}))
    assert refused.is_error
    message = "\n".join(getattr(b, "text", "") for b in refused.content)
    assert "approval recorded; the run did not resume:" in message
    assert "changed since it started: skill shout" in message
    assert message.endswith("call resume_run with force=true to continue anyway")
    assert "--force" not in message
    assert next(s for s in after["steps"] if s["id"] == "step-2")["approval"] == "approved"


async def test_resume_run_with_force_continues_a_run_whose_skill_changed(connect: ClientFactory, project: Path) -> None:
    async with connect() as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            _change_the_shout_skill(project)
            await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2"})
            refused = await client.call_tool("resume_run", {"run_id": paused["run_id"]})
            done = ok(await client.call_tool("resume_run", {"run_id": paused["run_id"], "force": True}))
    message = "\n".join(getattr(b, "text", "") for b in refused.content)
    assert refused.is_error
    assert "resume_run with force=true resumes anyway" in message and "--force" not in message
    assert done["status"] == "succeeded"
    assert done["outputs"]["step-2"] == {"shouted": "HELLO THERE (2 words)"}


async def test_approve_step_with_force_approves_and_continues_a_changed_run(
    connect: ClientFactory, project: Path
) -> None:
    async with connect() as client:
        with anyio.fail_after(20):
            paused = ok(await client.call_tool("run_workflow", SPEC))
            _change_the_shout_skill(project)
            done = ok(
                await client.call_tool("approve_step", {"run_id": paused["run_id"], "step": "step-2", "force": True})
            )
    assert done["status"] == "succeeded"
