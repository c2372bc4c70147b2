"""Round 37's success checks: the run's check evaluated after the run, not as the step's contract
(`plan.run_checks37`, `engine.run_checks37`); a quantity named with its unit (`spec.success37`: "CV ≤ 15 %"
is `cv_pct`); a comparison restated in parentheses over a wrapped line ("(counted = how many the sheet
had)"); a dated copy of data ("last night's copy") that is no past practice. Documents: a support
runbook, a bakery's YAML of its own schema, a lab protocol, a release ticket, a plain-text checklist,
a shift note; negatives alongside."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.engine.run_checks37 import evaluate
from orchestrator.engine.state import RunState
from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan, PlanStep, RunCheck, SpecRef
from orchestrator.spec import parse_spec_text
from orchestrator.spec.grammar_aside import DOUBT
from orchestrator.spec.success37 import how_many_had, restated, sentence_from, unit_field
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, finished_state, obj, skill

# -- the run's check, after the run --------------------------------------------------------------

# a support runbook: the check is said of the run, on the middle step's output
RUNBOOK = ("# Ticket triage\n\n## Steps\n\n### Step 1: Pull\n- Skill: `pull-tickets`\n- Output: `tickets`\n\n"
           "### Step 2: Score\n- Skill: `score-tickets`\n- Output: `breached`, `scored`\n\n"
           "### Step 3: Post\n- Skill: `post-digest`\n- Output: `posted`\n\n"
           "## Sign-off\n\nThe run only counts as good when breached == 0.\n")
PULL = skill("pull-tickets", output_schema=obj(("tickets",), tickets="array"))
SCORE = skill("score-tickets", output_schema=obj(("breached", "scored"), breached="integer", scored="integer"))
POST = skill("post-digest", output_schema=obj(("posted",), posted="boolean"))


def _plan(text: str, path: str, fmt: str, *skills: Any) -> Plan:
    return build_plan(parse_spec_text(text, path, fmt), FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_runbooks_run_check_is_evaluated_after_the_run_not_as_the_steps_contract() -> None:
    plan = _plan(RUNBOOK, "r.md", "markdown", PULL, SCORE, POST)
    assert [(c.step, c.written) for c in plan.run_checks] == [("step-2", "breached == 0")]
    assert "const" not in str(plan.step("step-2").output_schema)


def test_a_yaml_schemas_finished_if_is_a_run_check() -> None:
    text = ("bake: sourdough\nfinished_if: loaves_short == 0\nsteps:\n  - id: mix\n    skill: mix-dough\n"
            "  - id: bake\n    skill: bake-loaves\n    needs: [mix]\n")
    mix = skill("mix-dough", output_schema=obj(("dough",), dough="string"))
    bake = skill("bake-loaves", output_schema=obj(("loaves_short", "loaves"), loaves_short="integer", loaves="integer"))
    plan = _plan(text, "bake.yaml", "yaml", mix, bake)
    assert [c.step for c in plan.run_checks] == ["bake"]
    assert "const" not in str(plan.step("bake").output_schema)


def test_a_steps_own_success_criteria_stays_its_contract() -> None:
    text = ("# Triage\n\n## Steps\n\n### Step 1: Score\n- Skill: `score-tickets`\n- Output: `breached`, `scored`\n"
            "- Success criteria: breached == 0\n")
    plan = _plan(text, "t.md", "markdown", SCORE)
    assert plan.run_checks == ()
    assert "const" in str(plan.step("step-1").output_schema)


def _state(outputs: dict[str, Any], skipped: tuple[str, ...] = ()) -> tuple[Plan, RunState]:
    check = RunCheck(step="score", schema={"properties": {"breached": {"const": 0}}, "required": ["breached"]},
                     written="breached == 0", text="counts as good when breached == 0", where="s.md:12")
    plan = Plan(name="p", spec=SpecRef(path="s.md", sha256="0", format="markdown"), skills={},
                steps=(PlanStep(id="score", name="score", skill="x"), PlanStep(id="post", name="post", skill="x")),
                run_checks=(check,))
    return plan, finished_state(plan, outputs, skipped)


def test_a_run_check_that_holds_passes_and_one_that_fails_names_its_line() -> None:
    assert evaluate(*_state({"score": {"breached": 0}, "post": {"posted": True}})).failed is None
    failed = evaluate(*_state({"score": {"breached": 2}, "post": {"posted": True}})).failed
    assert failed is not None and "s.md:12" in failed and "breached == 0" in failed


def test_a_run_check_on_a_skipped_step_is_not_evaluated_never_passed() -> None:
    verdict = evaluate(*_state({"post": {"posted": True}}, skipped=("score",)))
    assert verdict.failed is None and verdict.not_evaluated and "skipped" in verdict.not_evaluated[0]


# -- a quantity by its unit ------------------------------------------------------------------------

def _outputs(step: Any, _vocabulary: Vocabulary) -> frozenset[str]:
    return frozenset(f.name for f in step.outputs)


LAB = ("# Assay\n\n## Steps\n\n### Step 1: Summarise\n- Skill: `plate-summary`\n- Output: `cv_pct`, `mean`\n\n"
       "### Step 2: Report\n- Skill: `lab-report`\n- Output: `report`, `status`\n\n")
TICKET = ("# REL-88 canary\n\n## Steps\n\n### Step 1: Probe\n- Skill: `probe-canary`\n- Output: `p95_ms`, `errors`\n\n"
          "### Step 2: Promote\n- Skill: `promote`\n- Output: `promoted`\n\n")


@pytest.mark.parametrize(("text", "sentence", "check", "field"), [
    (LAB, "The plate is accepted if intra-plate CV ≤ 15 % (report status PASS).", "CV <= 15", "cv_pct"),
    (TICKET, "The release is good when p95 <= 300 ms.", "p95 <= 300", "p95_ms"),
])
def test_a_quantity_with_its_unit_is_the_output_that_carries_the_unit(text: str, sentence: str, check: str,
                                                                      field: str) -> None:
    steps = list(parse_spec_text(text, "x.md", "markdown").steps)
    name, _, rest = check.partition(" ")
    assert unit_field(name, rest.partition(" ")[2], sentence, steps, Vocabulary(), _outputs) == field


@pytest.mark.parametrize(("sentence", "check"), [
    ("The plate is accepted if CV ≤ 15 (report status PASS).", "CV <= 15"),  # no unit written
    ("The plate is accepted if CV ≤ 15 kg.", "CV <= 15"),  # another unit
    ("The plate is accepted if mean ≤ 15 %.", "mean <= 15"),  # the name is an output already
])
def test_no_unit_or_another_unit_or_a_known_name_leaves_the_name(sentence: str, check: str) -> None:
    steps = list(parse_spec_text(LAB, "x.md", "markdown").steps)
    name, _, rest = check.partition(" ")
    assert unit_field(name, rest.partition(" ")[2], sentence, steps, Vocabulary(), _outputs) is None


def test_a_lab_protocols_acceptance_criteria_read_on_the_unit_field() -> None:
    spec = parse_spec_text(LAB + "## Acceptance criteria\n\nThe plate is accepted if CV ≤ 15 %.\n", "a.md", "markdown")
    assert any("`cv_pct <= 15`" in w.message and "step-1" in w.message for w in spec.warnings), \
        [w.message for w in spec.warnings]


# -- a comparison restated in parentheses, wrapped ---------------------------------------------------

def test_a_wrapped_sentence_is_read_to_its_end() -> None:
    lines = ["DONE = card printed, and the tally counted every", "vendor on the sheet (counted = how many it had).",
             "Next para."]
    assert sentence_from("the tally counted every", 1, lambda n: lines[n - 1] if n <= len(lines) else "") == \
        "the tally counted every vendor on the sheet (counted = how many it had)."
    assert sentence_from("a whole sentence.", 1, lambda n: "more") == "a whole sentence."


def test_a_restated_comparison_in_parentheses_is_the_part() -> None:
    assert restated("the crates all came in (received = how many the manifest listed)") == \
        "received = how many the manifest listed"
    assert restated("the crates all came in (the big ones)") == "the crates all came in (the big ones)"


CHECKLIST = ("# Stocktake\n\n## Steps\n\n### Step 1: Read the delivery manifest\n- Skill: `read-manifest`\n"
             "- Output: `crates`, `count`\n\n### Step 2: Scan the crates on the manifest\n- Skill: `scan-crates`\n"
             "- Output: `received`, `damaged`\n\n")
READ = skill("read-manifest", output_schema=obj(("crates", "count"), crates="array", count="integer"))
SCAN = skill("scan-crates", output_schema=obj(("received", "damaged"), received="integer", damaged="array"))


def test_a_checklists_wrapped_restated_count_is_a_comparison_of_two_values() -> None:
    text = CHECKLIST + ("## Sign-off\n\nDONE = the labels came back printed, and the scanner counted every single\n"
                        "crate that was on the delivery note (received = how many the manifest listed).\n")
    plan = _plan(text, "s.md", "markdown", READ, SCAN)
    assert [c.shown() for c in plan.compare_checks] == ["step-2.received == step-1.count"]


def test_how_many_a_thing_had_is_the_count_of_the_first_step_that_names_it_and_counts() -> None:
    steps = list(parse_spec_text(CHECKLIST, "s.md", "markdown").steps)
    assert how_many_had("how many the manifest listed", steps, lambda s: s.id == "step-1") == ("step-1", "manifest")
    assert how_many_had("how many the manifest listed", steps, lambda s: False) is None  # no step counts
    assert how_many_had("how many the invoice listed", steps, lambda s: True) is None  # no step names it
    assert how_many_had("how many crates", steps, lambda s: True) is None  # no verb: not this phrasing


# -- a dated copy of data is no past practice ---------------------------------------------------------

_PAST = next(r for r in DOUBT if r.value == "it is about the past, not a rule")


@pytest.mark.parametrize("sentence", [
    "if patron-contacts is down use the cache instead (last night's copy, good enough)",
    "when the feed is out, fall back to yesterday's export",
    "on an outage read last week's snapshot instead",
])
def test_a_dated_copy_of_data_is_no_past_practice(sentence: str) -> None:
    import re

    assert re.search(_PAST.pattern, sentence, re.IGNORECASE) is None


@pytest.mark.parametrize("sentence", [
    "last week's run retried 5 times before it gave up",
    "we used to retry three times",
    "last night it timed out twice",
])
def test_the_past_is_still_warned(sentence: str) -> None:
    import re

    assert re.search(_PAST.pattern, sentence, re.IGNORECASE) is not None


def test_a_shift_notes_fallback_to_last_nights_copy_is_not_warned_as_the_past() -> None:
    text = ("# Notices\n\n## Steps\n\n### Step 1: Contacts\n- Skill: `patron-contacts`\n"
            "- If patron-contacts is down use `patron-contacts-cache` instead (last night's copy, good enough).\n")
    spec = parse_spec_text(text, "n.md", "markdown")
    assert not any("about the past" in w.message for w in spec.warnings), [w.message for w in spec.warnings]
