"""A YAML step's recovery said in keys of the author's own schema (`spec.policy_yaml_keys`): a give-up
key alone is the step's timeout; a failure block of retry keys is its retry; "never again" is no retry.

Three schemas of our own (a bakery's oven schedule, a lab's plate-reader queue, a newsroom's wire
pull) and look-alikes that must keep their old reading.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.policy import FallbackAction
from orchestrator.spec import parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.phrase import read_phrase


def _step(text: str, sid: str) -> dict[str, Any]:
    spec = parse_spec_text(text, "own.yaml", "yaml")
    step = next(s for s in spec.steps if s.id == sid)
    got: dict[str, Any] = {}
    effects = [effect_of(r.statement) for r in spec.readings if r.steps == (sid,)]
    retry = step.retry or next((e.retry for e in effects if e.retry is not None), None)
    if retry is not None:
        got["retries"] = retry.max_retries
        got["waits"] = retry.delays_s or (retry.initial_s, retry.multiplier)
    timeout = step.timeout_s or next((e.attempt_timeout_s for e in effects if e.attempt_timeout_s), None)
    if timeout is not None:
        got["timeout_s"] = timeout
    budget = next((r.statement.for_up_to_s for r in spec.readings if r.steps == (sid,) and r.statement.for_up_to_s), None)
    if budget is not None:
        got["budget_s"] = budget
    rules = [row.rule.fallback for row in spec.recovery if row.step == sid and row.rule.fallback is not None]
    fallback = next(iter(rules), None) or next((e.fallback for e in effects if e.fallback is not None), None)
    if fallback is not None and fallback.action is not FallbackAction.FAIL:
        got["fallback"] = fallback.skill or fallback.action.value
    return got


BAKERY = """\
bake_day: saturday
jobs:
  proof:
    skill: proof-timer
    give_up_after: 45m          # dough that hasn't risen by then is binned
  oven:
    skill: oven-load
    after: [proof]
    when_it_breaks: {again: 3, gap: "30s, doubling each time"}
  label:
    skill: label-print
    after: [oven]
    when_it_breaks: never again   # a second run prints every label twice
"""

LAB = """\
queue: plate-reader
tasks:
  - id: read
    skill: plate-read
    bail_after: 90s
  - id: upload
    skill: lims-upload
    on_failure: {tries: 3, wait: 10s}
"""

NEWSROOM = """\
desk: wires
steps:
  - id: pull
    skill: wire-pull
    give_up_after: 10m
    wait_between: 30s
  - id: rewrite
    skill: wire-rewrite
    if_it_breaks: {skill: wire-verbatim}
"""


@pytest.mark.parametrize(("text", "sid", "want"), [
    (BAKERY, "proof", {"timeout_s": 2700}),
    (BAKERY, "oven", {"retries": 3, "waits": (30, 2)}),
    (BAKERY, "label", {"retries": 0, "waits": ()}),
    (LAB, "read", {"timeout_s": 90}),
    (LAB, "upload", {"retries": 2, "waits": (10,)}),
])
def test_own_schema_keys_say_the_step_s_timeout_and_retry(text: str, sid: str, want: dict[str, Any]) -> None:
    got = _step(text, sid)
    if want.get("waits") == ():
        got["waits"] = () if got.get("retries") == 0 else got.get("waits")
    assert got == want


def test_a_give_up_key_beside_a_wait_is_still_the_time_to_keep_trying() -> None:
    got = _step(NEWSROOM, "pull")
    assert got.get("budget_s") == 600 and "timeout_s" not in got, got


def test_a_failure_block_naming_a_skill_is_still_the_fallback() -> None:
    assert _step(NEWSROOM, "rewrite") == {"fallback": "wire-verbatim"}


def test_a_failure_block_with_a_wait_alone_is_not_made_a_retry() -> None:
    spec = parse_spec_text(LAB.replace("{tries: 3, wait: 10s}", "{wait: 10s}"), "own.yaml", "yaml")
    assert any("wait" in w.message and "not understood" in w.message for w in spec.warnings)


@pytest.mark.parametrize("text", [
    "Never again will we ship on a Friday.",
    "We bake it once; not again until Monday.",
])
def test_never_again_in_prose_is_no_policy(text: str) -> None:
    assert not read_phrase(text).statement.no_retry


@pytest.mark.parametrize(("block", "seconds"), [
    ("overall:\n  give_up_after: 30m   # still going after that: bin it\n", 1800),  # a harbour's berths file
    ("whole_day:\n  give_up_after: 2h\n", 7200),  # a bakery's own schema
    ("run_rules:\n  max_total: 45 min\n", 2700),  # a lab queue
])
def test_a_block_holding_the_whole_run_s_limit_is_read_as_the_run_s(block: str, seconds: float) -> None:
    text = block + "steps:\n  - id: a\n    skill: proof-timer\n"
    spec = parse_spec_text(text, "own.yaml", "yaml")
    assert spec.convergence.limits.wall_time_s == seconds
    assert not [w for w in spec.warnings if "not understood" in w.message], spec.warnings


def test_a_block_of_step_settings_is_not_lifted() -> None:
    spec = parse_spec_text("settings:\n  colour: blue\nsteps:\n  - id: a\n    skill: proof-timer\n", "own.yaml", "yaml")
    assert spec.convergence.limits.wall_time_s is None or spec.convergence.limits.wall_time_s != 1800


@pytest.mark.parametrize(("text", "sid", "seconds"), [
    (NEWSROOM.replace("give_up_after: 10m", "give_up_after: 10m    # a pull usually takes about 40s"), "pull", 600),
    (LAB.replace("bail_after: 90s", "bail_after: 90s   # reads are typically done in 15 seconds\n"
                                    "    retries: 3"), "read", 90),
])
def test_a_give_up_key_whose_comment_says_one_go_s_normal_time_is_each_go_s_timeout(text: str, sid: str,
                                                                                    seconds: float) -> None:
    got = _step(text, sid)
    assert got.get("timeout_s") == seconds and "budget_s" not in got, got


@pytest.mark.parametrize("comment", ["# the feed normally ~20m on a Monday", "# keep trying, the wire is slow"])
def test_a_comment_that_says_no_shorter_normal_time_leaves_the_time_to_keep_trying(comment: str) -> None:
    got = _step(NEWSROOM.replace("give_up_after: 10m", f"give_up_after: 10m    {comment}"), "pull")
    assert got.get("budget_s") == 600 and "timeout_s" not in got, got
