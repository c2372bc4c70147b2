"""A join naming its branches by their titles or by a word (`spec.join_whichever`, read by `plan.join_either`):
in a recipe card, a podcast run sheet, an HR onboarding checklist and a lab protocol."""

from __future__ import annotations

import pytest

from orchestrator.plan.join_either import read_either_joins
from orchestrator.spec import parse_spec_text
from orchestrator.spec.join_whichever import latest_choice, named_steps
from orchestrator.spec.model import StepSpec
from orchestrator.spec.vocabulary import Vocabulary


def _joined(text: str, *skills: str) -> tuple[StepSpec, list[str]]:
    spec = parse_spec_text(text, "doc.md", "markdown", Vocabulary.of([(s, None) for s in skills]))
    spec, found = read_either_joins(spec)
    return spec.steps[-1], [d.message for d in found]


_RECIPE = ("""# Sourdough card

## Weigh the starter
use `weigh-starter`

## Feed it
only when → Weigh the starter says under 100 grams
use `feed-starter`

## Let it rest
only when → the feed one didn't go
use `rest-starter`

## Preheat
use `preheat-oven`

## Bake
after whichever of Feed it or Let it rest actually went, use `bake-loaf`
""", ("weigh-starter", "feed-starter", "rest-starter", "preheat-oven", "bake-loaf"))

_PODCAST = ("""# Run sheet

## Levels
tool → `check-levels`

## Fix mics (noisy room)
go if → Levels shows over 45 noise_db
tool → `fix-mics`

## Record dry
go if → the fix one didn't run
tool → `start-recording`

## Intro music
tool → `cue-intro`

## Publish
waits for → whichever of Fix mics / Record dry ran
tool → `publish-episode`
""", ("check-levels", "fix-mics", "start-recording", "cue-intro", "publish-episode"))

_HR = ("""# Starter checklist

## Background check
runs → `run-background-check`

## Manual review
only when → Background check reports 2 flags or more
runs → `manual-review`

## Fast track
only when → the manual review one wasn't picked
runs → `fast-track`

## Order the badge
runs → `order-badge`

## Welcome email
runs → `send-welcome`, off whichever review ran
""", ("run-background-check", "manual-review", "fast-track", "order-badge", "send-welcome"))

_LAB = ("""# Plate run

## Read the plate
do it with → `read-od`

## Spin down
only when → Read the plate says more than 40 wells
do it with → `spin-cells`

## Re-seed
only when → the spin one didn't go
do it with → `reseed-plate`

## Label tubes
do it with → `print-labels`

## Log it
do it with → `log-run`, with the counts from whichever step ran
""", ("read-od", "spin-cells", "reseed-plate", "print-labels", "log-run"))


@pytest.mark.parametrize(("text", "skills"), [_RECIPE, _PODCAST, _HR, _LAB],
                         ids=["recipe-card", "podcast-run-sheet", "hr-checklist", "lab-protocol"])
def test_a_join_after_the_branches_with_a_step_between(text, skills):
    last, warned = _joined(text, *skills)
    assert last.join == "any" and set(last.depends_on) == {"step-2", "step-3"}
    assert any("whichever" in m for m in warned)  # the reading is said at its line


def test_named_steps_needs_every_part_to_name_a_distinct_earlier_step():
    spec = parse_spec_text(_PODCAST[0], "doc.md", "markdown", Vocabulary.of([(s, None) for s in _PODCAST[1]]))
    earlier = list(spec.steps[:4])
    assert named_steps("whichever of Fix mics / Record dry ran", earlier) == ["step-2", "step-3"]
    assert named_steps("whichever of Fix mics / the weather ran", earlier) is None
    assert named_steps("whichever of Fix mics or Fix mics ran", earlier) is None
    assert named_steps("whichever reviewer you pick, be polite", earlier) is None
    assert latest_choice("whichever take ran", earlier) == ["step-2", "step-3"]
    assert latest_choice("whichever of them", earlier) is None
