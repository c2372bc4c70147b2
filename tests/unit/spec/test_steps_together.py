"""A sentence in a step's text that says two steps start together ("Steps 1 and 2 happen at the same
time", "`issue-laptop` and `make-badge` go side by side") or that one does not wait for another
("Step 3 needn't wait on step 2", "doesn't wait for A") takes that wait away, warned at its line
(`spec.steps_together`); a negation or a sentence about tries does not."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

CATALOG = FakeCatalog(
    skill("issue-laptop", output_schema=obj(("laptop",), laptop="string")),
    skill("make-badge", output_schema=obj(("badge",), badge="string")),
    skill("book-induction", output_schema=obj(("slot",), slot="string")),
    skill("send-welcome", input_schema=obj(("slot", "badge"), slot="string", badge="string"),
          output_schema=obj(("sent",), sent="boolean")),
)
VOCAB = Vocabulary.of([(n, None) for n in ("issue-laptop", "make-badge", "book-induction", "send-welcome")])


def _read(text: str, vocab: bool = False) -> tuple[WorkflowSpec, list[list[str]]]:
    spec = parse_spec_text(text, "doc.md", "markdown", VOCAB if vocab else Vocabulary())
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    return spec, [sorted(s.depends_on) for s in plan.steps]


def _warned(spec: WorkflowSpec, line: int, *words: str) -> bool:
    return any(w.line == line and all(x in w.message for x in words) for w in spec.warnings)


# a recipe card: the note sits in step 1's own text, after it
RECIPE = ("# Sunday roast card\n\n1. Roast the joint with `issue-laptop`.\n"
          "   Steps 1 and 2 happen at the same time, two cooks in the kitchen.\n"
          "2. Peel the veg with `make-badge`.\n3. Plate up with `book-induction`.\n"
          "4. Serve, `send-welcome`.\n")
# a lesson plan with headings: the third step says it needn't wait on the second
LESSON = ("# Year 8 science, lesson 4\n\n## Step 1\nHand out kit: `issue-laptop`.\n\n"
          "## Step 2\nSafety talk with `make-badge`.\n\n"
          "## Step 3\nGroups start the experiment with `book-induction`. Step 3 needn't wait on step 2, "
          "the TA covers safety per group.\n\n## Step 4\nWrite-up: `send-welcome`.\n")
# a ship's log: the two skills named as going side by side, in the first entry
SHIPS_LOG = ("# Log, 4 June\n\n- 0600 Bosun runs `issue-laptop` on deck. `issue-laptop` and `make-badge` go "
             "side by side, port and starboard watch.\n- 0610 `make-badge` below.\n- 0700 `book-induction`.\n"
             "- 0800 `send-welcome`.\n")
# an HR checklist keyed by row letters: B's own row says it doesn't wait for A
HR_GRID = ("ONBOARDING - week 1\n\nROW  WHAT              TOOL\n"
           "A    laptop            issue-laptop\n"
           "B    door badge        make-badge     doesn't wait for A, facilities do it\n"
           "C    induction         book-induction\n"
           "D    welcome           send-welcome\n")


def test_a_note_in_step_one_naming_steps_one_and_two_starts_them_together() -> None:
    spec, deps = _read(RECIPE)
    assert deps[:2] == [[], []]
    assert _warned(spec, 4, "step-1 and step-2 start together")


def test_a_step_that_needn_t_wait_on_the_step_before_waits_for_nothing_it_does_not_read() -> None:
    spec, deps = _read(LESSON)
    assert deps[2] == []
    assert deps[1] == ["step-1"]
    assert any("does not wait for step-2" in w.message for w in spec.warnings)


def test_two_skills_said_to_go_side_by_side_start_together() -> None:
    spec, deps = _read(SHIPS_LOG)
    assert deps[1] == []
    assert _warned(spec, 3, "start together")


def test_a_row_saying_it_does_not_wait_for_a_letter_waits_for_nothing() -> None:
    _, deps = _read(HR_GRID, vocab=True)
    assert deps[1] == []
    assert deps[0] == []


def test_a_negation_or_tries_keep_the_order() -> None:
    for said in ("Steps 1 and 2 must never run at the same time, one oven.",
                 "Retry steps 1 and 2 together twice if the gas drops."):
        _, deps = _read(RECIPE.replace("Steps 1 and 2 happen at the same time, two cooks in the kitchen.", said))
        assert deps[1] == ["step-1"], said


def test_not_waiting_for_an_earlier_step_reached_through_the_one_before_is_warned_not_read() -> None:
    spec, deps = _read(LESSON.replace("Step 3 needn't wait on step 2", "Step 3 needn't wait on step 1"))
    assert deps[2] == ["step-2"]
    assert any("not read" in w.message and "through the step before it" in w.message for w in spec.warnings)


def test_a_wait_for_something_that_is_no_step_names_no_step() -> None:
    spec, _ = _read(LESSON.replace("Step 3 needn't wait on step 2", "Groups don't wait for the bell"))
    assert not any("does not wait for step" in w.message or "not read: step-3" in w.message for w in spec.warnings)


# a print-room card: "together" said of things gathered, not of steps starting side by side
PRINT_CARD = ("# Print room card\n\n1. Lay out the pages with `issue-laptop`.\n2. Count the sheets with `make-badge`.\n"
              "3. Bind it with `book-induction`: pull the covers together, the pages from step 1 and the counts from "
              "step 2 together.\n4. Post it, `send-welcome`.\n")
# the same card, saying plainly that steps 2 and 3 run together
PRINT_CARD_BESIDE = ("# Print room card\n\n1. Lay out the pages with `issue-laptop`. Steps 1 and 2 are done together, two of "
                     "us.\n2. Count the sheets with `make-badge`.\n3. Bind it with `book-induction`: pull the covers "
                     "together.\n4. Post it, `send-welcome`.\n")


def test_things_put_together_or_taken_from_a_step_together_start_no_step_together() -> None:
    spec, deps = _read(PRINT_CARD)
    assert not any("start together" in w.message for w in spec.warnings)
    assert deps[2] == ["step-2"]
    bring = PRINT_CARD.replace("pull the covers together", "bring all the sections together")
    assert not any("start together" in w.message for w in _read(bring)[0].warnings)


def test_steps_said_to_run_together_still_start_together() -> None:
    spec, deps = _read(PRINT_CARD_BESIDE)
    assert _warned(spec, 3, "step-1 and step-2 start together") and deps[1] == []
