"""Recovery said in a legal or formal register (`spec.legal_prose29`), in documents of other kinds.

Each way of writing is tried in a service-level agreement, a tenancy agreement's schedule and a
standard operating procedure in "shall" prose (none is a blind set's sentence), with negatives that
look alike but state no policy of the step.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.legal_prose29 import beside_clause, doubled_numeral
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.outline import outline
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.spec.phrase_probe import plain_effect
from tests.unit.spec.success_probe import success_checks as _checks


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text)


# -- "shall instead apply X": the fallback skill ------------------------------------------------------

@pytest.mark.parametrize(("text", "skill"), [
    # a service-level agreement
    ("Should the automated dispatch fail, the Provider shall instead employ `manual-dispatch` for that ticket.",
     "manual-dispatch"),
    # a tenancy agreement's schedule
    ("If the online deposit scheme is unavailable, the Landlord shall in lieu thereof apply `paper-ledger` to the deposit.",
     "paper-ledger"),
    # a standard operating procedure
    ("Where the autoclave cycle fails, the technician shall have recourse to `chemical-sterilise` for the same tray.",
     "chemical-sterilise"),
])
def test_shall_instead_apply_is_the_fallback(text: str, skill: str) -> None:
    assert _read(text) == {"skill": skill}


def test_shall_apply_alone_is_no_fallback() -> None:
    # a tenancy schedule: what the step does, not what stands in for it
    assert read_phrase("The Tenant shall apply `sealant` to the window frames.").statement.is_empty()


# -- "re-attempt it up to 4 further times", with a backoff said in clauses -----------------------------

@pytest.mark.parametrize(("text", "retries"), [
    # a service-level agreement
    ("Where the status endpoint does not respond, the Provider may re-attempt it up to 3 further times.", 3),
    # a tenancy schedule (number words in digits: `spec.normalize`)
    ("If the rent transfer is rejected, the Agent may resubmit the payment on not more than two (2) additional occasions.", 2),
    # a standard operating procedure
    ("If the calibration fails, the operator shall retry it up to five (5) further times.", 5),
])
def test_further_times_or_occasions_are_retries(text: str, retries: int) -> None:
    assert _read(text)["retries"] == retries


@pytest.mark.parametrize("text", [
    # a service-level agreement
    "If the webhook fails, the Provider may re-attempt it up to 4 further times, waiting 5 seconds before the first "
    "re-attempt and doubling that interval each time thereafter, but never more than 60 seconds.",
    # a standard operating procedure
    "On failure the analyst shall re-run the assay up to four (4) further times, pausing 5 seconds prior to the first "
    "repetition and doubling that period on each occasion, but never more than sixty (60) seconds.",
])
def test_a_backoff_said_in_clauses(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == ()
    wait = phrase.statement.wait
    assert phrase.statement.retries == 4
    assert wait is not None and (wait.kind, wait.start_s, wait.factor, wait.cap_s) == ("exponential", 5.0, 2.0, 60.0)


def test_a_prohibition_on_a_person_is_no_retry_count() -> None:
    # a tenancy schedule: the tenant's conduct, no count of retries
    assert read_phrase("After a failed inspection the tenant shall not re-attempt entry.").statement.retries is None


# -- "once only", "shall not be re-issued by automatic means": no retry ---------------------------------

@pytest.mark.parametrize("text", [
    # a service-level agreement
    "The credit note shall be issued once only.",
    # a tenancy schedule
    "The deposit refund may be requested on one occasion only.",
    # a standard operating procedure
    "The sample is not to be resubmitted by automatic means under any circumstances.",
])
def test_once_only_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


def test_once_only_per_day_is_a_frequency() -> None:
    # a care home's SOP: how often, not a policy
    assert read_phrase("The tablet shall be taken once only per day.").statement.no_retry is False


# -- "four\n(4)": a number written twice wrapped over a line ---------------------------------------------

def test_a_doubled_numeral_goes_on_the_sentence() -> None:
    assert doubled_numeral("may re-attempt it up to four", "(4)")
    assert doubled_numeral("a period of sixty", "(60)")
    assert not doubled_numeral("may re-attempt it up to four", "(5)")  # not the same number: a label
    assert not doubled_numeral("the following conditions apply", "(a)")
    lines = ["3.2  Payments. The Tenant may re-attempt a failed payment up to three",
             "     (3) further times within the month.",
             "",
             "  (1) first item", "  (2) second item"]
    root = outline(lines)
    items = [u for u in root.walk() if u.kind == "item"]
    assert [u.label for u in items] == ["3.2", "(1)", "(2)"]  # "(3)" goes on the clause, "(1)" after a blank is an item
    assert [n for n, _ in items[0].lines] == [1, 2]


def _spec(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.txt", "markdown", Vocabulary.of([(s, None) for s in skills]))


def test_a_schedule_clause_keeps_its_wrapped_retry() -> None:
    # a service-level agreement's schedule: the clause wraps "three\n(3)"
    text = (
        "SCHEDULE 2 - SERVICE HANDLING\n\n"
        "2.1  Intake. The Provider shall log each request by log-request.\n\n"
        "2.2  Dispatch. The Provider shall dispatch the engineer by dispatch-visit. Where dispatch-visit\n"
        "     does not respond, the Provider may re-attempt it up to three\n"
        "     (3) further times, waiting 2 seconds between attempts.\n"
    )
    spec = _spec(text, "log-request", "dispatch-visit")
    said = [t.text for t in spec.steps[1].texts if "further times" in t.text]
    assert said == ["Where `dispatch-visit` does not respond, the Provider may re-attempt it up to three (3) further "
                    "times, waiting 2 seconds between attempts."]
    assert plain_effect(said[0]) == {"retries": 3, "waits": (2.0,)}


# -- clause numbers as step references: "Concurrently with C.2", "Following C.2 and C.4" ------------------

_SOP = (
    "STANDARD OPERATING PROCEDURE SOP-14 - INSTRUMENT RETURN\n\n"
    "4.1  Logging. The technician shall log the returned instrument by log-return.\n\n"
    "4.2  Cleaning. Concurrently with 4.1 and without awaiting its completion, the technician shall clean\n"
    "     the instrument by wash-cycle.\n\n"
    "4.3  Release. Following 4.1 and 4.2 the supervisor shall release the instrument by release-tag.\n"
)


def test_an_sops_concurrently_with_a_clause_starts_together() -> None:
    spec = _spec(_SOP, "log-return", "wash-cycle", "release-tag")
    assert spec.steps[1].starts_with == "step-1" or spec.steps[1].unordered_where == "doc.txt:5"  # either: no wait on 4.1
    assert spec.steps[2].depends_on == ("step-1", "step-2")
    lettered = _spec(_SOP.replace("4.", "S.").replace("its completion", "its outcome"), "log-return", "wash-cycle",
                     "release-tag")
    assert lettered.steps[1].starts_with == "step-1" or lettered.steps[1].unordered_where == "doc.txt:5"
    assert lettered.steps[2].depends_on == ("step-1", "step-2")
    first = lettered.steps[0]
    assert beside_clause("Simultaneously with clause S.1, clean it.", [first], lambda s: "S.1  Logging.") == first
    assert beside_clause("Simultaneously with S.7, clean it.", [first], lambda s: "S.1  Logging.") is None


def test_a_tenancy_schedules_following_clauses_waits_for_them() -> None:
    text = (
        "SCHEDULE 3 - END OF TENANCY\n\n"
        "T.1  Inspection. The Agent shall inspect the Property by inspect-flat.\n\n"
        "T.2  Meter reading. The Agent shall record the meters by read-meters.\n\n"
        "T.3  Deposit. Upon completion of T.1 the Landlord shall return the deposit by refund-deposit.\n"
    )
    spec = _spec(text, "inspect-flat", "read-meters", "refund-deposit")
    assert spec.steps[2].depends_on == ("step-1",)


def test_a_clause_number_no_step_has_is_not_read() -> None:
    # a service-level agreement: "clause 9.9" labels no step, so nothing is read from it
    text = (
        "SERVICE SCHEDULE\n\n"
        "1.1  Triage. The Provider shall triage each ticket by triage-ticket.\n\n"
        "1.2  Fix. Following 9.9 the Provider shall fix the fault by fix-fault.\n"
    )
    spec = _spec(text, "triage-ticket", "fix-fault")
    assert spec.steps[1].depends_on == ()


def test_not_concurrently_with_a_clause_is_no_start() -> None:
    text = _SOP.replace("Concurrently with 4.1 and without awaiting its completion, the technician shall clean",
                        "The technician shall not clean concurrently with 4.1; the technician shall clean")
    spec = _spec(text, "log-return", "wash-cycle", "release-tag")
    assert spec.steps[1].starts_with is None


# -- a success check in a legal register: "has been issued", "exceeds zero", a name without its unit ------


def test_an_slas_deemed_complete_when_reads_on_the_outputs() -> None:
    text = ("# Service credit\n\n## Steps\n\n### Step 1: Credit\n- Skill: `issue-credit`\n"
            "- Output: `credit_ref`, `credit_total_gbp`\n\n"
            "The claim shall be deemed complete when a credit reference has been issued and the credit total "
            "exceeds zero.\n")
    checks = _checks(parse_spec_text(text, "sla.md", "markdown"))
    assert checks["step-1"]["credit_ref"] == {"minItems": 1, "minLength": 1, "minProperties": 1}
    assert checks["step-1"]["credit_total_gbp"] == {"exclusiveMinimum": 0}


def test_a_lab_sops_in_excess_of() -> None:
    text = ("# Assay\n\n## Steps\n\n### Step 1: Read\n- Skill: `plate-read`\n- Output: `plate_id`, `signal_level_pct`\n\n"
            "The assay shall be taken as finished once a plate id has been recorded and the signal level is in excess of "
            "5.\n")
    checks = _checks(parse_spec_text(text, "sop.md", "markdown"))
    assert checks["step-1"]["plate_id"] == {"minItems": 1, "minLength": 1, "minProperties": 1}
    assert checks["step-1"]["signal_level_pct"] == {"exclusiveMinimum": 5}


def test_a_range_of_clauses_is_each_step_between() -> None:
    # an SOP: "Upon completion of clauses S.1 to S.3" waits for S.1, S.2 and S.3 (not only the first)
    text = (
        "SOP-22 BATCH RELEASE\n\n"
        "S.1  Weigh. The operator shall weigh the batch by weigh-batch.\n\n"
        "S.2  Sample. The operator shall sample the batch by take-sample.\n\n"
        "S.3  Test. The analyst shall test the sample by run-assay.\n\n"
        "S.4  Release. Upon completion of clauses S.1 to S.3, QA shall release the batch by release-batch.\n"
    )
    spec = _spec(text, "weigh-batch", "take-sample", "run-assay", "release-batch")
    assert spec.steps[3].depends_on == ("step-1", "step-2", "step-3")
