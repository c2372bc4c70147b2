"""An R script read as a script runbook (`spec.rscript47`, round 47): `#` comments are its text, `x <- ""` /
`list()` a workflow input, an UPPERCASE `<- "v"` a literal, `x <- run("skill", k = v)` a step's call, `x$f` the
output `f` of the step whose result is `x`, `library()` / `f <- function` setup, `lapply` a loop warned.
None of the scripts is a blind set's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.rscript47 import r_code_lines, statement
from orchestrator.spec.script_flow import script_language
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {"read-tides": frozenset({"high", "low"}), "plan-dive": frozenset({"slot"}),
            "fetch-trap": frozenset({"count"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_DIVE = """\
# dive planning, run with Rscript
harbour <- ""            # which harbour
MAX_DEPTH <- 30
library(dplyr)

# Step 1: tides
tides <- run("read-tides",
             harbour = harbour)

# Step 2: plan the dive
#   give it 2 retries, 5 s apart
plan <- run("plan-dive", high = tides$high, depth = MAX_DEPTH)
"""


def _steps(text: str, path: str = "dive.R"):
    return parse_spec_text(text, path, "markdown", _WORDS)


def test_an_r_script_is_a_script_runbook_by_its_suffix_or_its_rscript_line() -> None:
    assert script_language("dive.R", "x <- 1") == "r"
    assert script_language("plan", "#!/usr/bin/env Rscript\nx <- 1") == "r"
    assert script_language("plan", "#!/usr/bin/env python3\nx = 1") == "py"  # near miss


def test_its_calls_fields_literals_and_inputs_are_read() -> None:
    spec = _steps(_DIVE)
    assert [s.skill for s in spec.steps] == ["read-tides", "plan-dive"]
    first, second = spec.steps
    assert {f.name: f.source for f in first.inputs} == {"harbour": "inputs.harbour"}
    sources = {f.name: f.source for f in second.inputs}
    assert sources["high"] == "steps.step-1.output.high"
    assert str(second.input_values["depth"]) == "30"  # a literal, typed by the skill at plan time
    assert "harbour" in {i.name for i in spec.inputs}


def test_a_second_phrasing_with_equals_and_commandargs() -> None:
    text = ('site = commandArgs(trailingOnly = TRUE)[1]\n\n## 1) trap count\n'
            'n = run("fetch-trap", site = site)\n')
    spec = _steps(text, "traps.r")
    assert [s.skill for s in spec.steps] == ["fetch-trap"]
    assert str({f.name: f.source for f in spec.steps[0].inputs}["site"]).startswith("inputs.")


def test_setup_lines_are_no_step_and_an_unclosed_paren_joins_lines() -> None:
    assert statement("library(jsonlite)") == []
    assert statement('run <- function(skill, ...) invisible(NULL)') == []
    lines = r_code_lines(['x <- run("read-tides",', '   harbour = "Oban")'])
    assert lines == [("code", 1, 'x = run_skill("read-tides", harbour = "Oban")')]


def test_an_lapply_over_a_list_is_a_loop_the_reader_warns_about() -> None:
    said = statement('out <- lapply(pots, function(p) run("fetch-trap", site = p$site))')
    assert said[0] == ("code", "for p in pots:")
    assert said[1] == ("code", 'out = run_skill("fetch-trap", site = p.site)')
    assert statement('out <- lapply(pots, length)')[0][1].startswith("out = ")  # near miss: no function


_TRAPS = """\
pots <- list()
## 1) count each pot
counts <- sapply(pots, function(p)
  run("fetch-trap", site = p$site, depth = p$depth))
## 2) plan
plan <- run("plan-dive", high = counts)
"""


def test_an_lapply_call_runs_once_per_item_and_the_next_step_gathers_it() -> None:
    spec = _steps(_TRAPS, "traps.R")
    first, second = spec.steps
    assert first.for_each == "item in inputs.pots"
    assert first.input_values == {"site": "{{ item.site }}", "depth": "{{ item.depth }}"}
    assert {f.name: f.source for f in second.inputs} == {"high": "steps.step-1.output"}

