"""A top-level key that limits the whole run (`give_up_after: 3h`, `max_total: 6h`,
`whole_thing_must_finish_in: 8h`, `whole_play_within: 90m`, `everything_must_be_done_by: 45m`) is the run's
time limit at its own line, and never also each step's retry budget (`give_up_after` is a retry key
inside a step, and a top-level word policy used to be given to every step: "184 retries,
exponential"). A step's own retries stay its own; a top-level key that says retrying
(`keep_trying_for: 10m`) stays every step's retry budget; a bare number is not read as a duration."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, skill
from tests.unit.spec.test_yaml_alias_docs import DOCS, IDS, Doc, plan, read


@pytest.mark.parametrize("doc", DOCS, ids=IDS)
def test_a_whole_run_limit_is_the_run_s_and_no_step_retries_because_of_it(doc: Doc) -> None:
    p = plan(doc)
    assert p.limits.wall_time_s == doc.wall_s
    a, b = p.step(doc.ids[0]), p.step(doc.ids[1])
    assert a.policy.retry.max_retries == 0 and b.policy.retry.max_retries == 0
    assert p.limits.max_attempts_per_step == 10  # not raised for a step's "retries" made from the limit
    line = p.limits_provenance["wall_time_s"].where
    assert line is not None and read(doc).text.splitlines()[int(line.rpartition(":")[2]) - 1].split(":")[0] in (
        "max_total", "whole_thing_must_finish_in", "give_up_after", "whole_play_within")


_SHIFT = """\
# night shift handover, ward 7 -- {kind}
{key}: {value}     # the lot, start to finish
steps:
  - id: gather
    skill: sa
  - id: brief
    skill: sb
    depends_on: gather
    retry: 2
"""


@pytest.mark.parametrize(("kind", "key", "value", "wall"), [
    ("ward handover", "give_up_after", "3h", 10800.0),
    ("kitchen prep list", "max_total", "45 min", 2700.0),
    ("lab protocol", "whole_thing_must_finish_in", "2h", 7200.0),
    ("podcast run sheet", "everything_must_be_done_by", "90m", 5400.0),
    ("ship's log", "max-total-time", "1h", 3600.0),
])
def test_every_spelling_of_a_whole_run_limit_is_read_once_as_the_run_s(kind: str, key: str, value: str,
                                                                        wall: float) -> None:
    spec = parse_spec_text(_SHIFT.format(kind=kind, key=key, value=value), "w.yaml", "yaml")
    assert spec.convergence.limits.wall_time_s == wall
    assert spec.convergence.limit_where["wall_time_s"] == "w.yaml:2"
    gather, brief = spec.steps
    assert gather.retry is None and brief.retry is not None and brief.retry.max_retries == 2
    assert not [w for w in spec.warnings if "not understood" in w.message]


def test_a_top_level_key_that_says_retrying_is_still_every_step_s_retry_budget() -> None:
    spec = parse_spec_text(_SHIFT.format(kind="x", key="keep_trying_for", value="10m"), "w.yaml", "yaml")
    assert spec.convergence.limits.wall_time_s != 600.0


def test_a_bare_number_is_not_read_as_the_run_s_limit() -> None:
    spec = parse_spec_text(_SHIFT.format(kind="x", key="max_total", value="3"), "w.yaml", "yaml")
    assert spec.convergence.limits.wall_time_s != 3.0
    assert [w.line for w in spec.warnings if "max_total" in w.message] == [2]


@pytest.mark.parametrize(("key", "value", "wall"), [
    ("give_up_after", '"3 hours, whole playbook"', 10800.0), ("give_up_after", '"about 2h tops"', 7200.0),
    ("max_total", '"90 minutes or we miss the window"', 5400.0), ("whole_tour_within", '"45 min, no more"', 2700.0),
])
def test_a_whole_run_limit_said_in_words_is_the_run_s_never_a_step_s(key: str, value: str, wall: float) -> None:
    spec = parse_spec_text(_SHIFT.format(kind="x", key=key, value=value), "w.yaml", "yaml")
    p = build_plan(spec, FakeCatalog(skill("sa"), skill("sb")), settings=SETTINGS)
    assert p.limits.wall_time_s == wall and p.limits_provenance["wall_time_s"].where == "w.yaml:2"
    gather, brief = p.step("gather").policy, p.step("brief").policy
    assert gather.retry.max_retries == 0 and brief.retry.max_retries == 2
    assert gather.attempt_timeout_s is None and brief.attempt_timeout_s is None
