"""Data and control flow said in words: a step the text says does not wait for another is a root,
whatever kind of document says it."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, obj, skill

from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text

CATALOG = FakeCatalog(
    skill("snapshot-db", input_schema=obj(("db",), db="string"), output_schema=obj(("rows",), rows="array")),
    skill("audit-grants", input_schema=obj(("db",), db="string"), output_schema=obj(("report",), report="string")),
    skill("post-status", input_schema=obj(("report",), report="string"), output_schema=obj(("url",), url="string")),
)


def _deps(text: str) -> dict[str, list[str]]:
    plan, errors = draft_plan(parse_spec_text(text, "flow.md", "markdown"), CATALOG, settings=SETTINGS)
    assert plan is not None, errors
    return {s.id: list(s.depends_on) for s in plan.steps}


_RUNBOOK = """\
# Nightly grants check (runbook)

## Step 1: Snapshot
Run `snapshot-db` on the `db`.

## Step 2: Audit
Run `audit-grants` on the `db`. {said}

## Step 3: Post
Run `post-status` with the report from step 2.
"""


@pytest.mark.parametrize("said", [
    "You don't need to wait for the snapshot, the audit reads the live grants.",
    "No need to wait on the snapshot here.",
    "This runs independently of the snapshot.",
    "It doesn't have to wait for step 1 at all.",
])
def test_a_step_said_not_to_wait_for_the_one_before_is_a_root(said: str) -> None:
    assert _deps(_RUNBOOK.format(said=said))["step-2"] == []


def test_a_step_that_waits_for_one_step_but_not_another_keeps_the_one_it_waits_for() -> None:
    deps = _deps(_RUNBOOK.format(said="").replace(
        "with the report from step 2.", "with the report from step 2. Runs after step 2, without waiting for step 1."))
    assert deps["step-3"] == ["step-2"]


_STATUS_UPDATE = """\
**Status page update — grants audit (draft)**

1. **Snapshot.** `snapshot-db` over the `db`.
2. **Audit.** `audit-grants` on the `db`; there is no need to wait for the snapshot to finish.
3. **Post.** `post-status` with the audit's report.
"""


def test_a_status_update_item_saying_no_need_to_wait_starts_at_once() -> None:
    deps = _deps(_STATUS_UPDATE)
    assert deps["step-2"] == []
    assert deps["step-1"] == []


JOIN_CATALOG = FakeCatalog(
    skill("triage-alert", input_schema=obj(("alert",), alert="string"), output_schema=obj(("sev",), sev="string")),
    skill("page-oncall", input_schema=obj(("alert",), alert="string"),
          output_schema=obj(("ticket_ref",), ticket_ref="string")),
    skill("open-ticket", input_schema=obj(("alert",), alert="string"),
          output_schema=obj(("ticket_ref",), ticket_ref="string")),
    skill("post-update", input_schema=obj(("ticket_ref",), ticket_ref="string"),
          output_schema=obj(("posted",), posted="boolean")),
)

_POSTMORTEM = """\
# Incident follow-up (postmortem action items)

## Step 1: Triage
Run `triage-alert` on the `alert`.

## Step 2: Page
Only when sev is "high". Run `page-oncall` with the alert.

## Step 3: Ticket
Otherwise: run `open-ticket` with the alert.

## Step 4: Update
Run `post-update`, {said}.
"""


@pytest.mark.parametrize("said", [
    "`ticket_ref` from whichever of step 2 / step 3 ran",
    "taking `ticket_ref` from either `page-oncall` or `open-ticket`",
])
def test_a_value_from_whichever_of_two_named_steps_joins_both(said: str) -> None:
    plan, errors = draft_plan(parse_spec_text(_POSTMORTEM.format(said=said), "flow.md", "markdown"), JOIN_CATALOG,
                              settings=SETTINGS)
    assert plan is not None, errors
    last = plan.steps[-1]
    assert {"step-2", "step-3"} <= set(last.depends_on)
    assert last.inputs["ticket_ref"].any_of == ("step-2", "step-3") or \
        sorted(last.inputs["ticket_ref"].any_of or ()) == ["step-2", "step-3"]


FAN_CATALOG = FakeCatalog(
    skill("list-hosts", input_schema=obj(("fleet",), fleet="string"), output_schema=obj(("hosts",), hosts="array")),
    skill("probe-host", input_schema=obj(("host",), host="string", depth="integer"),
          output_schema=obj(("up",), up="boolean")),
    skill("tally-probes", input_schema=obj(("probes",), probes="array"), output_schema=obj(("down",), down="integer")),
)

_STATUS_PAGE = """\
# Fleet probe (status-page update procedure)

## Step 1: List
Run `list-hosts` on the `fleet`.

## Step 2: Probe
Run `probe-host` once per element of `hosts` from step 1 (pass the host as `host`).

## Step 3: Tally
Then roll all of those up with `tally-probes`.
"""


def test_a_fan_out_said_once_per_element_gives_the_item_to_its_input_and_all_of_those_are_gathered() -> None:
    plan, errors = draft_plan(parse_spec_text(_STATUS_PAGE, "flow.md", "markdown"), FAN_CATALOG, settings=SETTINGS)
    assert plan is not None, errors
    steps = {s.id: s for s in plan.steps}
    assert steps["step-2"].for_each is not None and steps["step-2"].for_each.item == "host"
    assert steps["step-2"].inputs["host"].source == "item"
    assert steps["step-3"].inputs["probes"].gather
    assert steps["step-3"].inputs["probes"].step == "step-2"


REF_CATALOG = FakeCatalog(
    skill("pull-metrics", input_schema=obj(("window",), window="string"), output_schema=obj(("rows",), rows="array")),
    skill("pull-alerts", input_schema=obj(("window",), window="string"),
          output_schema=obj(("rows", "alerts"), rows="array", alerts="array")),
    skill("weekly-report", input_schema=obj(("rows", "alerts"), rows="array", alerts="array"),
          output_schema=obj(("report",), report="string")),
)

_ON_CALL_HANDBOOK = """\
# Weekly on-call report (handbook page)

[#metrics]
## Step 1: Metrics
Run `pull-metrics` for the `window`.

[[alerts]]
## Step 2: Alerts
Run `pull-alerts` for the `window`.

## Step 3: Report
`weekly-report` takes the `rows` {rows} and the `alerts` from step 2.
"""


def _report_inputs(rows: str) -> tuple[dict[str, str | None], list[str]]:
    plan, errors = draft_plan(parse_spec_text(_ON_CALL_HANDBOOK.format(rows=rows), "flow.md", "markdown"),
                              REF_CATALOG, settings=SETTINGS)
    assert plan is not None, errors
    last = plan.steps[-1]
    return {k: v.step for k, v in last.inputs.items()}, list(last.depends_on)


def test_an_input_said_to_come_from_a_numbered_step_is_that_steps_not_the_nearest() -> None:
    inputs, deps = _report_inputs("of step 1")
    assert inputs == {"rows": "step-1", "alerts": "step-2"}
    assert set(deps) == {"step-1", "step-2"}


def test_a_link_to_a_steps_anchor_names_that_step() -> None:
    assert _report_inputs("that came out of <<metrics>>")[0]["rows"] == "step-1"
    assert _report_inputs("from xref:metrics[the metrics pull]")[0]["rows"] == "step-1"


def test_a_link_to_an_anchor_that_is_no_step_leaves_the_nearest_rule() -> None:
    assert _report_inputs("from <<glossary,the glossary>>")[0]["rows"] == "step-2"
