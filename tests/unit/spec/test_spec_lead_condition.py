"""A step's condition in its title or first words (`spec.lead_condition`): "Score ≥ 70 → a human" runs
only when the score is at least 70, "Everything below 70" is its otherwise-branch; each title read so
is warned at its line, and a title that looks like a condition and is not read is warned too."""

from __future__ import annotations

import pytest

from orchestrator.errors import Severity
from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.lead_condition import lead_of
from orchestrator.spec.step_prose import spell_enclosed


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown")


def _codes(spec: WorkflowSpec, line: int) -> list[str]:
    return [w.code for w in spec.warnings if w.line == line and w.severity is Severity.WARNING]


SUPPORT_MACRO = """# Macro: refund triage

## Steps

### Step 1: Size it
Run `size-refund` on the ticket.

### Step 2: Amount over 500 → a lead
Run `lead-review` with the amount.

### Step 3: Everything at or below 500 → auto
Run `auto-refund`.

### Step 4: Close
Run `close-ticket`.
"""


def test_a_support_macro_reads_a_threshold_title_and_its_complement_as_if_and_otherwise() -> None:
    spec = _read(SUPPORT_MACRO)
    lead, auto, close = spec.steps[1:]
    assert lead.when == "Amount over 500"
    assert auto.when is None and auto.otherwise_of == "step-2" and auto.otherwise_where == auto.where
    assert close.when is None and close.otherwise_where is None
    assert _codes(spec, 8) == ["spec.lead-condition"] and _codes(spec, 11) == ["spec.lead-condition"]
    assert [r.note for r in auto.readings if r.what == "when"] == [
        "runs exactly when the condition of step-2 was false (its title)"]


STATE_MACHINE = """# Door controller

## Steps

1. Read the sensor: `read-sensor`
2. If state is open — `close-door`
3. Otherwise: `log-idle`
4. Unless armed is true: `arm-alarm`
"""


def test_a_state_machine_s_if_otherwise_and_unless_leads_are_conditions() -> None:
    spec = _read(STATE_MACHINE)
    close, idle, arm = spec.steps[1:]
    assert close.when == "state is open"
    assert idle.otherwise_where == "doc.md:7" and idle.when is None
    assert arm.when == "unless armed is true"


RFC = """# RFC 9999: key rollover

## Steps

### Step 1: Count keys
The server MUST run `count-keys`.

### Step 2: Keys ≥ 3 → prune
The server MUST run `prune-keys`.

### Step 3: Fewer than 3 keys left → mint
The server SHOULD run `mint-key`.
"""


def test_an_rfc_s_branch_title_that_is_not_read_is_warned_at_its_line_and_runs_always() -> None:
    spec = _read(RFC)
    prune, mint = spec.steps[1:]
    assert prune.when == "Keys ≥ 3"
    assert mint.when is None and mint.otherwise_of is None  # "fewer than 3 keys left": not read, but said
    assert _codes(spec, 8) == ["spec.lead-condition"] and "spec.condition-not-read" in _codes(spec, 11)


DRIFT = """# Drift report

## Steps

### Step 1: Measure
`measure-drift`.

### Step 2: Drift ≥ 0.5 → alert
`raise-alert`.

### Step 3: Anything below 0.3 → log
`log-drift`.
"""


def test_a_second_branch_that_is_not_the_complement_borrows_the_value_and_is_warned() -> None:
    spec = _read(DRIFT)
    log = spec.steps[2]
    assert log.when == "Drift < 0.3" and log.otherwise_of is None
    assert any("not the complement" in w.message for w in spec.warnings if w.line == 11)


POSTMORTEM = """# Postmortem actions

## Steps

### Step 1: Gather
`gather-logs`.

### Step 2: Everything under 5 → ignore
`drop-noise`.
"""


def test_a_complement_title_with_no_condition_before_it_is_warned_and_the_step_always_runs() -> None:
    spec = _read(POSTMORTEM)
    ignore = spec.steps[1]
    assert ignore.when is None and ignore.otherwise_where is None
    assert "spec.condition-not-read" in _codes(spec, 8)


@pytest.mark.parametrize("title", ["Score the account", "Hand over to ops", "Rank + publish →", "Retry 3 times",
                                   "Step 4: Summary for the controller", "Roll over the logs"])
def test_a_title_with_no_comparison_of_a_value_says_nothing_of_when_the_step_runs(title: str) -> None:
    assert lead_of(title) is None


def test_numbering_and_emoji_around_a_title_are_not_part_of_its_condition() -> None:
    found = lead_of("⑤ Latency ≥ 250 → page 🚨")
    assert found is not None and found.kind == "when" and found.condition == "Latency ≥ 250" and found.bare
    other = lead_of("❻ Anything under 250: archive")
    assert other is not None and other.kind == "otherwise" and other.clause is not None
    assert (other.clause.op, other.clause.value) == ("<", 250)


def test_enclosed_digits_name_steps_by_number() -> None:
    assert spell_enclosed("Whichever of ② / ③ ran") == "Whichever of step 2 / step 3 ran"
    assert spell_enclosed("after ❹ and ⑽") == "after step 4 and step 10"
    assert spell_enclosed("plain ascii 2") == "plain ascii 2"
