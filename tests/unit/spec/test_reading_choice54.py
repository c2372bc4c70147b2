"""Which reading of a code file stands (`spec.reading_choice54`): the calls' reading weighed by what it resolves
(literals of references against it, a step from a doc string losing it), the prose reading by the bindings and
waits its skills' fields give."""

from __future__ import annotations

from orchestrator.spec.check import SpecParts
from orchestrator.spec.model import FieldSpec, Mention, StepSpec
from orchestrator.spec.reading_choice54 import calls_weight, calls_win, prose_weight
from orchestrator.spec.vocabulary import Vocabulary

INPUTS = {"pull-rooms": {"site"}, "price-room": {"rooms", "rate"}, "send-bill": {"total", "to"}}
OUTPUTS = {"pull-rooms": {"rooms"}, "price-room": {"total"}, "send-bill": {"sent"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))
CODE = 'def run(job):\n    """Done when send-bill comes back with sent: true."""\n    a = 1\n    b = 2\n    c = 3\n'


def step(sid: str, skill: str | None, line: int, **more: object) -> StepSpec:
    return StepSpec(id=sid, name=sid, where=f"f.py:{line}", skill=skill, **more)  # type: ignore[arg-type]


def parts(*steps: StepSpec) -> SpecParts:
    return SpecParts(name="x", steps=steps)


def test_the_calls_reading_weighs_what_it_resolves() -> None:
    resolved = parts(step("a", "pull-rooms", 3, inputs=(FieldSpec(name="site", where="f.py:3", source="inputs.site"),)),
                     step("b", "price-room", 4, depends_on=("a",),
                          inputs=(FieldSpec(name="rooms", where="f.py:4", source="steps.a.output.rooms"),)))
    assert calls_weight(resolved, CODE) == 3
    literal = parts(step("a", "pull-rooms", 3, input_values={"site": "job.site"}),
                    step("b", "price-room", 4, input_values={"rooms": "&1.rooms", "rate": "fast"}))
    # `job.site`, `&1.rooms` taken as text (warned: 2 unread, -2 each after +1); `fast` a literal as written (+1)
    assert calls_weight(literal, CODE, unread=2) == -1
    assert calls_weight(literal, CODE) == 3  # near-miss: the same values written as literals on purpose
    # a step read from the doc string's line loses the reading outright
    assert calls_weight(parts(step("done", "send-bill", 2)), CODE) is None


def test_the_prose_reading_weighs_the_waits_its_skills_give() -> None:
    prose = parts(step("step-1", None, 3, mentions=(Mention(text="pull-rooms", where="f.py:3"),)),
                  step("step-2", None, 4, mentions=(Mention(text="price-room", where="f.py:4"),)),
                  step("step-3", "send-bill", 5))
    assert prose_weight(prose, VOCAB) == 4  # rooms <- step-1 (+1, waits +1); total <- step-2 (+1, waits +1)
    # near-miss: skills that give nothing the others take weigh nothing
    assert prose_weight(parts(step("s1", "send-bill", 3), step("s2", "pull-rooms", 4)), VOCAB) == 0


def test_the_better_reading_stands() -> None:
    prose = parts(step("step-1", "pull-rooms", 3), step("step-2", "price-room", 4))
    literal = parts(step("a", "pull-rooms", 3, input_values={"site": "job.site"}),
                    step("b", "price-room", 4, input_values={"rooms": "a.rooms"}))
    assert not calls_win(literal, prose, CODE, VOCAB, unread=2)
    resolved = parts(step("a", "pull-rooms", 3, inputs=(FieldSpec(name="site", where="f.py:3", source="inputs.site"),)),
                     step("b", "price-room", 4, depends_on=("a",),
                          inputs=(FieldSpec(name="rooms", where="f.py:4", source="steps.a.output.rooms"),)))
    assert calls_win(resolved, prose, CODE, VOCAB)
    assert not calls_win(parts(step("done", "send-bill", 2), *resolved.steps), prose, CODE, VOCAB)
