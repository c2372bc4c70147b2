"""The fakes: the scripted Messages API answers the real SDK; the queued client answers in-process."""

from __future__ import annotations

import asyncio

from orchestrator.config import Settings
from orchestrator.errors import LLMAuthError
from orchestrator.llm.chooser import Candidate, choose_skill
from orchestrator.llm.client import LLM, LanguageModel, ToolDefinition
from orchestrator.llm.fake import FakeMessagesAPI, QueuedLLM, error_reply, tool_use_message
from orchestrator.llm.prompts import RenderedPrompt

PROMPT = RenderedPrompt(name="t", system="S", user="U", tool_description="T")
TOOL = ToolDefinition(name="answer", description="T", input_schema={"type": "object"})


async def test_the_scripted_api_serves_the_real_client_in_order() -> None:
    replies = [tool_use_message("answer", {"n": 1}), error_reply("authentication_error", "bad key")]
    with FakeMessagesAPI(replies) as api:
        llm = LLM(Settings(api_key="k", base_url=api.base_url, model="claude-test"))
        first = await llm.ask(PROMPT, TOOL, where="s/1")
        try:
            await llm.ask(PROMPT, TOOL, where="s/2")
        except LLMAuthError as exc:
            second = exc.message
        await llm.aclose()
        received = await asyncio.to_thread(lambda: list(api.requests))

    assert first.input == {"n": 1}
    assert "401 authentication_error: bad key" in second
    assert [r["tool_choice"]["name"] for r in received] == ["answer", "answer"]


async def test_the_queued_client_answers_in_order_and_keeps_what_it_was_asked() -> None:
    llm = QueuedLLM([{"skill": "b", "reason": "fits"}])
    assert isinstance(llm, LanguageModel)
    choice = await choose_skill(
        llm, "docs", [Candidate(name="a"), Candidate(name="b")], where="spec.md:3"
    )
    assert choice.name == "b"
    assert llm.asked[0][2] == "spec.md:3"
    assert (await llm.ask(PROMPT, TOOL, where="x")).input is None
