"""A step after a For each over an earlier step's list takes the loop's results, gathered, when its words
say all of them or its skill says the list's items carry what the loop gives (`plan.loop_gather46`,
`plan.author_inputs24.loop_list_gathers`)."""

from __future__ import annotations

from orchestrator.plan.loop_gather46 import items_are_results, looped_list
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text

BODIES = {
    "pull-orders": "Pulls the day's orders.\n\nInputs: day (text).\nOutputs: orders (list of objects with sku and qty).\n",
    "price-order": "Prices one order.\n\nInputs: sku (text), qty (whole number).\nOutputs: price (number), sku (text).\n",
    "total-orders": "Totals orders.\n\nInputs: orders (list).\nOutputs: total (number).\n",
    "total-priced": "Totals priced orders.\n\nInputs: orders (list of objects with price and sku).\nOutputs: total (number).\n",
}


def _text(last: str) -> str:
    return ("# Orders\n\n## Step 1: Pull\nRun `pull-orders`.\n\n"
            "## Step 2: Price\nFor each: order in step-1.orders\nRun `price-order` on the order's sku and qty.\n\n"
            f"## Step 3: Total\n{last}\n")


def _orders(last: str) -> tuple[object, object]:
    plan = plan_of_text(_text(last), SaidCatalog(BODIES))
    step = next(s for s in plan.steps if s.id == "step-3")
    return step.inputs["orders"], step.depends_on


def test_words_that_say_all_of_them_take_the_loops_results_gathered() -> None:
    for said in ("Run `total-orders` over all the priced orders in one go.",
                 "Hand the whole lot of priced orders to `total-orders`."):
        orders, deps = _orders(said)
        assert (orders.source, orders.step, orders.gather) == ("step", "step-2", True), said  # type: ignore[attr-defined]
        assert list(deps) == ["step-2"], said  # type: ignore[call-overload]


def test_a_skill_whose_list_items_carry_the_loops_output_takes_them_gathered() -> None:
    orders, _ = _orders("Run `total-priced`.")
    assert (orders.source, orders.step, orders.gather) == ("step", "step-2", True)  # type: ignore[attr-defined]


def test_the_list_named_with_its_step_or_not_said_stays_the_lists() -> None:
    for said in ("Run `total-orders` on all the orders from step 1.", "Run `total-orders`."):
        orders, _ = _orders(said)
        assert (orders.source, orders.step, orders.gather) == ("step", "step-1", False), said  # type: ignore[attr-defined]


def test_the_looped_list_and_the_items_fields() -> None:
    assert looped_list("steps.step-1.output.lines", ()) == ("step-1", "lines")
    assert looped_list("step-4.rows", ()) == ("step-4", "rows")
    assert looped_list("notices", ("notices",)) == ("", "notices")
    assert looped_list("item.things", ()) is None
    assert items_are_results("list of objects with category and amount_p", ["amount_p", "category"],
                             {"desc", "amount_p"}) == "category"
    assert items_are_results("list of objects with desc and amount_p", ["amount_p", "category"],
                             {"desc", "amount_p"}) is None  # the raw items: only what the loop reads
    assert items_are_results(None, ["category"], ()) is None


def test_items_written_as_a_set_with_a_field_the_loop_does_not_give_are_the_list_itself() -> None:
    # the loop gives name, licence and verdict; the items are {name, version, licence}: version is no result's
    assert items_are_results("list of {name, version, licence}", ["name", "licence", "verdict"], ("package",)) is None
    # every field of the set is the loop's: its results
    assert items_are_results("list of {sku, bin}", ["sku", "bin"], ("row",)) == "sku"


def test_a_gather_word_inside_a_steps_name_is_no_cue() -> None:
    from orchestrator.plan.author_inputs24 import _without_names
    from orchestrator.plan.mapping import SAYS_EVERY

    text = "builds the report from the crate list of *Crate count*, the sums from *Roll-up*, and the site"
    assert SAYS_EVERY.search(text) is not None  # "Roll-up" alone reads as a gather
    assert SAYS_EVERY.search(_without_names(text, ["Crate count", "Roll-up", "Report"])) is None
    assert SAYS_EVERY.search(_without_names("takes all the results together", ["Roll-up"])) is not None
    assert len(_without_names(text, ["Roll-up"])) == len(text)
