"""One value given by whichever of several steps ran, each step giving it under the same name,
and what a step returns ending at a table cell."""

from __future__ import annotations

from orchestrator.spec.either_input import read_text


def test_one_name_from_whichever_of_listed_steps_is_that_name_on_each_step() -> None:
    found = read_text("A README usage note: send the `digest` from whichever of `weekly-roll` / `daily-roll` ran.",
                      "r.md:4")
    assert [(r.name, [(a.words, a.step) for a in r.alternatives]) for r in found] == [
        ("digest", [("digest", "weekly-roll"), ("digest", "daily-roll")])]


def test_a_state_machine_row_names_its_states_and_the_state_we_came_through() -> None:
    found = read_text("| DISPATCH | `dispatch` | `eta` from one of PICKING or PACKING we came through |", "fsm.md:9")
    assert [(a.step) for a in found[0].alternatives] == ["PICKING", "PACKING"]


def test_a_name_from_one_of_several_words_that_are_no_steps_is_no_such_reading() -> None:
    assert read_text("The support macro pastes `greeting` from one of the two canned texts, warm or formal.",
                     "m.md:2") == []
    assert read_text("Take the `limit` from either the header or the query string.", "m.md:3") == []


def test_what_a_step_returns_stops_at_its_table_cell() -> None:
    from orchestrator.spec import parse_spec_text

    spec = parse_spec_text("# Status page\n\n## Step 1: Summarise\nRun `summarise-incident`. | returns `headline` "
                           "and `body` | `RESOLVED` | final state |\n", "s.md", "markdown")
    assert [f.name for f in spec.steps[0].outputs] == ["headline", "body"]


def test_a_list_named_after_once_per_element_or_every_single_one_of_is_a_fan_out() -> None:
    from orchestrator.spec.step_prose import for_each_phrase

    # a support macro and a cleanup runbook
    assert for_each_phrase("Macro: call `tag-ticket` once per entry of ``tickets`` from step 1 (pass the ticket "
                           "as ``ticket``).", "step-1")[:2] == ("ticket", "steps.step-1.output.tickets")
    assert for_each_phrase("After that, on every single one of the stale branches, run `prune-branch`.",
                           "step-2")[:2] == ("branch", "branches")
    assert for_each_phrase("Deploy once per element of the rollout plan.", "step-1") is None
