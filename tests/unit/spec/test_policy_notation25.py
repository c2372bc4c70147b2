"""Recovery policies in a document's own notation, twenty-fifth round (`spec.policy_notation25`,
`spec.policy_wrap25`), each family in several kinds of document.

The texts are a brewery's batch log, a CI YAML file of our own schema (its comments and values), a
pharmacy's dispensing note, a bakery's order sheet, a sailing club's race-day memo, a lab's plain-text
runbook: none is a sentence of a blind set. Negatives: texts that look alike but say something else.
"""

from __future__ import annotations

from typing import Any

import pytest

from orchestrator.plan.build import draft_plan
from orchestrator.plan.model import Plan, PlanStep
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.policy_notation25 import is_pairs, said_word
from orchestrator.spec.policy_wrap25 import rejoin_wrapped
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill
from tests.unit.spec.phrase_probe import plain_effect


def _read(text: str) -> dict[str, Any]:
    return plain_effect(text, continues=True)


# -- `name = value` pairs beside going on -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    # a brewery's batch log
    ("If the gravity probe is dead, carry on as if the tank is full: tanks_ok = 4, faulty = nobody",
     {"tanks_ok": 4, "faulty": []}),
    # a pharmacy's dispensing note
    ('Interaction check down? Treat it as warnings = ["pharmacist to review"] and carry on.',
     {"warnings": ["pharmacist to review"]}),
    # a CI YAML comment
    ("# if the coverage upload falls over, skip it with percent = null, badge = \"grey\"",
     {"percent": None, "badge": "grey"}),
    # a bakery's order sheet
    ("When the oven log errors, keep going with loaves = 0, notes = {\"manual\": true}.",
     {"loaves": 0, "notes": {"manual": True}}),
])
def test_name_equals_value_pairs_beside_going_on_are_every_value(text: str, value: dict[str, Any]) -> None:
    assert _read(text)["value"] == value


@pytest.mark.parametrize("text", [
    "Set retries = 3 in the config before the batch.",  # a setting, no failure and no going on
    "The mash is done when gravity = 1.050.",  # a condition, not a value to go on with
])
def test_an_equals_pair_without_going_on_is_no_value(text: str) -> None:
    phrase = read_phrase(text)
    fallback = phrase.statement.on_failure
    assert fallback is None or fallback.kind != "continue_with_value"


# -- the pairs said with "is" after an assumption ----------------------------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    # a sailing club's race-day memo
    ("Failing the wind check, keep going on the assumption racing_on is true and gust_kn is 18.",
     {"racing_on": True, "gust_kn": 18}),
    # a pharmacy's dispensing note
    ("If the stock lookup dies, carry on assuming in_stock is false and shelf is \"back room\".",
     {"in_stock": False, "shelf": "back room"}),
    # a brewery's batch log
    ("Should the chiller sensor fail, proceed on the assumption that temp_c is 4.5.", {"temp_c": 4.5}),
])
def test_pairs_said_with_is_after_an_assumption_are_every_value(text: str, value: dict[str, Any]) -> None:
    assert _read(text)["value"] == value


def test_is_pairs_and_said_word_read_only_what_they_say() -> None:
    assert is_pairs("ok is true and n is 3") == [("ok", "true"), ("n", "3")]
    assert is_pairs("the door is open") == []
    assert said_word("Nobody") == (True, [])
    assert said_word("none") == (True, None)
    assert said_word("everyone") == (False, None)


# -- the step written down as its values beside a word against halting -------------------------------------

@pytest.mark.parametrize(("text", "value"), [
    ("If the hop scale crashes, don't stop the brew - just log it as hops_g 0 and estimated true.",
     {"hops_g": 0, "estimated": True}),
    ("Label printer dead? Never halt the round; note it as printed false.", {"printed": False}),
])
def test_the_step_booked_as_its_values_beside_not_halting_is_that_value(text: str, value: dict[str, Any]) -> None:
    assert _read(text)["value"] == value


# -- a deadline with what missing it means ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    # a lab's plain-text runbook
    ("The centrifuge log export MUST finish inside 20 seconds or be treated as failed.", 20.0),
    # a pharmacy's dispensing note
    ("The label print has to be done within 500 milliseconds, otherwise it counts as lost.", 0.5),
    # a CI YAML comment
    ("# lint should complete in under 3 minutes or it counts as lost", 180.0),
])
def test_a_deadline_with_what_missing_it_means_is_the_attempt_s_time(text: str, seconds: float) -> None:
    assert _read(text) == {"timeout_s": seconds}


@pytest.mark.parametrize(("text", "seconds"), [
    # a brewery's batch log
    ("If the wort transfer is not done in 40 min, stop it.", 2400.0),
    # a bakery's order sheet
    ("If the proofing check is still spinning after 90 s, kill it.", 90.0),
    # a lab's plain-text runbook
    ("When the plate reader is still not finished after 2 minutes, abort.", 120.0),
])
def test_a_step_still_going_when_its_time_is_up_is_stopped_then(text: str, seconds: float) -> None:
    assert _read(text)["timeout_s"] == seconds


@pytest.mark.parametrize("text", [
    "The mash must finish inside 60 minutes for the enzymes to work.",  # a fact of the brew, nothing missed
    "If the dough is still rising after 2 hours, that is normal.",  # nothing is stopped
])
def test_a_time_without_what_missing_it_does_is_no_timeout(text: str) -> None:
    assert read_phrase(text).statement.timeout_s is None


# -- the whole said as the scope of a time ------------------------------------------------------------------

@pytest.mark.parametrize(("text", "seconds"), [
    ("Everything together has a hard stop at 40 minutes.", 2400.0),  # a brewery's batch log
    ("Cap the dispensing round at an hour and a quarter, start to finish.", 4500.0),  # a pharmacy note
    ("# cap the pipeline at 2 hours, end to end", 7200.0),  # a CI YAML comment
])
def test_a_time_for_everything_is_the_whole_run_s_limit(text: str, seconds: float) -> None:
    assert _read(text) == {"run_s": seconds}


def test_a_time_for_each_item_with_start_to_finish_stays_the_attempt_s() -> None:
    statement = read_phrase("Cap each upload at 2 minutes, start to finish.").statement
    assert statement.timeout_s == 120.0 and not statement.whole_run


def test_an_hour_and_three_quarters_is_a_time() -> None:
    assert _read("The whole batch must be done within an hour and three quarters.") == {"run_s": 6300.0}


# -- waits: after an at sign, a series after another go -----------------------------------------------------

@pytest.mark.parametrize(("text", "want"), [
    ("retry x3 @ 20s", {"retries": 3, "waits": (20.0,)}),  # a CI YAML comment
    ("Label printer: Retry ×2 @ 1 min.", {"retries": 2, "waits": (60.0,)}),  # a pharmacy note
])
def test_a_wait_after_an_at_sign_is_the_wait_between_retries(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


def test_an_at_sign_in_an_address_is_no_wait() -> None:
    assert read_phrase("Mail brewer@10 to say the batch is in.").statement.wait is None


@pytest.mark.parametrize(("text", "want"), [
    ("If the oven probe times out, give it another go after 30 s, then 2 min.", {"retries": 2, "waits": (30.0, 120.0)}),
    ("Dispensing robot jammed: have another go after 1 minute, then 3, then 10.",
     {"retries": 3, "waits": (60.0, 180.0, 600.0)}),
])
def test_another_go_after_a_series_is_a_retry_after_each_wait(text: str, want: dict[str, Any]) -> None:
    assert _read(text) == want


# -- a fallback skill swapped in -----------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "name"), [
    ("No luck with the live tide feed? Swap in the `tide-tables` skill.", "tide-tables"),
    ("If the barcode scanner fails, bring in `manual-entry` instead.", "manual-entry"),
])
def test_a_skill_swapped_in_on_failure_is_the_fallback(text: str, name: str) -> None:
    assert _read(text)["skill"] == name


# -- no retry said with feeling -------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Don't you dare re-run the keg transfer, it doubles the volume.",  # a brewery's batch log
    "One go only for the prescription fax; duplicates confuse the surgery.",  # a pharmacy note
    "Do not ever resend the deploy hook.",  # a CI YAML comment
    "Only one run for the payroll export.",  # a bakery's order sheet
])
def test_no_retry_said_with_feeling_is_no_retry(text: str) -> None:
    assert _read(text) == {"no_retry": True}


@pytest.mark.parametrize("text", [
    "One run only takes about a minute.",  # how long a run is
    "One pass only needs 2 litres of water.",  # what a pass uses
])
def test_one_go_for_something_else_is_no_policy(text: str) -> None:
    assert not read_phrase(text).statement.no_retry


# -- left to a later run: reported ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "If the stock sync fails, leave it till the next run.",
    "When the backup errors, let it ride until tomorrow's batch.",
])
def test_leaving_a_failure_to_a_later_run_is_reported_not_guessed(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems and "continue" in phrase.problems[0]
    assert phrase.statement.on_failure is None


def test_leaving_something_till_tomorrow_without_a_failure_is_no_policy() -> None:
    phrase = read_phrase("Let the dough sit until the morning bake.")
    assert phrase.problems == () and not phrase.read


# -- about someone else's retries ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "Retry logic is handled by the payment gateway.",
    "Retries are already built in to the SFTP client, nothing to do here.",
])
def test_retries_handled_elsewhere_are_no_policy(text: str) -> None:
    phrase = read_phrase(text)
    assert phrase.problems == () and not phrase.read


def test_an_opening_re_attempt_verb_whose_count_follows_is_no_word_left_over() -> None:
    assert _read("Re-attempt the fax with 10 s between, three re-attempts max.") == {"retries": 3, "waits": (10.0,)}
    assert read_phrase("Re-attempt the fax.").problems  # no count: still said


# -- wrapped lines put back together (`spec.policy_wrap25`) --------------------------------------------------

def _at(text: str) -> int | None:
    at = text.find("`")
    return None if at < 0 else at


def test_a_line_going_on_with_the_sentence_before_is_joined_to_it() -> None:
    pieces = [(1, "`mash-log` may be retried twice, waiting 2 then 4"), (2, "minutes. It gets 10 s per call.")]
    assert rejoin_wrapped(pieces, _at) == [(1, "`mash-log` may be retried twice, waiting 2 then 4 minutes. "
                                               "It gets 10 s per call.")]


def test_the_tail_of_a_sentence_before_a_new_skill_goes_with_the_line_before() -> None:
    pieces = [(5, "`fill-kegs` is retried 3 times, 5, 10 then 20"), (6, "seconds.  `label-kegs` must finish in 8 s.")]
    assert rejoin_wrapped(pieces, _at) == [(5, "`fill-kegs` is retried 3 times, 5, 10 then 20 seconds."),
                                           (6, "`label-kegs` must finish in 8 s.")]


@pytest.mark.parametrize("pieces", [
    [(1, "`weigh` the grain."), (2, "then `mill` it")],  # the line before ends its sentence
    [(1, "`weigh` the grain"), (2, "If it is wet, `dry` it first")],  # a capital may open the next step's condition
    [(1, "`weigh` the grain"), (2, "2. `mill` it")],  # a numbered line is its own
])
def test_lines_that_do_not_go_on_with_the_sentence_stay_their_own(pieces: list[tuple[int, str]]) -> None:
    assert rejoin_wrapped(pieces, _at) == pieces


# -- in a whole plain-text memo wrapped at any word -----------------------------------------------------------

CATALOG = FakeCatalog(
    skill("book-slot", input_schema=obj((), site="string"), output_schema=obj(("slot",), slot="string")),
    skill("warm-oven", input_schema=obj((), site="string"), output_schema=obj(("temp",), temp="number")),
    skill("bake-batch", input_schema=obj((), slot="string", temp="number"),
          output_schema=obj(("loaves", "late"), loaves="number", late="boolean")),
)

MEMO = """\
BAKERY NIGHT SHIFT                                       memo 7

1.  Setup.  Once the site is known, book-slot (given the site) and
    warm-oven (given the site) are started together.
    book-slot may be retried up to 2 times, backing off 5 then 10
    seconds.  warm-oven must finish inside 30 seconds or be treated
    as failed.

2.  Bake.  bake-batch takes the slot and the temp.  If bake-batch
    itself errors, proceed as if it had answered
    loaves = 0, late = true -- we bake by hand.
"""


def _plan(text: str) -> Plan:
    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    plan, errors = draft_plan(parse_spec_text(text, "memo.txt", "markdown", words), CATALOG, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan


def _step(plan: Plan, name: str) -> PlanStep:
    return next(s for s in plan.steps if s.skill == name)


def test_a_wrapped_memo_keeps_each_policy_whole_on_its_own_step() -> None:
    plan = _plan(MEMO)
    book = _step(plan, "book-slot").policy
    assert book.retry is not None and book.retry.max_retries == 2 and book.retry.delays_s == (5.0, 10.0)
    assert _step(plan, "warm-oven").policy.attempt_timeout_s == 30.0
    bake = _step(plan, "bake-batch").policy.fallback
    assert bake.value == {"loaves": 0, "late": True}
