"""An approval block's keys in the author's own words (`approval_yaml_keys`): a key that gives the person a time
(`hold_for: 90m`, `give_her: 2h`, `keep_open: 1 day`) is the approval's wait, a key that names silence
(`silence_means: go ahead`, `if_quiet: "don't sail"`, `nobody_answers: proceed anyway`) what a timeout means, each
warned at its line; other keys stay "not understood". Tested in a sailing club's race plan, a newsroom's publishing
pipeline and a print shop's job file, with negative tests (a duration under a key that gives no time, a silence
key whose words say neither)."""

from __future__ import annotations

from typing import Any

import pytest
from yaml import ScalarNode

from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_yaml_keys import own_approval_key
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

SKILLS = FakeCatalog(skill("check-wind", output_schema=obj(gusty="boolean")),
                     skill("start-race", output_schema=obj(started="boolean")))
WORDS = Vocabulary.of([(s.bound().name, None) for s in SKILLS])

RACE_PLAN = """\
steps:
  - id: wind
    skill: check-wind
  - id: start
    skill: start-race
    approval:
      only_if: wind.gusty
      who: the race officer
      hold_for: 90m
      silence_means: go ahead
"""
NEWSROOM = """\
stages:
  - id: wind
    skill: check-wind
  - id: start
    skill: start-race
    editor_sign_off:
      when: wind.gusty
      who: duty editor
      give_her: 2h
      if_quiet: "don't publish - hold it"
"""
PRINT_SHOP = """\
steps:
  - id: wind
    skill: check-wind
  - id: start
    skill: start-race
    sign_off:
      if: wind.gusty
      keep_open: 1 day
      nobody_answers: proceed anyway
"""


@pytest.mark.parametrize(("text", "seconds", "then"), [
    (RACE_PLAN, 5400.0, "approve"),
    (NEWSROOM, 7200.0, "reject"),
    (PRINT_SHOP, 86400.0, "approve"),
])
def test_own_keys_give_the_approvals_wait_and_what_silence_means(text: str, seconds: float, then: str) -> None:
    spec = parse_spec_text(text, "doc.yaml", "yaml", WORDS)
    plan, errors = draft_plan(spec, SKILLS, settings=SETTINGS)
    assert plan is not None and not errors, errors
    approval: Any = plan.steps[1].policy.approval
    assert approval is not None and (approval.when, approval.timeout_s, approval.on_timeout) == (
        "steps['wind'].output.gusty", seconds, then)
    assert not any("not understood" in w.message for w in spec.warnings)
    lines = text.splitlines()
    said = {n for n, line in enumerate(lines, 1) if any(k in line for k in ("hold_for", "keep_open", "silence_means",
                                                                              "if_quiet", "nobody"))}
    assert said <= {w.line for w in spec.warnings if "read as" in w.message}  # each own key's reading, at its line


def _node(value: str) -> ScalarNode:
    return ScalarNode("tag:yaml.org,2002:str", value)


@pytest.mark.parametrize(("key", "value", "kind", "read"), [
    ("hold_for", "90m", "timeout", "90m"),
    ("allow", "45 min", "timeout", "45 min"),
    ("grace_period", "2h", "timeout", "2h"),
    ("silence_means", "go ahead", "on_timeout", "approve"),
    ("if_quiet", "don't sail", "on_timeout", "reject"),
    ("no_reply", "reject", "on_timeout", "reject"),
])
def test_own_key_readings(key: str, value: str, kind: str, read: str) -> None:
    own = own_approval_key(key, _node(value))
    assert own is not None and (own.kind, own.node.value) == (kind, read)


@pytest.mark.parametrize(("key", "value"), [
    ("form", "QA-7"),  # names no time and no silence
    ("hold_for", "the afternoon"),  # no duration said
    ("room", "90m"),  # a duration under a key that gives no time
    ("silence_means", "see the handbook"),  # the words say neither
    ("who", "the skipper"),
])
def test_keys_that_are_not_a_wait_or_a_silence(key: str, value: str) -> None:
    assert own_approval_key(key, _node(value)) is None


def test_an_unread_own_key_is_still_warned() -> None:
    spec = parse_spec_text(RACE_PLAN.replace("hold_for: 90m", "hold_for: the afternoon"), "doc.yaml", "yaml", WORDS)
    assert any(w.line == 9 and "not understood" in w.message for w in spec.warnings)
    approval = spec.steps[1].approval
    assert approval is not None and approval.timeout_s is None
