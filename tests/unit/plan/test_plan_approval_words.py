"""An approval's condition said the author's way is placed in the plan: a count said of a noun ("more
than 30 pupils") is the one output that counts it (`n_pupils`, `total_recipients`), and a value alone that
names an environment ("prod only") is the value of the one input named for it (`env`), each warned."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("count-class", output_schema=obj(("n_pupils",), n_pupils="integer", pupils="array")),
    skill("book-coach"),
    skill("renew-certs"),
    skill("roll-out"),
)

TRIP = """# Year 9 museum trip

## Steps

### Step 1: Count
`count-class` on the register.

### Step 2: Book
`book-coach`. If the class has more than 30 pupils the head of year has to OK it first; if she hasn't
replied within 2 days, we don't go.
"""

RUNBOOK = """name: cert-rotation
inputs:
  env: {type: string, default: staging}
steps:
  - id: renew
    skill: renew-certs
  - id: rollout
    skill: roll-out
    human_ok: "prod only -- the change manager approves in #cab, 1h or it's a no"
"""


def test_a_lesson_plans_count_of_pupils_is_the_counters_n_pupils_and_warned() -> None:
    plan = build_plan(parse_spec_text(TRIP, "trip.md", "markdown"), CATALOG, settings=SETTINGS)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.when == "steps['step-1'].output.n_pupils > 30"
    assert (approval.timeout_s, approval.on_timeout) == (172800, "reject")
    assert any("n_pupils" in w.message for w in plan.warnings)


def test_a_runbooks_prod_only_approval_compares_the_env_input_and_is_warned() -> None:
    plan = build_plan(parse_spec_text(RUNBOOK, "rotate.yaml", "yaml"), CATALOG, settings=SETTINGS)
    approval = plan.steps[1].policy.approval
    assert approval is not None and approval.when == "inputs.env == 'prod'"
    assert (approval.timeout_s, approval.on_timeout) == (3600, "reject")
    assert any("names an environment" in w.message for w in plan.warnings)
    assert any("human_ok" in w.message for w in plan.warnings)


SHIFT_LOG = """# Night shift handover

## Steps

### Step 1: Count
`count-class` on tonight's register.

### Step 2: Renew
`renew-certs` for the door badges.

### Step 3: Roll out
`roll-out` the badges. If the register has more than 30 pupils the duty manager has to OK it first; 1h or
it's a no.
"""


def test_a_step_whose_approval_condition_is_all_it_refers_to_keeps_its_place_after_the_step_before() -> None:
    plan = build_plan(parse_spec_text(SHIFT_LOG, "shift.md", "markdown"), CATALOG, settings=SETTINGS)
    roll = plan.steps[2]
    assert set(roll.depends_on) == {"step-1", "step-2"}
    assert roll.policy.approval is not None and roll.policy.approval.when == "steps['step-1'].output.n_pupils > 30"
