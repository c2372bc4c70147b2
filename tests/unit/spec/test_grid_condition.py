"""A step's condition or other branch said in a cell of its grid or table row (`spec.grid_condition`): in a
warehouse shift sheet (fixed-width grid, lettered rows), a kitchen prep board (a `|` table), and a
release checklist (numbered grid rows); and cells that say "only" or "else" in other senses."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition
from orchestrator.spec.grid_condition import cells, word_field
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "sheet.txt", "markdown", Vocabulary.of([(s, None) for s in skills]))


_SHIFT = """NIGHT SHIFT -- DOCK 4

ROW  JOB                               TOOL             NEEDS
---  --------------------------------  ---------------  ---------------
A    weigh the pallets                 pallet-scale     manifest
B    restack - ONLY if A = heavy       restack-pallets  weights from A
C    else: wrap as they are            wrap-pallets     weights from A
D    close the dock                    dock-close       the lot
"""

_KITCHEN = """# Prep board

| # | Task | Tool | Notes |
|---|------|------|-------|
| 1 | Taste the stock | `taste-stock` | salt reading |
| 2 | Dilute — only if 1 says salty | `dilute-stock` | half water |
| 3 | otherwise: reduce it | `reduce-stock` | low heat |
| 4 | Plate up | `plate-up` | |
"""

_RELEASE = """RELEASE 4.2 CHECKLIST

STEP  WHAT                                  RUN WITH
1     run the test suite                    run-tests
2     hotfix branch - only when 1 = failed  open-hotfix
3     otherwise - tag the release           tag-release
4     announce it                           post-announcement
"""


@pytest.mark.parametrize(("text", "skills", "field"), [
    (_SHIFT, ("pallet-scale", "restack-pallets", "wrap-pallets", "dock-close"), "heavy"),
    (_KITCHEN, ("taste-stock", "dilute-stock", "reduce-stock", "plate-up"), "salty"),
    (_RELEASE, ("run-tests", "open-hotfix", "tag-release", "post-announcement"), "failed"),
], ids=["shift-grid", "kitchen-table", "release-grid"])
def test_a_cell_says_the_condition_and_the_next_row_is_its_other_branch(text: str, skills: tuple[str, ...],
                                                                         field: str) -> None:
    spec = _read(text, *skills)
    cond, other, last = spec.steps[1], spec.steps[2], spec.steps[3]
    read = read_condition(cond.when or "")
    assert read is not None and len(read.clauses) == 1
    clause = read.clauses[0]
    assert (clause.step, clause.subject, clause.value) == ("step-1", (field,), True)
    assert other.otherwise_of == cond.id
    assert last.when is None and last.otherwise_of is None
    assert any(w.code == "spec.grid-condition" for w in spec.warnings)


@pytest.mark.parametrize("job", [
    "restack only the top layer",
    "else-where: the overflow bay",
    "wrap it, else we lose the labels",
    "only if needed, ask the lead",
])
def test_chatter_in_a_cell_is_no_condition(job: str) -> None:
    spec = _read(f"""NIGHT SHIFT -- DOCK 4

ROW  JOB                               TOOL             NEEDS
---  --------------------------------  ---------------  ---------------
A    weigh the pallets                 pallet-scale     manifest
B    {job:<32}  restack-pallets  weights from A
""", "pallet-scale", "restack-pallets")
    step = spec.steps[1]
    assert step.when is None and step.otherwise_of is None
    assert not any(w.code == "spec.grid-condition" for w in spec.warnings)


def test_a_strong_cell_condition_not_read_is_warned() -> None:
    spec = _read("""NIGHT SHIFT -- DOCK 4

ROW  JOB                                       TOOL             NEEDS
---  ----------------------------------------  ---------------  ---------------
A    weigh the pallets                         pallet-scale     manifest
B    restack - ONLY if the forklift is free    restack-pallets  weights from A
""", "pallet-scale", "restack-pallets")
    assert spec.steps[1].when is None
    assert any("looks like a condition but is not read" in w.message for w in spec.warnings)


def test_cells_split_at_wide_gaps_or_bars() -> None:
    assert cells("C1   fix it - ONLY if A = off    fix-it     lufs from A") == [
        "C1", "fix it - ONLY if A = off", "fix-it", "lufs from A"]
    assert cells("| 2 | Dilute | `dilute` |") == ["2", "Dilute", "`dilute`"]


def test_word_field_takes_the_one_field_opening_with_the_word() -> None:
    assert word_field("off", {"lufs", "off_target", "peak_db"}) == "off_target"
    assert word_field("off", {"off_target", "off_by"}) is None
    assert word_field("lufs", {"lufs_final"}) == "lufs_final"
    assert word_field("off target", {"off_target"}) is None
