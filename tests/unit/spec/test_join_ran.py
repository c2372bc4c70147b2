"""A step said to run after whichever of a group of branches ran, the group named by the mark its branches
share (`spec.join_ran`): in a museum-style worksheet with circled marks (③a / ③b), a warehouse shift grid
with lettered rows (C1 / C2), and an incident runbook with numbered headings (3a / 3b); and texts that say
"whichever" of no such group."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str, path: str = "doc.md") -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", Vocabulary.of([(s, None) for s in skills]))


def test_a_circled_mark_names_its_lettered_branches() -> None:
    spec = _read("""# Framing sheet

## ① Measure
> tool: `measure-frame` · hands over: glass_ok, size

## ②a Museum glass — only when ① says glass_ok
> tool: `glass-museum` · hands over: glass_cost

## ②b Acrylic — if ① says otherwise instead
> tool: `glass-acrylic` · hands over: glass_cost

## ③ Quote
> tool: `quote-frame` · pulls from: size (①), glass_cost (whichever ② ran)
""", "measure-frame", "glass-museum", "glass-acrylic", "quote-frame")
    last = spec.steps[3]
    assert last.join == "any" and set(last.depends_on) == {"step-2", "step-3"}
    assert any(w.code in ("spec.join-ran",) and "whichever ② ran" in w.message for w in spec.warnings)


def test_a_lettered_group_in_a_grid_and_a_step_waited_for_besides() -> None:
    spec = _read("""NIGHT SHIFT -- DOCK 4

ROW  JOB                               TOOL             NEEDS
---  --------------------------------  ---------------  ---------------
A    weigh the pallets                 pallet-scale     manifest
B    print the labels                  label-print      manifest
C1   restack - ONLY if A = heavy       restack-pallets  weights from A
C2   else: wrap as they are            wrap-pallets     weights from A
E    load the truck                    truck-load       labels from B

NOTES
  E  - waits on B and whichever C ran.
""", "pallet-scale", "label-print", "restack-pallets", "wrap-pallets", "truck-load", path="sheet.txt")
    last = spec.steps[4]
    assert last.join == "any"
    assert last.depends_on == ("step-2", "step-3", "step-4")
    assert not any(t.text.startswith("E - waits") for t in last.texts)  # read here, not left to the policy reader


def test_a_numbered_group_in_a_runbook() -> None:
    spec = _read("""# Pager runbook

### 1. Check the error rate
Run `error-rate`, which reports spiking.

### 2. Page a human
Run `page-oncall`.

### 3a. Roll back — only if 1 says spiking
Run `rollback-deploy`.

### 3b. Keep it — otherwise
Run `keep-deploy`.

### 4. Write the note
Once whichever 3 ran is done, run `write-note`.
""", "error-rate", "page-oncall", "rollback-deploy", "keep-deploy", "write-note")
    last = spec.steps[4]
    assert last.join == "any" and set(last.depends_on) == {"step-3", "step-4"}


def test_whichever_of_no_group_is_left() -> None:
    spec = _read("""# Pager runbook

### 1. Check the error rate
Run `error-rate`, which reports spiking.

### 2. Page a human
Run `page-oncall`. Whichever 2 ran, the pager is noisy.

### 3. Write the note
Whichever A ran, run `write-note`.
""", "error-rate", "page-oncall", "write-note")
    assert all(s.join == "all" for s in spec.steps)
    assert not any(w.code == "spec.join-ran" for w in spec.warnings)


def test_a_group_with_no_condition_is_no_choice() -> None:
    spec = _read("""# Framing sheet

## ① Measure
> tool: `measure-frame` · hands over: size

## ②a Cut the mat
> tool: `cut-mat`

## ②b Cut the glass
> tool: `cut-glass`

## ③ Quote
> tool: `quote-frame` · pulls from: size (①), whichever ② ran
""", "measure-frame", "cut-mat", "cut-glass", "quote-frame")
    assert spec.steps[3].join == "all"
    assert not any(w.code == "spec.join-ran" for w in spec.warnings)
