"""Round 55: an approval scoped by an amount ("anything over £900", "for jobs over $1,200", "if it's more than 500")
compared with the one input that carries a price/total/amount (`spec.approval_over55`); a wait said of a person
("wait 30 mins for him") the approval's bound and never the step's retry; a "for him" no condition; a constant's
name in a step's title or a skill's name no reference to it (`spec.constant_said55`)."""

from __future__ import annotations

from yaml import compose

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_over55 import amount_field, over_said, person_wait, pronoun_scope
from orchestrator.spec.condition import approval_condition
from orchestrator.spec.constant_said55 import still_said
from orchestrator.spec.vocabulary import Vocabulary


# -- the amount -------------------------------------------------------------------------------------------------
def test_an_amount_said_in_other_words() -> None:
    assert over_said("for jobs over $1,200 the owner signs off first") == (">", 1200.0, "for jobs over $1,200")
    assert over_said("if it's more than 500 the manager must approve")[:2] == (">", 500.0)  # type: ignore[index]
    assert over_said("orders above €2k need Dana's OK")[:2] == (">", 2000.0)  # type: ignore[index]
    assert over_said("anything of £2,000 or more: Sam signs off")[:2] == (">=", 2000.0)  # type: ignore[index]


def test_near_miss_a_length_or_a_time_is_no_amount() -> None:
    assert over_said("boats over 12 m need the foreman to approve") is None
    assert over_said("anything over 30 mins and the lead must approve") is None
    assert over_said("the lead must approve it first") is None


def test_the_field_compared_is_the_one_that_carries_money() -> None:
    assert amount_field({"tonnes": "chk.tonnes", "price": "q.price", "boat": "inputs.boat"}) == "q.price"
    assert amount_field({"n": "tally.grand_total"}) == "tally.grand_total"
    assert amount_field({"price": "q.price", "fee": "f.fee"}) is None  # two: ambiguous
    assert amount_field({"tonnes": "chk.tonnes"}) is None


def test_a_wait_said_of_a_person_and_a_for_him() -> None:
    assert person_wait("text her, wait an hour for her reply") == "wait an hour for her"
    assert person_wait("waiting 2 hours on the owner's OK") == "waiting 2 hours on the owner's OK"
    assert person_wait("wait 2 hours for Dana") == "wait 2 hours for Dana"
    assert person_wait("wait 5s and try again") is None  # near-miss: a retry's wait
    assert pronoun_scope("him # no reply") and pronoun_scope("them to answer") and not pronoun_scope("orders > 5")
    assert approval_condition("Kev has to OK first, wait 30 mins for him - no reply = go ahead")[0] is None


# -- in a playbook ----------------------------------------------------------------------------------------------
_PLAY = """\
- name: fence quote
  hosts: office
  vars_prompt:
    - name: job
  tasks:
    - name: measure up
      skill: fence-measure
      args: {job: "{{ job }}"}
      register: m
    - name: price the fence
      skill: fence-price
      args: {metres: "{{ m.metres }}"}
      register: p
    - name: order the panels
      skill: panel-order
      args: {metres: "{{ m.metres }}", total: "{{ p.total }}"}
      # {RULE}
"""
_SKILLS = frozenset({"fence-measure", "fence-price", "panel-order"})


def _order(rule: str) -> object:
    spec = parse_spec_text(_PLAY.replace("{RULE}", rule), "fence.yml", "yaml", Vocabulary(skills=_SKILLS))
    return next(s for s in spec.steps if s.skill == "panel-order"), spec


def test_for_jobs_over_an_amount_in_a_playbook_compares_the_total() -> None:
    step, spec = _order("for jobs over $1,200 Dana must approve first (text her), wait an hour for her")
    assert step.approval is not None and step.approval.when == "p.total > 1200"  # type: ignore[attr-defined]
    assert step.approval.timeout_s == 3600  # type: ignore[attr-defined]
    assert not [r for r in spec.readings if r.statement.wait is not None]  # type: ignore[attr-defined]


def test_if_its_more_than_in_a_playbook() -> None:
    step, _ = _order("if it's more than 500 the boss has to sign off, wait 2 hours for him")
    assert step.approval.when == "p.total > 500"  # type: ignore[attr-defined]


def test_near_miss_no_amount_field_is_warned_and_asked_every_run() -> None:
    spec = parse_spec_text(_PLAY.replace("total: \"{{ p.total }}\"", "size: \"{{ p.size }}\"").replace(
        "{RULE}", "anything over £900 Kev has to OK first, wait 30 mins for him"), "fence.yml", "yaml",
        Vocabulary(skills=_SKILLS))
    step = next(s for s in spec.steps if s.skill == "panel-order")
    assert step.approval is not None and step.approval.when is None


# -- a constant said in a title ---------------------------------------------------------------------------------
def test_a_constant_in_a_title_or_a_skill_name_is_not_still_said() -> None:
    node = compose("- name: will the hoist take her\n  skill: hoist-check\n  args: {h: x}\n")
    assert still_said([node], {"hoist"}) == set()
    said = compose("- name: check\n  when: hoist != '25t'\n")
    assert still_said([said], {"hoist"}) == {"hoist"}  # near-miss: an expression still names it
    gh = compose("steps:\n  - title: OVEN check\n    run: echo $OVEN\n")
    assert still_said([gh], {"OVEN"}) == {"OVEN"}
