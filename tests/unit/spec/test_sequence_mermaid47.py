"""Mermaid sequence diagrams as specs (`spec.sequence_mermaid47`): a call to a participant named for a skill a
step, its reply the outputs, `par/and/end` branches starting together, `alt/else/end` (and `opt`) a condition said
in words and its otherwise with the step after `end` taking whichever ran, `src as name` and `name 30` bindings,
a note beside a participant the words of its latest step, a note over several the whole run's."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.sequence_mermaid47 import in_words, is_mermaid_sequence
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a bike shop's repair ticket: par over two checks, an alt on a number said "at least", a note over all
_BIKES = """\
%% repair intake, Tomasz
sequenceDiagram
    actor C as Counter
    participant W as wear-check
    participant P as parts-stock
    participant Q as quote-big
    participant S as quote-small
    participant F as file-ticket
    par
        C->>W: frame_no
        W-->>C: worn_parts
        Note right of W: flaky scanner - 2 retries, 5 s apart
    and
        C->>P: shop_id
        P-->>C: in_stock
    end
    alt worn_parts at least 3
        C->>Q: worn_parts, in_stock
        Q-->>C: price
    else small job
        C->>S: worn_parts
        S-->>C: price
    end
    C->>F: price, customer as owner, priority 2 (always 2 for walk-ins)
    F-->>C: ticket
    Note over C,F: whole run 15 min max
"""

# a lab's sample run: participants by their skill names, an `opt` said "is over"
_LAB = """\
sequenceDiagram
    participant tech
    participant spin-down
    participant flag-sample
    tech->>spin-down: tube_id
    spin-down-->>tech: turbidity
    opt turbidity is over 0.8
        tech->>flag-sample: tube_id, reason = "cloudy"
        flag-sample-->>tech: flagged
    end
    loop every rack
        tech->>spin-down: tube_id
    end
"""

_SKILLS = [
    skill("wear-check", input_schema=obj(("frame_no",), frame_no="string"), output_schema=obj(("worn_parts",), worn_parts="integer")),
    skill("parts-stock", input_schema=obj(("shop_id",), shop_id="string"), output_schema=obj(("in_stock",), in_stock="boolean")),
    skill("quote-big", input_schema=obj(("worn_parts", "in_stock"), worn_parts="integer", in_stock="boolean"),
          output_schema=obj(("price",), price="number")),
    skill("quote-small", input_schema=obj(("worn_parts",), worn_parts="integer"), output_schema=obj(("price",), price="number")),
    skill("file-ticket", input_schema=obj(("price", "owner", "priority"), price="number", owner="string", priority="integer"),
          output_schema=obj(("ticket",), ticket="string")),
    skill("spin-down", input_schema=obj(("tube_id",), tube_id="string"), output_schema=obj(("turbidity",), turbidity="number")),
    skill("flag-sample", input_schema=obj(("tube_id", "reason"), tube_id="string", reason="string"),
          output_schema=obj(("flagged",), flagged="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "mermaid-sequence", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_sequence_diagram_is_known_by_its_first_line_after_comments() -> None:
    assert is_mermaid_sequence("a.mmd", _BIKES) and is_mermaid_sequence("a.md", "```mermaid\nsequenceDiagram\n")
    assert not is_mermaid_sequence("a.mmd", "flowchart TD\n  a --> b\n")  # near-miss: a flowchart
    assert not is_mermaid_sequence("a.md", "# Notes\nsequenceDiagram is drawn below\n")  # near-miss: prose first


def test_comparison_words_read_as_operators() -> None:
    assert in_words("worn_parts at least 3") == "worn_parts >= 3"
    assert in_words("turbidity is over 0.8") == "turbidity > 0.8"
    assert in_words("kilos fewer than 2") == "kilos < 2"
    assert in_words("small job") == "small job"  # near-miss: no comparison word


def test_par_branches_start_together_and_the_alt_and_else_read_as_meant() -> None:
    _spec, plan = _plan(_BIKES, "repair.mmd")
    wear, stock, big, small, ticket = plan.steps
    assert wear.depends_on == () and stock.depends_on == ()
    assert big.when == "steps['wear-check'].output.worn_parts >= 3"
    assert small.when == "not (steps['wear-check'].output.worn_parts >= 3)"
    assert set(big.depends_on) == {"wear-check", "parts-stock"} and small.depends_on == ("wear-check",)
    assert set(ticket.depends_on) == {"quote-big", "quote-small"} and ticket.join == "any"
    assert ticket.inputs["owner"].name == "customer" and ticket.inputs["priority"].value == 2
    assert wear.policy.retry.max_retries == 2 and stock.policy.retry.max_retries == 0  # the note's own step
    assert plan.limits.wall_time_s == 900.0


def test_an_opt_is_one_branch_and_a_loop_is_warned() -> None:
    spec, plan = _plan(_LAB, "lab.mmd")
    _spin, flag = plan.steps[:2]
    assert flag.when == "steps['spin-down'].output.turbidity > 0.8" and flag.inputs["reason"].value == "cloudy"
    assert any(w.line == 11 and "loop" in w.message for w in spec.warnings)


def test_a_diagram_calling_no_skill_is_refused() -> None:
    with pytest.raises(SpecError):
        _plan("sequenceDiagram\n    Alice->>Bob: hello\n", "chat.mmd")
