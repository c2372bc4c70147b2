"""nginx-style block configs as specs (`spec.nginx49`): `input x;` directives are the workflow's inputs, each
block naming a skill a step whose `pass field value;` lines are its inputs (`$x` an input, `$a.f` step `a`'s
output, `$item.f` the loop item's field, `$a[*]` every result gathered), `after` / `foreach` its order and loop,
the holder's `done_when` and time limit the run's; a `.conf` in which no block names a skill is not read so."""

from __future__ import annotations

from pathlib import Path

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec
from orchestrator.spec.nginx49 import is_nginx
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a bakery's overnight bake: a holder block, a default on an input, a loop, a gather, a literal, `after`
_BAKE = """\
# bake.conf
bakery overnight {
    input  branch;
    input  batch_size 40;
    max_runtime  20m;
    success  $label.printed = true;

    job orders {
        uses  fetch-orders;
        with  shop  $branch;
    }
    job proof {
        uses  proof-dough;
        each  $orders.lines;
        with  sku  $item.sku;
        with  size $batch_size;
        # oven is cranky: 2 retries, 5s apart
    }
    job label {
        uses   print-label;
        needs  proof;
        with   trays  $proof[*];
        with   count  12;
        with   font   "Bold Serif";
    }
}
"""

# no holder: steps at the top, quoted words, `set` for a field, `depends_on` naming two steps
_VET = """\
param clinic;
stage triage { skill triage-pets; set clinic $clinic; }
stage call  { skill call-owners; set list $triage.owners; timeout 30s; }
stage notes { skill write-notes; depends_on triage call; set who 'Dr Ames'; }
"""

_SKILLS = [
    skill("fetch-orders", input_schema=obj(("shop",), shop="string"), output_schema=obj(("lines",), lines="array")),
    skill("proof-dough", input_schema=obj(("sku", "size"), sku="string", size="integer"),
          output_schema=obj(("tray",), tray="string")),
    skill("print-label", input_schema=obj(("trays", "count", "font"), trays="array", count="integer", font="string"),
          output_schema=obj(("printed",), printed="boolean")),
    skill("triage-pets", input_schema=obj(("clinic",), clinic="string"), output_schema=obj(("owners",), owners="array")),
    skill("call-owners", input_schema=obj(("list",), list="array"), output_schema=obj(("done",), done="boolean")),
    skill("write-notes", input_schema=obj(("who",), who="string"), output_schema=obj(("notes",), notes="string")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(tmp_path: Path, text: str, name: str):  # type: ignore[no-untyped-def]
    path = tmp_path / name
    path.write_text(text)
    spec = parse_spec(path, vocabulary=Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_holder_block_gives_inputs_the_run_limit_and_its_check_and_each_skill_block_a_step(tmp_path: Path) -> None:
    spec, plan = _plan(tmp_path, _BAKE, "bake.conf")
    inputs = {i.name: i for i in spec.inputs or ()}
    assert list(inputs) == ["branch", "batch_size"] and inputs["batch_size"].default == 40
    orders, proof, label = plan.steps
    assert orders.skill == "fetch-orders" and orders.inputs["shop"].source == "input"
    assert proof.depends_on == ("orders",) and proof.for_each is not None
    assert proof.inputs["sku"].source == "item" and proof.inputs["size"].name == "batch_size"
    assert proof.policy.retry.max_retries == 2
    assert label.depends_on == ("proof",) and label.inputs["trays"].step == "proof"
    assert label.inputs["count"].value == 12 and label.inputs["font"].value == "Bold Serif"
    assert "const" not in label.output_schema["properties"]["printed"]  # `success` judges the run, not the step
    assert [(c.step, c.schema_["properties"]["printed"]) for c in plan.run_checks] == [("label", {"const": True})]
    assert plan.limits.wall_time_s == 1200.0


def test_steps_at_the_top_with_set_and_depends_on(tmp_path: Path) -> None:
    spec, plan = _plan(tmp_path, _VET, "clinic.cfg")
    assert [i.name for i in spec.inputs or ()] == ["clinic"]
    triage, call, notes = plan.steps
    assert triage.inputs["clinic"].source == "input"
    assert call.inputs["list"].step == "triage" and call.policy.attempt_timeout_s == 30.0
    assert set(notes.depends_on) == {"triage", "call"} and notes.inputs["who"].value == "Dr Ames"


def test_a_real_nginx_conf_names_no_skill_and_is_not_read_as_blocks() -> None:
    # near-miss: directives and blocks, but no block says which skill it runs
    assert not is_nginx("site.conf", "server {\n  listen 80;\n  location / { root /srv; }\n}\n")
    assert not is_nginx("notes.md", "step a { skill x-y; }\n")  # a markdown file stays markdown
    assert is_nginx("flow.conf", "step a { skill x-y; }\n")


def test_a_directive_without_its_semicolon_in_a_skill_block_is_not_read_as_blocks(tmp_path: Path) -> None:
    text = "step a {\n  skill triage-pets;\n  set clinic $clinic\n}\n"
    assert not is_nginx("a.conf", text)
    path = tmp_path / "a.conf"
    path.write_text(text)
    with pytest.raises(SpecError):  # read as text: no step heading, no skill named in backticks
        spec = parse_spec(path, vocabulary=Vocabulary(skills=frozenset()))
        assert spec.steps
