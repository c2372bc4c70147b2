"""Labels and asides of notes and checklists (`spec.salon38`): a branch labelled by the negative of the question
before it, an aside of step numbers that all start together, dotted-leader rows of a limits block, a period
"considered closed", a handoff said by the last word of an output's name, an attempt's time said as what it has
not done by then. Documents: a lab protocol, a bakery checklist, an IT triage card, a ship's watch checklist, a
warehouse runbook, a theatre cue sheet; none a blind set's. Negatives: a "NOT X" that is no branch, an all-caps
row that is no limit, an aside of numbers that is no start."""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.salon38 import (
    closed_cue,
    leader_row,
    lone_value,
    negated_label,
    reported_truth,
    shortened_field,
)
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_success import comparison, success_cue
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text, step_by_skill


def _steps(text: str, skills: tuple[str, ...], path: str = "note.txt") -> dict[str, Any]:
    spec = parse_spec_text(text, path, "markdown", Vocabulary.of([(s, None) for s in skills]))
    return {name: step for step in spec.steps for name in skills  # the skill its text names (bound when planned)
            if name in " ".join((step.skill or "", step.name, step.description))}


# -- "NOT X ->" after "X?": the other branch ------------------------------------------------------------------

LAB = """\
PLATE READING - bench card
  1. `incubate-plate` for 24 h.
  2. Contaminated? -> `discard-plate` and log it.
  3. NOT CONTAMINATED -> `count-colonies` on the plate.
"""
BAKERY = """\
Morning bake
1. `check-dough` - is it frozen or not.
2. Frozen? `thaw-dough` in the proving cabinet.
3. Not frozen: `shape-loaves` straight away.
"""
TRIAGE = """\
IT triage card
- `read-ticket` first.
- Urgent? → `page-oncall`.
- NOT URGENT → `queue-ticket` for the morning.
"""


@pytest.mark.parametrize(("text", "skills", "branch", "other"), [
    (LAB, ("incubate-plate", "discard-plate", "count-colonies"), "discard-plate", "count-colonies"),
    (BAKERY, ("check-dough", "thaw-dough", "shape-loaves"), "thaw-dough", "shape-loaves"),
    (TRIAGE, ("read-ticket", "page-oncall", "queue-ticket"), "page-oncall", "queue-ticket"),
])
def test_a_label_in_the_negative_of_the_question_before_is_its_other_branch(
        text: str, skills: tuple[str, ...], branch: str, other: str) -> None:
    steps = _steps(text, skills)
    assert steps[branch].when and steps[branch].when.endswith("is true")
    assert steps[other].otherwise_of == steps[branch].id and not steps[other].when


def test_a_not_label_with_no_question_before_or_other_words_is_no_branch() -> None:
    steps = _steps("Shift card\n1. `read-ticket` first.\n2. NOT URGENT -> `queue-ticket`.\n",
                   ("read-ticket", "queue-ticket"))
    assert steps["queue-ticket"].otherwise_of is None
    steps = _steps("Shift card\n1. `read-ticket` first.\n2. Overdue? -> `page-oncall`.\n"
                   "3. Not urgent -> `queue-ticket`.\n", ("read-ticket", "page-oncall", "queue-ticket"))
    assert steps["queue-ticket"].otherwise_of is None  # not the same words as the question


@pytest.mark.parametrize(("words", "when", "read"), [
    ("NOT MATTED -> x", "matted is true", ("matted", "NOT MATTED")),
    ("No allergies: x", "allergies is true", ("allergies", "No allergies")),
    ("Not more, the owner is stood there", "more is true", None),  # no arrow, colon or dash: no label
    ("NOT MATTED -> x", "size > 3", None),  # the step before asked no question
    ("NOT MATTED -> x", None, None),
])
def test_negated_label(words: str, when: str | None, read: tuple[str, str] | None) -> None:
    assert negated_label(words, when) == read


# -- an aside of numbers: all start together --------------------------------------------------------------------

SKILLS4 = ("warm-ovens", "mix-dough", "prep-fillings", "bake-off")


@pytest.mark.parametrize("aside", [
    "(1 and 2 together, and 3 as well - nobody waits on anybody)",  # a bakery checklist
    "(1, 2 and 3 at the same time)",  # a theatre cue sheet
    "1 + 2 + 3 in parallel, no one waits for anyone",  # a ship's watch checklist
])
def test_an_aside_of_step_numbers_said_together_starts_them_all(aside: str) -> None:
    text = ("BAKE SHEET\n1. Ovens ..... warm-ovens\n2. Dough ..... mix-dough\n     " + aside +
            "\n3. Fillings ..... prep-fillings\n4. Bake ..... bake-off / dough from 2, fillings from 3\n")
    steps = _steps(text, SKILLS4)
    assert steps["mix-dough"].starts_with == steps["warm-ovens"].id
    assert steps["prep-fillings"].starts_with == steps["warm-ovens"].id
    assert steps["bake-off"].starts_with is None


@pytest.mark.parametrize("aside", [
    "(retry 1 and 2 together if the oven trips)",  # a word that is no joiner: tries
    "(add 2 and 3 cups together)",  # quantities
    "(1 and 9 together)",  # no step 9
])
def test_an_aside_that_is_no_start_leaves_the_order(aside: str) -> None:
    text = ("BAKE SHEET\n1. Ovens ..... warm-ovens\n2. Dough ..... mix-dough\n     " + aside +
            "\n3. Fillings ..... prep-fillings\n4. Bake ..... bake-off\n")
    steps = _steps(text, SKILLS4)
    assert steps["prep-fillings"].starts_with is None


# -- dotted-leader rows: a limit and a success check ------------------------------------------------------------

WATCH = SaidCatalog({
    "read-log": "Inputs: `watch`.\n\nOutputs: `entries`.\n",
    "post-handover": "Inputs: `entries`.\n\nOutputs: `posted`, `note`.\n",
})
_WATCH_DOC = """\
BRIDGE WATCH HANDOVER - CHECKLIST

LIMITS:
  WHOLE HANDOVER .............. COMPLETE WITHIN 20 MIN, ELSE CALL THE MASTER
  HANDOVER COMPLETE ........... WHEN POST HANDOVER REPORTS posted TRUE
  RELIEF OFFICER .............. SECOND OFFICER

1. LOG ......................... read-log / watch
2. HANDOVER .................... post-handover / entries from 1
"""


def test_a_limits_block_of_leader_rows_is_the_run_limit_and_its_success_check() -> None:
    plan = plan_of_text(_WATCH_DOC, WATCH, "watch.txt")
    assert plan.limits.wall_time_s == 1200.0
    said = [w.message for w in plan.warnings if "success check" in w.message]
    assert any("posted == true" in m and step_by_skill(plan, "post-handover").id in m for m in said), said


@pytest.mark.parametrize(("row", "read"), [
    ("WHOLE SHIFT .......... DONE WITHIN 2 HOURS", "WHOLE SHIFT: DONE WITHIN 2 HOURS"),
    ("SHIFT COMPLETE ....... WHEN CLOSE TILL REPORTS balanced TRUE", "SHIFT COMPLETE WHEN: CLOSE TILL REPORTS balanced TRUE"),
    ("Airfield ............. \"Dunmore Hill\" (fixed)", "Airfield: \"Dunmore Hill\" (fixed)"),
    ("Wait... what was that", None),  # an ellipsis, no leader
    ("plain line", None),
])
def test_leader_row(row: str, read: str | None) -> None:
    assert leader_row(row) == read


def test_an_all_caps_row_with_no_whole_is_no_limit() -> None:
    doc = _WATCH_DOC.replace("WHOLE HANDOVER .............. COMPLETE WITHIN 20 MIN, ELSE CALL THE MASTER",
                             "BRIEFING .................... EVERY 20 MIN ON THE BRIDGE")
    plan = plan_of_text(doc, WATCH, "watch.txt")
    assert plan.limits.wall_time_s != 1200.0


@pytest.mark.parametrize(("clause", "check"), [
    ("DUTY ROTA POST REPORTS posted TRUE", "posted == true"),
    ("the till says balanced yes", "balanced == true"),
    ("the scanner returns jammed false", "jammed == false"),
    ("THE POST REPORTS TRUE", None),  # no field named
    ("it reports posted and sent true", None),
])
def test_reported_truth(clause: str, check: str | None) -> None:
    assert reported_truth(clause) == check


# -- a period considered closed ---------------------------------------------------------------------------------

@pytest.mark.parametrize("sentence", [
    "We consider the night closed when the summary is posted, i.e. post-summary says posted = true.",  # an ADR
    "Finance call the month signed off once close-books says balanced = true.",  # a runbook
    "I treat the stocktake as wrapped up when count-stock says done: true.",  # a warehouse note
])
def test_a_period_considered_closed_when_a_check_holds_is_the_success_check(sentence: str) -> None:
    clause = success_cue(sentence)
    assert clause is not None and clause == closed_cue(sentence) and comparison(clause) is not None


@pytest.mark.parametrize("sentence", [
    "The valve is closed when the pressure drops below 2 bar.",
    "We closed the ticket when the fix was deployed.",
])
def test_a_thing_said_closed_is_no_success_check(sentence: str) -> None:
    assert closed_cue(sentence) is None


# -- a handoff said by the last word of an output's name --------------------------------------------------------

STOCK = SaidCatalog({
    "count-stock": "Inputs: `aisle`.\n\nOutputs: `damaged`, `damaged_count`, `ok_count_total`.\n",
    "raise-claim": "Inputs: `damaged`, `count`.\n\nOutputs: `claim`.\n",
})


def test_an_input_said_as_the_last_word_of_an_earlier_output_is_bound_to_it() -> None:
    doc = ("# Stocktake\n\nInputs: `aisle`.\n\n1. `count-stock` for the aisle.\n"
           "2. Then `raise-claim` with the damaged items and the count.\n")
    plan = plan_of_text(doc, STOCK)
    claim = step_by_skill(plan, "raise-claim")
    assert claim.inputs["count"].pointer == "/damaged_count"
    assert any("the count" in w.message and "damaged_count" in w.message for w in plan.warnings)


@pytest.mark.parametrize(("name", "text", "fields", "read"), [
    ("total", "with the unmatched list and the total", ["unmatched", "unmatched_total"], "unmatched_total"),
    ("total", "with the total", ["unmatched_total", "matched_total"], None),  # two fit
    ("total", "with the unmatched list and the total", ["grand_sum"], None),  # none fits
    ("total", "with everything", ["unmatched_total"], None),  # "the total" not said
    ("total", "the total", ["unmatched_total"], None),  # the field's other words not said
    ("row_total", "the total of the unmatched rows", ["unmatched_row_total"], None),  # a name of several words
])
def test_shortened_field(name: str, text: str, fields: list[str], read: str | None) -> None:
    assert shortened_field(name, text, fields) == read


# -- small readings ---------------------------------------------------------------------------------------------

def test_lone_value() -> None:
    assert lone_value("true") and lone_value(" 42 ") and lone_value('"PASS"')
    assert not lone_value("posted is true") and not lone_value("there are 3 rows")


@pytest.mark.parametrize(("text", "seconds"), [
    ("If it hasn't found anything in 30 seconds forget it and carry on with slot \"tbc\".", 30.0),  # a salon note
    ("If the scanner has not produced a reading within 2 min, give up on it.", 120.0),  # a lab protocol
    ("When it didn't turn up a berth in 45 s, skip it.", 45.0),  # a harbour runbook
])
def test_an_attempt_time_said_as_what_it_has_not_done_by_then(text: str, seconds: float) -> None:
    phrase = read_phrase(text)
    assert phrase.statement.timeout_s == seconds, (phrase.statement, phrase.problems)


def test_a_time_it_has_not_done_something_with_no_giving_up_is_no_timeout() -> None:
    assert read_phrase("If it hasn't found anything in 30 seconds we're surprised.").statement.timeout_s is None


# -- "whichever quote it was": a join after the latest choice ---------------------------------------------------

WASH = SaidCatalog({
    "inspect-car": "Inputs: `plate`.\n\nOutputs: `muddy`, `size`.\n",
    "pre-soak": "Inputs: `size`.\n\nOutputs: `price`.\n",
    "quick-rinse": "Inputs: `size`.\n\nOutputs: `price`.\n",
    "print-ticket": "Inputs: `price`.\n\nOutputs: `ticket`.\n",
})


def test_whichever_kind_it_was_after_a_question_and_its_negative_is_a_join() -> None:
    doc = ("Car wash card\n\nInputs: `plate`.\n\n1. `inspect-car` - says if it's muddy.\n"
           "2. MUDDY? -> `pre-soak` on the size.\n3. NOT MUDDY -> `quick-rinse` on the size.\n"
           "4. then `print-ticket`, whichever wash it was: the price off the wash.\n")
    plan = plan_of_text(doc, WASH, "wash.txt")
    soak, rinse, ticket = (step_by_skill(plan, s) for s in ("pre-soak", "quick-rinse", "print-ticket"))
    assert {soak.id, rinse.id} <= set(ticket.depends_on)
    assert set(ticket.inputs["price"].any_of) == {soak.id, rinse.id}
