"""A Mermaid flowchart beside steps read from a table, a list or headings is not merged, and says
so (`spec.chart_beside`): a warning at each labelled edge and at the chart; none when the steps are
the chart's. Several kinds of document."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

SKILLS = ("count-stock", "order-stock", "log-close")
CHART = ("```mermaid\nflowchart TD\n  count[\"count-stock\"] --> q{low?}\n  q -->|yes| order[\"order-stock\"]\n"
         "  q -->|no| log[\"log-close\"]\n  order --> log\n```\n")

KINDS = {
    "kitchen close-down table": "# Kitchen close-down\n\n| # | Task | Tool |\n|---|---|---|\n"
                                "| 1 | Count | `count-stock` |\n| 2 | Order | `order-stock` |\n| 3 | Log | `log-close` |\n\n",
    "podcast run sheet list": "# Run sheet\n\n1. Tally the mics with `count-stock`.\n2. Reorder cables: `order-stock`.\n"
                              "3. Close the log: `log-close`.\n\nHow it flows:\n\n",
    "lab protocol headings": "# Cold room check\n\n## Step 1: Count\nRun `count-stock`.\n\n## Step 2: Order\n"
                             "Run `order-stock`.\n\n## Step 3: Log\nRun `log-close`.\n\n",
    "ship's stores bullets": "# Stores round\n\n- first `count-stock` in the hold\n- then `order-stock` from the chandler\n"
                             "- last `log-close` in the book\n\n",
}


def _warned(text: str) -> list[int]:
    spec = parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in SKILLS]))
    assert len(spec.steps) == 3
    return sorted(w.line for w in spec.warnings if w.code == "spec.chart-not-merged")


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_chart_beside_the_steps_is_said_not_merged(kind: str) -> None:
    text = KINDS[kind] + CHART
    first = text.split("\n").index("```mermaid") + 1
    assert _warned(text) == [first, first + 3, first + 4]


def test_a_chart_that_gives_the_steps_is_not_warned_so() -> None:
    assert _warned("# Close-down\n\n" + CHART) == []
