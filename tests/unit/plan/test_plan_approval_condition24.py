"""A purchase-order policy's conditional sign-off ("If the rollup shows any gaps, OR the total from (a) is
over 5,000, Mr. Hale must approve"): the approval is asked only when its condition holds, its values
placed on the steps the words name, its wait read from "half a day (4 hours)"
(`spec.approval_condition24`)."""

from __future__ import annotations

from plan_factory import FakeCatalog, obj, plan_of_text, skill, step_by_skill

CATALOG = FakeCatalog(
    skill("order-intake", input_schema=obj((), po="string"),
          output_schema=obj(("total", "vendor_count"), total="number", vendor_count="integer")),
    skill("stock-rollup", input_schema=obj((), total="number"),
          output_schema=obj(("clear", "gap_count"), clear="boolean", gap_count="integer")),
    skill("place-order", input_schema=obj((), clear="boolean"), output_schema=obj(("ref",), ref="string")),
)

PO_POLICY = """\
PURCHASING POLICY 7 (plain text)

(a) order-intake reads the request.
(b) stock-rollup checks the shelves.
(c) place-order sends it. If the rollup shows any gaps, OR the total from (a) is over 5,000, Mr. Hale must
    approve before it is sent. He gets half a day (4 hours) to answer; no answer = no.
"""


def test_a_purchase_policys_approval_is_asked_only_when_its_condition_holds() -> None:
    plan = plan_of_text(PO_POLICY, CATALOG, "policy.txt")
    gate = step_by_skill(plan, "place-order").policy.approval
    assert gate is not None
    assert gate.when == "steps['step-2'].output.gap_count or steps['step-1'].output.total > 5000"
    assert gate.timeout_s == 14400 and gate.on_timeout == "reject"
