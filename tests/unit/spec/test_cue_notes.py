"""Notes under a grid keyed by a step's row label ("B: ...", "A  - ...", "2) ...") go to the step whose
row opens with that label, warned at their line (`spec.cue_notes`, `spec.anchored_place`), whether
they run on from the last row or sit in a block of their own; a key no row has stays where it is."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.cue_notes import note_label, row_label
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

NAMES = ("issue-laptop", "make-badge", "book-induction", "send-welcome")
CATALOG = FakeCatalog(
    skill("issue-laptop", output_schema=obj(("laptop",), laptop="string")),
    skill("make-badge", output_schema=obj(("badge",), badge="string")),
    skill("book-induction", output_schema=obj(("slot",), slot="string")),
    skill("send-welcome", input_schema=obj(("slot", "badge"), slot="string", badge="string"),
          output_schema=obj(("sent",), sent="boolean")),
)


def _read(text: str) -> tuple[WorkflowSpec, Plan]:
    spec = parse_spec_text(text, "sheet.txt", "markdown", Vocabulary.of([(n, None) for n in NAMES]))
    return spec, build_plan(spec, CATALOG, settings=SETTINGS)


# an HR onboarding grid, its notes in a block of their own
HR = ("NEW STARTER - week 1\n\nROW  WHAT              TOOL\nA    laptop            issue-laptop\n"
      "B    door badge        make-badge\nC    induction slot    book-induction\nD    welcome mail      send-welcome\n\n"
      "ROW NOTES\n  B: no need to wait for A, facilities do badges.\n  A  - IT desk is slow, give it 10 min max.\n")
# a kitchen prep sheet: the notes run on from the last row
KITCHEN = ("PREP SHEET fri\n\nSTN  TASK          TOOL\nA    stock         issue-laptop\nB    mise          make-badge\n"
           "C    sauce         book-induction\nD    pass          send-welcome\n"
           "     notes --\n  A - stock pot is slow, 15 min max or call chef.\n"
           "  C: retry 2 times if the burner trips.\n")
# a lab protocol numbered by rows, notes keyed by number
LAB = ("PROTOCOL 7 - plate count\n\n#   STEP            INSTRUMENT\n1   thaw            issue-laptop\n"
       "2   spread          make-badge\n3   incubate        book-induction\n4   count           send-welcome\n\n"
       "Notes\n  2) retry 3 times, 30 s apart, the spreader jams.\n  3 - give it 20 min max.\n")


def _step(plan: Plan, sid: str):  # type: ignore[no-untyped-def]
    return next(s for s in plan.steps if s.id == sid)


def test_labels_of_rows_and_notes() -> None:
    assert row_label("C1   fix the mix    tool") == "C1"
    assert row_label("A duplicate entry is a finding") == "A"
    assert note_label("  B: it waits") == "B"
    assert note_label("  A  - quick") == "A"
    assert note_label("A duplicate entry is a finding") is None  # one space: a sentence, no key
    assert note_label("  2) retry") == "2"


def test_a_block_of_notes_keyed_by_row_letters_goes_to_those_rows() -> None:
    spec, plan = _read(HR)
    assert _step(plan, "step-1").policy.attempt_timeout_s == 600
    assert _step(plan, "step-4").policy.attempt_timeout_s is None
    assert sorted(_step(plan, "step-2").depends_on) == []
    assert any(w.line == 11 and "row label 'A'" in w.message for w in spec.warnings)


def test_notes_running_on_from_the_last_row_go_to_their_rows() -> None:
    spec, plan = _read(KITCHEN)
    assert _step(plan, "step-1").policy.attempt_timeout_s == 900
    assert _step(plan, "step-3").policy.retry.max_retries == 2
    assert _step(plan, "step-4").policy.attempt_timeout_s is None
    assert _step(plan, "step-4").policy.retry.max_retries == 0
    assert any(w.line == 10 and "keyed 'C'" in w.message for w in spec.warnings)


def test_notes_keyed_by_row_numbers_go_to_those_rows() -> None:
    _, plan = _read(LAB)
    assert _step(plan, "step-2").policy.retry.max_retries == 3
    assert _step(plan, "step-3").policy.attempt_timeout_s == 1200
    assert _step(plan, "step-4").policy.attempt_timeout_s is None


def test_a_key_no_row_has_is_not_moved() -> None:
    spec, plan = _read(KITCHEN.replace("  C: retry 2 times", "  E: retry 2 times"))
    assert _step(plan, "step-3").policy.retry.max_retries == 0
    assert not any("keyed 'E'" in w.message for w in spec.warnings)
