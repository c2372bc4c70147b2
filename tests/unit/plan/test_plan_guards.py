"""The guards against silent misreading (plan/guards.py): where the words of a step say more
than its plan does, validate warns at the line; where they agree, it says nothing."""

from __future__ import annotations

from pathlib import Path

from plan_factory import SETTINGS, FakeCatalog, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(*(skill(n) for n in ("scan-hosts", "fix-host", "tally", "alarm", "note-ok", "spare-scan")))
CODES = ("spec.skill-not-run", "spec.step-lost", "spec.own-fallback", "spec.each-not-read", "spec.gather-not-read",
         "spec.condition-not-read", "spec.value-not-kept", "spec.join-not-read")


def plan_at(tmp_path: Path, text: str) -> Plan:
    path = tmp_path / "flow.md"
    path.write_text(text, encoding="utf-8")
    return build_plan(parse_spec_text(text, str(path), "markdown"), CATALOG, settings=SETTINGS)


def guarded(plan: Plan) -> list[tuple[int | None, str]]:
    return [(w.line, w.code) for w in plan.warnings if w.code in CODES]


HEAD = "# Hosts\n\n## Workflow Steps\n\n"


def test_a_skill_named_only_in_an_otherwise_sentence_of_another_step_is_reported_at_its_line(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Tell\n- Skill: `alarm`\n\nWhen done, call alarm. Later note-ok gets a copy.\n")
    assert (11, "spec.step-lost") in guarded(plan)
    assert not any(code in ("spec.skill-not-run", "spec.step-lost") and "alarm" in w.message
                   for w in plan.warnings for code in [w.code])


def test_a_step_whose_text_says_for_every_item_without_a_for_each_is_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Fix\n- Skill: `fix-host`\n\nRepair it once with each host of step 1.\n")
    assert (11, "spec.each-not-read") in guarded(plan)


def test_for_each_attempt_is_about_time_not_items_and_is_not_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\nWait 5 seconds for each attempt.\n")
    assert guarded(plan) == []


def test_waiting_for_all_results_without_a_gathered_input_is_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Tally\n- Skill: `tally`\n\nOnce every host is scanned, add them up.\n")
    assert (11, "spec.gather-not-read") in guarded(plan)


def test_an_if_on_data_and_an_otherwise_that_gave_no_condition_are_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Alarm\n- Skill: `alarm`\n\nAlarm them. If step 1 says broken >= 1, page.\n\n"
                   "### Step 3: Note\n- Skill: `note-ok`\n\nOtherwise just note it down.\n")
    found = guarded(plan)
    assert (11, "spec.condition-not-read") in found and (16, "spec.condition-not-read") in found


def test_failure_sentences_and_stop_checks_are_policies_not_branches(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "If it fails, retry twice. If ok is false, stop the run.\n")
    assert guarded(plan) == []


def test_a_json_value_to_go_on_with_that_no_fallback_keeps_is_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "Note it as {\"hosts\": []} somewhere.\n")
    assert (8, "spec.value-not-kept") in guarded(plan)


def test_a_step_running_its_own_fallback_skill_is_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `spare-scan`\n\n"
                   "If it is down, use `spare-scan` instead.\n")
    assert (5, "spec.own-fallback") in guarded(plan)


def test_whichever_ran_after_no_conditional_step_is_reported(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Tally\n- Skill: `tally`\n\nAfter whichever check ran, add them up.\n")
    assert (11, "spec.join-not-read") in guarded(plan)


def test_a_plain_chain_whose_words_match_its_plan_gets_no_guard_warning(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Tally\n- Skill: `tally`\n\nAdd up what step 1 found.\n")
    assert guarded(plan) == []


def test_a_condition_in_an_aside_on_the_step_line_is_reported_but_an_arrow_is_not(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan (hosts -> found)\n- Skill: `scan-hosts`\n\n"
                   "### Step 2: Alarm (scan failed)\n- Skill: `alarm`\n")
    assert guarded(plan) == [(8, "spec.condition-not-read")]


def test_a_section_holding_only_a_chart_before_the_steps_section_is_set_aside_with_a_warning(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, "# Hosts\n\n## Flow\n\n```mermaid\nflowchart TD\n  A --> B\n```\n\n"
                   "## Steps\n\n### Step 1: Scan\n- Skill: `scan-hosts`\n")
    assert [s.skill for s in plan.steps] == ["scan-hosts"]
    assert [(w.line, w.code) for w in plan.warnings if w.code == "spec.chart-not-steps"] == [(3, "spec.chart-not-steps")]


def test_a_skill_merged_into_another_steps_text_names_that_step_and_what_to_write(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n\nRun `scan-hosts` on the fleet.\n\n"
                   "After that send the bad ones to `fix-host`. Give it 2 minutes.\n")
    (merged,) = [w for w in plan.warnings if w.code == "spec.step-lost"]
    assert merged.line == 9
    assert "line 9 is read as part of step-1 (Scan)" in merged.message and "bold lead" in merged.message


def test_a_skill_named_only_as_a_spare_or_as_not_used_is_a_warning_not_a_lost_step(tmp_path: Path) -> None:
    step = HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
    for said in ("If the scanner is down, use `note-ok` instead.", "Undo: `note-ok` with the id.",
                 "We no longer run note-ok here.", "Should it choke, swap in note-ok."):
        plan = plan_at(tmp_path, step + said + "\n")
        codes = {w.code for w in plan.warnings if w.code in CODES}
        spare = {f.skill for s in plan.steps for f in (s.policy.fallback, *(r.fallback for r in s.policy.rules))
                 if f is not None} | {s.policy.compensation for s in plan.steps}
        assert codes == ({"spec.skill-not-run"} if "note-ok" not in spare else set()), said


def test_a_skill_named_as_doing_work_after_a_failure_said_in_another_sentence_is_a_lost_step(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, HEAD + "### Step 1: Scan\n- Skill: `scan-hosts`\n\n"
                   "Otherwise just note-ok with the summary. If Slack is down, whatever.\n")
    assert (8, "spec.step-lost") in [(w.line, w.code) for w in plan.warnings if w.code in CODES]


def test_an_aside_that_chains_things_with_equals_signs_is_no_condition(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, "# Hosts\n\n## Steps\n\n1. `scan-hosts` looks at each host on the rack, one by one (open port = exposed = page someone)\n"
                   "2. `alarm` tells the desk on the night shift at once (late = angry = refund)\n")
    assert guarded(plan) == []


def test_an_aside_with_two_comparisons_joined_by_or_is_still_a_condition(tmp_path: Path) -> None:
    plan = plan_at(tmp_path, "# Hosts\n\n## Steps\n\n1. `scan-hosts` looks at each host\n"
                   "2. `alarm` tells the desk on the night shift at once (broken = 1 or down = 2)\n")
    assert guarded(plan) == [(6, "spec.condition-not-read")]
