"""A Java .properties file whose dotted `step.N.field` keys group a step's fields (`spec.properties47`)."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import Vocabulary, parse_spec_text
from orchestrator.spec.properties47 import logical_lines

# a kennel's evening round: `key: value` lines, `!` comments, a continued line, non-numbered task ids
_KENNEL = """! evening round at the kennels
kennel.day:
bowl.grams: 250
task.count.skill: count-dogs
task.count.in: day:${kennel.day}
! the census app is flaky: retry twice, wait 10 seconds
task.feed.skill: feed-dog
task.feed.foreach: ${task.count.dogs}
task.feed.in: dog:${item.tag}, \\
    grams:${bowl.grams}
task.log.skill: write-log
task.log.after: count, feed
task.log.in: fed:${task.feed.*}
run.done.when: task.log.ok == true
"""

# a print shop: `=` lines, numbered stages, two that start together, a run limit in a key's name
_PRINT = """# print run
job_ref=
stage.1.skill=fetch-artwork
stage.1.in=ref:${job_ref}
stage.2.skill=book-press
stage.2.in=ref:${job_ref}
stage.2.with=1
stage.3.skill=proof-sheet
stage.3.in=art:${stage.1.file}, slot:${stage.2.slot}
stage.4.skill=notify-client
stage.4.in=ref:${job_ref}
shop.maxMinutes=20
"""


def _takes(step) -> dict[str, str]:
    return {**{f.name: f.source or "" for f in step.inputs}, **{k: str(v) for k, v in step.input_values.items()}}


def _read(text: str, skills: tuple[str, ...], name: str = "x.properties"):
    return parse_spec_text(text, name, "dotenv", Vocabulary.of((s, None) for s in skills), anchored=False,
                           said="read as markdown text")


def test_colon_lines_bang_comments_a_continuation_and_named_tasks() -> None:
    spec = _read(_KENNEL, ("count-dogs", "feed-dog", "write-log"))
    assert [s.skill for s in spec.steps] == ["count-dogs", "feed-dog", "write-log"]
    assert [i.name for i in spec.inputs] == ["kennel_day"]  # a dotted key as a name
    _count, feed, log = spec.steps
    assert feed.for_each is not None and "count" in str(feed.for_each)
    assert "grams" in _takes(feed) and "dog" in _takes(feed)
    assert list(log.depends_on) == ["count", "feed"]
    assert "feed" in str(_takes(log)["fed"])


def test_with_starts_a_stage_alongside_and_a_stage_naming_no_other_waits_for_the_one_before() -> None:
    spec = _read(_PRINT, ("fetch-artwork", "book-press", "proof-sheet", "notify-client"))
    deps = {s.id: list(s.depends_on) for s in spec.steps}
    assert deps["step-1"] == [] and deps["step-2"] == []  # `with=1`: alongside step 1
    assert deps["step-3"] == []  # it waits for what it reads (`${stage.1.file}`, `${stage.2.slot}`), at plan time
    assert "steps.step-1.output.file" in _takes(spec.steps[2])["art"]
    assert deps["step-4"] == ["step-3"]  # reads no step: after the one before
    assert "with" not in _takes(spec.steps[1])  # `with=1` is no input


def test_a_with_that_gives_values_is_inputs_not_a_start_together() -> None:  # near-miss
    text = "step.1.skill=fetch-artwork\nstep.2.skill=book-press\nstep.2.with=ref:7\n"
    spec = _read(text, ("fetch-artwork", "book-press"))
    assert list(spec.steps[1].depends_on) == ["step-1"]
    assert "ref" in _takes(spec.steps[1])


def test_a_properties_file_naming_no_skill_is_no_such_spec() -> None:  # near-miss: an app's settings
    text = "# app\nserver.port=8080\nstep.1.size=4\n"
    with pytest.raises(SpecError):
        _read(text, ("fetch-artwork",))


def test_logical_lines_join_a_trailing_backslash_but_not_an_escaped_one() -> None:
    assert logical_lines(["a=1, \\", "   2", "b=c:\\\\", "d=3"]) == [(1, "a=1, 2"), (3, "b=c:\\\\"), (4, "d=3")]


def test_a_limit_in_a_keys_name_is_the_whole_runs_and_a_done_when_key_the_success_check() -> None:
    spec = _read(_PRINT, ("fetch-artwork", "book-press", "proof-sheet", "notify-client"))
    assert spec.timeout_s == 1200  # `shop.maxMinutes=20`
    kennel = _read(_KENNEL, ("count-dogs", "feed-dog", "write-log"))
    assert [t.text for t in kennel.steps[2].texts if t.kind == "success"] == ["ok == true"]
    assert kennel.steps[0].texts[0].line == 6  # the `!` comment under its keys: task.count's words


def test_a_max_of_something_else_is_a_constant_not_a_limit() -> None:  # near-miss
    spec = _read(_PRINT.replace("shop.maxMinutes=20", "press.maxSheets=500"),
                 ("fetch-artwork", "book-press", "proof-sheet", "notify-client"))
    assert spec.timeout_s is None
    assert any("press_maxSheets" in w.message for w in spec.warnings)


def test_a_with_naming_itself_is_warned_not_read() -> None:  # near-miss
    spec = _read("step.1.skill=fetch-artwork\nstep.2.skill=book-press\nstep.2.with=2\n", ("fetch-artwork", "book-press"))
    assert list(spec.steps[1].depends_on) == ["step-1"]
    assert any("with=2" in w.message for w in spec.warnings)
