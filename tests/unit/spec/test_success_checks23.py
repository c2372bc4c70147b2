"""The run's success check said in words about one step's outputs ("the courier has handed back a
tracking number and a weight above zero") and a card's "X COMPLETE WHEN:" label are read onto that
step's output contract, warned at the line; step text that only says "done" or "complete" is not
(`spec.success_checks23`)."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.success_checks23 import titled_cue
from tests.unit.spec.success_probe import success_checks as _checks

STEPS = ("## Steps\n\n### Step 1: Pack\n- Skill: `pack-box`\n- Output: `box_id`, `weight_kg`\n\n"
         "### Step 2: Ship\n- Skill: `courier-book`\n- Output: `tracking_no`, `status`, `label_ref`\n\n")


def _read(text: str, kind: str = "markdown", name: str = "doc.md") -> Any:
    return parse_spec_text(text, name, kind)



def test_a_shipping_runbooks_check_in_words_is_read_on_the_step_it_names() -> None:
    spec = _read("# Ship a parcel\n\n" + STEPS + "---\nWe're finished when courier-book has handed back a "
                 "tracking number and a status \"BOOKED\".\n")
    checks = _checks(spec)
    assert checks["step-2"]["tracking_no"] == {"minItems": 1, "minLength": 1, "minProperties": 1}
    assert checks["step-2"]["status"] == {"const": "BOOKED"}
    assert any(w.line == 14 and "is read as the run's success check" in w.message for w in spec.warnings)


def test_an_output_said_after_zero_or_no_is_empty_or_zero() -> None:  # an audit wiki; a QA sign-off sheet
    text = ("# Audit\n\n## Steps\n\n### Step 1: Tally\n- Skill: `tally-up`\n- Output: `blocked`, `defects`\n\n"
            "The audit passes only when tally-up reports zero blocked packages and no open defects.\n")
    checks = _checks(_read(text))
    empty = {"maxItems": 0, "maximum": 0, "maxLength": 0}
    assert checks["step-1"]["blocked"] == empty and checks["step-1"]["defects"] == empty


def test_a_recipe_cards_bound_and_prefix_in_words() -> None:
    text = ("# Sourdough\n\n## Steps\n\n### Step 1: Proof\n- Skill: `proof-dough`\n- Output: `rise_pct`, `batch_code`\n\n"
            "The bake is complete when proof-dough gives a rise pct above 50 and a batch code beginning SD-.\n")
    checks = _checks(_read(text))
    assert checks["step-1"]["rise_pct"] == {"exclusiveMinimum": 50}
    assert checks["step-1"]["batch_code"] == {"type": "string", "pattern": "^SD\\-"}


def test_a_maintenance_cards_complete_when_label_with_options_in_parentheses() -> None:
    text = ("FORKLIFT DAILY CHECK\n\n## Steps\n\n### Step 1: Forks\n- Skill: `fork-inspect`\n- Output: `result`, `notes`\n\n"
            "CHECK COMPLETE WHEN: fork inspection result entered (PASS or FAIL - TAGGED OUT).\n")
    spec = _read(text, "markdown", "card.txt")
    checks = _checks(spec)
    assert checks["step-1"]["result"] == {"enum": ["PASS", "FAIL - TAGGED OUT"]}
    assert any(w.line == 9 and "success check" in w.message for w in spec.warnings)


def test_a_ticket_that_compares_with_an_unwritten_value_warns_that_part() -> None:
    spec = _read("# TICKET-88 ship it\n\n" + STEPS + "DONE = courier shows status delivered for the right label ref.\n")
    checks = _checks(spec)
    assert checks["step-2"]["status"] == {"const": "delivered"}
    assert "label_ref" not in checks["step-2"]
    assert any(w.line == 13 and "'the right label ref'" in w.message and "not checked" in w.message
               for w in spec.warnings)


def test_own_schema_yaml_good_if_names_the_step_by_its_key() -> None:
    text = ("job: nightly-backup\noverall:\n  good_if: \"verify gave back a manifest_sha\"\ntasks:\n"
            "  dump:\n    runs: db-dump\n  verify:\n    runs: backup-verify\n    after: [dump]\n")
    spec = _read(text, "yaml", "backup.yml")
    assert any(w.line == 3 and "manifest_sha is not empty" in w.message for w in spec.warnings)


def test_titled_cue_reads_a_label_and_not_step_words() -> None:
    assert titled_cue("CARD COMPLETE WHEN: status entered") == "status entered"
    assert titled_cue("Job done once: the van is back") == "the van is back"
    assert titled_cue("Mark the job complete when the customer signs") is None  # no label: step words
    assert titled_cue("Retry done when: the server answers") is None
    assert titled_cue("Step complete when: the form is signed") is None


def test_done_and_complete_in_step_text_are_not_checks() -> None:
    text = ("# Clinic intake\n\n## Steps\n\n### Step 1: Register\n- Skill: `patient-register`\n- Output: `mrn`, `status`\n"
            "- Mark the form complete when the patient signs, then hand it to the nurse.\n- Done: filed the consent.\n")
    spec = _read(text)
    assert not _checks(spec)
    assert not any("is read as the run's success check" in w.message for w in spec.warnings)


def test_a_done_sentence_naming_no_output_is_still_warned() -> None:
    spec = _read("# Ship a parcel\n\n" + STEPS + "We're finished when the customer is happy with the box.\n")
    assert not _checks(spec)
    assert any(w.line == 13 and "success check" in w.message and "not checked" in w.message for w in spec.warnings)
