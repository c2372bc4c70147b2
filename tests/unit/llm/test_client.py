"""The LLM client: the real anthropic SDK against a mocked Messages API."""

from __future__ import annotations

import json
from typing import Any

import httpx2
import pytest
import respx

from orchestrator.config import Settings
from orchestrator.errors import LLMAuthError, LLMError
from orchestrator.llm.client import LLM, ToolDefinition
from orchestrator.llm.fake import error_reply, text_message, tool_use_message
from orchestrator.llm.prompts import RenderedPrompt
from orchestrator.llm.record import WHERE_HEADER

pytestmark = pytest.mark.httpx2(base_url="https://llm.test", assert_all_called=False)

PROMPT = RenderedPrompt(
    name="t", system="STATIC PREFIX", user="DYNAMIC PART", tool_description="Answer."
)
TOOL = ToolDefinition(
    name="answer",
    description="Answer.",
    input_schema={"type": "object", "properties": {"value": {"type": "integer"}}},
)


def reply(
    status: int = 200, body: dict[str, Any] | None = None, headers: dict[str, str] | None = None
) -> respx.MockResponse:
    return respx.MockResponse(status, json=body, headers=headers)


def error(kind: str, *, retry_after_ms: int | None = 1) -> respx.MockResponse:
    scripted = error_reply(kind, retry_after_ms=retry_after_ms)
    return reply(scripted.status, scripted.body, scripted.headers)


def sent(route: respx.Route, index: int = -1) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(route.calls[index].request.content)
    return body


async def test_the_answer_is_the_forced_tool_input_with_its_usage(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    usage = {
        "input_tokens": 120,
        "output_tokens": 30,
        "cache_write_tokens": 400,
        "cache_read_tokens": 7,
    }
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=reply(body=tool_use_message("answer", {"value": 42}, **usage))
    )
    llm = LLM(settings)
    answer = await llm.ask(PROMPT, TOOL, where="s1/1")
    await llm.aclose()

    assert answer.input == {"value": 42}
    assert answer.usage.input_tokens == 120
    assert answer.usage.output_tokens == 30
    assert answer.usage.cache_write_tokens == 400
    assert answer.usage.cache_read_tokens == 7
    assert answer.retries == 0
    assert route.call_count == 1


async def test_the_request_forces_the_tool_and_marks_the_static_prefix_for_caching(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=reply(body=tool_use_message("answer", {"value": 1}))
    )
    llm = LLM(settings)
    await llm.ask(PROMPT, TOOL, where="s1/1")

    body = sent(route)
    assert body["model"] == "claude-test"
    assert body["max_tokens"] == 2048
    assert "temperature" not in body  # API 2026-10-21 rejects sampling parameters
    assert body["system"] == [
        {"type": "text", "text": "STATIC PREFIX", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "DYNAMIC PART"}]}
    ]
    assert body["tools"] == [TOOL.model_dump()]
    assert body["tool_choice"] == {"type": "tool", "name": "answer"}


async def test_the_where_tag_never_reaches_the_network(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=reply(body=tool_use_message("answer", {"value": 1}))
    )
    await LLM(settings).ask(PROMPT, TOOL, where="s1/1")
    assert WHERE_HEADER not in route.calls.last.request.headers


async def test_an_overloaded_answer_is_retried_and_the_retry_counted(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = [
        error("overloaded_error"),
        reply(body=tool_use_message("answer", {"value": 2})),
    ]
    llm = LLM(settings)
    answer = await llm.ask(PROMPT, TOOL, where="s1/1")

    assert answer.input == {"value": 2}
    assert answer.retries == 1
    assert llm.retries == 1
    assert route.call_count == 2


async def test_rate_limits_beyond_the_retry_bound_are_a_transient_error(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=error("rate_limit_error"))
    llm = LLM(settings, max_retries=2)
    with pytest.raises(LLMError) as caught:
        await llm.ask(PROMPT, TOOL, where="s1/1")

    assert caught.value.transient
    assert caught.value.where == "s1/1"
    assert "429 rate_limit_error" in caught.value.message
    assert route.call_count == 3
    assert llm.retries == 2


async def test_a_rejected_key_is_an_auth_error_with_one_clear_message(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(return_value=error("authentication_error"))
    with pytest.raises(LLMAuthError) as caught:
        await LLM(settings).ask(PROMPT, TOOL, where="s1/1")

    assert caught.value.render() == (
        "s1/1: the API rejected the key (401 authentication_error: authentication error); "
        "check ANTHROPIC_API_KEY"
    )
    assert route.call_count == 1  # never retried


async def test_a_missing_key_is_an_auth_error_before_any_request(httpx2_mock: respx.Router) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=reply(body=tool_use_message("answer", {}))
    )
    with pytest.raises(LLMAuthError, match="no API key: set ANTHROPIC_API_KEY"):
        await LLM(Settings(base_url="https://llm.test")).ask(PROMPT, TOOL, where="s1/1")
    assert route.call_count == 0


async def test_a_refused_request_is_an_error_that_is_not_transient(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=error("invalid_request_error"))
    with pytest.raises(LLMError) as caught:
        await LLM(settings).ask(PROMPT, TOOL, where="s1/1")
    assert not caught.value.transient
    assert not isinstance(caught.value, LLMAuthError)
    assert "400 invalid_request_error" in caught.value.message


async def test_a_connection_failure_is_transient(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").mock(side_effect=httpx2.ConnectError("refused"))
    with pytest.raises(LLMError) as caught:
        await LLM(settings, max_retries=0).ask(PROMPT, TOOL, where="s1/1")
    assert caught.value.transient
    assert "cannot reach the model" in caught.value.message


async def test_prose_instead_of_the_tool_is_no_answer_but_its_tokens_count(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=reply(body=text_message("I think...")))
    llm = LLM(settings)
    answer = await llm.ask(PROMPT, TOOL, where="s1/1")
    assert answer.input is None
    assert answer.problem == "the model did not call the tool answer (it answered with text)"
    assert llm.usage.total == 15


async def test_an_answer_cut_at_max_tokens_is_no_answer(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    cut = tool_use_message("answer", {"value": 1})
    cut["stop_reason"] = "max_tokens"
    httpx2_mock.post("/v1/messages").mock(return_value=reply(body=cut))
    answer = await LLM(settings).ask(PROMPT, TOOL, where="s1/1", max_tokens=300)
    assert answer.input is None
    assert answer.problem == "the answer was cut off at max_tokens (300 output tokens)"


async def test_run_totals_are_the_sums_of_every_call(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    usages = [(100, 20, 300, 0), (110, 25, 0, 300), (90, 15, 0, 300)]
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = [
        reply(
            body=tool_use_message(
                "answer",
                {"value": i},
                input_tokens=a,
                output_tokens=b,
                cache_write_tokens=c,
                cache_read_tokens=d,
            )
        )
        for i, (a, b, c, d) in enumerate(usages)
    ]
    llm = LLM(settings)
    for attempt in range(3):
        await llm.ask(PROMPT, TOOL, where=f"s1/{attempt}")

    assert llm.calls == 3
    assert llm.usage.input_tokens == sum(u[0] for u in usages)
    assert llm.usage.output_tokens == sum(u[1] for u in usages)
    assert llm.usage.cache_write_tokens == sum(u[2] for u in usages)
    assert llm.usage.cache_read_tokens == sum(u[3] for u in usages)


@pytest.mark.httpx2(base_url="http://localhost:8080/anthropic")
async def test_the_base_url_and_model_come_from_the_settings(httpx2_mock: respx.Router) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=reply(body=tool_use_message("answer", {"value": 1}))
    )
    settings = Settings(
        api_key="k", base_url="http://localhost:8080/anthropic", model="local-model"
    )
    await LLM(settings).ask(PROMPT, TOOL, where="s1/1")
    assert route.call_count == 1
    assert sent(route)["model"] == "local-model"
