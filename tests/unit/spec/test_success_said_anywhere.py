"""The run's success check said the author's way, read onto a step's output or warned, never silent:
an INI setting (`done_if = ...`) is a sentence of its own; "X says Y" is `Y == true` on X's step; a
parenthesis restating the check in the outputs' words is what is checked; "hands back a docket no."
is that output not empty; `step.field is true` among other parts is checked on the step the head
names. Documents: a podcast run sheet (INI), a lab protocol (prose), a ship's log (checklist), a
warehouse pick list (own YAML), a recipe card (INI, unreadable check)."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {
    "mix-audio": frozenset({"mixed", "duration_s"}),
    "publish-episode": frozenset({"published", "url"}),
    "thaw-samples": frozenset({"thawed"}),
    "read-plate": frozenset({"absorbances", "logged"}),
    "log-position": frozenset({"lat", "lon"}),
    "file-report": frozenset({"docket", "filed"}),
    "pick-items": frozenset({"picked", "missing"}),
    "seal-pallet": frozenset({"sealed", "label"}),
    "bake-loaf": frozenset({"baked", "crust"}),
}
WORDS = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))


def _checks(text: str, path: str = "flow.md", fmt: str = "markdown") -> tuple[WorkflowSpec, list[tuple[str, str]]]:
    spec = parse_spec_text(text, path, fmt, WORDS)
    return spec, [(c.producer, c.validation[0]) for c in spec.contracts if c.consumer is None]


PODCAST = """; weekly episode, kept by the producer
[general]
done_if = publish says published = yes
; whole thing in 30 min

[mix]
skill = mix-audio

[publish]
skill = publish-episode
after = mix
"""


def test_a_run_sheets_ini_setting_is_its_own_sentence_and_read_as_the_check() -> None:
    spec, checks = _checks(PODCAST, "episode.ini")
    assert checks == [("step-2", "published == true")]
    assert any(w.line == 3 and w.code == "spec.success" and "published == true" in w.message for w in spec.warnings)


def test_an_ini_check_in_words_no_output_names_is_warned_at_its_line_not_silent() -> None:
    text = "[general]\nfinished_if = the loaf smells right\n\n[bake]\nskill = bake-loaf\n"
    spec, checks = _checks(text, "bread.ini")
    assert checks == []
    assert any(w.line == 2 and w.code == "spec.success" and "not" in w.message for w in spec.warnings)


LAB = """# Plate assay

First `thaw-samples` thaws the tubes. Then `read-plate` reads the plate and logs it.

We're done when the plate has been read (read-plate says logged).
"""


def test_a_lab_protocols_parenthesis_in_the_outputs_words_is_what_is_checked() -> None:
    _, checks = _checks(LAB)
    assert checks == [("step-2", "logged == true")]


LOG = """# Noon report

- [ ] **Fix position.** `log-position` from the GPS.
- [ ] **File it.** `file-report` with the position.

Finished = the office hands back a docket no. and the report shows as filed.
"""


def test_a_ships_logs_docket_number_and_shows_as_filed_are_checked_on_the_filing_step() -> None:
    spec, checks = _checks(LOG)
    assert sorted(checks) == [("step-2", "docket is not empty"), ("step-2", "filed == true")]
    assert sum(w.code == "spec.success" and w.line == 6 for w in spec.warnings) == 2


PICK = """picklist:
  done_when: seal.sealed is true and the driver is happy
  jobs:
    pick:
      uses: pick-items
    seal:
      uses: seal-pallet
      after: pick
"""


def test_a_pick_lists_dotted_field_among_other_parts_is_checked_and_the_rest_warned() -> None:
    spec, checks = _checks(PICK, "picklist.yaml", "yaml")
    assert [c[1] for c in checks] == ["sealed == true"]
    assert any("driver is happy" in w.message and "not checked" in w.message for w in spec.warnings)


def test_a_bare_label_done_only_when_is_the_runs_check_outside_the_steps_only() -> None:
    from orchestrator.spec.done_when import done_clause

    assert done_clause("ORDER COMPLETE only when file-report says filed = yes.") == "file-report says filed = yes"
    assert done_clause("Pallet ready only if seal-pallet says sealed = true") == "seal-pallet says sealed = true"
    # near-misses: no "only" (a description), inside a step's text, a retry's condition
    assert done_clause("Pallet ready when the truck comes") is None
    assert done_clause("Pallet ready only if seal-pallet says sealed = true", outside=False) is None
    assert done_clause("Retry done only when the attempts run out") is None


def test_a_sheets_footer_complete_only_when_is_checked_on_the_step_that_says_it() -> None:
    text = ("# Night docket\n\nDOCKET COMPLETE only when file-report says filed = yes.\n\n"
            "## Step 1: Log\nRun `log-position`.\n\n## Step 2: File\nRun `file-report`.\n")
    _, checks = _checks(text)
    assert checks == [("step-2", "filed == true")]
