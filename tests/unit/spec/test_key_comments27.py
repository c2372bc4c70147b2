"""Policies written in comments beside the keys of config-like files: a comment on a step's policy key
is that step's words for it (agreeing with the key, or the key wins, warned), a comment at the file's
head or standing alone at the top level speaks for the whole run, and a commented-out key is switched
off, never a policy (`spec.key_comments27`)."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.key_comments27 import switched_off, whole_run_comments
from orchestrator.spec.source import Source
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [skill(n, input_schema=obj(), output_schema=obj(("ok",), ok="boolean"))
           for n in ("fetch-feed", "resize-photos", "pull-rates", "post-note", "db-dump", "ship-dump")]

_COMPOSE = """\
# compose file for the photo pipeline on the NAS
# the whole thing must finish within 30 minutes

services:
  feed:
    skill: fetch-feed
    # the feed host drops connections: 2 more goes, 10s apart
    retries: 2
  resize:
    skill: resize-photos
    depends_on: [feed]
    # this used to hang for 5 minutes before the v2 image
    image: resizer:v2
"""

_TOML = """\
# nightly rates job, owned by treasury ops
# whole run: 20 minutes at most

[[step]]
id = "rates"
skill = "pull-rates"
timeout = "3m"   # give up after 2 min
retries = 2      # two more goes, 30s between

[[step]]
id = "note"
skill = "post-note"
after = ["rates"]
# retries = 5
retries = 0
"""

_PLAYBOOK = """\
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# Distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND.

hosts: db
tasks:
  - name: dump the database
    skill: db-dump
    # the dump locks tables: stop it after 10 minutes
    timeout: 10m
    retries: 1   # one more go, a minute later
  - name: ship the dump
    skill: ship-dump
    # retries: 4
    retries: 0
"""

_RUNBOOK = """\
title: cache warm-up
steps:
  - id: feed
    skill: fetch-feed
    retry: 2   # 4 more goes, 5s apart

# counted as done only when the feed step is done
"""


def _plan(text: str, path: str, fmt: str):  # type: ignore[no-untyped-def]
    return build_plan(parse_spec_text(text, path, fmt), FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_compose_file_s_comment_above_a_count_gives_its_waits_and_its_head_the_run_s_limit() -> None:
    plan = _plan(_COMPOSE, "compose.yml", "yaml")
    feed, resize = plan.steps
    assert feed.policy.retry.max_retries == 2 and feed.policy.retry.delays_s == (10.0,)
    assert plan.limits.wall_time_s == 1800.0
    # a comment above a key that is no policy stays an aside, whatever it says of time
    assert resize.policy.attempt_timeout_s is None
    assert not [w for w in plan.warnings if w.line in (7, 12)]


def test_a_toml_job_s_comment_beside_a_key_that_disagrees_loses_to_the_key_with_both_lines_named() -> None:
    plan = _plan(_TOML, "rates.toml", "toml")
    rates, note = plan.steps
    assert rates.policy.attempt_timeout_s == 180.0  # the key's 3m, not the comment's 2 min
    said = [w.message for w in plan.warnings if w.line == 7]
    assert said and "give up after 2 min" in said[0] and "wins" in said[0]
    assert rates.policy.retry.max_retries == 2 and rates.policy.retry.delays_s == (30.0,)
    assert plan.limits.wall_time_s == 1200.0
    assert note.policy.retry.max_retries == 0  # `# retries = 5` is switched off
    assert not [w for w in plan.warnings if w.line == 14]


def test_a_playbook_s_licence_header_is_no_policy_and_a_commented_out_key_is_noted_not_read() -> None:
    spec = parse_spec_text(_PLAYBOOK, "site.yml", "yaml")
    plan = _plan(_PLAYBOOK, "site.yml", "yaml")
    dump, ship = plan.steps
    assert dump.policy.attempt_timeout_s == 600.0
    assert dump.policy.retry.max_retries == 1 and dump.policy.retry.delays_s == (60.0,)
    assert ship.policy.retry.max_retries == 0
    assert plan.limits_provenance["wall_time_s"].source == "default"  # the licence says nothing of time
    assert not [w for w in plan.warnings if w.line in (1, 2, 3)]
    assert any(r.text == "# retries: 4" and "switched off" in r.note for r in spec.steps[1].readings)


def test_a_count_in_a_comment_that_differs_from_the_key_is_warned_and_the_key_s_count_kept() -> None:
    plan = _plan(_RUNBOOK, "warm.yml", "yaml")
    feed = plan.steps[0]
    assert feed.policy.retry.max_retries == 2 and feed.policy.retry.delays_s == (5.0,)
    assert any(w.line == 5 and "4 more goes" in w.message and "retry" in w.message for w in plan.warnings)


def test_the_whole_run_comments_are_the_head_and_the_blocks_standing_alone_at_the_top() -> None:
    src = Source(_RUNBOOK.replace("title:", "# ops team, warm-up\n\ntitle:"), "x.yml")
    said = whole_run_comments(src)
    assert [text for _, text in said] == ["ops team, warm-up", "counted as done only when the feed step is done"]
    inner = Source("a: 1\n# the job below\nb: 2\n  # indented aside\n", "y.yml")
    assert whole_run_comments(inner) == []  # directly above a key: that key's; indented: no top-level block


def test_a_key_and_a_value_commented_out_is_switched_off_and_a_sentence_is_not() -> None:
    assert switched_off("retry: 5") and switched_off("retries = 5") and switched_off("timeout: 30s")
    assert not switched_off("note: the api is flaky around midnight")  # a label, not a policy key
    assert not switched_off("Retry: twice, 10s apart")  # a label in words, not a config key
    assert not switched_off("retry twice, 10s apart")


def test_an_aside_holding_one_more_pair_after_the_values_to_go_on_with_is_one_of_them() -> None:
    from orchestrator.spec.phrase import read_phrase

    said = {  # a lab protocol, a kitchen sheet, a ticket: the aside's pair is a field of the value
        "if the plate reader dies, carry on as if it said od 0 and wells 96 (read false so we can see it)":
            {"od": 0, "wells": 96, "read": False},
        "oven down? carry on as if it said trays 0 (baked false)": {"trays": 0, "baked": False},
        "if the ticket api errors, carry on as if it returned ticket_id \"NONE\" (filed false, for the weekly review)":
            {"ticket_id": "NONE", "filed": False},
    }
    for text, value in said.items():
        on = read_phrase(text, ()).statement.on_failure
        assert on is not None and on.value == value, text
    # an aside that holds no pair is no field
    on = read_phrase("carry on as if it said rows 0 (which is what an empty day looks like)", ()).statement.on_failure
    assert on is not None and on.value == {"rows": 0}
