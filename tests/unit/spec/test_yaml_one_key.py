"""Steps written as a list of one-key mappings (the key the step's id, its mapping the step's keys),
a limits key holding one duration (the whole run's limit), the author's own keys for a condition
and its otherwise, YAML's yes / no in a condition and `2x @ 20s` in a retry (`yaml_one_key`). Each
rule in several kinds of document; what is not read is warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([(s, None) for s in (
    "soil-probe", "open-valves", "log-dry-day", "weigh-dog", "vet-check", "assign-run", "turn-wheels",
    "grade-rind", "label-batch", "build-wheel", "publish-release", "fetch-feed", "sky-check", "book-scope",
    "cloud-log")])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.yaml", "yaml", CATALOG)


def _notes(step) -> list[str]:  # type: ignore[no-untyped-def]
    return [r.note for r in step.readings]


def _policy(spec, step: str):  # type: ignore[no-untyped-def]
    [read] = [r.statement.model_dump(exclude_defaults=True) for r in spec.readings if r.steps == (step,)]
    return read


GREENHOUSE = """\
# greenhouse B watering, run at dawn
chores:
  - probe:
      run: soil-probe
      retry: 3 @ 10s
  - water:
      run: open-valves
      only_if: probe.dry == yes
      max_time: 2m
  - skip:
      run: log-dry-day
      else_of: water
cap: 45m
"""

KENNEL = """\
kennel:
  ask_for: [dog, owner]
  budget: 2h   # the whole check-in
  routine:
    - weigh: {does: weigh-dog}
    - vet:
        does: vet-check
        runs_if: weigh.kg > 40
    - run:
        does: assign-run
        otherwise_of: vet
"""

CHEESE = """\
cave: north
steps:
  - step: {id: turn, skill: turn-wheels, retries: 2 @ 1m}
  - step:
      id: grade
      skill: grade-rind
      skip_unless: turn.mould == off
  - Label the batch:
      skill: label-batch
limits: 90 minutes
"""

RELEASE = """\
tasks:
  - build:
      uses: build-wheel
  - ship:
      uses: publish-release
      run_only_if: build.ok == yes
budget: 600
"""


def test_a_greenhouse_chore_list_of_one_key_mappings_is_the_steps_in_order() -> None:
    spec = _read(GREENHOUSE)
    probe, water, skip = spec.steps
    assert [s.id for s in spec.steps] == ["probe", "water", "skip"]
    assert [s.skill for s in spec.steps] == ["soil-probe", "open-valves", "log-dry-day"]
    assert probe.where == "doc.yaml:3" and water.where == "doc.yaml:6"
    assert any("read as the step `probe`" in n for n in _notes(probe))
    assert water.when == "probe.dry == true" and water.timeout_s == 120.0
    assert skip.otherwise_of == "water"
    assert _policy(spec, "probe") == {"retries": 3, "wait": {"kind": "fixed", "seconds": (10.0,)}}
    assert spec.timeout_s == 2700.0


def test_a_kennel_routine_one_level_down_is_lifted_with_the_keys_beside_it() -> None:
    spec = _read(KENNEL)
    weigh, vet, run = spec.steps
    assert (weigh.skill, vet.skill, run.skill) == ("weigh-dog", "vet-check", "assign-run")
    assert vet.when == "weigh.kg > 40" and run.otherwise_of == "vet"
    assert [i.name for i in spec.inputs or ()] == ["dog", "owner"]
    assert spec.timeout_s == 7200.0
    assert any("the whole run's time limit" in r.note for r in weigh.readings)


def test_a_cheese_caves_step_wrappers_and_a_label_that_is_no_id() -> None:
    spec = _read(CHEESE)
    turn, grade, label = spec.steps
    assert (turn.id, grade.id) == ("turn", "grade")
    assert _policy(spec, "turn") == {"retries": 2, "wait": {"kind": "fixed", "seconds": (60.0,)}}
    assert grade.when == "turn.mould == false"
    assert label.id == "label-the-batch" and label.name == "Label the batch" and label.skill == "label-batch"
    assert spec.timeout_s == 5400.0
    [yes_no] = [w for w in spec.warnings if "yes / no" in w.message]
    assert yes_no.line == 7


def test_a_release_pipelines_bare_number_budget_is_warned_and_not_read() -> None:
    spec = _read(RELEASE)
    build, ship = spec.steps
    assert (build.skill, ship.skill) == ("build-wheel", "publish-release")
    assert ship.when == "build.ok == true"
    assert spec.timeout_s is None
    [budget] = [w for w in spec.warnings if "budget" in w.message]
    assert budget.line == 7 and "timeout: 10m" in budget.message


def test_an_observatory_night_plan_says_its_limit_twice_the_timeout_key_wins() -> None:
    spec = _read("timeout: 6h\nguardrails: 8h\njobs:\n  - sky:\n      run: sky-check\n"
                 "  - book:\n      run: book-scope\n      only_if: sky.clear == 'yes'\n"
                 "  - log:\n      run: cloud-log\n      else_for: book\n")
    _sky, book, log = spec.steps
    assert spec.timeout_s == 21600.0 and book.when == "sky.clear == 'yes'" and log.otherwise_of == "book"
    [again] = [w for w in spec.warnings if "guardrails" in w.message]
    assert again.line == 2
    assert not any("yes / no" in w.message for w in spec.warnings)  # quoted: the text


def test_a_newsletter_list_names_each_step_by_its_skill_or_its_skill_by_the_step() -> None:
    spec = _read("tasks:\n  - fetch-feed: {url: 'https://example.org/rss', retry: 2}\n  - post: book-scope\n")
    fetch, post = spec.steps
    assert (fetch.id, fetch.skill, fetch.input_values, fetch.retries) == (
        "fetch-feed", "fetch-feed", {"url": "https://example.org/rss"}, 2)
    assert (post.id, post.skill) == ("post", "book-scope")
    assert not spec.warnings


def test_a_word_that_is_no_catalog_skill_makes_no_one_key_step() -> None:
    spec = _read("tasks:\n  - fetch: fetch-feed\n  - debug: hello\n")
    assert not any("one-key" in n for s in spec.steps for n in _notes(s))


def test_a_list_with_a_step_key_as_its_one_key_is_left_as_it_was() -> None:
    spec = _read("steps:\n  - id: build\n    uses: build-wheel\n  - with: {x: 1}\n")
    assert not any("one-key" in n for s in spec.steps for n in _notes(s))
