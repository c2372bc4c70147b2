"""A step's condition or other branch said after a dash in its heading (`spec.heading_condition`): in a
lab protocol with circled step numbers, an ops runbook with numbered headings, a recipe card with "Step N"
headings; and headings that say "only", "if" or "otherwise" in other senses, left as they were."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition
from orchestrator.spec.heading_condition import step_ref
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


_LAB = """# Plate assay

## ① Read the plate
Use `read-od`. It gives back wells_ok and od.

## ② Spin — only when ① says wells_ok
Use `spin-cells`.

## ③ Re-seed — if ① is short of wells instead
Use `reseed-plate`.

## ④ Log it
Use `log-run`.
"""

_RUNBOOK = """# Disk alert runbook

### 1. Measure the volume
Run `disk-usage`, which reports used_pct.

### 2. Prune old logs – only if used_pct > 80
Run `prune-logs`.

### 3. Leave it - otherwise
Run `note-ok`.
"""

_RECIPE = """# Proofing card

## Step 1: Weigh the dough
`weigh-dough` gives grams.

## Step 2: Split it — only when step 1 says more than 900 grams
`split-dough` halves it.

## Step 3: Shape whole — else
`shape-loaf` does it.
"""


@pytest.mark.parametrize(("text", "skills", "subject", "op", "value"), [
    (_LAB, ("read-od", "spin-cells", "reseed-plate", "log-run"), "wells_ok", "==", True),
    (_RUNBOOK, ("disk-usage", "prune-logs", "note-ok"), "used_pct", ">", 80),
    (_RECIPE, ("weigh-dough", "split-dough", "shape-loaf"), "grams", ">", 900),
], ids=["lab", "runbook", "recipe"])
def test_the_tail_is_the_condition_and_the_next_is_its_other_branch(text: str, skills: tuple[str, ...], subject: str,
                                                                      op: str, value: object) -> None:
    spec = _read(text, *skills)
    cond, other = spec.steps[1], spec.steps[2]
    read = read_condition(cond.when or "")
    assert read is not None
    if read.expression is not None:  # `used_pct > 80` as written
        assert read.expression == f"{subject} {op} {value}"
    else:
        assert len(read.clauses) == 1
        clause = read.clauses[0]
        assert (clause.subject[-1], clause.op, clause.value) == (subject, op, value)
    assert other.otherwise_of == cond.id and other.when is None
    assert any(w.code == "spec.heading-condition" and w.line == int(cond.where.rpartition(":")[2])
               for w in spec.warnings)


def test_a_circled_number_names_the_step_whose_heading_opens_with_it() -> None:
    spec = _read(_LAB, "read-od", "spin-cells", "reseed-plate", "log-run")
    read = read_condition(spec.steps[1].when or "")
    assert read is not None and read.clauses[0].step == "step-1"
    assert spec.steps[3].when is None and spec.steps[3].otherwise_of is None


def test_step_ref_prefers_the_marked_heading_to_the_step_number() -> None:
    steps = [StepSpec(id=f"step-{n}", number=n, name=name, where=f"d.md:{n}")
             for n, name in ((1, "① Log"), (2, "② Check"), (3, "③a Standard"), (4, "③b Climate"))]
    assert step_ref("②", steps) == "step-2"
    assert step_ref("step 1", steps) == "step-1"
    assert step_ref("③", steps) is None  # two headings open with it: no one step
    assert step_ref("⑦", steps) is None


def test_unless_is_the_negated_condition() -> None:
    spec = _read("""# Restock

## 1. Count the shelf
`count-shelf` gives in_stock.

## 2. Reorder — unless step 1 says in_stock
`place-order`.
""", "count-shelf", "place-order")
    read = read_condition(spec.steps[1].when or "")
    assert read is not None and read.clauses[0].value is False


@pytest.mark.parametrize("heading", [
    "## 2. Pack — only the fragile ones",
    "## 2. Pack — otherwise known as crating",
    "## 2. Pack — else we forget the labels",
    "## 2. Pack - when the crates arrive",
    "## 2. Pack — if you have time, tidy the bench too",
])
def test_chatter_in_a_heading_is_no_condition(heading: str) -> None:
    spec = _read(f"""# Crating

## 1. Count the objects
`count-objects` gives object_count.

{heading}
`pack-crates`.
""", "count-objects", "pack-crates")
    step = spec.steps[1]
    assert step.when is None and step.otherwise_of is None and step.otherwise_where is None
    assert not any(w.code == "spec.heading-condition" for w in spec.warnings)


def test_a_strong_condition_not_read_is_warned() -> None:
    spec = _read("""# Crating

## 1. Count the objects
`count-objects` gives object_count.

## 2. Pack — only if the weather holds up nicely
`pack-crates`.
""", "count-objects", "pack-crates")
    assert spec.steps[1].when is None
    assert any(w.line == 6 and "looks like a condition but is not read" in w.message for w in spec.warnings)


def test_an_otherwise_with_no_condition_before_it_is_warned() -> None:
    spec = _read("""# Crating

## 1. Count the objects
`count-objects` gives object_count.

## 2. Pack — otherwise
`pack-crates`.
""", "count-objects", "pack-crates")
    assert spec.steps[1].otherwise_of is None
    assert any(w.line == 6 and "no step before it has one" in w.message for w in spec.warnings)
