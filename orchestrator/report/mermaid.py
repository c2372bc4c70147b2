"""The plan's DAG as a Mermaid flowchart, each step coloured by its status in a run.

    flowchart TD
        s_fetch["fetch: Fetch<br/>succeeded"]
        s_fetch --> s_analyze
        classDef succeeded fill:#d4edda,stroke:#2e7d32,color:#1b5e20
        class s_fetch succeeded

Node ids are the step ids made safe for Mermaid (`s_` + ASCII word characters,
numbered where two come out alike); the label keeps the real id, escaped by
`mermaid_label` so that a step name never breaks or changes the graph. Edges
follow `depends_on`, labelled with the fields a handoff carries when the plan
records them; feedback loops are dotted.
"""

from __future__ import annotations

from collections.abc import Mapping

from orchestrator.plan.model import Plan
from orchestrator.plan.render import mermaid_ids, mermaid_label

# status -> Mermaid style
STATUS_STYLES: dict[str, str] = {
    "succeeded": "fill:#d4edda,stroke:#2e7d32,color:#1b5e20",
    "defaulted": "fill:#fff3cd,stroke:#b8860b,color:#5c4400",
    "degraded": "fill:#fff3cd,stroke:#b8860b,color:#5c4400",  # a run that finished with a fallback
    "continued": "fill:#ffe0b2,stroke:#e65100,color:#6d2c00",
    "failed": "fill:#f8d7da,stroke:#c62828,color:#7f0000",
    "escalated": "fill:#f5c6cb,stroke:#7f0000,color:#4a0000,stroke-width:3px",
    "skipped": "fill:#eeeeee,stroke:#9e9e9e,color:#616161,stroke-dasharray:4 3",
    "running": "fill:#d0e7ff,stroke:#1565c0,color:#0d3c75",
    "ready": "fill:#e3f2fd,stroke:#64b5f6,color:#0d3c75",
    "awaiting_approval": "fill:#ede7f6,stroke:#5e35b1,color:#311b92",
    "pending": "fill:#ffffff,stroke:#9e9e9e,color:#424242",
    "not_run": "fill:#fafafa,stroke:#bdbdbd,color:#9e9e9e,stroke-dasharray:2 2",
    "cancelled": "fill:#f3e5f5,stroke:#8e24aa,color:#4a148c,stroke-dasharray:4 3",
}


def node_id(step_id: str) -> str:
    """The node id of a step on its own (within a plan, `mermaid_ids` keeps them apart)."""
    return mermaid_ids([step_id])[step_id]


def render_mermaid(plan: Plan, statuses: Mapping[str, str]) -> str:
    """`statuses`: step id -> status value (a step not named is `pending`)."""
    node_id = mermaid_ids(s.id for s in plan.steps).__getitem__
    lines = ["flowchart TD"]
    for step in plan.steps:
        status = statuses.get(step.id, "pending")
        text = "<br/>".join(mermaid_label(t) for t in (f"{step.id}: {step.name}", status.replace("_", " ")))
        lines.append(f'    {node_id(step.id)}["{text}"]')
    fields = {(e.producer, e.consumer): e.fields for e in plan.edges}
    for step in plan.steps:
        for dep in step.depends_on:
            carried = ", ".join(fields.get((dep, step.id), ()))
            arrow = f"-->|{mermaid_label(carried, edge=True)}|" if carried else "-->"
            lines.append(f"    {node_id(dep)} {arrow} {node_id(step.id)}")
        feedback = step.policy.feedback
        if feedback is not None:
            lines.append(f"    {node_id(step.id)} -.->|feedback| {node_id(feedback.target_step)}")
    used = sorted({statuses.get(s.id, "pending") for s in plan.steps})
    for status in used:
        style = STATUS_STYLES.get(status, STATUS_STYLES["pending"])
        lines.append(f"    classDef {status} {style}")
    for status in used:
        members = ",".join(node_id(s.id) for s in plan.steps if statuses.get(s.id, "pending") == status)
        lines.append(f"    class {members} {status}")
    return "\n".join(lines) + "\n"
