"""What holdout25 still misread (`spec.h25_left33`): waits after "another go", a fallback done "on" a skill,
"one time only", a value named bare beside values said with their step, and an approver's time asked in the
first person. Texts: a bakery's order sheet, a lab protocol, a ticket, a radio net log, a YAML runbook of its own
schema; with negatives."""

from __future__ import annotations

from orchestrator.spec.approval_hold import person_wait
from orchestrator.spec.elsewhere import carries_policy
from orchestrator.spec.h25_left33 import asked_time, bare_input_item
from orchestrator.spec.phrase import read_phrase

# -- waits after "another go" -------------------------------------------------------------------------------


def test_waits_after_another_go_are_the_retries_waits_in_order() -> None:
    # a lab protocol, a bakery order sheet, a ticket
    p = read_phrase("If the plate reader errors, have another go twice, after 10 s and then 45 s.")
    assert (p.statement.retries, p.statement.wait.seconds if p.statement.wait else None, p.problems) == (
        2, (10.0, 45.0), ())
    p = read_phrase("Oven probe flaky: have another go 3 times, after 5 s, 20 s and then 1 min.")
    assert p.statement.wait is not None and p.statement.wait.seconds == (5.0, 20.0, 60.0)
    assert p.problems == ()


def test_a_series_with_no_retry_word_is_no_wait() -> None:
    p = read_phrase("Proof the dough after 10 min and then 40 min.")
    assert p.statement.wait is None


# -- a fallback done "on" a skill ----------------------------------------------------------------------------


def test_a_fallback_said_as_where_the_work_is_done_instead() -> None:
    for text, name in (("If the till is down, do it on `paper-ticket` instead.", "paper-ticket"),
                       ("Should the LIMS fail, log them in `bench-book` instead.", "bench-book"),
                       ("When the net is dead, put it through to `relay-station` instead.", "relay-station")):
        p = read_phrase(text)
        assert p.statement.on_failure is not None and p.statement.on_failure.skill == name, text
        assert p.problems == (), text


def test_instead_of_or_no_failure_is_no_fallback() -> None:
    assert read_phrase("Do it on `paper-ticket` instead of the till.").statement.on_failure is None
    assert read_phrase("We now do it on `paper-ticket` instead.").statement.on_failure is None


# -- "one time only" -----------------------------------------------------------------------------------------


def test_one_time_only_is_no_retry_and_a_policy_word() -> None:
    for text in ("Send it ONE time only, ever.", "Ring them one time only.", "Post it a single time."):
        assert read_phrase(text).statement.no_retry is True, text
    assert carries_policy("Send it ONE time only, ever.")
    assert carries_policy("Bill the card just one time.")


def test_one_time_said_of_something_else_is_no_policy() -> None:
    assert read_phrase("It failed one time only.").statement.no_retry is False
    assert read_phrase("Send it one time every morning.").statement.no_retry is False
    assert not carries_policy("One time I saw the net drop.")


# -- a value named bare beside values said with their step ----------------------------------------------------


def test_a_bare_name_beside_sourced_values_is_the_workflow_input() -> None:
    # a radio net log, a YAML runbook of its own schema, a ticket's table row
    assert bare_input_item("uses: Callsign, freq off line 2, slot from step 1", "callsign") == "Callsign"
    assert bare_input_item("needs: region; owner from step 2", "region") == "region"
    assert bare_input_item("| 4 | `ship-it` | Order no, label off row 3 |", "order_no") == "Order no"


def test_a_bare_name_after_a_lead_in_or_beside_a_section_number_is_the_workflow_input() -> None:
    # a kitchen's closing SOP, a lab's batch record; the source a sentence before a note (round 48)
    assert bare_input_item("Post it with `till-close`, passing the shift code, the totals from 4.2.", "shift_code") \
        == "shift code"
    assert bare_input_item("Run sign-off, giving batch no, the yields from step 2. Note: QA may ask twice.",
                           "batch_no") == "batch no"
    assert bare_input_item("Send it, plus site, the readings from section 3.1 and the flags from 3.4", "site") == "site"


def test_a_measure_after_from_is_no_section_and_a_lead_in_alone_names_nothing() -> None:
    assert bare_input_item("Cut it giving width, the offcut from 2.5 mm stock", "width") is None  # a size, no source
    assert bare_input_item("Post it giving the shift code, the totals", "shift_code") is None  # no source said


def test_no_source_said_or_the_name_sourced_is_not_bare() -> None:
    assert bare_input_item("uses: Callsign, freq, slot", "callsign") is None  # nothing said with its step
    assert bare_input_item("uses: callsign off line 2, freq", "callsign") is None  # the name's own source said
    assert bare_input_item("uses: the callsign we logged, freq off line 2", "callsign") is None


# -- an approver's time asked in the first person -------------------------------------------------------------


def test_time_asked_in_the_first_person_is_the_approval_s_wait() -> None:
    assert asked_time("Give me 10 min.") == 600.0
    assert asked_time("give us half an hour") == 1800.0
    assert asked_time("I need 20 minutes to look at it.") == 1200.0
    assert person_wait("Allow me 5 min.") == (300.0, "reject", False)


def test_no_time_asked_is_no_wait() -> None:
    assert asked_time("Give me the list.") is None
    assert asked_time("Give me a shout when it's done.") is None
    assert person_wait("Give me the list.") is None


# -- through the plan: a radio net log ---------------------------------------------------------------------------

_NET = """# Evening net

## Inputs
- callsign

## Steps
1. `net-lookup`: looks the station up.
2. `log-contact`: uses: callsign{said}, freq from step 1.
"""


def _bound(said: str) -> tuple[str, str | None]:
    from orchestrator.plan import build_plan
    from orchestrator.spec import parse_spec_text
    from orchestrator.spec.vocabulary import Vocabulary
    from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

    skills = (
        skill("net-lookup", input_schema=obj(("callsign",), callsign="string"),
              output_schema=obj(("callsign", "freq"), callsign="string", freq="string")),
        skill("log-contact", input_schema=obj(("callsign", "freq"), callsign="string", freq="string"),
              output_schema=obj(("ok",), ok="boolean")),
    )
    spec = parse_spec_text(_NET.format(said=said), "net.md", "markdown", Vocabulary(skills=frozenset(s.name for s in skills)))
    plan = build_plan(spec, FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]
    binding = next(s for s in plan.steps if s.id == "step-2").inputs["callsign"]
    return binding.source, binding.step


def test_the_bare_name_is_the_workflow_input_in_the_plan_and_a_sourced_one_the_step_s() -> None:
    assert _bound("") == ("input", None)
    assert _bound(" off line 1") == ("step", "step-1")
