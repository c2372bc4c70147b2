"""A step's condition or other branch said in the author's own label and words, naming an earlier step
(`spec.only_when`): in a lab protocol, a podcast run sheet, a recipe card and an HR onboarding checklist."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.condition import read_condition
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str, *skills: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))


# (document, skills, the conditional step's index, its field, op, value)
_LAB = ("""# Plate reader run

## Read the plate
do it with → `read-od`
gives → od, wells

## Spin down
only when → Read the plate says more than 40 wells
do it with → `spin-cells`

## Re-seed
only when → the spin one didn't go, i.e. 40 wells or under
do it with → `reseed-plate`

## Log it
do it with → `log-run`
""", ("read-od", "spin-cells", "reseed-plate", "log-run"), "wells", ">", 40)

_PODCAST = ("""# Episode run sheet

## Levels check
tool → `check-levels`

## Fix the mics
go if → Levels check shows over 45 noise_db
tool → `fix-mics`

## Straight to tape
go if → the fix one didn't run
tool → `start-recording`

## Upload
tool → `upload-episode`
""", ("check-levels", "fix-mics", "start-recording", "upload-episode"), "noise_db", ">", 45)

_RECIPE = ("""# Sourdough card

## Weigh the starter
use `weigh-starter`

## Feed it
only if -> Weigh the starter comes back with under 100 grams
use `feed-starter`

## Mix the dough
only if -> the feed one didn't go
use `mix-dough`

## Bake
use `bake-loaf`
""", ("weigh-starter", "feed-starter", "mix-dough", "bake-loaf"), "grams", "<", 100)

_HR = ("""# New starter checklist

## Background check
runs → `run-background-check`

## Manual review
only when → Background check reports 2 flags or more
runs → `manual-review`

## Send the welcome pack
only when → the manual review one wasn't picked
runs → `send-welcome`

## Book the laptop
runs → `book-laptop`
""", ("run-background-check", "manual-review", "send-welcome", "book-laptop"), "flags", ">=", 2)


@pytest.mark.parametrize(("text", "skills", "field", "op", "value"), [_LAB, _PODCAST, _RECIPE, _HR],
                         ids=["lab-protocol", "podcast-run-sheet", "recipe-card", "hr-checklist"])
def test_a_labelled_condition_naming_a_step_by_its_title_and_its_negation(text, skills, field, op, value):
    spec = _read(text, *skills)
    second, third, fourth = spec.steps[1], spec.steps[2], spec.steps[3]
    read = read_condition(second.when or "")
    assert read is not None and len(read.clauses) == 1
    clause = read.clauses[0]
    assert (clause.step, clause.subject, clause.op, clause.value) == ("step-1", (field,), op, value)
    assert "when_title" in second.field_where  # a guess at the field: dropped, warned, when no step gives it
    assert third.when is None and third.otherwise_of == "step-2"
    assert fourth.when is None and fourth.otherwise_of is None
    lines = {w.line for w in spec.warnings if w.code == "spec.only-when"}
    assert len(lines) == 2  # each reading warned at its own line
    assert not [w for w in spec.warnings if "cannot be read" in w.message or "which is not read" in w.message]


def test_an_aside_names_the_value_and_no_x_is_the_other_branch():
    # a ship's log of lettered orders (one step a line)
    spec = _read("""# Watch orders

1. `take-soundings` of the channel
2. if take-soundings shows any shoal (depth_m is anything but "deep") -> `slow-ahead`
3. no shoal -> `full-ahead` instead
4. `log-watch`
""", "take-soundings", "slow-ahead", "full-ahead", "log-watch")
    slow, full = spec.steps[1], spec.steps[2]
    read = read_condition(slow.when or "")
    assert read is not None and read.clauses[0].subject == ("depth_m",) and read.clauses[0].op == "!="
    assert read.clauses[0].step == "step-1"
    assert full.otherwise_of == "step-2" and full.when is None


def test_a_label_with_a_plain_comparison_is_read_and_words_naming_no_step_are_left():
    spec = _read("""# Stock take

## Count shelves
runner → `count-shelves`

## Reorder
only when → the total is over 500
runner → `reorder-stock`

## Tidy
only when → the weather is nice enough for it somehow
runner → `tidy-yard`
""", "count-shelves", "reorder-stock", "tidy-yard")
    assert spec.steps[1].when == "the total is over 500"
    assert spec.steps[2].when is None  # not read here; the readers after it warn it
    assert any(w.line == 11 for w in spec.warnings)


def test_a_negation_whose_restatement_disagrees_is_read_and_warned():
    spec = _read("""# Print route

## Extent
runner → `estimate-extent`

## Offset
only when → Extent says more than 300 pages
runner → `quote-offset`

## Digital
only when → the offset one didn't go, i.e. 200 pp or under
runner → `setup-pod`
""", "estimate-extent", "quote-offset", "setup-pod")
    assert spec.steps[2].otherwise_of == "step-2"
    assert any("check which is meant" in w.message for w in spec.warnings if w.line == 11)


@pytest.mark.parametrize(("text", "skills", "field"), [
    # a boiler-house night log with lettered orders
    ("""# Night shift orders

- a) `check-boiler` on the gauges, reports pressure_bar and leak.
- b) if check-boiler shows any leak (leak is anything but "none") -> `call-engineer` with the pressure_bar.
- c) no leak -> `log-normal` instead, with the pressure_bar.
- d) then `hand-over` off whichever call ran.
""", ("check-boiler", "call-engineer", "log-normal", "hand-over"), "leak"),
    # a lab protocol with lettered sub-steps
    ("""# Culture check

- (a) `read-od` of flask 2
- (b) if read-od shows any clumping (clumping is anything but "no") -> `filter-culture`
- (c) no clumping: `dilute-culture` instead
- (d) `log-run` off whichever step ran
""", ("read-od", "filter-culture", "dilute-culture", "log-run"), "clumping"),
])
def test_lettered_items_their_condition_other_branch_and_join(text, skills, field):
    from orchestrator.plan.join_either import read_either_joins

    spec, _ = read_either_joins(_read(text, *skills))
    second, third, fourth = spec.steps[1:4]
    read = read_condition(second.when or "")
    assert read is not None and read.clauses[0].subject == (field,) and read.clauses[0].op == "!="
    assert read.clauses[0].step == "step-1"
    assert third.otherwise_of == "step-2"
    assert fourth.join == "any" and set(fourth.depends_on) == {"step-2", "step-3"}


def test_an_if_clause_leading_to_another_skill_is_not_this_steps_condition():
    # an HR checklist whose second item's text runs on into the next order
    spec = _read("""# Leaver checklist

- a) `export-mailbox` for the leaver, gives size_gb
- b) if export-mailbox shows more than 50 size_gb -> archive-cold with the mailbox;
  `notify-it` of the leaver either way.
""", "export-mailbox", "notify-it", "archive-cold")
    assert spec.steps[1].when is None or "size_gb" not in spec.steps[1].when
