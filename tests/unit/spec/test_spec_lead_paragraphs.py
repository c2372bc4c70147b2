"""Steps written as paragraphs that open with a bold or italic lead ("**Knead.** Work it through
*knead-dough* ..."), the gate paragraph between them, lists of what you need as the inputs, and a
whole-run limit said before the steps: each paragraph its own step, never one step holding the
others' sentences."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.effect import effect_of
from orchestrator.spec.model import StepSpec
from orchestrator.spec.sections import lead_of


def parse(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "card.md", "markdown")


def skills(step: StepSpec) -> list[str]:
    """The skill-shaped names the step's text marks (backticks, bold, italics)."""
    return sorted({m.text for m in step.mentions if m.marked != "plain" and "-" in m.text})


def line(where: str | None) -> int:
    assert where is not None
    return int(where.rsplit(":", 1)[1])


BREAD = """# Sourdough loaf

Total time: under 6 hours from mixing to cooling.

## You will need

- **flour_kg**: how much flour
- **hydration**: water as a share of the flour

## How we bake it

**Knead the dough.** Work flour_kg and hydration through *knead-dough* to get the `dough`.
The mixer jams now and then; give it 3 retries, waiting 10 seconds each time.

**Proof.** Leave the `dough` with _proof-dough_ until it has doubled.

**Check the rise.** The head baker looks at the dough and says yes or no. If nobody has looked
after 45 minutes, go ahead anyway.

**Bake.** Put the proofed `dough` into *bake-loaf*. Let it run for at most 50 minutes.
"""


def test_each_lead_paragraph_that_names_a_skill_is_a_step_named_by_its_lead() -> None:
    spec = parse(BREAD)
    assert [(s.id, s.name, skills(s)) for s in spec.steps] == [
        ("step-1", "Knead the dough", ["knead-dough"]),
        ("step-2", "Proof", ["proof-dough"]),
        ("step-3", "Bake", ["bake-loaf"]),
    ]
    assert [line(s.where) for s in spec.steps] == [12, 15, 20]
    assert not [w for w in spec.warnings if "not a spec section" in w.message]


def test_a_lead_paragraphs_policy_stays_on_its_own_step() -> None:
    spec = parse(BREAD)
    by_step = {r.steps: effect_of(r.statement) for r in spec.readings if r.steps}
    knead, bake = by_step[("step-1",)], by_step[("step-3",)]
    assert knead.retry is not None and knead.retry.max_retries == 3 and knead.attempt_timeout_s is None
    assert bake.attempt_timeout_s == 3000 and bake.retry is None
    assert ("step-2",) not in by_step


def test_a_lead_paragraph_where_a_person_says_yes_or_no_gates_the_next_step() -> None:
    spec = parse(BREAD)
    bake = spec.steps[2]
    assert bake.approval is not None
    assert (bake.approval.timeout_s, bake.approval.on_timeout, bake.approval.when) == (2700, "approve", None)
    assert line(bake.field_where["approval"]) == 17
    assert spec.steps[1].approval is None


def test_a_gate_that_says_to_call_it_off_rejects_when_nobody_answers() -> None:
    text = BREAD.replace("go ahead anyway", "call it off")
    assert parse(text).steps[2].approval.on_timeout == "reject"  # type: ignore[union-attr]


def test_a_lead_paragraph_that_names_no_skill_and_no_yes_or_no_is_warned_at_its_line() -> None:
    text = BREAD.replace("**Check the rise.** The head baker looks at the dough and says yes or no. If nobody has "
                         "looked\nafter 45 minutes, go ahead anyway.", "**Rest.** Cover it with a cloth.")
    spec = parse(text)
    assert [s.name for s in spec.steps] == ["Knead the dough", "Proof", "Bake"]
    assert [(w.line, w.code) for w in spec.warnings if "opens like a step" in w.message] == [(17, "spec.unread")]


def test_a_list_of_what_you_need_declares_the_inputs() -> None:
    spec = parse(BREAD)
    assert [(i.name, i.description) for i in spec.inputs or ()] == [
        ("flour_kg", "how much flour"), ("hydration", "water as a share of the flour")]


def test_a_whole_run_limit_said_before_the_steps_is_read() -> None:
    spec = parse(BREAD)
    (whole,) = [r for r in spec.readings if r.statement.whole_run]
    assert (whole.statement.timeout_s, line(whole.where)) == (21600, 3)
    assert whole.steps == ()


def test_lead_paragraphs_in_a_section_called_steps_are_steps_too() -> None:
    spec = parse(BREAD.replace("## How we bake it", "## Steps"))
    assert [s.name for s in spec.steps] == ["Knead the dough", "Proof", "Bake"]
    assert spec.steps[2].approval is not None


def test_a_fan_out_said_mid_sentence_is_the_steps_for_each() -> None:
    spec = parse("# Grading\n\n## Inputs\n\n- essays (list)\n\n## Steps\n\n"
                 "**Mark.** Pass every essay in essays through *mark-essay*, one by one.\n\n"
                 "**Report.** Fold all the marks into *write-report*.\n")
    assert spec.steps[0].for_each == "essay in essays"
    assert spec.steps[1].for_each is None


def test_a_bold_skill_name_or_a_label_is_no_lead() -> None:
    assert lead_of("**check-stock** looks at the shelf") is None
    assert lead_of("**Skill:** `check-stock`") is None
    assert lead_of("**Step 2: Verify.** Check it with `verify-it`.") is None  # a numbered step, read as one
    assert lead_of("*Sear.* Brown it in *sear-steak*.") == ("Sear", "Brown it in *sear-steak*.")


def test_a_gate_wait_said_as_no_answer_in_a_time_is_read_and_an_unread_one_is_warned() -> None:
    answered = BREAD.replace("If nobody has looked\nafter 45 minutes, go ahead anyway.",
                             "Without an answer in 1 day, cancel.")
    approval = parse(answered).steps[2].approval
    assert approval is not None and (approval.timeout_s, approval.on_timeout) == (86400, "reject")
    unread = parse(BREAD.replace("If nobody has looked\nafter 45 minutes, go ahead anyway.",
                                 "Drop it if 7 days pass without a word."))
    assert unread.steps[2].approval is not None and unread.steps[2].approval.timeout_s is None
    assert [w.line for w in unread.warnings if w.code == "spec.approval"] == [17]


def test_an_ingredients_table_declares_the_inputs_and_a_row_without_a_name_is_warned() -> None:
    spec = parse("# Soup\n\n## Ingredients\n\n| Ingredient | What |\n|---|---|\n"
                 "| **stock_litres** (number) | how much stock |\n| `leek_count` | leeks |\n| salt to taste | |\n\n"
                 "## Method\n\n**Sweat.** Put leek_count through *sweat-leeks*.\n\n"
                 "**Simmer.** Pour stock_litres into *simmer-pot*.\n")
    assert [(i.name, i.type, i.description) for i in spec.inputs or ()] == [
        ("stock_litres", "number", "how much stock"), ("leek_count", None, "leeks")]
    assert [(w.line, w.code) for w in spec.warnings if w.message.startswith("inputs:")] == [(9, "spec.unread")]
    assert [s.name for s in spec.steps] == ["Sweat", "Simmer"]
