"""A recipe whose body pipes a `jq` object filter into `skill NAME` is a step of that skill, the
filter's keys its inputs; a justfile's `:=` variables are workflow inputs with a default; and the
recipe comments' "don't put a retry on it", grace periods and "(a if b, c otherwise)" (`spec.justfile35`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.justfile35 import piped_arguments, piped_skill, skill_segment, written_file
from orchestrator.spec.phrase import read_phrase

_BAKERY = """\
# justfile for the sourdough bake (run `just day=2027-03-02 loaves=40`)
set shell := ["bash", "-c"]

day    := "2027-03-01"
loaves := "24"
tmp    := "work"

# the flour API is slow in the mornings: retry 2 times, 10s apart
flour:
    skill flour-stock day={{day}} > {{tmp}}/flour.json

starter:
    skill starter-check > {{tmp}}/starter.json

# hydration is fixed at 0.78 for this bake
plan: flour starter
    jq -s '{stock: .[0].sacks, ready: .[1].ready, loaves: {{loaves}}, hydration: 0.78}' \\
      {{tmp}}/flour.json {{tmp}}/starter.json \\
      | skill bake-plan > {{tmp}}/plan.json

# don't put a retry on this one, the oven is booked once
oven: plan
    jq '{schedule: .slots, day: "{{day}}"}' {{tmp}}/plan.json | skill oven-book > {{tmp}}/oven.json
"""


def _spec(text: str, name: str = "j.md"):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, name, "markdown")


def test_a_recipe_piping_into_a_skill_is_a_step_with_the_filters_keys_as_inputs() -> None:
    spec = _spec(_BAKERY)
    assert [(s.name, s.skill) for s in spec.steps] == [
        ("flour", "flour-stock"), ("starter", "starter-check"), ("plan", "bake-plan"), ("oven", "oven-book")]
    _, _, plan, oven = spec.steps
    assert {f.name: f.source for f in plan.inputs} == {
        "stock": "steps.step-1.output.sacks", "ready": "steps.step-2.output.ready", "loaves": "inputs.loaves"}
    assert plan.input_values == {"hydration": 0.78}
    assert plan.depends_on == ("step-1", "step-2")
    assert {f.name: f.source for f in oven.inputs} == {"schedule": "steps.step-3.output.slots", "day": "inputs.day"}


def test_a_justfiles_variables_are_inputs_with_their_value_as_default_and_a_path_variable_is_none() -> None:
    spec = _spec(_BAKERY)
    assert {i.name: (i.required, i.default) for i in spec.inputs} == {
        "day": (False, "2027-03-01"), "loaves": (False, "24")}


def test_the_comment_above_a_piped_recipe_is_its_policy() -> None:
    oven = _spec(_BAKERY).steps[3]
    assert [t.line for t in oven.texts] == [21]
    assert read_phrase(oven.texts[0].text).statement.no_retry


def test_a_makefile_recipe_piping_into_a_skill_keeps_its_constant_a_literal() -> None:
    text = ("# nightly stock sync\n\n```makefile\nSITE := north\n\nbuild/counts.json:\n"
            "\tskill count-shelves site=$(SITE) > build/counts.json\n\n"
            "build/orders.json: build/counts.json\n"
            "\tjq '{low: .below_min}' build/counts.json | skill reorder-stock > build/orders.json\n```\n")
    spec = _spec(text)
    count, order = spec.steps
    assert (count.skill, order.skill) == ("count-shelves", "reorder-stock")
    assert count.input_values == {"site": "north"}  # make's `:=`: a constant, as before
    assert {f.name: f.source for f in order.inputs} == {"low": "steps.step-1.output.below_min"}
    assert spec.inputs == ()


def test_a_taskfile_command_piping_into_a_skill_is_a_step() -> None:
    text = ("# ward rounds\n\n```yaml\ntasks:\n  vitals:\n    cmds:\n      - skill read-vitals > vitals.json\n"
            "  flags:\n    deps: [vitals]\n    cmds:\n      - \"jq '{readings: .vitals}' vitals.json | skill flag-patients\"\n```\n")
    vitals, flags = _spec(text).steps
    assert (vitals.skill, flags.skill) == ("read-vitals", "flag-patients")
    assert {f.name: f.source for f in flags.inputs} == {"readings": "steps.step-1.output.vitals"}
    assert flags.depends_on == ("step-1",)


def test_a_key_the_filter_computes_is_warned_not_dropped() -> None:
    text = ("```just\nrows:\n    skill load-rows > rows.json\n\nsum:\n    skill start-sum > s.json\n\n"
            "total: rows sum\n    jq '{n: (.rows | length), rows: .rows}' rows.json | skill sum-rows\n```\n")
    spec = _spec(text)
    total = spec.steps[2]
    assert {f.name for f in total.inputs} == {"rows"}
    assert any("`n`" in w.message and w.line == 9 for w in spec.warnings)


def test_piped_calls_and_what_is_not_one() -> None:
    assert piped_skill("jq . a.json | skill sort-rows > b.json") == "sort-rows"
    assert piped_skill("mkdir -p out && skill fetch-day day=1") == "fetch-day"
    assert piped_skill("echo 'then | skill x'") is None  # inside quotes
    assert piped_skill("jq . a.json | skillful-tool") is None
    assert piped_skill("skill first-one | jq .") is None  # at the start: `spec.recipes` reads it
    assert skill_segment("jq --arg d 3 '{d:$d}' | skill x n=2 > o.json") == "skill x n=2"
    assert written_file("skill x > out/a.json") == "out/a.json"
    assert written_file("skill x 2>&1") is None
    assert written_file("jq '.a > 3' f.json") is None


def test_the_filter_reads_files_variables_literals_and_args() -> None:
    args = piped_arguments("jq -n --arg w \"{{who}}\" '{who: $w, n: 3, tag: \"blue\", f: .x}' | skill s")
    assert [(a.key, a.value, a.unread) for a in args] == [
        ("who", "{{who}}", None), ("n", "3", None), ("tag", '"blue"', None), ("f", None, ".x")]
    assert piped_arguments("jq '{a: .a}' f.json > g.json") == []  # no skill after it


def test_recipe_comment_phrasings_and_their_lookalikes() -> None:
    assert read_phrase("DO NOT put a retry on this one.").statement.no_retry
    assert read_phrase("never add retries to the card charge").statement.no_retry
    assert read_phrase("put a retry on it, 3 times").statement.retries == 3
    assert read_phrase("grace is 3 days per the loan rules").statement.timeout_s is None
    assert read_phrase("a 5-day grace period applies; time out after 30 s").statement.timeout_s == 30
    assert read_phrase("build the invoice (pdf if the client has one, paper otherwise)").statement.on_failure is None
    assert read_phrase("if the feed is down, email ops").statement.on_failure is not None
    stated = read_phrase("DO NOT put a retry on this one. it ran twice in oct and people got 2 mails").statement
    assert stated.no_retry and stated.retries is None
