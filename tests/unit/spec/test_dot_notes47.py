"""A Graphviz DOT note node that sets a value (`spec.dot_notes47`): the literal of the steps its edges reach, on graphs
of other kinds than the fixture's, and what looks like one but must not be read so."""

from __future__ import annotations

from orchestrator.spec.dot_notes47 import note_settings, read_dot_inputs, read_dot_notes
from orchestrator.spec.model import StepSpec
from orchestrator.spec.source import Source


def _read(text: str, skills: dict[str, str], path: str = "g.gv") -> tuple[dict[str, dict[str, object]], list[str]]:
    src = Source(text, path)
    steps = []
    for k, (node, skill) in enumerate(skills.items(), 1):
        line = next(i for i, raw in enumerate(text.splitlines(), 1) if raw.strip().startswith(node))
        steps.append(StepSpec(id=f"step-{k}", number=k, name=skill, where=f"{path}:{line}", skill=skill,
                              description=text.splitlines()[line - 1].strip()))
    out = read_dot_notes(steps, src)
    return {s.id: dict(s.input_values) for s in out}, [f"{w.line}: {w.message}" for w in src.warnings]


def test_a_bakery_graph_s_note_sets_the_oven_temperature_of_the_step_it_points_at() -> None:
    text = ("// bakery.gv - the early bake\n"
            "digraph bake {\n"
            "  node [shape=box];\n"
            "  oven [shape=note, label=\"temp_c = 220\"];\n"
            "  mix  [label=\"dough-mix\"];\n"
            "  bake [label=\"oven-bake\\nfor every tray\"];\n"
            "  mix -> bake [label=\"dough\"];\n"
            "  oven -> bake;\n"
            "}\n")
    values, said = _read(text, {"mix": "dough-mix", "bake": "oven-bake"})
    assert values == {"step-1": {}, "step-2": {"temp_c": 220}}
    assert any(m.startswith("4: the note node `oven` is read as fixed values") for m in said)


def test_a_strict_graph_with_block_comments_quoted_ids_and_an_edge_naming_the_field() -> None:
    text = ("/* release pipeline\n   drawn by ops */\n"
            "strict digraph \"release\" {\n"
            "  \"region note\" [shape=note label=\"region = \\\"eu-west\\\"; canary: 5\"]\n"
            "  build [label=\"build-image\"]\n"
            "  ship [label=\"deploy-image\"]  // the deploy\n"
            "  build -> ship [label=\"image\"]\n"
            "  \"region note\" -> ship [label=\"target_region\"]\n"
            "}\n")
    values, _ = _read(text, {"build": "build-image", "ship": "deploy-image"})
    assert values["step-2"] == {"region": "eu-west", "canary": 5}  # two settings: their own names
    one = text.replace("; canary: 5", "")
    values, _ = _read(one, {"build": "build-image", "ship": "deploy-image"})
    assert values["step-2"] == {"target_region": "eu-west"}  # one setting: the edge's field names the input


def test_a_note_with_no_edges_gives_its_value_to_the_steps_that_name_it() -> None:
    text = ("graph lab {\n"
            "  cfg [shape=note, label=\"units = metric\"];\n"
            "  weigh [label=\"scale-read\"];  // weighs in the units\n"
            "  log [label=\"sheet-log\"];\n"
            "  weigh -- log;\n"
            "}\n")
    values, _ = _read(text, {"weigh": "scale-read", "log": "sheet-log"})
    assert values == {"step-1": {"units": "metric"}, "step-2": {}}


def test_near_misses_a_remark_note_a_box_that_sets_and_a_graph_that_is_no_graph() -> None:
    assert note_settings("TODO: ask Ramon about the wheel") == {}
    assert note_settings("check the dome first") == {}
    text = ("digraph d {\n"
            "  memo [shape=note, label=\"remember: call the lab first\"];\n"
            "  mode [shape=box, label=\"mode = fast\"];\n"
            "  run [label=\"run-job\"];\n"
            "  memo -> run;\n"
            "  mode -> run;\n"
            "}\n")
    values, said = _read(text, {"run": "run-job"})
    assert values == {"step-1": {}} and said == []
    prose = ("Notes\n\nsite [shape=note, label=\"site = 3\"] is how I would draw it.\n"
             "run [label=\"run-job\"]\nsite -> run\n")
    values, said = _read(prose, {"run": "run-job"}, "notes.md")
    assert values == {"step-1": {}} and said == []  # no `digraph {` line: not a DOT graph


def _inputs(text: str, skills: dict[str, str]) -> tuple[list[str], dict[str, dict[str, str | None]]]:
    src = Source(text, "g.gv")
    steps = []
    for k, (node, skill) in enumerate(skills.items(), 1):
        line = next(i for i, raw in enumerate(text.splitlines(), 1) if raw.strip().startswith(node))
        steps.append(StepSpec(id=f"step-{k}", number=k, name=skill, where=f"g.gv:{line}", skill=skill,
                              description=text.splitlines()[line - 1].strip()))
    out, inputs = read_dot_inputs(steps, None, src)
    return [i.name for i in inputs or ()], {s.id: {f.name: f.source for f in s.inputs} for s in out}


def test_an_ellipse_node_is_a_workflow_input_its_edge_labels_the_fields_it_feeds() -> None:
    text = ("digraph payroll {\n"
            "  node [shape=box]\n"
            "  PERIOD [shape=ellipse, label=\"pay period\"]\n"
            "  hours [label=\"timesheet-pull\"]\n"
            "  pay [label=\"payslip-make\"]\n"
            "  PERIOD -> hours [label=\"month\"]\n"
            "  PERIOD -> pay\n"
            "  hours -> pay [label=\"rows\"]\n"
            "}\n")
    names, fields = _inputs(text, {"hours": "timesheet-pull", "pay": "payslip-make"})
    assert names == ["PERIOD"]
    assert fields == {"step-1": {"month": "inputs.PERIOD"}, "step-2": {"PERIOD": "inputs.PERIOD"}}


def test_a_circle_node_feeding_a_chain_and_near_misses_a_box_input_and_an_oval_step() -> None:
    text = ("graph g {\n"
            "  batch [shape=circle]\n"
            "  sieve [label=\"soil-sieve\", shape=box]\n"
            "  lab [shape=oval, label=\"lab-report\"]\n"
            "  crate [shape=box]\n"
            "  batch -- sieve -- lab\n"
            "  crate -- lab [label=\"crate_id\"]\n"
            "}\n")
    names, fields = _inputs(text, {"sieve": "soil-sieve", "lab": "lab-report"})
    assert names == ["batch"]  # the oval `lab` runs a skill: a step, no input; the box `crate` says nothing
    assert fields == {"step-1": {"batch": "inputs.batch"}, "step-2": {}}
