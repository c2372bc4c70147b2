"""Branches, joins and fan-in at run time: who runs, on which inputs, and who fails the run."""

from __future__ import annotations

from orchestrator.engine import RunStatus, StepStatus
from orchestrator.plan.model import ForEach, InputBinding, PlanInput, PlanStep, StepPolicy
from orchestrator.policy import ApprovalPolicy
from orchestrator.testing import FakeRunner, fake_plan


def step_input(step: str, pointer: str = "", **kw: object) -> InputBinding:
    return InputBinding(source="step", step=step, pointer=pointer, **kw)  # type: ignore[arg-type]


NUMS = PlanInput(name="nums", schema={"type": "array"})
FLAG = PlanInput(name="flag", schema={"type": "boolean"})
AMOUNT = PlanInput(name="amount", schema={"type": "number"})


async def test_a_step_reading_a_for_each_step_gets_each_field_as_a_list_in_item_order_and_the_whole_list(
    execute,
) -> None:
    steps = [
        PlanStep(id="each", name="Each", skill="s", for_each=ForEach(item="n", source=InputBinding(source="input",
                 name="nums")), inputs={"n": InputBinding(source="item")}),
        PlanStep(id="all", name="All", skill="s", inputs={
            "ns": step_input("each", "/n", gather=True), "items": step_input("each", gather=True)}),
    ]
    summary = await execute(fake_plan(steps, inputs=[NUMS]), FakeRunner(), {"nums": [3, 1, 2]})
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.outputs["all"] == {"ns": [3, 1, 2], "items": [{"n": 3}, {"n": 1}, {"n": 2}]}


def if_otherwise(after: dict[str, InputBinding]) -> list[PlanStep]:
    return [
        PlanStep(id="yes", name="Yes", skill="s", when="inputs.flag", inputs={"v": InputBinding(source="literal",
                 value="yes")}),
        PlanStep(id="no", name="No", skill="s", when="not (inputs.flag)", inputs={"v": InputBinding(source="literal",
                 value="no")}),
        PlanStep(id="after", name="After", skill="s", depends_on=("yes", "no"), inputs=after),
    ]


async def test_after_an_if_and_its_otherwise_the_next_step_runs_on_the_branch_that_ran(execute) -> None:
    steps = if_otherwise({"v": step_input("yes", "/v", any_of=("yes", "no"))})
    for flag, ran, skipped in ((True, "yes", "no"), (False, "no", "yes")):
        summary = await execute(fake_plan(steps, inputs=[FLAG]), FakeRunner(), {"flag": flag})
        assert summary.status is RunStatus.SUCCEEDED
        assert summary.step(ran).status is StepStatus.SUCCEEDED and summary.step(skipped).status is StepStatus.SKIPPED
        assert summary.outputs["after"] == {"v": ran}


async def test_a_required_input_from_the_branch_not_taken_fails_the_run_naming_the_step_and_input(execute) -> None:
    steps = if_otherwise({"v": step_input("yes", "/v")})
    summary = await execute(fake_plan(steps, inputs=[FLAG]), FakeRunner(), {"flag": False})
    assert summary.status is RunStatus.FAILED
    after = summary.step("after")
    assert after.status is StepStatus.FAILED and after.attempts == 0
    assert after.message.startswith("its required input `v` comes from yes, which has no output: yes skipped "
                                    "(condition is false: inputs.flag)")


async def test_an_optional_input_from_the_branch_not_taken_is_left_out(execute) -> None:
    steps = if_otherwise({"v": step_input("yes", "/v", optional=True), "w": step_input("no", "/v", optional=True)})
    summary = await execute(fake_plan(steps, inputs=[FLAG]), FakeRunner(), {"flag": True})
    assert summary.outputs["after"] == {"v": "yes"}


async def test_a_step_following_only_skipped_steps_is_skipped_unless_it_reads_them_only_optionally(execute) -> None:
    steps = [
        PlanStep(id="maybe", name="Maybe", skill="s", when="inputs.flag", inputs={"v": InputBinding(source="literal",
                 value=1)}),
        PlanStep(id="then", name="Then", skill="s", inputs={"v": step_input("maybe", "/v")}),
        PlanStep(id="soft", name="Soft", skill="s", inputs={"v": step_input("maybe", "/v", optional=True),
                                                           "k": InputBinding(source="literal", value=2)}),
    ]
    summary = await execute(fake_plan(steps, inputs=[FLAG]), FakeRunner(), {"flag": False})
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("then").status is StepStatus.SKIPPED
    assert summary.step("then").message == "every step it depends on was skipped: it is on a branch not taken"
    assert summary.outputs["soft"] == {"k": 2}


async def test_a_condition_comparing_a_value_that_does_not_exist_is_false(execute) -> None:
    steps = [PlanStep(id="one", name="One", skill="s", inputs={"v": InputBinding(source="literal", value=1)}),
             PlanStep(id="two", name="Two", skill="s", depends_on=("one",), when="steps['one'].output.score < 0.7")]
    summary = await execute(fake_plan(steps), FakeRunner())
    assert summary.status is RunStatus.SUCCEEDED
    assert summary.step("two").status is StepStatus.SKIPPED


def gated(when: str) -> list[PlanStep]:
    gate = ApprovalPolicy(when=when)
    return [PlanStep(id="book", name="Book", skill="s", inputs={"amount": InputBinding(source="input", name="amount")},
                     policy=StepPolicy(approval=gate))]


async def test_a_conditional_gate_holds_only_when_its_condition_is_true(execute) -> None:
    small = await execute(fake_plan(gated("inputs.amount > 1000"), inputs=[AMOUNT]), FakeRunner(), {"amount": 250})
    assert small.status is RunStatus.SUCCEEDED and small.step("book").approval is None
    big = await execute(fake_plan(gated("inputs.amount > 1000"), inputs=[AMOUNT]), FakeRunner(), {"amount": 5000})
    assert big.status is RunStatus.PAUSED and big.awaiting == ("book",)


def order_chain(*, follows: bool) -> list[PlanStep]:
    """first (if flag), then two steps never run by their condition, then last: each after the
    one before it by step order alone, as the planner writes it (`follows`) or without it."""
    literal = {"v": InputBinding(source="literal", value=1)}
    never = "inputs.flag and not inputs.flag"
    return [
        PlanStep(id="first", name="First", skill="s", when="inputs.flag", inputs=literal),
        PlanStep(id="mid", name="Mid", skill="s", when=never, depends_on=("first",), inputs=literal),
        PlanStep(id="mid2", name="Mid 2", skill="s", when=never, depends_on=("mid", "first"),
                 follows=("mid",) if follows else (), inputs=literal),
        PlanStep(id="last", name="Last", skill="s", depends_on=("mid2", "mid"),
                 follows=("mid2",) if follows else (), inputs=literal),
    ]


async def test_the_step_order_goes_on_past_steps_skipped_by_their_own_condition_not_past_a_skipped_start(
    execute,
) -> None:
    ran = await execute(fake_plan(order_chain(follows=True), inputs=[FLAG]), FakeRunner(), {"flag": True})
    assert [ran.step(s).status for s in ("first", "mid", "mid2", "last")] == [
        StepStatus.SUCCEEDED, StepStatus.SKIPPED, StepStatus.SKIPPED, StepStatus.SUCCEEDED]
    # without `follows` the two skipped steps are all `last` depends on: it is skipped with them
    cut = await execute(fake_plan(order_chain(follows=False), inputs=[FLAG]), FakeRunner(), {"flag": True})
    assert cut.step("last").status is StepStatus.SKIPPED
    none = await execute(fake_plan(order_chain(follows=True), inputs=[FLAG]), FakeRunner(), {"flag": False})
    assert {s.step_id: s.status for s in none.steps} == dict.fromkeys(("first", "mid", "mid2", "last"),
                                                                      StepStatus.SKIPPED)
    assert none.step("last").message == "every step it depends on was skipped: it is on a branch not taken"
