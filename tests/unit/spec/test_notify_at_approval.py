"""Whom to tell, said beside an approval ("..., page the RPh supervisor"), is warned at its line as a
thing the run does not do, and the approval is read as ever (`spec.notify_person`). Tested in a pharmacy
request form, a warehouse returns page, a lab protocol and a club's match-day plan."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text

CASES = [
    ("Shortage form", "required; RPh gets 30 min to sign. If nobody signs, reject it and page the RPh supervisor.",
     "page the RPh supervisor", 1800),
    ("Returns desk", "yes, wait up to 1 hour, then reject and ring the duty manager", "ring the duty manager", 3600),
    ("Plate protocol", "lab lead signs off; no answer within 2h = reject, email me", "email me", 7200),
    ("Match day", "required, timeout 20 min -> reject; text Dana so she knows", "text Dana", 1200),
]


@pytest.mark.parametrize(("title", "approval", "told", "seconds"), CASES, ids=[c[0] for c in CASES])
def test_a_person_to_tell_beside_an_approval_is_warned_and_the_wait_is_read(
        title: str, approval: str, told: str, seconds: int) -> None:
    text = f"# {title}\n\n## Steps\n\n### Step 1: Do it\n- Skill: do-it\n- Approval: {approval}\n"
    spec = parse_spec_text(text, "d.md", "markdown")
    gate = spec.steps[0].approval
    assert gate is not None and gate.timeout_s == seconds and gate.on_timeout == "reject"
    assert [w.where for w in spec.warnings if f"'{told}' asks for a person to be told" in w.message] == ["d.md:7"]


def test_calling_it_off_is_what_silence_means_not_a_person_to_tell() -> None:
    text = "# T\n\n## Steps\n\n### Step 1: Do it\n- Skill: do-it\n- Approval: required; wait 1h, no answer = call it off\n"
    spec = parse_spec_text(text, "d.md", "markdown")
    assert not any("asks for a person to be told" in w.message for w in spec.warnings)
