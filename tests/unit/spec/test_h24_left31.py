"""What holdout24 still misread (`spec.h24_left31`): a deadline whose outcome is failing, words that only look
like a policy, an XML root's metadata set aside, HCL's `skill = var.x` and `otherwise = job.b`, and a join's
handoffs from each branch. Texts: a lab protocol, a kitchen prep sheet, a release runbook, an XML job list of
its own tags, an HCL file of a newsroom; with negatives."""

from __future__ import annotations

from typing import Any

from orchestrator.plan import build_plan
from orchestrator.plan.render import render_text
from orchestrator.spec import parse_spec_text
from orchestrator.spec.h24_left31 import otherwise_targets, root_aside, skill_variables
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill


def _timeout(text: str) -> tuple[float | None, tuple[str, ...]]:
    p = read_phrase(text)
    return p.statement.timeout_s, p.problems


# -- a deadline whose outcome is failing ----------------------------------------------------------------------


def test_a_deadline_said_with_or_treat_as_failed_is_the_attempt_s_time() -> None:
    # a lab protocol, a kitchen prep sheet, a release runbook
    assert _timeout("The plate reader must report inside 45 s or treat as failed.") == (45.0, ())
    assert _timeout("Stock has to be reduced within 20 min else count it failed.") == (1200.0, ())
    assert _timeout("Smoke tests should be green in under 10 minutes, otherwise call it a failure.") == (600.0, ())
    assert _timeout("The tag push must land by 2 min or it counts as a failure.") == (120.0, ())


def test_a_time_that_is_no_deadline_is_not_read_as_one() -> None:
    assert read_phrase("Inside the box there are 3 or more failed parts.").statement.timeout_s is None
    assert read_phrase("Store the samples within 2 days of collection.").statement.timeout_s is None


# -- words that only look like a policy -----------------------------------------------------------------------


def test_once_for_every_item_and_give_it_the_things_raise_no_warning() -> None:
    for text in ("Then `plate-scan`, once for every well that the loader hands back.",
                 "`prep-station` runs once for each dish on the ticket.",
                 "`release-notes` when all the merges are in — give it the whole list of tickets.",
                 "Give them all the rows from the sheet."):
        p = read_phrase(text)
        assert p.problems == () and p.statement.is_empty(), text


def test_a_count_or_a_time_beside_those_words_is_still_read() -> None:
    assert read_phrase("Retry once for every failed page.").statement.retries == 1
    assert read_phrase("Run it once.").statement.no_retry is True
    assert read_phrase("give it the whole list, and retry twice").statement.retries == 2
    assert read_phrase("give it the full 5 minutes").problems  # a time after it: never set aside silently


# -- an XML root's metadata ------------------------------------------------------------------------------------

_XML = """\
<?xml version="1.0"?>
<nightly label="pricing" owner="jdoe" version="3" created="2026-01-04" hardStop="45m" colour="blue"
         xmlns:x="urn:own">
  <job n="1" uses="pull-orders"/>
  <job n="2" uses="price-check" after="1"/>
</nightly>
"""


def test_an_xml_root_s_owner_version_and_namespace_are_set_aside_with_a_note() -> None:
    spec = parse_spec_text(_XML, "nightly.xml", "xml", Vocabulary.of([("pull-orders", None), ("price-check", None)]))
    said = " ".join(w.message for w in spec.warnings)
    assert "owner" not in said and "version" not in said and "created" not in said and "xmlns" not in said
    assert "colour" in said  # an attribute that may mean something is still warned as not understood
    notes = [r.note for r in spec.steps[0].readings]
    assert any("`owner`" in n and "set aside" in n for n in notes)
    assert spec.timeout_s == 2700.0


def test_root_aside_knows_the_document_s_metadata_only() -> None:
    assert root_aside("owner") and root_aside("Last_Modified") and root_aside("xsi:schemaLocation")
    assert root_aside("timeout") is None and root_aside("retries") is None and root_aside("region") is None


# -- HCL ------------------------------------------------------------------------------------------------------

_HCL = """\
variable "desk" {}
variable "checker" {
  default = "legal-check"
}
job "draft" {
  skill = "pull-draft"
  desk  = var.desk
}
job "legal" {
  skill     = var.checker
  when      = job.draft.risky == true
  otherwise = job.publish
  text      = job.draft.text
}
job "publish" {
  skill = "publish-story"
  text  = job.draft.text
}
"""
_SKILLS = [
    skill("pull-draft", input_schema=obj(("desk",), desk="string"),
          output_schema=obj(("text", "risky"), text="string", risky="boolean")),
    skill("legal-check", input_schema=obj(("text",), text="string"), output_schema=obj(("ok",), ok="boolean")),
    skill("publish-story", input_schema=obj(("text",), text="string"), output_schema=obj(("url",), url="string")),
]


def test_hcl_skill_named_by_a_variable_s_default_and_an_otherwise_on_the_conditional_step() -> None:
    names = frozenset(s.name for s in _SKILLS)
    spec = parse_spec_text(_HCL, "newsroom.hcl", "hcl", Vocabulary(skills=names))
    plan = build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]
    steps = {s.id: s for s in plan.steps}
    assert steps["legal"].skill == "legal-check"
    assert [i.name for i in plan.inputs] == ["desk"]  # the skill's variable is no input of the run
    assert any(w.line == 2 and "legal-check" in w.message for w in plan.warnings)
    assert steps["legal"].when is not None and steps["publish"].when == f"not ({steps['legal'].when})"


def test_hcl_helpers_negatives() -> None:
    assert skill_variables(["var.x"], {"x": ""}) == {}  # an empty default names no skill
    assert skill_variables(["job.a.skill"], {"a": "s"}) == {}
    assert otherwise_targets(["a", "b"], {"b": "a"}, {"b"}) == {}  # an earlier step: left to the form
    assert otherwise_targets(["a", "b"], {"a": "b"}, {"a", "b"}) == {}  # it has a condition of its own
    assert otherwise_targets(["a", "b"], {"a": "b"}, set()) == {}  # no `when`: no branch to be the other of


# -- a join's handoffs ------------------------------------------------------------------------------------------

_JOIN = """\
# Dish-return runbook

## Step 1: Weigh
- Skill: `pull-draft`
- Input: desk (string)

## Step 2: Heavy
- Skill: `legal-check`
- When: risky == true
- Input: text from step 1

## Step 3: Light
- Skill: `publish-story`
- Otherwise of: step-2
- Input: text from step 1

## Step 4: Log
- Skill: `log-result`
- Depends on: step-2 or step-3 (whichever ran)
- Input: `outcome` <- the `result` from step 2 or 3
"""


def test_each_branch_feeding_a_join_shows_in_the_handoffs() -> None:
    skills: list[Any] = [
        *_SKILLS[:1],
        skill("legal-check", input_schema=obj(("text",), text="string"), output_schema=obj(("result",), result="string")),
        skill("publish-story", input_schema=obj(("text",), text="string"), output_schema=obj(("result",), result="string")),
        skill("log-result", input_schema=obj(("outcome",), outcome="string"), output_schema=obj(("ok",), ok="boolean")),
    ]
    spec = parse_spec_text(_JOIN, "runbook.md", "markdown", Vocabulary(skills=frozenset(s.name for s in skills)))
    plan = build_plan(spec, FakeCatalog(*skills), settings=SETTINGS)  # type: ignore[arg-type]
    join = plan.steps[3].inputs.get("outcome")
    assert join is not None and set(join.any_of) == {"step-2", "step-3"}
    fed = {(e.producer, e.consumer): e.fields for e in plan.edges}
    assert fed[("step-2", "step-4")] == ("outcome",) and fed[("step-3", "step-4")] == ("outcome",)
    assert "step-3 -> step-4: outcome" in render_text(plan)
