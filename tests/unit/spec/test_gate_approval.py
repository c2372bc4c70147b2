"""An approval only sometimes needed: its condition read against the earlier step's outputs ("yes if step 1
found more than two flags", "only if urgent", "YES if any return is a high-value item"), and when it cannot
be read, warned at its line as asked on every run (it was silent under an `Approval:`/`Sign-off:` label);
a bare wait ("15 min, then reject", "10 min max then reject") is the approval's timeout (was dropped without
a word). Tested in a clinic triage protocol, a club's match-day plan, a warehouse returns page and a
library digitisation workflow."""

from __future__ import annotations

import pytest

from tests.unit.plan.plan_factory import FakeCatalog, obj, plan_of_text, skill

CATALOG = FakeCatalog(skill("look", output_schema=obj(flags="array", flag_count="integer", urgent="boolean",
                                                      high_value_count="integer")),
                      skill("act", output_schema=obj(status="string")))


def _plan(title: str, line: str) -> object:
    return plan_of_text(f"# {title}\n\n## Steps\n\n### Step 1: Look\n- Skill: look\n\n"
                        f"### Step 2: Act\n- Skill: act\n{line}\n", CATALOG)


@pytest.mark.parametrize(("title", "line", "when", "seconds"), [
    ("Walk-in triage", "- Approval: yes if step 1 found more than two flags. Wait 10 min, then reject.",
     "steps['step-1'].output.flag_count > 2", 600),
    ("Match day", "- Approval: the coach signs off only when step 1 found at least 2 flags; 15 min, then reject",
     "steps['step-1'].output.flag_count >= 2", 900),
    ("Returns desk", "- Sign-off needed?: YES if any return is a high-value item; the shift lead has 1h, then reject.",
     "steps['step-1'].output.high_value_count > 0", 3600),
    ("Digitisation", "- Approval: only if urgent; the conservator, 20 min max then reject",
     "steps['step-1'].output.urgent", 1200),
])
def test_a_conditional_approval_and_its_bare_wait(title: str, line: str, when: str, seconds: int) -> None:
    gate = _plan(title, line).steps[1].policy.approval  # type: ignore[attr-defined]
    assert gate is not None and gate.when == when and gate.timeout_s == seconds and gate.on_timeout == "reject"


@pytest.mark.parametrize(("title", "line"), [
    ("Walk-in triage", "- Sign-off: needed only when the patient is a child. 10 min, else reject."),
    ("Match day", "- Approval: required only if the referee looks grumpy"),
    ("Returns desk", "- Approval: yes if the parcel smells odd, the shift lead decides"),
    ("Digitisation", "- Sign-off: only when the binding is a fragile one"),
])
def test_an_approval_condition_not_read_is_warned_as_asked_every_run(title: str, line: str) -> None:
    plan = _plan(title, line)
    gate = plan.steps[1].policy.approval  # type: ignore[attr-defined]
    assert gate is not None and gate.when is None
    said = [w for w in plan.warnings if "condition" in w.message and "every run" in w.message]  # type: ignore[attr-defined]
    assert [w.line for w in said] == [10]
