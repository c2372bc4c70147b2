"""The run's success check said in words the other readers miss (`spec.success_words27`): "<thing>'s
good when", "<thing> says <state>", a wish beside the check, an either/or over two branches, and a
check in a YAML file's comment; "Done" as a step's name and "when done, email Sam" are no checks."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success_words27 import cue27, halves, wish_tail
from tests.unit.spec.success_probe import success_checks as _checks


def _success_warnings(spec: Any, line: int) -> list[str]:
    return [w.message for w in spec.warnings if w.line == line and w.code == "spec.success"]


RUNBOOK = ("# Deploy the billing API\n\n## Steps\n\n### Step 1: Deploy\n- Skill: `deploy-app`\n- Output: `version`\n\n"
           "### Step 2: Health\n- Skill: `health-page`\n- Output: `ok`, `latency_ms`\n\n")


def test_a_runbooks_health_page_says_ok_is_that_output_true() -> None:
    spec = parse_spec_text(RUNBOOK + "We're done when the health page says ok.\n", "runbook.md", "markdown")
    assert _checks(spec) == {"step-2": {"ok": {"const": True}}}
    assert any("ok == true" in m for m in _success_warnings(spec, 13))


def test_a_recipes_contracted_cue_and_a_thing_that_says_its_state() -> None:
    text = ("# Sourdough loaf\n\n## Steps\n\n### Step 1: Proof\n- Skill: `proof-dough`\n- Output: `risen`, `rise_pct`\n\n"
            "### Step 2: Bake\n- Skill: `oven-bake`\n- Output: `baked`, `core_c`\n\n"
            "Loaf's ready when the oven says baked.\n")
    spec = parse_spec_text(text, "recipe.md", "markdown")
    assert _checks(spec) == {"step-2": {"baked": {"const": True}}}


def test_a_recipes_temperature_said_as_a_reading_is_warned_not_dropped() -> None:
    text = ("# Roast\n\n## Steps\n\n### Step 1: Roast\n- Skill: `oven-roast`\n- Output: `core_c`\n\n"
            "It's ready when the core reads 75 C.\n")
    spec = parse_spec_text(text, "roast.md", "markdown")
    assert _checks(spec) == {}
    assert _success_warnings(spec, 9)


def test_a_tickets_contracted_cue_with_a_comparison() -> None:
    text = ("# TICKET OPS-112: seal the export\n\n## Steps\n\n### Step 1: Pack\n- Skill: `pack-export`\n- Output: `sealed`\n\n"
            "Ticket's good when Pack comes back sealed = true.\n")
    spec = parse_spec_text(text, "ticket.md", "markdown")
    assert _checks(spec) == {"step-1": {"sealed": {"const": True}}}


def test_a_wish_beside_the_check_is_warned_and_not_checked() -> None:
    text = ("# Quote\n\n## Steps\n\n### Step 1: Price\n- Skill: `price-quote`\n- Output: `total`, `currency`\n\n"
            "We're done when the quote comes out with a total figure - ideally under 500, but it's not a must.\n")
    spec = parse_spec_text(text, "quote.md", "markdown")
    assert _checks(spec) == {"step-1": {"total": {"minItems": 1, "minLength": 1, "minProperties": 1}}}
    assert any("a wish beside the check" in m for m in _success_warnings(spec, 9))


RELEASE = ("# Release checklist\n\n## Steps\n\n### Step 1: Scan\n- Skill: `licence-scan`\n- Output: `clean`\n\n"
           "### Step 2: Publish\n- Skill: `publish-build`\n- When: clean == true\n- Output: `published`, `url`\n\n"
           "### Step 3: Hold\n- Skill: `open-hold`\n- Otherwise:\n- Output: `ticket`, `published`\n\n")


def test_a_release_checklists_either_or_is_checked_on_the_branch_that_runs() -> None:
    spec = parse_spec_text(RELEASE + "Release is done when Publish comes back published = true, or when Hold has "
                           "handed back a ticket number.\n", "release.md", "markdown")
    checks = _checks(spec)
    assert checks["step-2"] == {"published": {"const": True}}
    assert checks["step-3"] == {"ticket": {"minItems": 1, "minLength": 1, "minProperties": 1}}
    assert any("each on the branch that runs" in m for m in _success_warnings(spec, 19))


def test_an_either_or_over_two_steps_that_both_run_is_warned_and_not_checked() -> None:
    text = ("# Lab protocol\n\n## Steps\n\n### Step 1: Stain\n- Skill: `stain-slide`\n- Output: `stained`\n\n"
            "### Step 2: Image\n- Skill: `image-slide`\n- Output: `image_id`\n\n"
            "The protocol counts as done when Stain comes back stained = true, OR Image has handed back an image id.\n")
    spec = parse_spec_text(text, "protocol.md", "markdown")
    assert _checks(spec) == {}
    assert any("either of two things" in m for m in _success_warnings(spec, 13))


def test_a_yaml_files_comment_holds_the_check() -> None:
    text = ("# deploy pipeline, my own format\n"
            "jobs:\n  build:\n    skill: build-image\n  smoke:\n    skill: smoke-test\n    needs: [build]\n\n"
            "# deploy counts as green only when smoke comes back with status: passed\n"
            "# (todo: add the canary)\n")
    spec = parse_spec_text(text, "deploy.yml", "yaml")
    assert any(w.line == 9 and w.code == "spec.success" for w in spec.warnings)
    assert "status" in _checks(spec).get("smoke", {}) or _success_warnings(spec, 9)
    assert not _success_warnings(spec, 10)


def test_done_as_a_steps_name_and_when_done_email_sam_are_no_checks() -> None:
    text = ("# Close a ticket\n\n## Steps\n\n### Step 1: Fix\n- Skill: `apply-fix`\n- Output: `patched`\n\n"
            "### Step 2: Done\n- Skill: `close-ticket`\n- Output: `closed`\n\nWhen done, email Sam.\n")
    spec = parse_spec_text(text, "ticket.md", "markdown")
    assert _checks(spec) == {}
    assert not [w for w in spec.warnings if w.code == "spec.success"]


def test_a_thing_that_says_a_word_no_step_outputs_is_no_state() -> None:
    spec = parse_spec_text(RUNBOOK + "We're done when the health page says hello.\n", "runbook.md", "markdown")
    assert _checks(spec) == {}


def test_the_pieces() -> None:
    assert cue27("Sheet's good when D comes back published = true.") == "D comes back published = true"
    assert cue27("Whole build has 30 mins. Order's ready once pack says sealed") == "pack says sealed"
    assert cue27("It's good weather today when the sun shines") is None
    assert cue27("when done, email Sam") is None
    assert wish_tail("the letter comes out with a figure (ideally under 25)") == ("the letter comes out with a figure",
                                                                                "ideally under 25")
    assert wish_tail("status is ok") == ("status is ok", "")
    assert halves("Tag comes back pushed=true, OR (if legal blocked it) when Legal has a ticket") == (
        "Tag comes back pushed=true", "Legal has a ticket")
    assert halves("either the form is sent or the letter is posted") == ("the form is sent", "the letter is posted")
    assert halves("result entered (PASS or FAIL)") is None


def test_a_thing_that_says_a_field_holding_a_value_is_no_yes_no() -> None:  # a support ticket
    text = ("# Triage\n\n## Steps\n\n### Step 1: Classify\n- Skill: `ticket-classify`\n- Output: `status`, `urgent`\n\n"
            "We're done when the classifier says status.\n")
    spec = parse_spec_text(text, "triage.md", "markdown")
    assert _checks(spec).get("step-1", {}).get("status") != {"const": True}  # at most: it is there


def test_a_contracted_cue_about_an_approval_or_what_happened_is_none() -> None:
    assert cue27("It's done when the approver signs off.") is None
    assert cue27("Sheet's good when the producer approved it.") is None
