"""Bounded time on big input (round 53): a script, config or text over 5,000 lines is refused at once, with the
limit; placing the "one of these values" readings of every step is linear in
the steps (each alternative found through indexes built once, not by searching every step before it). Each test
times the same work at n and 4n and asserts the ratio, never an absolute time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan.join_sources import JoinReader
from orchestrator.plan.scope import Produced
from orchestrator.spec import parse_spec
from orchestrator.spec.either_input import Alternative, EitherInput
from orchestrator.spec.foreign_length53 import MAX_LINES, too_long
from orchestrator.spec.model import StepSpec
from orchestrator.spec.source import Source
from tests.unit.bounds.test_growth52 import _grows_linearly


def _steps(n: int) -> tuple[list[StepSpec], dict[str, Produced], dict[str, str]]:
    steps = [StepSpec(id=f"step-{i}", number=i, name=f"Weigh crate {i}", where=f"c.md:{i}", skill=f"weigh-{i % 5}")
             for i in range(1, n + 1)]
    fields = [frozenset({f"crate_{i % 9}_id", "tally", f"bay {i % 4} code"}) for i in range(1, n + 1)]
    produced = {s.id: Produced(step=s.id, index=i, fields=f, gathered=i % 11 == 0)
                for i, (s, f) in enumerate(zip(steps, fields, strict=True))}
    return steps, produced, {s.id: s.skill or "" for s in steps}


READINGS = [
    EitherInput(name="ref", alternatives=(Alternative(words="crate 3 id"), Alternative(words="tally")),
                where="c.md:1", text="the crate 3 id or the tally as `ref`"),
    EitherInput(name="ref", alternatives=(Alternative(words="crate_5_id", step="step 2"),
                                          Alternative(words="bay code", step="weigh-3")), where="c.md:1", text=""),
    EitherInput(name="ref", alternatives=(Alternative(words="bay"), Alternative(words="pallet")), where="c.md:1",
                text=""),
    EitherInput(name="ref", alternatives=(Alternative(words="crate"), Alternative(words="id", step="nowhere")),
                where="c.md:1", text=""),
]


def _place_all(n: int) -> Callable[[], object]:
    steps, produced, skills = _steps(n)
    reader = JoinReader(steps, produced, skills, "c.md")
    return lambda: [reader.place(s, r) for s in steps for r in READINGS]


def test_every_steps_readings_are_placed_in_time_linear_in_the_steps() -> None:
    _grows_linearly(_place_all, 150)


def _naive(reader: JoinReader, step: StepSpec, reading: EitherInput) -> list[tuple[str, str, str]]:
    """The placement as it was searched, step by step (the oracle): the first of the steps looked in that
    outputs the words' name, then a name of the same words, then the one name sharing the most words."""
    from orchestrator.plan.join_sources import _GENERIC, _words

    index = reader.index[step.id]
    earlier = [reader.steps[i] for i in range(index - 1, -1, -1)]
    first = [s for s in earlier if s.id in step.depends_on] + [s for s in earlier if s.id not in step.depends_on]
    out: list[tuple[str, str, str]] = []
    for alt in reading.alternatives:
        if alt.step is not None:
            low = alt.step.lower()
            named = [s for s in earlier if low in (s.id, s.name.lower(), (s.skill or "").lower())
                     or alt.step.replace(" ", "-") == s.id]
            if not named:
                continue
            cands = named[:1]
        else:
            cands = [s for s in first if not reader.produced[s.id].gathered]
        used = [p[0] for p in out]
        ordered = [s for s in cands if s.id not in used] + [s for s in cands if s.id in used]
        said, key = alt.words, _words(alt.words)
        hit = next(((s.id, f, "its name") for s in ordered for f in sorted(reader.produced[s.id].fields) if f == said),
                   None) or next(((s.id, f, "its words") for s in ordered for f in sorted(reader.produced[s.id].fields)
                                  if _words(f) == key), None)
        if hit is None:
            scored: dict[str, tuple[int, str]] = {}
            for s in ordered:
                for f in reader.produced[s.id].fields:
                    common = set(key) & set(_words(f))
                    if common - _GENERIC and f not in scored:
                        scored[f] = (len(common), s.id)
            best = max((c for c, _ in scored.values()), default=0)
            top = [f for f, (c, _) in scored.items() if c == best]
            hit = (scored[top[0]][1], top[0], "loosely") if len(top) == 1 else None
        if hit is not None and hit[0] not in used:
            out.append(hit)
    return out


def test_an_indexed_placement_finds_what_searching_every_step_before_found() -> None:
    steps, produced, skills = _steps(40)
    steps = [s.model_copy(update={"depends_on": [f"step-{i}" for i in (2, 7) if i < s.number]}) if s.number % 3 == 0
             else s for s in steps]
    reader = JoinReader(steps, produced, skills, "c.md")
    for step in steps:
        for reading in READINGS:
            placed = [(p.step, p.field, p.how) for p in reader.place(step, reading).placed]
            assert placed == _naive(reader, step, reading), (step.id, reading.alternatives)


def test_a_named_step_is_the_latest_before_that_goes_by_that_name() -> None:
    steps, produced, skills = _steps(12)
    reader = JoinReader(steps, produced, skills, "c.md")
    assert reader._named("weigh-3", 12) == 7  # step-8, the latest with that skill before position 12
    assert reader._named("step 2", 12) == 1
    assert reader._named("step 9", 5) is None  # near miss: a step after it is no step before it
    assert reader._named("weigh crate 4", 12) == 3


# -- a file that is not a spec, over the lines it is read to: refused at once (`spec.foreign_length53`) ----------


def _write(tmp_path: Path, name: str, lines: int) -> Path:
    path = tmp_path / name
    path.write_text("# 1) open the bags\nmy $b = run_skill('open-batch', {});\n"
                    + "# tray checked and sent on\n" * (lines - 2), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["returns.pl", "notes.txt", "rules.sieve", "Procfile"])
def test_a_script_or_text_over_the_line_limit_is_refused_with_its_length_and_the_limit(tmp_path: Path,
                                                                                     name: str) -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec(_write(tmp_path, name, MAX_LINES + 1))
    said = caught.value.diagnostics
    assert len(said) == 1 and said[0].code == "spec.too-long" and said[0].line == MAX_LINES + 1
    assert f"{MAX_LINES + 1:,} lines" in said[0].message and f"limit {MAX_LINES:,} for" in said[0].message


def test_a_spec_of_that_length_and_a_script_at_the_limit_are_read(tmp_path: Path) -> None:
    assert too_long("flow.md", "line\n" * (4 * MAX_LINES)) is None  # near miss: a spec's own format
    assert too_long("flow.yaml", "a: 1\n" * (4 * MAX_LINES)) is None
    assert too_long("returns.pl", "# note\n" * MAX_LINES) is None  # at the limit
    assert too_long("returns.pl", "# note\n" * MAX_LINES + "# one more") is not None  # one line over, unended


def test_the_refusal_takes_time_linear_in_the_file_not_the_readers(tmp_path: Path) -> None:
    def make(n: int) -> Callable[[], object]:
        path = _write(tmp_path, f"r{n}.pl", n)

        def refuse() -> None:
            with pytest.raises(SpecError):
                parse_spec(path)
        return refuse

    _grows_linearly(make, 2 * MAX_LINES)


def test_a_script_giving_more_steps_than_its_kind_plans_is_refused_at_the_first_one_too_many(tmp_path: Path) -> None:
    from orchestrator.spec.foreign_length53 import MAX_STEPS, too_many_steps

    call = "run_skill('open-batch', { ward => $ward });\n"
    path = tmp_path / "returns.pl"
    path.write_text("#!/usr/bin/perl\nmy $ward = shift @ARGV;\n" + call * (MAX_STEPS + 1), encoding="utf-8")
    with pytest.raises(SpecError) as caught:
        parse_spec(path)
    said = caught.value.diagnostics[0]
    assert said.code == "spec.too-many-steps" and said.line == MAX_STEPS + 3
    assert f"{MAX_STEPS + 1:,} steps" in said.message and f"limit {MAX_STEPS:,} for a `.pl` file" in said.message
    assert too_many_steps("returns.pl", MAX_STEPS) is None  # at the limit
    assert too_many_steps("flow.md", 4 * MAX_STEPS) is None  # near miss: a spec's own format has its own cap


# -- a long list that holds no steps is looked through once, not once per item (`spec.structure.read_container`) --


def _notes_list(n: int) -> list[object]:
    from orchestrator.spec.blocks import Bullet

    return [Bullet(line=i + 1, text=f"tray {i} was counted by the clerk and sent on", ordered=True, number=str(i + 1))
            for i in range(n)]


def test_a_long_list_with_no_steps_in_it_is_looked_through_in_linear_time() -> None:
    from orchestrator.spec.structure import read_container

    def make(n: int) -> Callable[[], object]:
        blocks = _notes_list(n)
        return lambda: [read_container(blocks, Source("", "n.md"), [], named=False)  # type: ignore[arg-type]
                        for _ in range(20)]  # twenty passes: one is too short to time under load

    _grows_linearly(make, 500)


def test_a_list_with_steps_after_notes_still_reads_them_and_one_without_none() -> None:
    from orchestrator.spec.blocks import Bullet
    from orchestrator.spec.structure import read_container

    blocks = [*_notes_list(3), Bullet(line=9, text="Run `pull-stock` to pull the stock", ordered=False),
              Bullet(line=10, text="Run `stock-report` to write the report", ordered=False)]
    found = read_container(blocks, Source("", "n.md"), [], named=False)  # type: ignore[arg-type]
    assert found is not None and [s.where for s in found[0]] == ["n.md:9", "n.md:10"]
    assert read_container(_notes_list(6), Source("", "n.md"), [], named=False) is None  # type: ignore[arg-type]
