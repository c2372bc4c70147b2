"""A spec written as code (a Python list of dicts or calls, a JS/TS `export const steps = [...]`) or
as JSON in the author's own schema: read field by field, a condition field a condition, "else" the
otherwise of the condition before, comments inside a call that call's text, constants put in, and
a field not understood warned at its line; a saved plan .json is still a plan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.spec import parse_spec, parse_spec_text
from orchestrator.spec.json_kind import is_saved_plan

_JS_RELEASE = """\
// release train for the mobile app -- owned by the platform squad
// runner: `node run.js` picks up `steps` below

const MIN_COVERAGE = 80;   // below this we do not ship
export let buildId = undefined;   // the CI build to promote, given per run

export const steps = [
  {
    id: "fetch",
    skill: "fetch-build",
    args: { build: buildId },
    // artifact store flakes a lot: retry 3 times, 10 s apart
  },
  {
    id: "cov",
    skill: "coverage-report",
    args: { artifact: "fetch.artifact" },
  },
  {
    id: "ship",
    skill: "store-upload",
    condition: "cov.percent >= MIN_COVERAGE",
    args: { artifact: "fetch.artifact" },
    /* the store API is slow;
       give it 90 seconds at most */
  },
  {
    id: "hold",
    skill: "notify-qa",
    condition: "else",
    args: { percent: "cov.percent" },
    colour: "red",
  },
];
"""

_PY_LAB = """\
# plate_reader_protocol.py -- bench 2 automation
PLATE = None   # the plate barcode, scanned per run
PASS_MARK = 0.9

PIPELINE = [
    Step("read",
         skill="read-plate",
         inputs={"plate": PLATE},
         # reader hangs sometimes. retry twice, 20 seconds apart
         ),
    {"name": "score", "skill": "score-wells", "inputs": {"wells": "read.wells"}},
    {"name": "archive", "skill": "archive-plate", "condition": "score.ratio >= PASS_MARK",
     "inputs": {"plate": "PLATE"}},
    {"name": "retest", "skill": "queue-retest", "condition": "otherwise",
     "inputs": {"plate": "PLATE['barcode']"}},
]
"""

_JSON_KITCHEN = """\
{
  "_comment": "prep list for the morning shift, exported from the kitchen app",
  "recipe": "sourdough",
  "stages": [
    {"label": "mix", "tool": "mix-dough", "with": {"flour_kg": 5}},
    {"label": "proof", "tool": "proof-timer", "needs": ["mix"], "with": {"dough": "$mix.dough"},
     "if_it_breaks": "retry 2 times, 30s apart"},
    {"label": "bake", "tool": "bake-loaves", "needs": ["proof"], "with": {"dough": "$proof.dough"}}
  ]
}
"""


def _policies(spec: object) -> dict[str, tuple[tuple[str, ...], object]]:
    return {r.where: (r.steps, r.statement) for r in spec.readings}  # type: ignore[attr-defined]


def _warnings(spec: object) -> list[str]:
    return [f"{w.line}: {w.message}" for w in spec.warnings]  # type: ignore[attr-defined]


def test_js_steps_conditions_comments_and_constants() -> None:
    spec = parse_spec_text(_JS_RELEASE, "release.js", "markdown")
    assert [s.id for s in spec.steps] == ["fetch", "cov", "ship", "hold"]
    fetch, cov, ship, hold = spec.steps
    assert fetch.skill == "fetch-build"
    assert {f.name: f.source for f in fetch.inputs} == {"build": "inputs.buildid"}
    read = _policies(spec)
    assert read["release.js:12"][0] == ("fetch",) and read["release.js:12"][1].retries == 3  # inside its braces
    assert {f.name: f.source for f in cov.inputs} == {"artifact": "steps.fetch.output.artifact"}
    assert ship.when is not None and "80" in ship.when and "MIN_COVERAGE" not in ship.when
    assert read["release.js:25"][0] == ("ship",) and read["release.js:25"][1].timeout_s == 90  # a /* */ comment
    assert hold.otherwise_where is not None  # "else": the otherwise of ship's condition
    text = "\n".join(_warnings(spec))
    assert "colour" in text  # a field no table knows: warned at its line
    assert [i.name for i in spec.inputs] == ["buildid"]


def test_python_dicts_and_calls_with_a_condition_key() -> None:
    spec = parse_spec_text(_PY_LAB, "protocol.py", "markdown")
    assert spec.format == "yaml"
    read, _score, archive, retest = spec.steps
    policies = _policies(spec)
    assert read.skill == "read-plate"
    assert policies["protocol.py:9"][0] == ("read",)  # inside its parentheses: not moved one step down
    assert policies["protocol.py:9"][1].retries == 2
    assert archive.when is not None and "0.9" in archive.when
    assert retest.otherwise_where is not None
    assert {f.name: f.source for f in archive.inputs} == {"plate": "inputs.plate"}
    assert {f.name: f.source for f in retest.inputs} == {"plate": "inputs.plate.barcode"}
    assert not any("script" in w for w in _warnings(spec))  # not read as a script runbook


def test_json_of_its_own_schema_is_a_spec(tmp_path: Path) -> None:
    path = tmp_path / "bread.json"
    path.write_text(_JSON_KITCHEN, encoding="utf-8")
    assert not is_saved_plan(path)
    spec = parse_spec(path)
    assert [s.skill for s in spec.steps] == ["mix-dough", "proof-timer", "bake-loaves"]
    assert any(steps == ("proof",) and said.retries == 2 for steps, said in _policies(spec).values())
    assert spec.steps[2].depends_on == ("proof",)


def test_a_saved_plan_json_is_still_a_plan(tmp_path: Path) -> None:
    path = tmp_path / "plan.json"
    path.write_text(json.dumps({"format": 1, "name": "x", "spec": {"path": "x.md"}, "steps": []}), encoding="utf-8")
    assert is_saved_plan(path)
    with pytest.raises(SpecError, match="is a skillweave plan, not a spec"):
        parse_spec(path)
    broken = tmp_path / "broken.json"
    broken.write_text('{"steps": [\n  {"skill": "a",}\n', encoding="utf-8")
    assert is_saved_plan(broken)  # not JSON: the plan loader says where it breaks
    with pytest.raises(SpecError, match="not JSON"):
        parse_spec(broken)


def test_json_that_is_neither_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text('["a", "b"]', encoding="utf-8")
    with pytest.raises(SpecError, match="neither a skillweave plan nor a spec"):
        parse_spec(path)


def test_python_without_steps_is_a_clear_error() -> None:
    text = "# settings for the mailer\nHOST = 'smtp.example.org'\nPORT = 587\n\ndef send(msg):\n    return msg\n"
    with pytest.raises(SpecError) as caught:
        parse_spec_text(text, "mailer_settings.py", "markdown")
    assert "step" in str(caught.value).lower()


def test_a_python_script_runbook_is_still_a_script() -> None:
    text = "#!/usr/bin/env python3\n# Step 1: fetch\nrows = skill('fetch-rows', day=DAY)\n"
    spec = parse_spec_text(text, "nightly.py", "markdown")
    assert [s.skill for s in spec.steps] == ["fetch-rows"]


def test_what_is_not_read_is_said() -> None:
    text = """\
LIMIT = 5          # never used
helper = make_thing()
steps = [
    dict(skill="fetch-rows", day=TODAY, extra=1 + 2),
    Step("send", skill="send-mail", **common),
]
"""
    spec = parse_spec_text(text, "flow.py", "markdown")
    said = "\n".join(_warnings(spec))
    assert "LIMIT" in said and "used by no step" in said
    assert "make_thing" in said
    assert "`TODAY` is not set in this file" in said
    assert "`1 + 2` is code" in said
    assert "**common" in said
    assert spec.steps[1].name == "send"


def test_whichever_of_two_steps_in_after_and_fields() -> None:
    text = """\
steps = [
    dict(key="a", skill="fetch-rows"),
    dict(key="big", skill="big-review", when="a.count > 10"),
    dict(key="small", skill="small-review", when="else"),
    dict(key="out", skill="post-result", after=["big|small"], takes={"verdict": "big|small .verdict"}),
]
"""
    spec = parse_spec_text(text, "flow.py", "markdown")
    out = spec.steps[-1]
    assert set(out.depends_on) >= {"big", "small"}
    verdict = next(f for f in out.inputs if f.name == "verdict")
    assert "big" in str(verdict) and "small" in str(verdict)


def test_typescript_steps_exported_twice_and_an_item_placeholder() -> None:
    text = """\
import { defineStep } from "./runner";
type Step = { id: string; skill: string };
export const steps: Step[] = [
  { id: "pull", skill: "pull-orders" },   // times out a lot: give it 30 seconds at most
  defineStep({ id: "pack", skill: "pack-slips", after: ["pull"], forEach: "pull.orders",
               args: { order: "<each order>" } }),
] as const;
module.exports = { steps };
"""
    spec = parse_spec_text(text, "warehouse.ts", "markdown")
    _pull, pack = spec.steps
    assert _policies(spec)["warehouse.ts:4"][0] == ("pull",)  # a trailing comment on the object's own line
    assert pack.for_each is not None and {f.name: f.source for f in pack.inputs} == {"order": "item"}


def test_item_placeholders_and_gathers_in_words_in_a_yaml_of_its_own() -> None:
    text = """\
stages:
  - id: sample
    tool: draw-samples
  - id: assay
    tool: run-assay
    for_every: sample.tubes
    with: {tube: "<the one tube>", lab: "<lab>"}
  - id: summary
    tool: summarise
    needs: [assay]
    with: {readings: "every assay reading collected"}
"""
    spec = parse_spec_text(text, "assay.yaml", "yaml")
    _sample, assay, summary = spec.steps
    assert {f.name: f.source for f in assay.inputs} == {"tube": "item", "lab": "inputs.lab"}  # `<lab>`: an input
    assert {f.name: f.source for f in summary.inputs} == {"readings": "steps.assay.output"}


def test_a_placeholder_outside_a_loop_is_still_an_input() -> None:
    text = "steps:\n  - id: a\n    tool: ship-it\n    with: {box: \"<the one box>\"}\n"
    spec = parse_spec_text(text, "ship.yaml", "yaml")
    assert {f.name: f.source for f in spec.steps[0].inputs} == {"box": "inputs.the_one_box"}
