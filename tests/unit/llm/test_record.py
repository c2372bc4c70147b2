"""Record and replay at the transport: the real SDK path runs in both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import respx

from orchestrator.config import Settings
from orchestrator.errors import ConfigError, ReplayMissError
from orchestrator.llm.client import LLM, ToolDefinition
from orchestrator.llm.fake import error_reply, tool_use_message
from orchestrator.llm.prompts import RenderedPrompt

pytestmark = pytest.mark.httpx2(base_url="https://llm.test")

TOOL = ToolDefinition(name="answer", description="Answer.", input_schema={"type": "object"})


def prompt(user: str = "what is 6 x 7?", system: str = "STATIC") -> RenderedPrompt:
    return RenderedPrompt(name="t", system=system, user=user, tool_description="Answer.")


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


async def record(settings: Settings, tmp_path: Path, httpx2_mock: respx.Router) -> Path:
    file = tmp_path / "calls.jsonl"
    route = httpx2_mock.post("/v1/messages")
    route.side_effect = [
        respx.MockResponse(200, json=tool_use_message("answer", {"value": 42}, input_tokens=11)),
        respx.MockResponse(200, json=tool_use_message("answer", {"value": 7}, input_tokens=13)),
    ]
    llm = LLM(settings.model_copy(update={"llm_record": file}))
    await llm.ask(prompt(), TOOL, where="ask/1")
    await llm.ask(prompt("and 3 + 4?"), TOOL, where="ask/2")
    await llm.aclose()
    return file


async def test_recording_keeps_every_pair_without_the_key(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    recorded = lines(file)

    assert [r["where"] for r in recorded] == ["ask/1", "ask/2"]
    assert recorded[0]["request"]["path"] == "/v1/messages"  # type: ignore[index]
    assert recorded[0]["response"]["status"] == 200  # type: ignore[index]
    assert recorded[0]["response"]["body"]["content"][0]["input"] == {"value": 42}  # type: ignore[index]
    assert "sk-test-key" not in file.read_text()


async def test_replay_gives_the_recorded_answers_without_a_network_or_key(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    network_calls = len(httpx2_mock.calls)

    replaying = LLM(Settings(model=settings.model, max_tokens=settings.max_tokens, llm_replay=file))
    first = await replaying.ask(prompt(), TOOL, where="ask/1")
    second = await replaying.ask(prompt("and 3 + 4?"), TOOL, where="ask/2")

    assert (first.input, second.input) == ({"value": 42}, {"value": 7})
    assert replaying.usage.input_tokens == 11 + 13
    assert len(httpx2_mock.calls) == network_calls
    assert replaying.replay_inexact == 0


async def test_a_request_the_recording_cannot_answer_is_a_replay_miss(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    replaying = LLM(Settings(model=settings.model, max_tokens=settings.max_tokens, llm_replay=file))
    with pytest.raises(ReplayMissError) as caught:
        await replaying.ask(prompt(system="ANOTHER STATIC PREFIX"), TOOL, where="ask/3")

    assert caught.value.where == "ask/3"
    assert "has no answer for request" in caught.value.message
    assert str(file) in caught.value.message


async def test_an_answer_is_not_replayed_twice(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    replaying = LLM(Settings(model=settings.model, max_tokens=settings.max_tokens, llm_replay=file))
    await replaying.ask(prompt(), TOOL, where="ask/1")
    with pytest.raises(ReplayMissError):
        await replaying.ask(prompt(), TOOL, where="ask/1")


async def test_replay_falls_back_to_the_same_step_and_static_prefix_when_details_differ(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    replaying = LLM(Settings(model=settings.model, max_tokens=settings.max_tokens, llm_replay=file))
    answer = await replaying.ask(
        prompt("what is 6 x 7? (traceback from /other/path)"), TOOL, where="ask/1"
    )

    assert answer.input == {"value": 42}
    assert replaying.replay_inexact == 1


async def test_a_recorded_overload_replays_with_its_retry(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = tmp_path / "calls.jsonl"
    overloaded = error_reply("overloaded_error", retry_after_ms=1)
    httpx2_mock.post("/v1/messages").side_effect = [
        respx.MockResponse(overloaded.status, json=overloaded.body, headers=overloaded.headers),
        respx.MockResponse(200, json=tool_use_message("answer", {"value": 1})),
    ]
    recording = LLM(settings.model_copy(update={"llm_record": file}))
    await recording.ask(prompt(), TOOL, where="ask/1")

    replaying = LLM(Settings(model=settings.model, max_tokens=settings.max_tokens, llm_replay=file))
    answer = await replaying.ask(prompt(), TOOL, where="ask/1")
    assert [r["response"]["status"] for r in lines(file)] == [529, 200]  # type: ignore[index]
    assert answer.input == {"value": 1}
    assert answer.retries == 1


def test_a_missing_replay_file_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such file"):
        LLM(Settings(llm_replay=tmp_path / "absent.jsonl"))


def test_a_broken_replay_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    file = tmp_path / "calls.jsonl"
    file.write_text('{"format": 1}\n')
    with pytest.raises(ConfigError) as caught:
        LLM(Settings(llm_replay=file))
    assert caught.value.where == f"{file}:1"


async def test_without_record_or_replay_nothing_is_written(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    httpx2_mock.post("/v1/messages").respond(200, json=tool_use_message("answer", {}))
    await LLM(settings).ask(prompt(), TOOL, where="ask/1")
    assert list(tmp_path.iterdir()) == []


async def test_a_recording_outlives_a_change_of_model(
    httpx2_mock: respx.Router, settings: Settings, tmp_path: Path
) -> None:
    file = await record(settings, tmp_path, httpx2_mock)
    replaying = LLM(
        Settings(model="another-model", max_tokens=settings.max_tokens, llm_replay=file)
    )
    answer = await replaying.ask(prompt(), TOOL, where="ask/1")
    assert answer.input == {"value": 42}
    assert replaying.replay_inexact == 1


@pytest.mark.parametrize(
    ("line", "says"),
    [
        (
            '{"format": 1, "key": "k", "anchor": "a", "request": {"method": "POST", "path": "/"}}',
            "response: Field required",
        ),
        (
            '{"format": 1, "key": "k", "anchor": "a", "request": {"method": "POST", "path": "/"}, "response": {"status": "ok"}}',
            "response.status: Input should be a valid integer",
        ),
        ("not json", "Invalid JSON"),
        ("[1]", "Input should be an object"),
    ],
)
def test_a_broken_replay_line_says_which_field_is_wrong(
    tmp_path: Path, line: str, says: str
) -> None:
    file = tmp_path / "calls.jsonl"
    file.write_text(line + "\n")
    with pytest.raises(ConfigError) as caught:
        LLM(Settings(llm_replay=file))
    assert caught.value.where == f"{file}:1"
    assert caught.value.message.startswith("not a recorded LLM exchange: ")
    assert says in caught.value.message
