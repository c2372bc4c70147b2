"""A block of policies kept apart from the steps, keyed by each step's label, name, id or skill, read as
that step's own keys (`yaml_policy_block`); an entry that names no step is warned at its line, never
dropped without a word. Tested in a school trip plan (YAML, steps keyed by number), a brewery batch
sheet (TOML), a podcast run sheet (JSON) and a lab protocol (a YAML list with ids)."""

from __future__ import annotations

from typing import Any

from orchestrator.plan.build import draft_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, skill

SKILLS = FakeCatalog(*[skill(n) for n in (
    "count-pupils", "book-coach", "send-letters", "mash-in", "boil-wort", "log-gravity", "cut-audio", "upload-episode",
    "tweet-link", "spin-down", "read-plate", "file-results")])
CATALOG = Vocabulary.of([(s.bound().name, None) for s in SKILLS])


def _plan(text: str, path: str, form: str) -> Any:
    plan, errors = draft_plan(parse_spec_text(text, path, form, CATALOG), SKILLS, settings=SETTINGS)
    assert plan is not None and not errors, errors
    return plan

TRIP = """\
# year 7 museum trip, sorted by Mrs K
steps:
  "1":
    label: head count
    tool: count-pupils
  "2":
    label: coach
    tool: book-coach
  "3":
    label: letters home
    tool: send-letters
# if it goes wrong
policies:
  head count:
    timeout: 20s
  coach:
    retries: 2
  letters home:
    on_error: continue
  lunch order:
    timeout: 1m
"""


def _yaml(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "trip.yaml", "yaml", CATALOG)


def test_a_trip_plan_reads_each_entry_of_its_policies_on_the_step_of_that_label() -> None:
    count, coach, letters = _plan(TRIP, "trip.yaml", "yaml").steps
    assert count.policy.attempt_timeout_s == 20.0
    assert coach.policy.retry.max_retries == 2
    assert letters.policy.on_error == "continue"
    assert any("policies" in str(p) for p in count.provenance.values())  # how it was read, shown in the plan


def test_an_entry_naming_no_step_is_said_at_its_line() -> None:
    spec = _yaml(TRIP)
    [unread] = [w for w in spec.warnings if "lunch order" in w.message]
    assert unread.line == 20 and "names no step" in unread.message


def test_a_key_the_step_says_already_is_warned_and_the_steps_kept() -> None:
    spec = _yaml(TRIP.replace("    tool: count-pupils\n", "    tool: count-pupils\n    timeout: 5s\n"))
    assert spec.steps[0].timeout_s == 5.0
    assert any("says again" in w.message for w in spec.warnings)


BREW = """\
name = "pale ale batch 12"

[[steps]]
id = "mash"
skill = "mash-in"

[[steps]]
id = "boil"
skill = "boil-wort"

[[steps]]
id = "gravity"
skill = "log-gravity"

[recovery]
boil-wort = { timeout = "90m" }
gravity = "retry it twice, 30s apart"
"""


def test_a_brewery_sheet_in_toml_keys_its_recovery_by_skill_and_by_id() -> None:
    _mash, boil, gravity = _plan(BREW, "batch.toml", "toml").steps
    assert boil.policy.attempt_timeout_s == 5400.0
    assert (gravity.policy.retry.max_retries, gravity.policy.retry.delays_s) == (2, (30.0,))
    spec = parse_spec_text(BREW, "batch.toml", "toml", CATALOG)
    assert not [w for w in spec.warnings if "recovery" in w.message and "not understood" in w.message]


PODCAST = """\
{
  "steps": [
    {"name": "edit", "skill": "cut-audio"},
    {"name": "publish", "skill": "upload-episode"},
    {"name": "promote", "skill": "tweet-link"}
  ],
  "timeouts": {"edit": "10m", "publish": "2m"},
  "retries": {"publish": 3, "promo": 1}
}
"""


def test_a_podcast_run_sheet_in_json_reads_blocks_of_timeouts_and_retries_by_step_name() -> None:
    edit, publish, promote = _plan(PODCAST, "episode.json", "yaml").steps
    assert (edit.policy.attempt_timeout_s, publish.policy.attempt_timeout_s) == (600.0, 120.0)
    assert (publish.policy.retry.max_retries, promote.policy.retry.max_retries) == (3, 0)
    spec = parse_spec_text(PODCAST, "episode.json", "yaml", CATALOG)
    assert any("'promo'" in w.message and "names no step" in w.message for w in spec.warnings)


LAB = """\
protocol: ELISA plate read
steps:
  - id: spin
    skill: spin-down
  - id: read
    skill: read-plate
  - id: file
    skill: file-results
error_handling:
  read:
    if_it_fails: try again 2 more times, 10 s apart
  file: carry on if it fails
"""


def test_a_lab_protocol_reads_its_error_handling_in_words_on_each_step() -> None:
    _spin, read, file = _plan(LAB, "elisa.yaml", "yaml").steps
    assert (read.policy.retry.max_retries, read.policy.retry.delays_s) == (2, (10.0,))
    assert file.policy.on_error == "continue"


def test_a_block_that_names_no_step_at_all_is_left_to_the_form_to_warn() -> None:
    text = LAB.replace("  read:\n", "  reader:\n").replace("  file: carry", "  filing: carry")
    assert _plan(text, "elisa.yaml", "yaml").steps[1].policy.retry.max_retries == 0
    spec = _yaml(text)
    assert any("error_handling" in w.message for w in spec.warnings)
