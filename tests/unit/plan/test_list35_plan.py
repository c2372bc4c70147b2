"""An earlier step's output handed on under another name, the step called by its list mark, number or skill
word (`plan.list35`): "the licence list from (c) goes in as "licensed"", "Watch list = C's swarm-risk hives"."""

from __future__ import annotations

from orchestrator.plan.list35 import (
    Before,
    described_handoffs,
    mark_of,
    other_name_given,
    skill_words,
)
from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill


def _before(*rows: tuple[str, str, str, tuple[str, ...]]) -> list[Before]:
    return [Before(id=sid, position=i + 1, mark=mark, words=skill_words(name), fields=fields)
            for i, (sid, mark, name, fields) in enumerate(rows)]


KITCHEN = _before(("step-1", "a", "stock-count", ("items", "shortfalls")),
                  ("step-2", "b", "supplier-quote", ("quote_total", "lead_days")),
                  ("step-3", "c", "allergen-scan", ("flagged_dishes", "notes")))


def test_a_kitchen_prep_list_hands_a_value_in_as_another_name_by_its_letter() -> None:
    text = "order-draft: the shortfall list from (a) go in as \"lines\", days = the lead time from (b)."
    got = described_handoffs([text], ["lines", "days"], KITCHEN)
    assert (got["lines"].step, got["lines"].field, got["lines"].guessed) == ("step-1", "shortfalls", True)
    assert (got["days"].step, got["days"].field) == ("step-2", "lead_days")


def test_a_lab_protocol_assigns_by_a_capital_letter_and_its_possessive() -> None:
    lab = _before(("step-1", "a", "plate-reader", ("wells", "od_values")),
                  ("step-2", "b", "outlier-flag", ("flagged_wells", "kept_wells")))
    got = described_handoffs(["Keep list = B's kept-wells (may be empty). Raw = the OD values from A."],
                             ["keep", "raw"], lab)
    assert (got["keep"].step, got["keep"].field, got["keep"].guessed) == ("step-2", "kept_wells", False)
    assert (got["raw"].step, got["raw"].field) == ("step-1", "od_values")


def test_a_runbook_names_the_step_by_a_word_of_its_skill() -> None:
    ops = _before(("step-1", "", "host-inventory", ("hosts",)),
                  ("step-2", "", "patch-audit", ("unpatched", "patched")))
    got = described_handoffs(["targets = whatever the audit says is unpatched"], ["targets"], ops)
    assert (got["targets"].step, got["targets"].field) == ("step-2", "unpatched")


def test_a_numbered_ticket_calls_the_step_by_its_number() -> None:
    steps = _before(("step-1", "1", "fetch-logs", ("lines",)), ("step-2", "2", "error-count", ("errors", "rate")))
    got = described_handoffs(["the error tally from step 2 is passed as `count`"], ["count"], steps)
    assert (got["count"].step, got["count"].field) == ("step-2", "errors")


def test_negatives_nothing_is_guessed() -> None:
    # no step named; two steps named; a capital that is no mark in use; an input the skill does not read
    assert described_handoffs(["lines = the short items"], ["lines"], KITCHEN) == {}
    assert described_handoffs(["lines = items from (a) and notes from (c)"], ["lines"], KITCHEN) == {}
    assert described_handoffs(["lines = the short items from Q"], ["lines"], KITCHEN) == {}
    assert described_handoffs(["the short items from (a) go in as \"rows\""], ["lines"], KITCHEN) == {}
    # the words name no field of that step and share no word with one
    assert described_handoffs(["lines = the weather from (b)"], ["lines"], KITCHEN) == {}
    # "I" is a pronoun, not a step
    assert described_handoffs(["lines = what I said"], ["lines"], _before(("s1", "i", "x-y", ("said",)))) == {}


def test_a_list_item_s_mark() -> None:
    assert [mark_of(x) for x in ("  a) get it", " C. APIARY SUMMARY", "(d) build", "3. run", "Warm-up at 7")] == \
        ["a", "c", "d", "3", ""]


PULL = skill("setlist-fetch", input_schema=obj(("event",), event="string"),
             output_schema=obj(("songs",), songs="array"))
CHECK = skill("rights-check", input_schema=obj(("songs",), songs="array"),
              output_schema=obj(("cleared_titles", "cost"), cleared_titles="array", cost="number"))
BOOK = skill("booklet-make", input_schema=obj(("songs", "cleared"), songs="array", cleared="array"),
             output_schema=obj(("pages",), pages="integer"))


def test_a_scout_camp_plan_binds_the_renamed_handoff_and_waits_for_its_step() -> None:
    text = ("# Camp songbook\n\n"
            "Evening jobs for the laptop:\n\n"
            "a) pull the songs with `setlist-fetch`.\n"
            "b) `rights-check` on the songs.\n"
            "c) `booklet-make`: songs from (a), the cleared titles from (b) go in as \"cleared\".\n")
    plan = plan_of_text(text, FakeCatalog(PULL, CHECK, BOOK))
    book = next(s for s in plan.steps if s.skill == "booklet-make")
    b = book.inputs["cleared"]
    assert (b.source, b.step, b.pointer) == ("step", "step-2", "/cleared_titles")
    assert "step-2" in book.depends_on


def test_a_gate_said_of_what_a_lettered_or_numbered_step_says() -> None:
    from orchestrator.plan.list35 import gate_said_of_step

    steps = _before(("step-1", "a", "quote-fetch", ("quote_total", "vendor")),
                    ("step-2", "b", "load-plan", ("pallets", "weight_kg")))
    assert gate_said_of_step("(a) says the quote is more than £1,500", steps)[0] == "step-1.quote_total > 1500"
    assert gate_said_of_step("if B shows the weight is over 900", steps)[0] == "step-2.weight_kg > 900"
    assert gate_said_of_step("step 2 says the pallets are at least 12", steps)[0] == "step-2.pallets >= 12"
    # negatives: no step, a step with no such field, not said of a step
    assert gate_said_of_step("(c) says it'll cost more than 5", steps) is None
    assert gate_said_of_step("(b) says the price is over 5", steps) is None
    assert gate_said_of_step("the cost is more than 150", steps) is None


def test_a_place_named_after_at_is_the_value_of_an_input_that_is_a_place() -> None:
    from orchestrator.plan.list35 import place_said

    assert place_said("venue", "text", "look up the seats at St Cecilia's Church with venue-seats")[0] == \
        "St Cecilia's Church"
    assert place_said("site", "", "Book the crane in at Harbour Road Depot first thing.")[0] == "Harbour Road Depot"
    assert place_said("where", "venue name", "Count chairs in the Great Hall of Kings before lunch.")[0] == \
        "Great Hall of Kings"
    # negatives: no place word in the input, one capital word, two places
    assert place_said("owner", "", "look up the seats at St Cecilia's Church") is None
    assert place_said("venue", "", "look up the seats at Cecilia's") is None
    assert place_said("venue", "", "at St Mary's Church or at Town Hall Annex") is None


def test_an_input_said_with_its_alternative_is_not_missing_when_the_other_is_given() -> None:
    # "Inputs: `rows` (or `joined`)": a skill that reads either never fails its step for lack of `rows`
    abouts = {"rows": "or `joined`", "joined": "", "group_by": "default `country`"}
    assert other_name_given("rows", abouts, ["joined"])
    assert other_name_given("joined", {"rows": "", "joined": "or rows"}, ["rows"])  # said on the other name
    assert not other_name_given("rows", abouts, ["group_by"])  # the alternative is not given
    assert not other_name_given("rows", {"rows": "a csv or tsv text"}, ["joined"])  # "or tsv": no input given
