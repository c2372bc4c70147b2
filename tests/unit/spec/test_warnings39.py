"""Warnings that would misdescribe what was read (`spec.warnings39`): a part another reader read is not
'not checked'; 'if those aren't true it's not done' is what the success check means; a line read as an
approval is not 'names no step'."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.warnings39 import drop_unplaced, read_elsewhere, restates_check


def test_what_failing_the_check_means_in_three_kinds_of_text() -> None:
    assert restates_check("If those two aren't true it's not done, I don't care what the log says.")  # a planner's sheet
    assert restates_check("If any of that isn't so, the run failed.")  # a runbook
    assert restates_check("Otherwise it doesn't count.")  # a lab protocol
    assert restates_check("If either fails, the job is not finished.")  # a ticket


def test_negatives_a_condition_or_a_policy_is_no_restatement() -> None:
    assert not restates_check("If the printer is down, retry twice.")
    assert not restates_check("Those two aren't the same thing.")
    assert not restates_check("If those two aren't true, page the on-call.")


def test_a_part_another_warning_quotes_as_read_is_read_elsewhere() -> None:
    src = Source("", "runbook.txt")
    src.warn(4, "step-3 (ship): 'the parcel comes back labelled' is read as the run's success check "
                "`labelled == true` on this step's output", "spec.success")
    assert read_elsewhere("DONE = the parcel comes back labelled", 4, src)
    assert not read_elsewhere("DONE = the parcel comes back labelled", 5, src)  # another line
    assert not read_elsewhere("the invoice is paid", 4, src)  # another part
    src.warn(6, "the run's success check: 'the invoice is paid' names no step's output, so that part is not "
                "checked", "spec.success")
    assert not read_elsewhere("the invoice is paid", 6, src)  # warned as not checked: not read


def test_a_line_read_drops_its_names_no_step_warning_only() -> None:
    src = Source("", "process.txt")
    src.warn(9, "'Manager approves' states a step's policy but names no step (or several), so it is not read",
             "spec.placed")
    src.warn(9, "step-2 (pay): process model: the user task read as its approval", "spec.reading")
    src.warn(10, "'X' states a step's policy but names no step (or several), so it is not read", "spec.placed")
    drop_unplaced(src, 9)
    assert [(w.line, w.code) for w in src.warnings] == [(9, "spec.reading"), (10, "spec.placed")]


def test_a_recipe_s_closing_check_then_its_restatement_is_not_warned_unread() -> None:
    text = ("# Bake day\n\n1. `dough-mix` the flour\n2. `oven-bake` the loaves\n\n"
            "Done when the loaves come back baked = true. If that isn't true it's not done.\n")
    spec = parse_spec_text(text, "bake.md", "markdown")
    assert not [w for w in spec.warnings if "If that isn't true" in w.message and "not read" in w.message]


def test_anything_else_is_a_failure_restates_the_check() -> None:  # round 46
    assert restates_check("Anything else is a failure.")
    assert restates_check("Any other result counts as failed.")
    assert restates_check("Everything else means failed.")
    assert not restates_check("Anything else goes to the archive.")  # no failure said


def test_a_skill_coming_back_with_a_value_then_anything_else_is_checked_on_that_step() -> None:
    text = ("# Invoices\n\n## Steps\n\n1. `draft-invoice` the lines\n2. `send-invoice` to the client\n"
            "3. `file-copy` in the archive\n\n## Exit status\n\n"
            "Success means send-invoice came back with sent = true. Anything else is a failure.\n")
    spec = parse_spec_text(text, "inv.md", "markdown",
                           Vocabulary(skills=frozenset({"draft-invoice", "send-invoice", "file-copy"})))
    checks = [(s.id, t.text) for s in spec.steps for t in s.texts if t.kind == "success"]
    assert checks == [("step-2", "sent = true")], checks
    assert not [w for w in spec.warnings if "not a comparison" in w.message], [w.message for w in spec.warnings]


def test_negative_a_skill_no_step_runs_coming_back_is_not_placed() -> None:
    text = ("# Invoices\n\n## Steps\n\n1. `draft-invoice` the lines\n2. `send-invoice` to the client\n\n"
            "## Exit status\n\nSuccess means print-copy came back with printed = true.\n")
    spec = parse_spec_text(text, "inv.md", "markdown", Vocabulary(skills=frozenset({"draft-invoice", "send-invoice"})))
    placed = [(s.id, t.text) for s in spec.steps for t in s.texts if t.kind == "success"]
    assert ("step-1", "printed = true") not in placed  # no step runs print-copy: not that step's
