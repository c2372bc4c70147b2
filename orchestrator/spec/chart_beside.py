"""A Mermaid flowchart beside steps read from a table, a list or headings.

When the document's steps are read from its table or list, a flowchart beside them
(`spec.graph_mermaid` reads a chart only when nothing else gives steps) is not merged: its
edges and the conditions on them are not in the plan. That must not pass in silence: a warning
at each edge that carries a label (a branch condition or the data handed on) and one at the
chart's first line say that the chart is not read and how to say its branches in the steps.
"""

from __future__ import annotations

from orchestrator.spec.graph_mermaid import find_flowchart
from orchestrator.spec.model import StepSpec
from orchestrator.spec.source import Source

_MAX_SAID = 20  # labelled edges warned one by one; the rest in the chart's warning


def warn_chart_beside(steps: tuple[StepSpec, ...] | list[StepSpec], src: Source) -> None:
    """Warn a flowchart in `src` that the steps were not read from (module docstring)."""
    if not steps or ("flowchart" not in src.text and "graph" not in src.text):
        return
    flow = find_flowchart(src.text)
    if flow is None or not flow.edges:
        return
    if any(flow.first <= int(s.where.rsplit(":", 1)[-1] or 0) <= flow.last for s in steps
           if s.where.rsplit(":", 1)[-1].isdigit()):
        return  # the steps are the chart's
    labelled = [e for e in flow.edges if e.label.strip()]
    for edge in labelled[:_MAX_SAID]:
        src.warn(edge.line, f"flowchart: the edge '{edge.a} -> {edge.b}' labelled '{edge.label.strip()[:40]}' is not "
                            "read: the steps are read from the document's steps, not the chart beside them; to have "
                            "the branch in the plan write it in the step ('Only if: <condition>' / 'Otherwise')",
                 "spec.chart-not-merged")
    src.warn(flow.first, f"a Mermaid flowchart beside the steps ({len(flow.edges)} edges, {len(labelled)} labelled) "
                         "is not merged into them: what it says of order and branches is not in the plan; say it "
                         "in the steps ('After: step 2', 'Only if: ...')", "spec.chart-not-merged")
