"""A comment over a step in a list of steps that counts the steps starting together (`spec.comment_starts46`), and a
whole-run limit key said in words (`yaml_top.run_limit_words`), in a YAML form's words that are no blind set's."""

from __future__ import annotations

import pytest

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

_SKILLS = [
    skill("weigh-flour", input_schema=obj(("bin",), bin="string"), output_schema=obj(("kg",), kg="number")),
    skill("count-eggs", input_schema=obj(("bin",), bin="string"), output_schema=obj(("n",), n="integer")),
    skill("check-oven", input_schema=obj(("bin",), bin="string"), output_schema=obj(("hot",), hot="boolean")),
    skill("mix-dough", input_schema=obj(("kg", "n"), kg="number", n="integer"), output_schema=obj(("ok",), ok="boolean")),
]


def _plan(text: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, "bake.yaml", "yaml", Vocabulary(skills=frozenset(s.name for s in _SKILLS)))
    return build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def _spec(comment: str, head: str = "") -> str:
    return (f"{head}inputs:\n  bin: {{}}\nsteps:\n  {comment}\n"
            "  - id: flour\n    skill: weigh-flour\n    input: {bin: inputs.bin}\n"
            "  - id: eggs\n    skill: count-eggs\n    input: {bin: inputs.bin}\n"
            "  - id: oven\n    skill: check-oven\n    input: {bin: inputs.bin}\n"
            "  - id: mix\n    skill: mix-dough\n    depends_on: [flour, eggs, oven]\n"
            "    input: {kg: flour.kg, n: eggs.n}\n")


@pytest.mark.parametrize(("comment", "together"), [
    ("# the next 3 run in parallel, nothing between them", ("eggs", "oven")),
    ("# both of these can happen side by side", ("eggs",)),
    ("# these two don't need each other", ("eggs",)),
])
def test_a_counted_comment_over_a_step_starts_those_steps_together(comment: str, together: tuple[str, ...]) -> None:
    plan = _plan(_spec(comment))
    by_id = {s.id: s for s in plan.steps}
    for sid in together:
        assert by_id[sid].depends_on == (), (sid, by_id[sid].depends_on)
    if "oven" not in together:
        # past the count: the step after two that start together waits for both (`plan.mapping`, round 45)
        assert set(by_id["oven"].depends_on) == {"flour", "eggs"}
    assert any(w.line == 4 and "start together" in w.message for w in plan.warnings)


@pytest.mark.parametrize("comment", [
    "# these two must never run at the same time",  # a negation
    "# retry these two together if the scale jams",  # said of tries
    "# these can go together",  # no count: left to the policy readers
])
def test_a_comment_that_negates_speaks_of_tries_or_counts_nothing_starts_none_together(comment: str) -> None:
    plan = _plan(_spec(comment))
    assert {s.id: s.depends_on for s in plan.steps}["eggs"] == ("flour",)


@pytest.mark.parametrize(("head", "wall", "timeout"), [
    ('run_limit: "20 minutes tops, then pull the plug and do it by hand"\n', 1200.0, None),
    ('job_deadline: "an hour all in, call the baker if not"\n', 3600.0, None),
    ("run_limit: 20 minutes\n", 1200.0, None),  # a plain duration: as before
])
def test_a_whole_run_key_said_in_words_is_the_run_s_limit_never_each_step_s(head: str, wall: float | None,
                                                                            timeout: float | None) -> None:
    plan = _plan(_spec("# mixing notes", head))
    if wall is not None:
        assert plan.limits.wall_time_s == wall
    assert all(s.policy.attempt_timeout_s == timeout for s in plan.steps)
