"""An output the journal cannot store fails its step, naming where; the run ends cleanly."""

from __future__ import annotations

import json
from typing import Any

import pytest

from orchestrator.engine import RunStatus, get_run
from orchestrator.jsonsafe import MAX_DEPTH, storable_problem
from orchestrator.kinds import BuiltinKind
from orchestrator.plan.model import PlanStep
from orchestrator.testing import FakeRunner, fake_plan, fake_skill


def nested(levels: int) -> Any:
    value: Any = "leaf"
    for _ in range(levels):
        value = {"a": [value]} if len(str(value)) % 2 else [value]
    return value


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ({"a": {"b/c": ["ok", "\ud800"]}}, "/a/b~1c/1: a lone surrogate"),
        ({"x": float("inf")}, "/x: inf is not a JSON number"),
        ({"x": float("nan")}, "/x: nan is not a JSON number"),
        ({1: "a"}, "/: key 1 is not a string"),
        ({"s": {1, 2}}, "/s: a set is not JSON"),
        (nested(MAX_DEPTH + 1), f"nests deeper than {MAX_DEPTH} levels"),
    ],
)
def test_what_json_cannot_hold_is_named_with_its_pointer(value: Any, said: str) -> None:
    problem = storable_problem(value)
    assert problem is not None and said in problem


@pytest.mark.parametrize("value", [None, True, 3, 2.5, "é😀", {"a": [1, {"b": None}]}, nested(MAX_DEPTH - 1)])
def test_plain_json_passes(value: Any) -> None:
    assert storable_problem(value) is None
    json.dumps(value, allow_nan=False)  # what the check lets through, JSON takes


async def test_an_mcp_output_the_journal_cannot_store_fails_its_step_and_the_run_ends_cleanly(execute, settings) -> None:
    plan = fake_plan(
        [PlanStep(id="fetch", name="Fetch", skill="docs")],
        skills={"docs": fake_skill("docs", kind=BuiltinKind.MCP, server="docs", tool="get")},
    )
    summary = await execute(plan, FakeRunner(default={"text": "bad \udcff byte"}, kind="mcp"))
    assert summary.status is RunStatus.FAILED
    step = summary.step("fetch")
    assert step.error_class == "code_error"
    assert "output cannot be stored as JSON: /text: a lone surrogate" in step.message
    assert get_run(summary.run_id, settings).status is RunStatus.FAILED  # the journal took every event
