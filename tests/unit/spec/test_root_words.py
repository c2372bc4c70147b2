"""A step's "after" value that says it starts at once ("straight away", "right away", "immediately",
"first thing") is a root, not a step of that name (it was refused: "depends on 'straight away', which the
spec does not have"); "straight away, alongside #1" starts beside step 1, after nothing
(`spec.step_prose.read_step_list`). Each in a kind of document of its own."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.step_prose import read_step_list
from orchestrator.spec.vocabulary import Vocabulary

_VOCAB = Vocabulary.of([(n, None) for n in ("pack-boxes", "book-van", "load-van", "thaw-samples", "spin-down",
                                            "read-plate", "cut-intro", "pull-bio", "mix-episode")])

# a house move (one markdown table)
_MOVE = """\
# Moving day

| # | Job | Skill | Starts after |
|---|-----|-------|--------------|
| 1 | Pack | pack-boxes | straight away |
| 2 | Van | book-van | right away, alongside #1 |
| 3 | Load | load-van | #1, #2 |
"""

# a lab protocol (labelled bullets under headings)
_LAB = """\
# Plate run

## Step 1: Thaw
- Skill: `thaw-samples`
- After: immediately

## Step 2: Spin
- Skill: `spin-down`
- After: first thing, with step 1

## Step 3: Read
- Skill: `read-plate`
- After: Step 1 and Step 2
"""

# a podcast run sheet (CSV)
_PODCAST = (
    "Step,Skill,After\n"
    "Intro,cut-intro,at once\n"
    "Bio,pull-bio,\"from the start, in parallel with 1\"\n"
    "Mix,mix-episode,\"1, 2\"\n"
)


@pytest.mark.parametrize(("text", "path"), [(_MOVE, "move.md"), (_LAB, "plate.md"), (_PODCAST, "ep41.csv")])
def test_a_step_said_to_start_at_once_is_a_root_and_one_beside_it_too(text: str, path: str) -> None:
    spec = parse_spec_text(text, path, "markdown", _VOCAB)  # refused before: a SpecError
    steps = spec.steps  # type: ignore[attr-defined]
    assert [s.depends_on for s in steps] == [(), (), ("step-1", "step-2")]
    assert steps[0].depends_where is not None and steps[1].depends_where is not None


@pytest.mark.parametrize("value", ["straight away", "Right away.", "ASAP", "at the start", "on start",
                                   "immediately (no waiting)"])
def test_start_words_alone_are_a_root(value: str) -> None:  # a ship's log's "Begins:" column, a recipe card
    said = read_step_list(value, bare_digits=True)
    assert said.root and not said.ids and not said.names


@pytest.mark.parametrize(("value", "ids"), [
    ("after step 1, straight away", ("step-1",)),  # a recipe card: right after step 1
    ("#2 then right away", ("step-2",)),
])
def test_start_words_after_a_step_keep_the_step(value: str, ids: tuple[str, ...]) -> None:
    said = read_step_list(value, bare_digits=True)
    assert said.ids == ids and not said.root
