"""The `http` kind: its keys, and its runner against an in-memory transport."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest

from orchestrator.errors import SkillError
from orchestrator.kinds import kind_registry
from orchestrator.kinds.http import HttpRunner
from orchestrator.policy import ErrorClass
from orchestrator.runner import StepRequest
from orchestrator.skills import load_skill
from orchestrator.testing import fake_skill

Handler = Callable[[httpx2.Request], httpx2.Response]


def request(url: str = "http://api.test/v1/lookup", method: str = "POST", payload: object = None) -> StepRequest:
    skill = fake_skill("lookup", kind="http", network=True, params={"url": url, "method": method})
    return StepRequest(run_id="r1", step_id="look", attempt=2, idempotency_key="r1:look:2", skill=skill,
                       input={"q": "oslo"} if payload is None else payload, timeout_s=5)


async def play(handler: Handler, req: StepRequest | None = None):  # type: ignore[no-untyped-def]
    runner = HttpRunner(transport=httpx2.MockTransport(handler))
    try:
        return await runner.run(req or request())
    finally:
        await runner.aclose()


def write_skill(tmp_path: Path, keys: str) -> Path:
    folder = tmp_path / "lookup"
    folder.mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: lookup\ndescription: Looks a city up.\nmetadata:\n{keys}---\nBody.\n")
    return folder


def test_the_http_kind_is_registered_with_its_keys() -> None:
    kind = kind_registry().get("http")
    assert kind is not None
    assert kind.keys == ("url", "method")
    assert not kind.traits.regenerable and not kind.traits.containable


def test_a_skill_of_the_http_kind_binds_its_url_and_method(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "  skillweave.kind: http\n  skillweave.url: https://api.test/v1\n"
                                   "  skillweave.method: get\n")
    bound = load_skill(folder).bound()
    assert (bound.kind, bound.network, bound.params) == ("http", True, {"url": "https://api.test/v1", "method": "GET"})
    assert "params" in bound.model_dump()


def test_an_http_skill_without_a_usable_url_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = write_skill(tmp_path, "  skillweave.kind: http\n  skillweave.url: ftp://files.test/x\n")
    with pytest.raises(SkillError) as caught:
        load_skill(folder)
    assert caught.value.render() == (
        f"{folder.resolve()}/SKILL.md:6: 'skillweave.url' must be an http:// or https:// URL with a host, "
        "not 'ftp://files.test/x'"
    )


def test_skills_of_other_kinds_keep_their_plan_json_without_params() -> None:
    assert "params" not in fake_skill("s").model_dump()


async def test_a_post_sends_the_input_as_json_with_the_idempotency_key_and_answers_the_json() -> None:
    seen: list[httpx2.Request] = []

    def handler(r: httpx2.Request) -> httpx2.Response:
        seen.append(r)
        return httpx2.Response(200, json={"city": "Oslo", "population": 709000})

    outcome = await play(handler)
    assert outcome.ok and outcome.output == {"city": "Oslo", "population": 709000}
    assert json.loads(seen[0].content) == {"q": "oslo"}
    assert seen[0].headers["idempotency-key"] == "r1:look:2"
    assert seen[0].headers["content-type"] == "application/json"


async def test_a_get_sends_the_input_fields_as_the_query_string() -> None:
    seen: list[httpx2.Request] = []

    def handler(r: httpx2.Request) -> httpx2.Response:
        seen.append(r)
        return httpx2.Response(200, json=[1, 2])

    outcome = await play(handler, request(method="GET", payload={"q": "oslo", "n": 2, "exact": True}))
    assert outcome.output == [1, 2]
    assert seen[0].method == "GET" and seen[0].content == b""
    assert dict(seen[0].url.params) == {"q": "oslo", "n": "2", "exact": "true"}


@pytest.mark.parametrize(
    ("status", "error_class"),
    [(429, ErrorClass.TRANSIENT), (503, ErrorClass.TRANSIENT), (500, ErrorClass.TRANSIENT),
     (422, ErrorClass.INVALID_INPUT), (404, ErrorClass.INVALID_INPUT), (401, ErrorClass.UNRECOVERABLE)],
)
async def test_an_error_status_is_classified(status: int, error_class: ErrorClass) -> None:
    outcome = await play(lambda r: httpx2.Response(status, text="nope"))
    assert outcome.failure is not None
    assert outcome.failure.error_class is error_class
    assert outcome.failure.message.startswith(f"POST http://api.test/v1/lookup: HTTP {status}")
    assert outcome.failure.detail == "nope"


async def test_a_connection_error_is_transient() -> None:
    def handler(r: httpx2.Request) -> httpx2.Response:
        raise httpx2.ConnectError("connection refused", request=r)

    outcome = await play(handler)
    assert outcome.failure is not None and outcome.failure.error_class is ErrorClass.TRANSIENT
    assert not outcome.failure.ambiguous  # nothing was sent


async def test_a_post_without_an_answer_in_time_is_an_ambiguous_timeout() -> None:
    def handler(r: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("slow", request=r)

    outcome = await play(handler)
    assert outcome.failure is not None
    assert (outcome.failure.error_class, outcome.failure.ambiguous) == (ErrorClass.TIMEOUT, True)


async def test_a_redirect_to_another_host_is_refused_and_never_followed() -> None:
    hosts: list[str] = []

    def handler(r: httpx2.Request) -> httpx2.Response:
        hosts.append(r.url.host)
        return httpx2.Response(302, headers={"location": "http://elsewhere.test/steal"})

    outcome = await play(handler)
    assert hosts == ["api.test"]
    assert outcome.failure is not None and outcome.failure.error_class is ErrorClass.UNRECOVERABLE
    assert "redirected to http://elsewhere.test/steal, another host: refused" in outcome.failure.message


async def test_a_redirect_on_the_same_host_is_followed() -> None:
    def handler(r: httpx2.Request) -> httpx2.Response:
        if r.url.path == "/v1/lookup":
            return httpx2.Response(307, headers={"location": "/v2/lookup"})
        return httpx2.Response(200, json={"moved": True})

    outcome = await play(handler)
    assert outcome.output == {"moved": True}


async def test_an_answer_that_is_not_json_fails_unrecoverably() -> None:
    outcome = await play(lambda r: httpx2.Response(200, text="<html>hi</html>"))
    assert outcome.failure is not None and outcome.failure.kind == "http_not_json"
    assert outcome.failure.error_class is ErrorClass.UNRECOVERABLE


async def test_an_answer_over_the_size_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from orchestrator.kinds import http

    monkeypatch.setattr(http, "MAX_RESPONSE_BYTES", 10)
    outcome = await play(lambda r: httpx2.Response(200, json={"much": "x" * 100}))
    assert outcome.failure is not None and outcome.failure.kind == "http_too_big"


async def test_a_get_whose_input_is_not_flat_fails_as_invalid_input() -> None:
    outcome = await play(lambda r: httpx2.Response(200, json={}), request(method="GET", payload={"q": {"deep": 1}}))
    assert outcome.failure is not None and outcome.failure.error_class is ErrorClass.INVALID_INPUT
