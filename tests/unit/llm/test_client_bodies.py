"""The LLM client against answers that are not what the Messages API sends.

A proxy's HTML page, a body cut short, bytes that are not UTF-8 or JSON of
another shape must come out as one clear `LLMError`, never as an exception
from inside the SDK (which the engine would report as an internal error).
"""

from __future__ import annotations

import json

import httpx2
import pytest
import respx

from orchestrator.config import Settings
from orchestrator.errors import LLMError
from orchestrator.llm.client import CONNECT_TIMEOUT_S, LLM, ToolDefinition
from orchestrator.llm.fake import tool_use_message
from orchestrator.llm.prompts import RenderedPrompt

pytestmark = pytest.mark.httpx2(base_url="https://llm.test", assert_all_called=False)

PROMPT = RenderedPrompt(name="t", system="S", user="U", tool_description="Answer.")
TOOL = ToolDefinition(name="answer", description="Answer.", input_schema={"type": "object"})
HTML_PAGE = (
    "<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n"
    + "<p>upstream unavailable</p>\n" * 2000
    + "</body>\n</html>\n"
)
GOOD = json.dumps(tool_use_message("answer", {"value": 1})).encode()


def raw(status: int, content: bytes, content_type: str = "application/json") -> respx.MockResponse:
    return respx.MockResponse(status, content=content, headers={"content-type": content_type})


async def failure(settings: Settings, *, max_retries: int = 0) -> LLMError:
    llm = LLM(settings, max_retries=max_retries)
    try:
        with pytest.raises(LLMError) as caught:
            await llm.ask(PROMPT, TOOL, where="s1/2")
    finally:
        await llm.aclose()
    return caught.value


@pytest.mark.parametrize(
    ("content", "content_type", "says"),
    [
        (b'{"id": "msg_1", "content": [', "application/json", "not valid JSON"),
        (GOOD.replace(b'"value"', b'"\xff\xfe"'), "application/json", "not valid JSON"),
        (HTML_PAGE.encode(), "text/html", "(text/html): 502 Bad Gateway"),
        (b'{"hello": "world"}', "application/json", "not a Messages API response"),
        (b'{"type": "message", "content": "x", "usage": null}', "application/json", "usage"),
        (b"[1, 2]", "application/json", "not a Messages API response"),
    ],
    ids=["cut-short", "not-utf8", "html-page", "other-object", "no-usage", "array"],
)
async def test_a_200_that_is_not_a_message_is_one_clear_error(
    httpx2_mock: respx.Router, settings: Settings, content: bytes, content_type: str, says: str
) -> None:
    httpx2_mock.post("/v1/messages").mock(return_value=raw(200, content, content_type))

    error = await failure(settings)

    assert error.where == "s1/2"
    assert not error.transient  # the same endpoint will answer the same way
    assert error.message.startswith("the model API answered 200 with ")
    assert says in error.message
    assert "\n" not in error.render()
    assert len(error.render()) < 400


async def test_the_tokens_of_good_answers_still_count_after_a_broken_one(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = [raw(200, b"<html>login</html>", "text/html"), raw(200, GOOD)]
    llm = LLM(settings, max_retries=0)
    with pytest.raises(LLMError):
        await llm.ask(PROMPT, TOOL, where="s1/1")
    answer = await llm.ask(PROMPT, TOOL, where="s1/2")
    await llm.aclose()

    assert answer.input == {"value": 1}
    assert llm.usage.total == 150
    assert llm.calls == 2


async def test_an_html_error_page_is_named_by_its_title_on_one_short_line(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    route = httpx2_mock.post("/v1/messages").mock(
        return_value=raw(502, HTML_PAGE.encode(), "text/html")
    )

    error = await failure(settings, max_retries=1)

    assert error.transient
    assert route.call_count == 2
    assert error.render() == (
        "s1/2: the model API failed with 502 error: an HTML page (text/html): 502 Bad Gateway "
        "(after 1 retry)"
    )


async def test_a_long_error_message_is_cut_to_one_line(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    body = {"type": "error", "error": {"type": "invalid_request_error", "message": "x\n" * 5000}}
    httpx2_mock.post("/v1/messages").mock(return_value=respx.MockResponse(400, json=body))

    error = await failure(settings)

    assert not error.transient
    assert error.message.startswith(
        "the model API refused the request: 400 invalid_request_error: x x"
    )
    assert "\n" not in error.message
    assert len(error.message) < 400


async def test_a_proxy_error_without_the_api_shape_is_shown_as_compact_json(
    httpx2_mock: respx.Router, settings: Settings
) -> None:
    httpx2_mock.post("/v1/messages").mock(
        return_value=respx.MockResponse(404, json={"detail": "no route /v1/messages"})
    )

    error = await failure(settings)

    assert error.message == (
        'the model API refused the request: 404 error: {"detail": "no route /v1/messages"}'
    )


async def test_connecting_gives_up_long_before_an_answer_would(settings: Settings) -> None:
    """A dropped SYN must not hold a run for the read timeout (600 s) on every retry."""
    llm = LLM(settings)
    client = llm._sdk("s1/1")
    http = client._client
    await llm.aclose()

    for timeout in (client.timeout, http.timeout):
        assert isinstance(timeout, httpx2.Timeout)
        assert timeout.connect == CONNECT_TIMEOUT_S <= 15
        assert timeout.read == llm.timeout_s


@pytest.mark.parametrize(
    ("raised", "says"),
    [
        (
            httpx2.ConnectError("[Errno 111] Connection refused"),
            "the connection failed (ConnectError: [Errno 111] Connection refused)",
        ),
        (httpx2.ConnectTimeout(""), "the request timed out (ConnectTimeout)"),
        (httpx2.ReadTimeout("timed out"), "the request timed out (ReadTimeout: timed out)"),
    ],
    ids=["refused", "connect-timeout", "read-timeout"],
)
async def test_a_connection_failure_says_what_failed_in_a_few_words(
    httpx2_mock: respx.Router, settings: Settings, raised: Exception, says: str
) -> None:
    httpx2_mock.post("/v1/messages").mock(side_effect=raised)

    error = await failure(settings)

    assert error.transient
    assert error.message == f"cannot reach the model at https://llm.test after 0 retries: {says}"
