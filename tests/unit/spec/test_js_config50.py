"""Round 50: JS operators in any condition (`spec.js_ops50`), a step waiting on a condition and its
otherwise read as whichever ran, `a.f || b.f` the value of whichever ran (`spec.js_config50`), and
"carry on with name value and name value" the value to go on with (`spec.carry_with50`); each with a
near-miss left as it was."""

from __future__ import annotations

from typing import Any

from orchestrator.spec import parse_spec_text
from orchestrator.spec.carry_with50 import carried_values
from orchestrator.spec.condition import read_condition
from orchestrator.spec.js_ops50 import js_operators

_TS = """\
// kennel intake, read never run
export default {
  steps: [
    { id: 'weigh', skill: 'dog-scale', with: { dog: 'inputs.dog' } },
    { id: 'big', skill: 'large-pen', when: 'weigh.kg >= 30 && !weigh.nervous',
      with: { kg: 'weigh.kg' } },
    { id: 'small', skill: 'small-pen', when: 'else', with: { kg: 'weigh.kg' } },
    { id: 'tag', skill: 'print-tag', after: ['big', 'small'],
      with: { pen: 'big.pen || small.pen' } },
  ],
};
"""

_NEAR = _TS.replace("after: ['big', 'small']", "after: ['big', 'weigh']").replace("when: 'else', ", "")


def test_js_operators_become_the_expression_readers() -> None:
    assert js_operators("order.total !== 0 || order.rush") == "order.total != 0 or order.rush"
    assert js_operators("(!scan.ok) && scan.tries === 3") == "(not scan.ok) and scan.tries == 3"
    assert read_condition("probe.level === 'high'") is not None
    # near-misses: inside quotes, a sentence's `!`, `!=` stay as written
    assert js_operators("note == 'a && b || !c'") == "note == 'a && b || !c'"
    assert js_operators("stop it now!") == "stop it now!"
    assert js_operators("a != b") == "a != b"


def _steps(text: str) -> dict[str, Any]:
    return {s.id: s for s in parse_spec_text(text, "kennel.ts", "markdown").steps}


def test_after_a_condition_and_its_else_is_whichever_ran() -> None:
    steps = _steps(_TS)
    assert steps["big"].when is not None and "&&" not in js_operators(steps["big"].when)
    assert set(steps["tag"].depends_on) == {"big", "small"} and steps["tag"].join == "any"
    pen = {f.name: f.description for f in steps["tag"].inputs}["pen"]
    assert pen == "big.pen or small.pen"  # the either-input reader's words


def test_after_steps_that_may_both_run_is_left_as_all() -> None:
    steps = _steps(_NEAR)
    assert steps["tag"].join != "any"


OUT = frozenset({"pairs", "hours", "total", "notes"})


def test_carry_on_with_the_steps_outputs() -> None:
    found = carried_values("if it fails keep going with total = 0, notes 'n/a'", OUT)
    assert found is not None and found[2] == {"total": 0, "notes": "n/a"}
    found = carried_values("on error just proceed with pairs [] and hours: 2", OUT)
    assert found is not None and found[2] == {"pairs": [], "hours": 2}


def test_carry_on_with_what_is_no_output_is_left() -> None:
    assert carried_values("carry on with zero rows", OUT) is None
    assert carried_values("continue with the next van, total 0", OUT) is None
    assert carried_values("carry on with pairs [] and hours 0", None) is None
