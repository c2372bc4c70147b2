"""validate finds the steps that would starve, and lets the flows that cannot starve through."""

from __future__ import annotations

from plan_factory import SETTINGS, FakeCatalog, at, field, obj, skill, step, workflow

from orchestrator.errors import Diagnostic
from orchestrator.plan import build_plan, check_plan
from orchestrator.policy import Fallback, FallbackAction, RecoveryRule
from orchestrator.spec.model import RecoveryRowSpec, StepSpec, WorkflowSpec

TYPED = skill("classify", output_schema=obj(("type",), type="string"))
LABEL = skill("label", input_schema=obj(("type",), type={"type": "string", "enum": ["invoice", "receipt"]}))
ANY_LABEL = skill("any-label", input_schema=obj(("type",), type="string"))
CATALOG = FakeCatalog(TYPED, LABEL, ANY_LABEL)


def starved(spec: WorkflowSpec) -> list[Diagnostic]:
    return [d for d in check_plan(build_plan(spec, CATALOG, settings=SETTINGS), spec) if d.code == "starved"]


def with_fallback(fallback: Fallback, consumer: str = "`label`") -> WorkflowSpec:
    row = RecoveryRowSpec(step="step-1", rule=RecoveryRule(fallback=fallback), where=at(40))
    return workflow(step(1, "Classify", "`classify`"), step(2, "Label", consumer, inputs=(field("type", line=22),)),
                    recovery=(row,))


def test_a_consumer_of_a_step_that_may_continue_with_no_output_starves_at_its_input_line() -> None:
    (found,) = starved(with_fallback(Fallback(action=FallbackAction.CONTINUE)))
    assert found.line == 22
    assert found.message.startswith("step-2 (Label) would starve: step-2 requires `type` from step-1, which may "
                                    "continue with no output when it fails")


def test_a_fallback_value_the_consumer_accepts_does_not_starve_it() -> None:
    assert starved(with_fallback(Fallback(action=FallbackAction.DEFAULT, value={"type": "invoice"}))) == []


def test_an_empty_value_the_consumers_contract_refuses_starves_it_and_says_why() -> None:
    (found,) = starved(with_fallback(Fallback(action=FallbackAction.DEFAULT)))
    assert "whose fallback hands on its contract's empty value there, '', which step-2 refuses" in found.message
    assert starved(with_fallback(Fallback(action=FallbackAction.DEFAULT), consumer="`any-label`")) == []


def conditional(second: StepSpec) -> WorkflowSpec:
    return workflow(step(1, "Classify", "`classify`", when="inputs.go == 'yes'"), second, inputs=("go",))


def test_a_step_that_still_runs_when_its_producer_is_skipped_starves() -> None:
    other = step(2, "Label", "`label`", inputs=(field("type", line=22),), depends_on=("step-1",))
    assert starved(conditional(other)) == []  # it follows only the skipped step: skipped with it
    joined = workflow(step(1, "Classify", "`classify`", when="inputs.go == 'yes'"), step(2, "Other", "`any-label`",
                      inputs=(field("type", source="inputs.kind"),), depends_where=at(21)),
                      step(3, "Label", "`label`", inputs=(field("type", line=32, source="steps.step-1.output.type"),),
                           depends_on=("step-1", "step-2")), inputs=("go", "kind"))
    (found,) = starved(joined)
    assert found.line == 32
    assert "step-3 requires `type` from step-1, which is skipped when its condition" in found.message
    assert "Give step-3 the same condition, make `type` optional" in found.message


def test_the_same_condition_or_an_optional_input_does_not_starve() -> None:
    same = workflow(step(1, "Classify", "`classify`", when="inputs.go == 'yes'"), step(2, "Other", "`any-label`",
                    inputs=(field("type", source="inputs.kind"),), depends_where=at(21)),
                    step(3, "Label", "`label`", when="inputs.go == 'yes'", depends_on=("step-1", "step-2"),
                         inputs=(field("type", source="steps.step-1.output.type"),)), inputs=("go", "kind"))
    assert starved(same) == []


def test_a_join_whose_branch_lacks_a_required_name_starves_on_that_path() -> None:
    shout = skill("shout", output_schema=obj(("loud",), loud="string"))
    router = step(1, "Route", "`any-label`", inputs=(field("type", source="inputs.kind"),),
                  routes={"a": "step-2", "b": "step-3"})
    spec = workflow(router, step(2, "A", "`classify`"), step(3, "B", "`shout`"),
                    step(4, "Join", "`label`", depends_on=("step-2", "step-3"), join="any",
                         inputs=(field("type", line=42),)), inputs=("kind",))
    found = [d for d in check_plan(build_plan(spec, FakeCatalog(TYPED, LABEL, ANY_LABEL, shout), settings=SETTINGS),
                                   spec) if d.code == "starved"]
    assert [d.line for d in found] == [42]
    assert "when step-3 is the one that ran, it has no `type`" in found[0].message


def test_a_join_beside_a_step_that_always_runs_does_not_starve() -> None:
    """`brief` from whichever branch ran, `boat` from a step no condition skips: it always ran too (round 47)."""
    briefs = [skill(n, output_schema=obj(("type",), type="string")) for n in ("brief-a", "brief-b")]
    boat = skill("boat", output_schema=obj(("size",), size="string"))
    join = skill("join-up", input_schema=obj(("type", "size"), type="string", size="string"))
    spec = workflow(step(1, "Boat", "`boat`"), step(2, "A", "`brief-a`", when="inputs.kind == 'a'", depends_where=at(9)),
                    step(3, "B", "`brief-b`", otherwise_of="step-2", depends_where=at(10)),
                    step(4, "Join", "`join-up`", depends_on=("step-2", "step-3"), join="any",
                         inputs=(field("type", line=42), field("size", source="steps.step-1.output.size"))),
                    inputs=("kind",))
    plan = build_plan(spec, FakeCatalog(*briefs, boat, join), settings=SETTINGS)
    assert "step-1" in plan.steps[3].depends_on
    assert [d for d in check_plan(plan, spec) if d.code == "starved"] == []


def test_a_continue_whose_consumers_accept_the_empty_value_hands_that_value_on_instead() -> None:
    spec = with_fallback(Fallback(action=FallbackAction.CONTINUE), consumer="`any-label`")
    plan = build_plan(spec, CATALOG, settings=SETTINGS)
    assert check_plan(plan, spec) == []
    (rule,) = plan.step("step-1").policy.rules
    assert rule.fallback == Fallback(action=FallbackAction.DEFAULT)
    assert plan.step("step-1").provenance["policy.fallback"].note.endswith(
        "continues with its contract's empty value, which step-2 accept(s)")
