"""A success check said in words and restated in the parenthesis it ends with (`spec.success_restated43`): the
parenthesis is the check ("the invoices go out (sent comes back yes)" is `sent == true`); a parenthesis that
is no check leaves the sentence warned as before.

Documents: an invoicing runbook (markdown), a darkroom notebook (prose), a request form (plain text); near
misses alongside."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.success_restated43 import restatement
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {
    "pull-invoices": frozenset({"invoices"}),
    "send-invoices": frozenset({"sent", "count"}),
    "develop-roll": frozenset({"frames"}),
    "hang-prints": frozenset({"hung", "prints"}),
}
WORDS = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))
NAMES = frozenset().union(*OUTPUTS.values())

INVOICES = ("# Invoices\n\n## Steps\n\n### Step 1: Pull\n- Skill: `pull-invoices`\n\n### Step 2: Send\n"
            "- Skill: `send-invoices`\n\n## Notes\n\n{}\n")
DARKROOM = ("Saturday darkroom\n\nFirst develop the roll with develop-roll. Then hang-prints puts the prints up to dry.\n\n"
            "{}\n")


def _checks(text: str, path: str = "flow.md", fmt: str = "markdown") -> tuple[WorkflowSpec, list[tuple[str, str]]]:
    spec = parse_spec_text(text, path, fmt, WORDS)
    return spec, [(c.producer, c.validation[0]) for c in spec.contracts if c.consumer is None]


@pytest.mark.parametrize(("clause", "read"), [
    ("the invoices go out to the customers (sent comes back yes)", ("sent comes back yes", "sent == true")),
    ("the prints are up on the line (`hung` = true).", ("hung = true", "hung == true")),
    ("every customer has an invoice (count >= 1)", ("count >= 1", "count >= 1")),
    ("the customers all got theirs (sent yes)", ("sent yes", "sent == true")),  # an output, then a bare value
    ("the batch is through (count 12)", ("count 12", "count == 12")),
])
def test_a_parenthesis_that_restates_the_check_is_the_check(clause: str, read: tuple[str, str]) -> None:
    assert restatement(clause, NAMES) == read


@pytest.mark.parametrize("clause", [
    "the invoices are filed (see the binder)",
    "the invoices are sent (count them twice)",
    "the prints are dry (usually 20 minutes)",
    "(sent comes back yes)",  # no words before it: nothing restated
    "the invoices go out (paid comes back yes)",  # `paid` is no step's output
    "the prints are up (not when hung = false, mind)",  # a comparison inside words is no restatement
    "the invoices go out (paid true)",  # near-miss: a bare value after a name no step outputs
    "the batch is through (count twelve)",  # near-miss: a word, not a value
])
def test_a_parenthesis_that_is_no_check_is_no_restatement(clause: str) -> None:
    assert restatement(clause, NAMES) is None


def test_an_invoicing_runbooks_success_note_is_checked_by_its_parenthesis() -> None:
    text = INVOICES.format("We'll call it a success when the invoices go out to the customers (sent comes back yes).")
    spec, checks = _checks(text)
    assert checks == [("step-2", "sent == true")]
    assert any(w.code == "spec.success" and "is read as the run's success check" in w.message for w in spec.warnings)


def test_a_darkroom_notebooks_done_sentence_is_checked_by_its_parenthesis() -> None:
    spec, checks = _checks(DARKROOM.format("The session is done once the prints are up on the line (hung = yes)."),
                           "darkroom.txt", "markdown")
    assert [(p, v) for p, v in checks] == [(spec.steps[-1].id, "hung == true")]


def test_a_parenthesis_that_is_no_check_leaves_the_sentence_warned_not_checked() -> None:
    spec, checks = _checks(INVOICES.format("We're done when the invoices are filed (see the binder)."))
    assert checks == []
    assert any(w.code == "spec.success" and "not checked" in w.message for w in spec.warnings)


def test_a_request_forms_how_we_know_line_is_checked_by_its_parenthesis() -> None:
    form = ("INVOICING - AUTOMATION REQUEST FORM\n"
            "Request title: Monthly invoices\n"
            "How will we know it worked: the customers get their invoices (sent = yes)\n"
            "Priority (Low/Med/High): Low\n"
            "----------------------------------------------------------------------\n"
            "Step 1 - What happens: pull this month's invoices\nStep 1 - Program/skill: pull-invoices\n"
            "----------------------------------------------------------------------\n"
            "Step 2 - What happens: email each customer their invoice\nStep 2 - Program/skill: send-invoices\n")
    spec = parse_spec_text(form, "form.txt", "markdown", WORDS)
    said = [w.message for w in spec.warnings if w.line == 3]
    assert any("is read as the run's success check" in m and "sent == true" in m for m in said), said


def test_a_forms_parenthesis_on_a_field_the_last_step_does_not_give_is_not_put_there() -> None:
    form = ("INVOICING - AUTOMATION REQUEST FORM\n"
            "Request title: Monthly invoices\n"
            "How will we know it worked: the month is pulled in (frames = 3)\n"
            "Priority (Low/Med/High): Low\n"
            "----------------------------------------------------------------------\n"
            "Step 1 - What happens: pull this month's invoices\nStep 1 - Program/skill: pull-invoices\n"
            "----------------------------------------------------------------------\n"
            "Step 2 - What happens: email each customer their invoice\nStep 2 - Program/skill: send-invoices\n")
    spec = parse_spec_text(form, "form.txt", "markdown", WORDS)
    assert [c.validation for c in spec.contracts if c.consumer is None] == []
    assert any(w.line == 3 and "not" in w.message for w in spec.warnings if w.code == "spec.success")


# -- a check of two values said again after "i.e." -------------------------------------------------------

RECONCILE = ("# Nightly reconcile\n\n## Steps\n\n### Step 1: Extract\n- Skill: `extract-rows`\n- Output: `rows_read`\n\n"
             "### Step 2: Load\n- Skill: `load-rows`\n- Output: `rows_written`\n\n{}\n")
ORCHARD = ("crop: apples\ndone_if: every tree on the 2024 list got picked   # i.e. picked count == tree count\nsteps:\n"
           "  - id: survey\n    skill: survey-trees\n  - id: pick\n    skill: pick-trees\n    needs: [survey]\n")


def _sides(spec: WorkflowSpec) -> list[tuple[object, ...]]:
    return [(c.left.field, c.op, c.right.field) for c in spec.compares]


@pytest.mark.parametrize(("text", "plain"), [
    ("every urgent finding has a work order # i.e. WO count == urgent count", "WO count == urgent count"),
    ("all 3 rows made it, in other words rows loaded equals rows read", "rows loaded equals rows read"),
    ("the rows all made it", "the rows all made it"),
])
def test_said_plainly_is_what_follows_ie(text: str, plain: str) -> None:
    from orchestrator.spec.success_restated43 import said_plainly

    assert said_plainly(text) == plain


def test_a_yaml_comments_ie_is_the_two_value_check_of_its_key() -> None:
    spec = parse_spec_text(ORCHARD, "orchard.yaml", "yaml")
    assert _sides(spec) == [("picked_count", "eq", "tree_count")]
    assert "is read as the run's success check" in spec.compares[0].reading


def test_a_runbooks_in_other_words_is_the_two_value_check() -> None:
    text = RECONCILE.format("We are done when all 3 tables made it over, in other words rows written = rows read.")
    spec = parse_spec_text(text, "r.md", "markdown")
    assert _sides(spec) == [("rows_written", "eq", "rows_read")]


def test_words_with_no_plain_restatement_are_still_not_a_two_value_check() -> None:
    spec = parse_spec_text(RECONCILE.format("We are done when all 3 tables made it over."), "r.md", "markdown")
    assert spec.compares == ()
    assert any(w.code == "spec.success" and "not checked" in w.message for w in spec.warnings)


# -- "A as many N as B" ----------------------------------------------------------------------------------

SHOP = {
    "pack-orders": frozenset({"parcels", "parcel_count"}),
    "courier-handoff": frozenset({"collected", "manifest"}),
    "sell-tickets": frozenset({"seats"}),
    "reserve-seats": frozenset({"reserved", "seats_left"}),
}
SHOP_WORDS = Vocabulary.of([(s, None) for s in SHOP]).with_outputs(lambda s: SHOP.get(s, frozenset()))
PARCELS = ("# Dispatch\n\n## Steps\n\n### Step 1: Pack\n- Skill: `pack-orders`\n\n### Step 2: Hand over\n"
           "- Skill: `courier-handoff`\n\n## Done\n\n{}\n")
THEATRE = ("Friday show\n\nFirst sell-tickets takes the bookings. Then reserve-seats holds them in the hall plan.\n\n{}\n")


def _as_many(spec: WorkflowSpec) -> list[tuple[object, ...]]:
    return [(c.left.step, c.left.field, c.op, c.right.step, c.right.field, c.right.count) for c in spec.compares]


def test_a_dispatch_runbooks_as_many_parcels_as_we_packed() -> None:
    spec = parse_spec_text(PARCELS.format("We're finished when the courier collected as many parcels as we packed."),
                           "d.md", "markdown", SHOP_WORDS)
    assert _as_many(spec) == [(None, "collected", "eq", "step-1", "parcels", True)]


def test_a_theatre_notes_at_least_as_many_seats_as_we_sold() -> None:
    spec = parse_spec_text(THEATRE.format("The night is done when the hall plan reserved at least as many seats as we "
                                          "sold."), "show.txt", "markdown", SHOP_WORDS)
    [(left, field, op, right, name, count)] = _as_many(spec)
    assert (left, field, op, name, count) == (None, "reserved", "ge", "seats", True)
    assert right == spec.steps[0].id


@pytest.mark.parametrize("sentence", [
    "We're finished when the courier collected as many boxes as we packed.",  # no step gives boxes
    "We're finished when the courier took as many parcels as we packed.",  # `took` is no output
    "We're finished when we packed as many parcels as we could.",  # nothing before it is an output
])
def test_as_many_that_names_no_two_values_is_no_comparison(sentence: str) -> None:
    spec = parse_spec_text(PARCELS.format(sentence), "d.md", "markdown", SHOP_WORDS)
    assert spec.compares == ()


# -- a callout of success; "nothing is left on X" ----------------------------------------------------------

KITCHEN = {
    "sort-returns": frozenset({"restocked", "rejects"}),
    "post-summary": frozenset({"reject_count", "posted"}),
}
KITCHEN_WORDS = Vocabulary.of([(s, None) for s in KITCHEN]).with_outputs(lambda s: KITCHEN.get(s, frozenset()))
NOTE = ("# Returns day\n\n## The run\n\n1. [[sort-returns]] sorts the returned stock.\n2. [[post-summary]] posts the "
        "summary.\n\n{}\n")


@pytest.mark.parametrize(("sentence", "body"), [
    ("[!success] Done when nothing is left on the reject pile.", "nothing is left on the reject pile"),
    ("[!done]- Definition of done: posted = true", "posted = true"),
    ("[!check] Finished if\nthe rejects tray has nothing left in it", "the rejects tray has nothing left in it"),
    ("[!warning] Done when it jams", None),  # a callout of another kind
    ("Done when nothing is left", None),  # no callout
])
def test_a_callout_of_success_is_its_body(sentence: str, body: str | None) -> None:
    from orchestrator.spec.success_restated43 import callout_check

    assert callout_check(sentence) == body


@pytest.mark.parametrize(("clause", "field"), [
    ("nothing is left on the reject pile", "rejects"),
    ("no rejects are left over", "rejects"),
    ("the rejects tray has nothing left in it", "rejects"),
    ("nothing is left on the shelf", None),  # names no output
    ("nothing is left in the reject count", None),  # `reject_count`, `rejects`: two outputs
    ("the reject pile is on the left", None),  # no "nothing left"
])
def test_nothing_left_on_x_is_x_empty(clause: str, field: str | None) -> None:
    from orchestrator.spec.success_restated43 import emptied

    assert emptied(clause, list(KITCHEN.values())) == field


def test_an_obsidian_notes_success_callout_is_the_runs_check_at_its_bodys_line() -> None:
    spec = parse_spec_text(NOTE.format("> [!success] Done when\n> nothing is left on the reject pile."), "n.md",
                           "markdown", KITCHEN_WORDS)
    assert [(c.producer, c.validation[0]) for c in spec.contracts if c.consumer is None] == [("step-1", "rejects is empty")]
    body = NOTE.count("\n") + 1  # the callout title is the line before
    assert any(w.line == body and "is read as the run's success check" in w.message for w in spec.warnings)
    assert not any(w.code == "spec.unread" and "[!success]" in w.message for w in spec.warnings)
    assert not any("not checked" in w.message for w in spec.warnings if w.code == "spec.success")


def test_a_callout_of_another_kind_is_not_a_success_check() -> None:
    spec = parse_spec_text(NOTE.format("> [!todo] Done when\n> nothing is left on the reject pile, ask Sam."), "n.md",
                           "markdown", KITCHEN_WORDS)
    assert [c for c in spec.contracts if c.consumer is None] == []


@pytest.mark.parametrize(("clause", "inner"), [
    ("every order has a van (nothing left in unplaced)", "nothing left in unplaced"),
    ("all the parcels went out (nothing is left on the backlog)", "nothing is left on the backlog"),
])
def test_a_parenthesis_saying_nothing_is_left_in_an_output_is_the_check(clause: str, inner: str) -> None:
    from orchestrator.spec.success_restated43 import restated_empty

    outputs = [frozenset({"placed", "unplaced"}), frozenset({"sent", "backlog"})]
    assert restated_empty(clause, outputs) == inner


@pytest.mark.parametrize("clause", [
    "every order has a van (nothing left to chance)",  # no output named
    "every order has a van (see the depot sheet)",
    "nothing left in unplaced",  # no words before a parenthesis
])
def test_a_parenthesis_naming_no_emptied_output_is_not_the_check(clause: str) -> None:
    from orchestrator.spec.success_restated43 import restated_empty

    assert restated_empty(clause, [frozenset({"placed", "unplaced"})]) is None


def test_a_yaml_plans_good_when_is_checked_by_its_nothing_left_parenthesis() -> None:
    text = ("plan: rounds\nsteps:\n  pack:\n    tool: pack-orders\n  place:\n    tool: place-vans\n    after: pack\n"
            "done_when: every order has a van (nothing left in unplaced)\n")
    words = Vocabulary.of([("pack-orders", None), ("place-vans", None)]).with_outputs(
        lambda s: {"pack-orders": frozenset({"packed"}), "place-vans": frozenset({"placed", "unplaced"})}.get(
            s, frozenset()))
    spec = parse_spec_text(text, "p.yaml", "yaml", vocabulary=words)
    assert any("read as the run's success check (unplaced is empty)" in w.message for w in spec.warnings), [
        w.message for w in spec.warnings]
