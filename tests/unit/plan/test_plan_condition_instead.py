"""Two condition forms from a definition-list page (holdout15 94, after its lettered sub-steps became steps):
"step 3 says it `fits`" (a step's boolean output said with a pronoun: that output is true) and "it does NOT fit
(i.e. instead of step 4)" (a negation that says which step it stands in for: that step's other branch, warned).
Tested in a recipe card, a ship's log, a lab protocol and a lesson plan; a sentence with "instead of" and no
negation stays a comparison to read (or an error), never a branch."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.plan.model import Plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition_unhappened import unhappened

CATALOG = FakeCatalog(
    skill("taste-sauce", output_schema=obj(("ready", "salt"), ready="boolean", salt="number")),
    skill("plate-up", output_schema=obj(("note",), note="string")),
    skill("simmer-more", output_schema=obj(("note",), note="string")),
    skill("read-barometer", output_schema=obj(("falling", "hpa"), falling="boolean", hpa="number")),
    skill("reef-in", output_schema=obj(("note",), note="string")),
    skill("shake-out", output_schema=obj(("note",), note="string")),
    skill("check-plate", output_schema=obj(("clean", "colonies"), clean="boolean", colonies="number")),
    skill("store-plate", output_schema=obj(("note",), note="string")),
    skill("bleach-plate", output_schema=obj(("note",), note="string")),
    skill("mark-quiz", output_schema=obj(("passed", "score"), passed="boolean", score="number")),
    skill("print-cert", output_schema=obj(("note",), note="string")),
    skill("book-resit", output_schema=obj(("note",), note="string")),
)


def _plan(text: str) -> Plan:
    return build_plan(parse_spec_text(text, "doc.md", "markdown"), CATALOG, settings=SETTINGS)


def _doc(title: str, first: tuple[str, str], yes: tuple[str, str, str], no: tuple[str, str, str]) -> str:
    (name1, skill1), (name2, skill2, when2), (name3, skill3, when3) = first, yes, no
    return (f"# {title}\n\n## 1. {name1}\n\nDone by\n: `{skill1}`\n\n## 2. {name2}\n\nOnly if\n: {when2}\n\n"
            f"Done by\n: `{skill2}`\n\n## 3. {name3}\n\nOnly if\n: {when3}\n\nDone by\n: `{skill3}`\n")


CASES = [
    ("Sunday gravy card", ("Taste it", "taste-sauce"), ("Plate up", "plate-up", "step 1 says it `ready`"),
     ("Simmer on", "simmer-more", "it is NOT ready (i.e. instead of step 2)"), "ready"),
    ("Log, leg 4", ("Glass check", "read-barometer"), ("Reef in", "reef-in", "step 1 says it `falling`"),
     ("Shake out", "shake-out", "glass not falling, in place of step 2"), "falling"),
    ("Plate QC protocol", ("Check plate", "check-plate"), ("Store", "store-plate", "Step 1 reports it `clean`"),
     ("Bleach", "bleach-plate", "it isn't clean (instead of step 2)"), "clean"),
    ("Year 9 quiz lesson", ("Mark", "mark-quiz"), ("Certificate", "print-cert", "step 1 says that `passed`"),
     ("Resit", "book-resit", "they did not pass, rather than step 2"), "passed"),
]


@pytest.mark.parametrize(("title", "first", "yes", "no", "field"), CASES, ids=[c[0] for c in CASES])
def test_a_step_said_to_say_its_flag_is_that_flag_and_a_negation_instead_of_a_step_is_its_other_branch(
        title: str, first: tuple[str, str], yes: tuple[str, str, str], no: tuple[str, str, str], field: str) -> None:
    plan = _plan(_doc(title, first, yes, no))
    steps = {s.id: s for s in plan.steps}
    assert steps["step-2"].when == f"steps['step-1'].output.{field}"
    assert steps["step-3"].when == f"not (steps['step-1'].output.{field})"
    assert any(w.line == 18 and w.code == "spec.lead-condition" and "was false" in w.message for w in plan.warnings), \
        plan.warnings


def test_instead_of_without_a_negation_is_no_branch() -> None:
    assert unhappened("use the spare rather than step 2") is None
    assert unhappened("the batch is late (instead of step 2)") is None
    assert unhappened("it does not fit (instead of step 4)") == ("step 4", "it does not fit", True)


# -- a paragraph opening "If <no / not ...>, then instead `x` ..." after a step with a condition -------------

def _anchored(text: str) -> Plan:
    from orchestrator.spec.vocabulary import Vocabulary

    words = Vocabulary.of([(s.bound().name, None) for s in CATALOG])
    return build_plan(parse_spec_text(text, "note.txt", "markdown", words), CATALOG, settings=SETTINGS)


PROSE = [
    ("skipper's note", "read-barometer", "If `falling` is true, `reef-in` shortens sail before noon.",
     "If the glass is not falling, then instead `shake-out` sets full sail.", "falling"),
    ("kitchen card", "taste-sauce", "If `salt` is over 2, `plate-up` sends it out.",
     "If the salt isn't over 2, instead simmer-more gives it ten more minutes.", "salt"),
    ("lab bench note", "check-plate", "If `clean` is true, `store-plate` files it in the cold room.",
     "If no plate is clean, instead `bleach-plate` destroys the batch.", "clean"),
    ("teacher's plan", "mark-quiz", "If `passed` is true, `print-cert` prints the certificates.",
     "If nobody passed, then instead `book-resit` books a resit for Monday.", "passed"),
]


@pytest.mark.parametrize(("kind", "first", "yes", "no", "field"), PROSE, ids=[p[0] for p in PROSE])
def test_a_paragraph_opening_on_a_negation_then_instead_is_the_other_branch_of_the_step_before(
        kind: str, first: str, yes: str, no: str, field: str) -> None:
    plan = _anchored(f"{kind.title()}\n\nFirst `{first}` does its check.\n\n{yes}\n\n{no}\n")
    steps = {s.id: s for s in plan.steps}
    assert steps["step-2"].when is not None and field in steps["step-2"].when
    assert steps["step-3"].when == f"not ({steps['step-2'].when})", [s.when for s in plan.steps]
    assert any(w.line == 7 and "other branch of step-2" in w.message for w in plan.warnings), plan.warnings


def test_a_failure_then_instead_is_no_other_branch() -> None:
    plan = _anchored("Bench note\n\nFirst `check-plate` does its check.\n\nIf the plate is clean, `store-plate` files "
                     "it.\n\nIf the cold room is down, then instead `bleach-plate` runs.\n")
    assert not any("other branch of step-2" in w.message for w in plan.warnings)
    assert not any(s.when and s.when.startswith("not (") for s in plan.steps)


def test_an_otherwise_of_a_condition_said_but_not_placed_is_warned_that_both_run_not_refused() -> None:
    plan = _anchored("Skipper's note\n\nFirst `read-barometer` does its check.\n\nIf the glass is low, `reef-in` "
                     "shortens sail.\n\nIf the glass is not low, then instead `shake-out` sets full sail.\n")
    assert [s.when for s in plan.steps] == [None, None, None]
    assert any(w.line == 7 and w.code == "spec.condition-not-read" for w in plan.warnings), plan.warnings
