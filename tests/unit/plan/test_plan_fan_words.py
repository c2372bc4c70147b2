"""A fan-out and a gather said in words the spec reader has no form for, read by what they mean: the
step's skill takes one thing nothing gives and a step before gives a list of those things; and a
step that gathers takes the loop's results. Each in several kinds of document."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, loop_of, obj, plan_of_text, skill, step_by_skill

from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

A = {"type": "array"}
CATALOG = FakeCatalog(
    skill("split-rows", input_schema=obj(("csv_text",), csv_text="string"),
          output_schema=obj(("rows", "row_count"), rows=A, row_count="integer")),
    skill("score-row", input_schema=obj(("row",), row="object"), output_schema=obj(("score",), score="number")),
    skill("summarise-scores", input_schema=obj(("scores",), scores=A), output_schema=obj(("total",), total="number")),
    skill("list-countries", input_schema=obj(("region",), region="string"),
          output_schema=obj(("countries",), countries=A)),
    skill("fetch-country-stats", input_schema=obj(("country",), country="string"),
          output_schema=obj(("stats",), stats="object")),
    skill("merge-stats", input_schema=obj(("all_stats",), all_stats=A), output_schema=obj(("table",), table="string")),
    skill("list-prs", input_schema=obj(("repo",), repo="string"), output_schema=obj(("prs",), prs=A)),
    skill("write-blurb", input_schema=obj(("pr",), pr="object"), output_schema=obj(("blurb",), blurb="string")),
    skill("compile-digest", input_schema=obj(("blurbs",), blurbs=A), output_schema=obj(("digest",), digest="string")),
)


def _plan(text: str) -> Plan:
    return plan_of_text(text, CATALOG)  # type: ignore[no-any-return]


_step, _loop = step_by_skill, loop_of


_LESSON_PLAN = """\
# Lesson plan: Year 9 statistics, week 3

## Starter (5 min)
The teacher runs `split-rows` on the `csv_text` to get the class rows.

## Main activity (20 min)
`score-row` is applied to each of the rows, one at a time.

## Plenary (10 min)
Put the scores on the board together and `summarise-scores` turns them into a total.
"""

_GRANT_METHODS = """\
# 3. Methods

## 3.1 Data preparation
The raw survey export (`csv_text`) is first split into respondent rows with `split-rows`.

## 3.2 Scoring
Each respondent row will be scored independently with `score-row`.

## 3.3 Analysis
The resulting scores are then consolidated with `summarise-scores` into a single total.
"""

_LATEX_ALGORITHM = """\
# Scoring a survey

1. $rows \\gets$ `split-rows`($csv\\_text$)
\\ForAll{$row \\in rows$}
2. $score \\gets$ `score-row`($row$)
\\EndFor
3. $total \\gets$ `summarise-scores`(all of those)
"""


@pytest.mark.parametrize("text", [_LESSON_PLAN, _GRANT_METHODS, _LATEX_ALGORITHM],
                         ids=["lesson-plan", "grant-methods", "latex-algorithm"])
def test_a_step_said_to_run_on_each_row_loops_over_the_rows_and_the_next_gathers_each_score(text: str) -> None:
    plan = _plan(text)
    scoring = _step(plan, "score-row")
    assert _loop(scoring) == ("row", _step(plan, "split-rows").id, "/rows")
    assert scoring.inputs["row"].source == "item"
    total = _step(plan, "summarise-scores").inputs["scores"]
    assert (total.step, total.pointer, total.gather) == (scoring.id, "/score", True)
    assert "row" not in {i.name for i in plan.inputs}  # no invented workflow input


_SHIFT_HANDOVER = """\
# Shift handover: night ops

| Step | Who | What |
|------|-----|------|
| 1 | bot | `list-countries` for the `region` |
| 2 | bot | `fetch-country-stats` for every country on that list |
| 3 | bot | `merge-stats`: roll-up of the stats |
"""

_BPMN_EXPORT = """\
Process: country sweep (exported from the modeler, text view)

1. Task "Countries": service `list-countries`, in: region
2. Task "Stats": service `fetch-country-stats`, multi-instance (parallel), one instance per country
3. Task "Table": service `merge-stats`, collects the stats of all instances
"""


@pytest.mark.parametrize("text", [_SHIFT_HANDOVER, _BPMN_EXPORT], ids=["shift-handover", "bpmn-export"])
def test_a_step_said_to_run_per_country_loops_over_the_countries_and_the_roll_up_gathers_them(text: str) -> None:
    plan = _plan(text)
    stats = _step(plan, "fetch-country-stats")
    assert _loop(stats) == ("country", _step(plan, "list-countries").id, "/countries")
    merged = _step(plan, "merge-stats").inputs["all_stats"]
    assert (merged.step, merged.gather) == (stats.id, True)
    warning = next(w for w in plan.warnings if w.code == "fan-out-read")
    assert f"For each: country in {_step(plan, 'list-countries').id}.countries" in warning.message


_TWEET_THREAD = """\
1/ how we do the PR digest for the `repo` every friday, a thread

2/ first `list-prs` grabs everything open

3/ then `write-blurb` on each PR, one by one, or in parallel, doesn't matter

4/ last, `compile-digest` takes all the blurbs and spits out the digest
"""


def test_a_tweet_thread_saying_on_each_pr_fans_out_and_all_the_blurbs_are_gathered() -> None:
    plan = _plan(_TWEET_THREAD)
    blurb = _step(plan, "write-blurb")
    assert _loop(blurb) == ("pr", _step(plan, "list-prs").id, "/prs")
    digest = _step(plan, "compile-digest").inputs["blurbs"]
    assert (digest.step, digest.gather) == (blurb.id, True)
    assert blurb.policy.fallback is None or blurb.policy.fallback.action.value == "fail"  # "doesn't matter": no policy


_HR_CHECKLIST = """\
# Onboarding checklist: regional payroll

| # | Task | Tool | Notes |
|---|------|------|-------|
| 1 | Pull the stats | `fetch-country-stats` | once per country |
| 2 | Merge | `merge-stats` | everything above |
"""


def test_per_country_with_no_list_before_it_is_warned_at_its_line_with_what_to_write() -> None:
    plan = _plan(_HR_CHECKLIST)
    stats = _step(plan, "fetch-country-stats")
    assert stats.for_each is None
    warning = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert warning.line == 5
    assert "`per country`" in warning.message and "no step before it gives a list" in warning.message
    assert "For each: country in <list>" in warning.message


_RUNBOOK = """\
# Release runbook

## Step 1: Open PRs
Run `list-prs` for the `repo`.

## Step 2: Blurb
Run `write-blurb` {said}.
"""


@pytest.mark.parametrize("said", [
    "with the `pr` the release manager picks; each attempt gets 30 seconds",
    "with the `pr` the release manager picks, in parallel with step 1",
    "with the `pr` given at the start, at most 2 calls per minute",
])
def test_words_that_count_attempts_or_time_or_say_a_parallel_start_are_no_fan_out(said: str) -> None:
    plan = _plan(_RUNBOOK.format(said=said))
    assert _step(plan, "write-blurb").for_each is None
    assert not [w for w in plan.warnings if w.code in ("fan-out-read", "spec.each-not-read")]


def test_once_every_item_is_done_is_a_wait_for_all_not_a_fan_out() -> None:
    text = _TWEET_THREAD.replace("takes all the blurbs", "runs once every PR is blurbed, with the blurbs")
    plan = _plan(text)
    assert _step(plan, "compile-digest").for_each is None
    assert _step(plan, "compile-digest").inputs["blurbs"].gather


_GRANT_NO_LOOP = """\
# 3. Methods

## 3.1 Sampling
Respondent rows are drawn from the survey export (`csv_text`) with `split-rows`.

## 3.2 Scoring
Scores are computed with `score-row` on the `row` the field team picks.

## 3.3 Analysis
The resulting scores are then consolidated with `summarise-scores`.
"""

_LESSON_NO_LOOP = """\
# Lesson plan: week 4

## Starter
`list-prs` on the class `repo`.

## Main
Pupils run `write-blurb` on the `pr` the teacher shows.

## Plenary
We collect the blurbs and `compile-digest` reads them out.
"""


@pytest.mark.parametrize(("text", "line", "name"), [(_GRANT_NO_LOOP, 10, "scores"), (_LESSON_NO_LOOP, 10, "blurbs")],
                         ids=["grant-methods", "lesson-plan"])
def test_a_gather_with_no_step_run_per_item_before_it_is_warned_at_its_line_with_what_to_write(
        text: str, line: int, name: str) -> None:
    plan = _plan(text)
    warning = next(w for w in plan.warnings if w.code == "spec.gather-not-read")
    assert warning.line == line
    assert f"nothing gives `{name}`" in warning.message and f"`{name} (from Step N)`" in warning.message
    assert not [s for s in plan.steps if s.for_each is not None]


_SOP = """\
# SOP-114: weekly PR sweep

**Purpose.** Keep the PR queue short.

- Step A: `list-prs` for the `repo`.
- Step B: loop over the PRs and run `write-blurb` on every one.
- Step C: `compile-digest` with the blurbs, all of them.
"""

_NOTEBOOK = """\
# Survey notebook

## Load
`split-rows` on `csv_text`.

## Score
Row by row, `score-row`.

## Total
`summarise-scores` over all scores.
"""


@pytest.mark.parametrize(("text", "maker", "looped", "item", "field", "gatherer", "gathered", "pointer"), [
    (_SOP, "list-prs", "write-blurb", "pr", "/prs", "compile-digest", "blurbs", "/blurb"),
    (_NOTEBOOK, "split-rows", "score-row", "row", "/rows", "summarise-scores", "scores", "/score"),
], ids=["sop", "notebook"])
def test_a_loop_said_as_loop_over_or_row_by_row_fans_out_and_all_of_them_is_gathered(
        text: str, maker: str, looped: str, item: str, field: str, gatherer: str, gathered: str, pointer: str) -> None:
    plan = _plan(text)
    loop = _step(plan, looped)
    assert _loop(loop) == (item, _step(plan, maker).id, field)
    taken = _step(plan, gatherer).inputs[gathered]
    assert (taken.step, taken.pointer, taken.gather) == (loop.id, pointer, True)


LIST_CATALOG = FakeCatalog(
    skill("shortlist-candidates", input_schema=obj(("applicants",), applicants=A),
          output_schema=obj(("shortlist",), shortlist={})),
    skill("email-candidate", input_schema=obj(("name", "email"), name="string", email="string"),
          output_schema=obj(("sent",), sent="boolean")),
    skill("classify-pr", input_schema=obj(("title",), title="string"), output_schema=obj(("kind",), kind="string")),
)


def _listed(text: str) -> Plan:
    words = Vocabulary.of([(s.bound().name, None) for s in LIST_CATALOG])
    plan, errors = draft_plan(parse_spec_text(text, "doc.md", "markdown", words), LIST_CATALOG, settings=SETTINGS)
    assert plan is not None, errors
    return plan


_HR_TABLE = """\
# Hiring checklist: warehouse leads

| # | Task | Tool | Notes |
|---|------|------|-------|
| 1 | Shortlist | `shortlist-candidates` | on the `applicants` |
| 2 | Invite | `email-candidate` | send it to each one of the shortlist |
"""


def test_a_list_the_words_name_whose_items_fields_the_skill_reads_is_looped_over_item_by_item() -> None:
    plan = _listed(_HR_TABLE)
    invite = plan.steps[1]
    assert invite.for_each is not None and invite.for_each.source.step == "step-1"
    assert invite.for_each.source.pointer == "/shortlist"
    assert {n: (b.source, b.pointer) for n, b in invite.inputs.items()} == {"name": ("item", "/name"),
                                                                          "email": ("item", "/email")}


_SUPPORT_MACRO = """\
# Macro: weekly triage of contributed PRs
{inputs}
## Steps

1. **Classify.** Run `classify-pr` for every PR in `prs`, one at a time.
"""


def test_a_support_macro_looping_over_a_declared_list_input_reads_it_and_an_undeclared_one_is_warned() -> None:
    plan = _listed(_SUPPORT_MACRO.format(inputs="\n## Inputs\n\n- `prs` (list): the PRs to triage\n"))
    step = plan.steps[0]
    assert step.for_each is not None and (step.for_each.item, step.for_each.source.name) == ("pr", "prs")
    assert step.inputs["title"].source == "item"
    plan = _listed(_SUPPORT_MACRO.format(inputs=""))
    assert plan.steps[0].for_each is None
    warning = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert warning.line == 5
    assert "declare `prs` in an Inputs section" in warning.message and "`For each: pr in prs`" in warning.message


_PSEUDO_CODE = """\
# Triage (design note, pseudo-code)

1. `split-rows` on `csv_text`
{header}
2. `score-row` on the row
3. `summarise-scores` on $\\{{s_r\\}}_{{r \\in R}}$
"""

_SWEEP_ALGORITHM = """\
# Country sweep (algorithm block of a design note)

1. `split-rows` on `csv_text`
\\ForAll{$c \\in C$}
2. `fetch-country-stats` on $c$
3. `merge-stats` on $\\{s_c\\}_{c \\in C}$
"""


def test_a_loop_written_as_code_whose_list_is_not_found_is_warned_at_its_line() -> None:
    plan = _plan(_SWEEP_ALGORITHM)
    assert _step(plan, "fetch-country-stats").for_each is None
    warning = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert warning.line == 4 and "`For each: c in <list>`" in warning.message
    gather = next(w for w in plan.warnings if w.code == "spec.gather-not-read")
    assert gather.line == 6 and "nothing gives `all_stats`" in gather.message


def test_a_loop_written_as_code_over_a_steps_list_is_read() -> None:
    plan = _plan(_PSEUDO_CODE.format(header="for row in rows:"))
    assert not [w for w in plan.warnings if w.code == "spec.each-not-read"]
    scoring = _step(plan, "score-row")
    assert _loop(scoring) == ("row", "step-1", "/rows")
    assert _step(plan, "summarise-scores").inputs["scores"].gather


# the list is named by a bare word before "list"/"batch"/"table", and its name is no plural of the item
_ROSTER = FakeCatalog(
    skill("pull-intake", input_schema=obj(("month",), month="string"), output_schema=obj(("intake",), intake=A)),
    skill("send-welcome", input_schema=obj(("hire",), hire="object"), output_schema=obj(("sent",), sent="boolean")),
)

_ONBOARDING = """\
# New starters — monthly
1. Pull this month's starters with `pull-intake` (the month I give it)
2. then for every hire on the intake list from step 1 do `send-welcome`
"""
_SHIPS_LOG = """\
# Log, MV Harrier

0600 Mate runs `pull-intake` for the month.

0615 Each hire in the `intake` batch is sent `send-welcome` by the purser, one at a time.
"""
_RECIPE_CARD = """\
# Welcome packs (serves: everyone starting)

## Method
1. Sift out the newcomers with `pull-intake`, month as given.
2. To every hire from the intake table, `send-welcome`. Don't rush it.
"""
_LAB_PROTOCOL = """\
# Protocol 7: visitor induction

## 7.1 Collect
`pull-intake` for the month.

## 7.2 Greet
For each hire in the intake list: `send-welcome`.
"""


def _roster(text: str) -> Plan:
    return plan_of_text(text, _ROSTER)  # type: ignore[no-any-return]


@pytest.mark.parametrize("text", [_ONBOARDING, _SHIPS_LOG, _RECIPE_CARD, _LAB_PROTOCOL],
                         ids=["onboarding-list", "ships-log", "recipe-card", "lab-protocol"])
def test_every_hire_on_the_intake_list_loops_over_the_list_the_words_name_each_item_as_the_hire(text: str) -> None:
    plan = _roster(text)
    welcome = _step(plan, "send-welcome")
    assert _loop(welcome) == ("hire", "step-1", "/intake")
    assert welcome.inputs["hire"].source == "item" and welcome.inputs["hire"].pointer in ("", None)
    assert [w for w in plan.warnings if w.code == "spec.each-not-read"] == []


def test_a_list_word_that_names_no_output_before_it_is_no_loop_source_and_the_cue_is_warned() -> None:
    plan = _roster(_ONBOARDING.replace("the intake list", "the paper list"))
    assert _step(plan, "send-welcome").for_each is None
    warning = next(w for w in plan.warnings if w.code == "spec.each-not-read")
    assert warning.line == 3 and "`For each: hire in <list>`" in warning.message
