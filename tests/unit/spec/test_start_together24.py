"""Starts said in words (`spec.start_together24`): "doesn't need (1), fire it at the same time" in a
job's comment, "at the same time as <a step's name>", and a line naming steps by label as going "at
once". A systemd timer list, a Jenkinsfile's comment block, a kitchen prep list; and sentences that
say a schedule, tries or a negation, which are no start."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("pull-logs", "rotate-keys", "sum-usage", "build-app", "lint-code", "ship-build", "make-dough",
          "make-stock", "plate-up", "permit-intake", "weather-risk", "issue-permit")


def _spec(text: str, name: str) -> Any:
    return parse_spec_text(text, name, "markdown", Vocabulary.of([(s, None) for s in SKILLS]))


def _by_skill(spec: Any) -> dict[str, Any]:
    return {s.skill or s.name: s for s in spec.steps}


TIMERS = """\
# systemd timers on the metrics box, as a crontab (OnCalendar kept for reference)
# (1) pull-logs from every node
*-*-* 02:00:00 is not cron, so here it is as cron:
0 2 * * * ops /usr/bin/run-skill pull-logs
# (2) rotate the keys - doesn't need (1), fire it at the same time
0 2 * * * ops /usr/bin/run-skill rotate-keys
# (3) sum the usage from (1)
0 3 * * * ops /usr/bin/run-skill sum-usage logs=<from 1>
"""


def test_a_timer_lists_job_that_does_not_need_the_one_before_starts_at_once() -> None:
    spec = _spec(TIMERS.replace("*-*-* 02:00:00 is not cron, so here it is as cron:\n", ""), "timers.crontab")
    steps = _by_skill(spec)
    assert steps["rotate-keys"].unordered_where is not None
    assert steps["sum-usage"].unordered_where is None  # "from (1)" is no start
    assert any("does not wait for step-1" in w.message for w in spec.warnings)


JENKINS = """\
#!/usr/bin/env bash
# Jenkinsfile's shell stage, the steps in its comment block
# Step 1: build - compile the app
skill build-app
# Step 2: lint - run it at the same time as build, no reason to queue it
skill lint-code
# Step 3: ship - once both are green
skill ship-build app=$(jq .artifact build.json)
"""


def test_a_jenkins_stage_says_a_step_starts_with_another_by_its_name() -> None:
    steps = _by_skill(_spec(JENKINS, "stage.sh"))
    assert steps["lint-code"].starts_with == "step-1"
    assert steps["ship-build"].starts_with is None


KITCHEN = """\
PREP LIST - Saturday dinner

 1.  make-dough for 40 covers
 2.  make-stock, start the stock at the same time as the dough
 3.  plate-up with the dough from 1 and the stock from 2
"""


def test_a_kitchen_prep_list_starts_the_stock_with_the_dough() -> None:
    steps = _by_skill(_spec(KITCHEN, "prep.txt"))
    assert steps["make-stock"].depends_on == () and steps["make-stock"].unordered_where is not None


CUES = """\
RIG CHECK, get-in day

A and B ... GO.   (both at once, neither waits on the other)

  A  pull-logs    <- the rig list
  B  rotate-keys  <- the desk
  C  sum-usage    <- logs off A
"""


def test_a_cue_line_naming_two_cues_at_once_starts_the_second_with_the_first() -> None:
    steps = _by_skill(_spec(CUES, "rig.txt"))
    assert steps["rotate-keys"].starts_with == "step-1"
    assert steps["sum-usage"].starts_with is None


SCHEDULE = """\
# (1) pull the logs
0 2 * * * ops /usr/bin/run-skill pull-logs
# (2) rotate the keys, at the same time every day
0 2 * * * ops /usr/bin/run-skill rotate-keys
# (3) sum usage - retry both at once if it fails; never together with (2)
0 3 * * * ops /usr/bin/run-skill sum-usage
"""


def test_a_schedule_tries_and_a_negation_are_no_start() -> None:
    steps = _by_skill(_spec(SCHEDULE, "jobs.crontab"))
    assert steps["rotate-keys"].unordered_where is None  # a time of day, every day
    assert steps["sum-usage"].unordered_where is None and steps["sum-usage"].starts_with is None


NOT_NAMED = """\
## Step 1: Intake
- Skill: permit-intake

## Step 2: Weather
- Skill: weather-risk

Check the weather at the same time as the others do theirs.

## Step 3: Permit
- Skill: issue-permit
"""


def test_at_the_same_time_as_a_word_that_names_no_step_is_no_start() -> None:
    steps = _by_skill(_spec(NOT_NAMED, "permit.md"))
    assert steps["weather-risk"].starts_with is None


CLOSE = """\
#!/bin/sh
# month-end close, the runbook is the script
# Step 1: close the books
skill close-billing
# Step 2: refresh the rates - kick it off at the same time as billing, it needs nothing from it
skill fx-rates
# Step 3: post the ledger
skill post-ledger
"""


def test_a_step_named_by_a_word_of_its_skill_with_no_article_is_started_with() -> None:
    spec = parse_spec_text(CLOSE, "close.sh", "markdown",
                           Vocabulary.of([(s, None) for s in ("close-billing", "fx-rates", "post-ledger")]))
    steps = _by_skill(spec)
    assert steps["fx-rates"].starts_with == "step-1"
    assert steps["post-ledger"].starts_with is None


PIPELINE = """\
# nightly_feeds.py -- the runner reads STEPS
STEPS = [
    dict(key="orders", skill="fetch-orders"),
    dict(key="prices", skill="price-check",   # fire this off alongside step 1, they share nothing
         ),
    dict(key="mail", skill="send-mail", after=["orders", "prices"]),
]
"""

BUILD = """\
export const steps = [
  { id: "build", skill: "build-app" },
  { id: "lint", skill: "lint-code",
    // in parallel with #1, the linter reads the sources only
  },
  { id: "ship", skill: "ship-build", after: ["build", "lint"] },
];
"""

BAKERY = """\
# Bake day

1. make-dough: enough for 40 loaves
2. make-stock: start the stock together with the dough step
3. plate-up: when both are ready
"""

FEED_SKILLS = ("fetch-orders", "price-check", "send-mail")


def test_a_start_beside_a_step_by_its_number_in_a_code_comment() -> None:
    spec = parse_spec_text(PIPELINE, "nightly_feeds.py", "markdown", Vocabulary.of([(s, None) for s in FEED_SKILLS]))
    steps = _by_skill(spec)
    assert steps["price-check"].starts_with == "orders"
    assert any("alongside step 1" in w.message and w.line == 4 for w in spec.warnings)
    steps = _by_skill(_spec(BUILD, "pipeline.js"))
    assert steps["lint-code"].starts_with == "build"


def test_a_step_said_as_the_word_step_after_a_word_of_its_skill() -> None:
    steps = _by_skill(_spec(BAKERY, "bake.md"))
    assert steps["make-stock"].starts_with == "step-1"
    assert steps["plate-up"].starts_with is None


AFTER_ENDS = """\
# Bake day

1. make-dough: enough for 40 loaves
2. make-stock: start the stock at the same time as step 1 finishes
3. plate-up: when both are ready
"""


def test_beside_a_step_that_ends_or_comes_later_is_no_start() -> None:
    steps = _by_skill(_spec(AFTER_ENDS, "bake.md"))
    assert steps["make-stock"].starts_with is None  # after step 1 is done, not beside it
    for said in ("alongside step 1 when it is done", "alongside step 3", "at the same time as orders finish"):
        spec = parse_spec_text(PIPELINE.replace("alongside step 1", said), "feeds.py", "markdown",
                               Vocabulary.of([(s, None) for s in FEED_SKILLS]))
        assert _by_skill(spec)["price-check"].starts_with is None, said  # after it ends; a later step
