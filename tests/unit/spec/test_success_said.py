"""The run's success check in words `spec.success_said` reads: a check in brackets, an amount left over, a
thing said to be out, a field by its name after "with". Written as a food co-op order sheet, a theatre
box-office sheet, a vet's discharge checklist, a brewery batch card and a parish newsletter run would say
it; none is a sentence of a blind set."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.success_said import said_here
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {
    "split-order": frozenset({"shares", "assigned_kg", "leftover_kg"}),
    "email-members": frozenset({"emailed", "count"}),
    "sell-seats": frozenset({"sold", "unsold_seats"}),
    "print-tickets": frozenset({"printed", "batch_id"}),
    "write-discharge": frozenset({"issued", "note_id", "lines"}),
    "weigh-patient": frozenset({"weight_kg"}),
    "bottle-batch": frozenset({"bottled", "remaining_litres", "bottles"}),
    "layout-newsletter": frozenset({"pages", "pdf"}),
    "mail-newsletter": frozenset({"published", "issue_no"}),
}
WORDS = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))


def _checks(text: str) -> tuple[WorkflowSpec, list[tuple[str, str]]]:
    spec = parse_spec_text(text, "flow.md", "markdown", WORDS)
    return spec, [(c.producer, c.validation[0]) for c in spec.contracts if c.consumer is None]


def _warned(spec: WorkflowSpec, line: int, *words: str) -> bool:
    return any(w.line == line and all(x in w.message for x in words) for w in spec.warnings)


CO_OP = """# Bulk order split

1. Split the sacks with `split-order`.
2. Then email everyone with `email-members`.

We're finished when the members have been told (emailed comes back true) and under 2 kg is left unassigned.
"""


def test_a_co_ops_bracketed_check_and_amount_left_over_are_read_on_their_steps() -> None:
    spec, checks = _checks(CO_OP)
    assert sorted(checks) == [("step-1", "leftover_kg < 2"), ("step-2", "emailed == true")]
    assert _warned(spec, 6, "leftover_kg < 2", "check the plan")


BOX_OFFICE = """# Matinee sales

1. Sell with `sell-seats`.
2. Print with `print-tickets`.

It counts as a success when fewer than 10 seats stay unsold and the tickets are printed.
"""


def test_a_box_offices_seats_left_unsold_are_compared_with_the_number() -> None:
    _, checks = _checks(BOX_OFFICE)
    assert ("step-1", "unsold_seats < 10") in checks
    assert ("step-2", "printed == true") in checks


VET = """# Discharge

1. Weigh the patient with `weigh-patient`.
2. Write the discharge note with `write-discharge`.

Discharge counts as good when the note is out with a note_id on it.
"""


def test_a_vets_note_said_out_with_its_id_is_two_checks_on_the_note_step() -> None:
    spec, checks = _checks(VET)
    assert sorted(checks) == [("step-2", "issued == true"), ("step-2", "note_id is not empty")]
    assert not any(w.line == 6 and "not read" in w.message for w in spec.warnings)


BREWERY = """# Bottling day

1. Bottle the batch with `bottle-batch`.
2. Print the labels with `print-tickets`.

We're done when no more than 3 litres are left remaining.
"""


def test_a_brewerys_amount_remaining_is_read_with_at_most() -> None:
    _, checks = _checks(BREWERY)
    assert checks == [("step-1", "remaining_litres <= 3")]  # never "more than 3" with its "no" left off


NEWSLETTER = """# Parish newsletter

1. Lay it out with `layout-newsletter`.
2. Send it with `mail-newsletter`.

We're done when the newsletter is out and the vicar is happy.
"""


def test_a_thing_out_with_no_one_went_output_on_its_step_is_not_checked_and_said() -> None:
    spec, checks = _checks(NEWSLETTER)
    # the newsletter names both steps' skills: no one step, so 'is out' is not guessed
    assert checks == [] or all("happy" not in c for _, c in checks)
    assert _warned(spec, 6, "not checked") or _warned(spec, 6, "happy")


def test_an_amount_with_no_output_of_its_words_is_not_read() -> None:
    text = CO_OP.replace("under 2 kg is left unassigned", "under 2 crates are left unopened")
    spec, checks = _checks(text)
    assert checks == [("step-2", "emailed == true")]
    assert _warned(spec, 6, "under 2 crates are left unopened")


def test_said_here_knows_its_forms_before_the_steps() -> None:
    assert said_here("less than 5 kg is left over")
    assert said_here("the notice is out with a notice_id on it")
    assert said_here("they have been told (told comes back true)")
    assert not said_here("the vicar is happy")


def test_a_check_on_a_field_its_step_goes_on_with_a_value_of_is_left_warned() -> None:
    text = CO_OP.replace("2. Then email everyone with `email-members`.",
                         "2. Then email everyone with `email-members`; if it fails, carry on with emailed = false.")
    spec, checks = _checks(text)
    assert ("step-2", "emailed == true") not in checks  # it would break the value the step goes on with
    assert _warned(spec, 6, "emailed comes back true")
