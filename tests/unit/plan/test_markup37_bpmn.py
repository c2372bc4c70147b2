"""A process model dumped as text (`spec.markup37_bpmn`): sequence flows through gateways give the steps'
order, conditions, joins, inputs and approval, in an HR onboarding export, a lab sample-routing export
and a claims export; and texts with arrows that are no process model."""

from __future__ import annotations

from plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill

CATALOG = FakeCatalog(
    skill("create-account", input_schema=obj(("hire",), hire="object"), output_schema=obj(("login",), login="string")),
    skill("order-laptop", input_schema=obj(("hire",), hire="object"), output_schema=obj(("ticket",), ticket="string")),
    skill("send-welcome", input_schema=obj(("login", "ticket"), login="string", ticket="string"),
          output_schema=obj(("sent",), sent="boolean")),
    skill("triage-sample", input_schema=obj(("sample",), sample="object"),
          output_schema=obj(("urgent", "assay"), urgent="boolean", assay="string")),
    skill("rush-assay", input_schema=obj(("assay",), assay="string"), output_schema=obj(("result",), result="string")),
    skill("batch-assay", input_schema=obj(("assay",), assay="string"), output_schema=obj(("result",), result="string")),
    skill("file-result", input_schema=obj(("result",), result="string"), output_schema=obj(("filed",), filed="boolean")),
    skill("assess-claim", input_schema=obj(("claim",), claim="object"),
          output_schema=obj(("payout", "valid"), payout="number", valid="boolean")),
    skill("pay-claim", input_schema=obj(("amount", "fee"), amount="number", fee="number"),
          output_schema=obj(("paid",), paid="boolean")),
)

_ONBOARDING = """\
== process dump: Onboarding_NewHire ==
-- elements --
Start_Hire             message start "Hire signed"
   payload: hire

Split_Setup            parallel gateway (diverging)

Task_Account           service task  "Create account"
   implementation: skill  create-account
   inputs: hire <- ${hire}

Task_Laptop            service task  "Order laptop"
   implementation: skill  order-laptop
   inputs: hire <- ${hire}

Join_Setup             parallel gateway (converging)

Task_Welcome           send task  "Send welcome"
   implementation: skill  send-welcome
   inputs: login <- ${Task_Account.login}, ticket <- ${Task_Laptop.ticket}

-- sequence flows --
F1  Start_Hire -> Split_Setup
F2  Split_Setup -> Task_Account
F3  Split_Setup -> Task_Laptop
F4  Task_Account -> Join_Setup
F5  Task_Laptop -> Join_Setup
F6  Join_Setup -> Task_Welcome
"""

_SAMPLES = """\
Process_SampleRouting "Route incoming samples"   (text export)

Evt_Received          start "Sample received"
   payload: sample
Task_Triage           service task "Triage"
   implementation: skill  triage-sample
   inputs: sample <- ${sample}
Gw_Urgent             exclusive gateway "Urgent?"
   Sf_Rush    condition: ${urgent == true}
   Sf_Batch   default flow
Task_Rush             service task "Rush assay"
   implementation: skill  rush-assay
   inputs: assay <- ${Task_Triage.assay}
Task_Batch            service task "Batch assay"
   implementation: skill  batch-assay
   inputs: assay <- ${Task_Triage.assay}
Gw_Done               exclusive gateway (converging)
Task_File             service task "File result"
   implementation: skill  file-result
   inputs: result <- ${result}

Sf_1     Evt_Received -> Task_Triage
Sf_2     Task_Triage -> Gw_Urgent
Sf_Rush  Gw_Urgent -> Task_Rush
Sf_Batch Gw_Urgent -> Task_Batch
Sf_3     Task_Rush -> Gw_Done
Sf_4     Task_Batch -> Gw_Done
Sf_5     Gw_Done -> Task_File
"""

_CLAIMS = """\
CLAIMS PROCESS (bpmn text)
Start_Claim           start "Claim in"
   payload: claim
Task_Assess           service task "Assess"
   implementation: skill  assess-claim
   inputs: claim <- ${claim}
Gw_Size               exclusive gateway "Large payout?"
   Flow_Large  condition: ${payout > 5000}  -> UserTask_Adjuster
   Flow_Small  default flow                  -> Task_Pay
UserTask_Adjuster     user task "Adjuster signs off"
   BoundaryTimer_Adj (interrupting) timeDuration: PT8H -> End_Rejected
Task_Pay              service task "Pay"
   implementation: skill  pay-claim
   inputs: amount <- ${Task_Assess.payout}, fee <- 12
End_Done              end "Paid"

Flow_1  Start_Claim -> Task_Assess
Flow_2  Task_Assess -> Gw_Size
Flow_3  UserTask_Adjuster -> Task_Pay
Flow_4  Task_Pay -> End_Done
"""


def test_a_parallel_fork_starts_two_tasks_together_and_the_join_waits_for_both() -> None:
    plan = plan_of_text(_ONBOARDING, CATALOG)
    account, laptop = step_by_skill(plan, "create-account"), step_by_skill(plan, "order-laptop")
    assert account.depends_on == () and laptop.depends_on == ()
    welcome = step_by_skill(plan, "send-welcome")
    assert set(welcome.depends_on) == {account.id, laptop.id}
    assert (welcome.inputs["ticket"].step, welcome.inputs["ticket"].pointer) == (laptop.id, "/ticket")
    assert [i.name for i in plan.inputs] == ["hire"]


def test_an_exclusive_gateway_gives_a_condition_an_otherwise_and_a_join_of_whichever_ran() -> None:
    plan = plan_of_text(_SAMPLES, CATALOG)
    triage, rush, batch = (step_by_skill(plan, s) for s in ("triage-sample", "rush-assay", "batch-assay"))
    assert rush.when is not None and "urgent" in rush.when and triage.id in rush.when
    assert batch.when is not None and batch.when.startswith("not")
    filed = step_by_skill(plan, "file-result")
    assert set(filed.depends_on) == {rush.id, batch.id} and filed.join == "any"
    assert (rush.inputs["assay"].step, rush.inputs["assay"].pointer) == (triage.id, "/assay")


def test_a_user_task_on_a_conditioned_flow_is_the_next_steps_approval_with_its_timer() -> None:
    plan = plan_of_text(_CLAIMS, CATALOG)
    pay, assess = step_by_skill(plan, "pay-claim"), step_by_skill(plan, "assess-claim")
    approval = pay.policy.approval
    assert approval is not None and approval.timeout_s == 8 * 3600 and approval.on_timeout == "reject"
    assert approval.when is not None and f"steps['{assess.id}'].output.payout" in approval.when
    assert pay.when is None  # both flows reach it: it always runs
    assert pay.inputs["fee"].value == 12 and pay.inputs["amount"].step == assess.id


_ARROWS_NOTE = """\
# Release checklist

1. `create-account` for the new service user
2. `order-laptop` for the hire

Notes:
  build -> test
  test -> deploy
  deploy -> announce
"""


def test_arrows_in_notes_with_no_elements_change_nothing() -> None:
    plan = plan_of_text(_ARROWS_NOTE, CATALOG)
    laptop = step_by_skill(plan, "order-laptop")
    assert laptop.depends_on == (step_by_skill(plan, "create-account").id,)
    assert not any("process model" in w.message for w in plan.warnings)


def test_two_flow_lines_are_no_process_model() -> None:
    text = _ONBOARDING.replace("F4  Task_Account -> Join_Setup\nF5  Task_Laptop -> Join_Setup\nF6  Join_Setup -> Task_Welcome\n", "")
    text = text.replace("F1  Start_Hire -> Split_Setup\n", "")
    plan = plan_of_text(text, CATALOG)
    assert not any("process model" in w.message for w in plan.warnings)
