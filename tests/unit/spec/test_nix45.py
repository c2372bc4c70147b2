"""Nix expressions as specs (`spec.nix45`): the function's argument set is the workflow's inputs (with their
`? default`), a `let` binding a literal, each attribute set naming a skill a step, read as `spec.hcl30` reads
its blocks; a `.nix` file that runs no skill, or one with a syntax error, is refused with one clear error."""

from __future__ import annotations

import pytest

from orchestrator.errors import SpecError
from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a brewery's mash-day sheet: `args@{ ... }:`, `rec { }`, a `${...}` interpolation, `inherit (x) a;`, a list
_BREW = """\
# brewday.nix -- what the brewer runs the night before
args@{ batch                # the batch number off the board
     , style ? "bitter"     # what we are brewing
     , ...
     }:
let
  house = { vessel = "FV3"; };
  brewer = "Oona";
in rec {
  recipe = {
    skill = "pick-recipe";
    inputs = { inherit style; hops = [ "Fuggle" "EKG" ]; };
  };
  label = {
    uses = "print-label";
    inputs.text = "Batch ${batch} by ${brewer}";
    inputs.grist = recipe.grist;
    inherit (house) vessel;
    timeout = "90s";
  };
  maxRunTime = "20m";
}
"""

# a tutoring agency's weekly report: no `let`, the steps held in a `steps` set, the arguments on one line
_REPORT = """\
{ student, week ? 1 }:
{
  steps = {
    marks = { skill = "collect-marks"; inputs = { who = student; inherit week; }; };
    letter = {
      skill = "write-letter";
      inputs = { scores = marks.scores; who = student; tone = "warm"; };
      onError = "retry twice, 5s apart";
    };
  };
}
"""

_SKILLS = [
    skill("pick-recipe", input_schema=obj(("style", "hops"), style="string", hops="array"),
          output_schema=obj(("grist",), grist="array")),
    skill("print-label", input_schema=obj(("text", "grist", "vessel"), text="string", grist="array", vessel="string"),
          output_schema=obj(("printed",), printed="boolean")),
    skill("collect-marks", input_schema=obj(("who", "week"), who="string", week="integer"),
          output_schema=obj(("scores",), scores="array")),
    skill("write-letter", input_schema=obj(("scores", "who", "tone"), scores="array", who="string", tone="string"),
          output_schema=obj(("letter",), letter="string")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "hcl", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_the_argument_set_is_the_inputs_and_let_bindings_are_literals() -> None:
    spec, plan = _plan(_BREW, "brewday.nix")
    inputs = {i.name: i for i in spec.inputs or ()}
    assert list(inputs) == ["batch", "style"]
    assert inputs["batch"].required and inputs["style"].default == "bitter"
    recipe, label = plan.steps
    assert recipe.skill == "pick-recipe" and recipe.inputs["style"].source == "input"
    assert recipe.inputs["style"].name == "style" and recipe.inputs["hops"].value == ["Fuggle", "EKG"]
    assert label.skill == "print-label" and label.depends_on == ("recipe",)
    assert label.inputs["grist"].step == "recipe" and label.inputs["grist"].pointer == "/grist"
    assert label.inputs["vessel"].source == "literal" and label.inputs["vessel"].value == "FV3"
    text = label.inputs["text"]
    assert text.source == "template" and "Oona" in (text.template or "") and "batch" in (text.template or "")
    assert label.policy.attempt_timeout_s == 90.0 and plan.limits.wall_time_s == 1200.0


def test_steps_held_in_a_set_and_arguments_on_one_line() -> None:
    spec, plan = _plan(_REPORT, "report.nix")
    assert [i.name for i in spec.inputs or ()] == ["student", "week"]
    marks, letter = plan.steps
    assert marks.inputs["who"].source == "input" and marks.inputs["who"].name == "student"
    assert marks.inputs["week"].source == "input" and marks.inputs["week"].name == "week"
    assert letter.inputs["scores"].step == "marks" and letter.inputs["tone"].value == "warm"
    assert letter.inputs["who"].name == "student" and letter.policy.retry.max_retries == 2


def test_a_name_in_a_plain_string_is_no_input_and_a_set_opening_the_file_is_no_argument_set() -> None:
    # near-miss: `"student"` is the text, not the argument; `{ a = ...; }` is the returned set, not arguments
    text = '{\n  letter = { skill = "write-letter"; inputs = { who = "student"; scores = []; tone = "dry"; }; };\n}\n'
    spec, plan = _plan(text, "plain.nix")
    assert not spec.inputs
    (letter,) = plan.steps
    assert letter.inputs["who"].source == "literal" and letter.inputs["who"].value == "student"


def test_a_nix_file_that_runs_no_skill_is_refused_with_one_clear_error() -> None:
    text = '{ pkgs ? import <nixpkgs> {} }:\npkgs.mkShell { buildInputs = [ pkgs.jq ]; }\n'
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "shell.nix", "hcl", Vocabulary(skills=_NAMES))
    assert len(exc.value.diagnostics) == 1
    text = '{ pkgs }:\n{\n  shell = { buildInputs = [ pkgs.jq ]; };\n}\n'
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "shell.nix", "hcl", Vocabulary(skills=_NAMES))
    (said,) = exc.value.diagnostics
    assert "Nix file is not read as a workflow" in said.message


def test_a_binding_without_its_semicolon_is_an_error_at_its_line() -> None:
    text = '{ x }:\n{\n  a = { skill = "collect-marks";\n    inputs = { who = x; week = 2 };\n  };\n}\n'
    with pytest.raises(SpecError) as exc:
        parse_spec_text(text, "bad.nix", "hcl", Vocabulary(skills=_NAMES))
    (said,) = exc.value.diagnostics
    assert said.line == 4 and "Nix syntax" in said.message
