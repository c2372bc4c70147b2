"""A skill named as the object of a gather is the step's input's source, not its skill (`spec.gather_object32`):
a runbook step, a recipe-like list item and a ticket's line, and sentences that only look alike."""

from __future__ import annotations

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.gather_object32 import gathered_names
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [
    skill("fetch-page", input_schema=obj(("url",), url="string"), output_schema=obj(("html",), html="string")),
    skill("index-build", input_schema=obj(("pages",), pages="array"), output_schema=obj(("ok",), ok="boolean")),
    skill("index-merge", input_schema=obj(("pages",), pages="array"), output_schema=obj(("ok",), ok="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)

_RUNBOOK = """\
# Site index

## 1. Fetch
For each url in the `urls` input, run fetch-page.

## 2. Merge every fetch-page result and build the index
Then run index-build over them.
"""


def test_a_runbook_step_that_gathers_one_skill_s_results_runs_the_other_it_names() -> None:
    spec = parse_spec_text(_RUNBOOK, "index.md", "markdown", Vocabulary(skills=_NAMES))
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    assert [s.skill for s in plan.steps] == ["fetch-page", "index-build"]


def test_the_gather_s_object_in_a_recipe_item_and_a_ticket_line() -> None:
    assert gathered_names("- Stir in all the fetch-page outputs, then index-build") == {"fetch-page"}
    assert gathered_names("TICKET-12: sum each price-job's answer and send the total") == {"price-job"}
    assert gathered_names("collect all of the dock-fill replies") == {"dock-fill"}


def test_sentences_that_only_look_alike_name_no_gathered_skill() -> None:
    assert gathered_names("For each url run fetch-page") == frozenset()  # the step's own skill
    assert gathered_names("every fetch-page call needs a url") == frozenset()  # no word for results
    assert gathered_names("all results go to index-build") == frozenset()  # the name is not the object
