""""the record count from 4 as *written*", "4's rescan list as *redo*": an earlier output handed to
the skill input named after "as" (`plan.named_as27`). Kinds: a museum note, a payroll run sheet,
a field survey log; negatives: a name after "as" the skill does not read, two outputs that fit,
words that name no output of the step."""

from __future__ import annotations

from orchestrator.plan.named_as27 import as_named
from orchestrator.plan.output_aliases import Earlier

_CATALOGUE = Earlier(id="step-4", number=4, label="Catalogue catalogue-batch", fields=frozenset({"records", "rescan"}))
_RIGHTS = Earlier(id="step-2", number=2, label="Rights donor-rights", fields=frozenset({"licence", "can_publish"}))
_PAY = Earlier(id="step-3", number=3, label="Totals sum-pay", fields=frozenset({"gross_total", "net_total"}))
_SURVEY = Earlier(id="step-1", number=1, label="Count birds", fields=frozenset({"sightings", "observer"}))


def test_a_museum_note_hands_each_output_under_its_new_name() -> None:
    text = "curator-note with the record count from 4 as *written*, 4's rescan list as *redo*, and 2's can_publish as *public*."
    steps = [_RIGHTS, _CATALOGUE]
    assert (a := as_named("written", text, steps, set())) is not None and (a.step, a.field) == ("step-4", "records")
    assert (a := as_named("redo", text, steps, set())) is not None and (a.step, a.field) == ("step-4", "rescan")
    assert (a := as_named("public", text, steps, set())) is not None and (a.step, a.field) == ("step-2", "can_publish")


def test_a_payroll_sheet_and_a_survey_log() -> None:
    pay = "Post it with post-ledger: the net total out of step 3 as `amount`."
    assert (a := as_named("amount", pay, [_PAY], set())) is not None and a.field == "net_total"
    log = "File with file-report, step 1's sightings as 'rows'."
    assert (a := as_named("rows", log, [_SURVEY], set())) is not None and a.field == "sightings"


def test_no_reading_for_another_name_two_fits_or_words_naming_no_output() -> None:
    pay = "Post it with post-ledger: the total out of step 3 as `amount`."
    assert as_named("amount", pay, [_PAY], set()) is None  # gross or net? no reading
    assert as_named("sum", pay, [_PAY], set()) is None  # the text hands `amount`, not `sum`
    log = "File with file-report, step 1's weather as rows."
    assert as_named("rows", log, [_SURVEY], set()) is None
