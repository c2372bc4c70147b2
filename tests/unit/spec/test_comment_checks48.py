"""A whole run's success check said in a script's comment (round 48): `REM OK = <skill> says f=true`, R's
`## success = res$f is TRUE` (the step whose result `res` holds), a text file's `// ok when <skill> comes back
f = true` on a comment line of its own; read as the same sentence is read in prose (`spec.whole_success`).
And a time a step "gets", said with "then it's a fail". None of the specs is a blind set's."""

from __future__ import annotations

from orchestrator.plan.run_checks37 import split_run_checks
from orchestrator.spec import parse_spec_text
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.source import Source
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.whole_doc import document_sentences
from orchestrator.spec.whole_success import success_cue

_OUTPUTS = {"read-meter": frozenset({"kwh"}), "post-bill": frozenset({"sent", "ref"}),
            "count-traps": frozenset({"n"}), "file-report": frozenset({"filed", "id"}),
            "tide-fetch": frozenset({"high"}), "crew-notify": frozenset({"posted"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))


def _checks(text: str, path: str) -> tuple[list[tuple[str, dict[str, object], str]], list[str]]:
    spec = parse_spec_text(text, path, "markdown", _WORDS)
    _, checks = split_run_checks(spec)
    return ([(c.step, c.model_dump(by_alias=True)["schema"], c.where.rpartition(":")[2]) for c in checks],
            [f"{w.line}: {w.message}" for w in spec.warnings])


def _posted(field: str) -> dict[str, object]:
    return {"properties": {field: {"const": True}}, "required": [field]}


_BAT = """\
@echo off
set SITE=%1

REM 1. read the meter
call skill read-meter site=%SITE%

REM 2. send the bill
call skill post-bill kwh=read-meter.kwh

REM {check}
"""


def test_a_batch_file_s_closing_ok_label_is_the_run_s_check_on_the_step_its_skill_names() -> None:
    checks, _ = _checks(_BAT.format(check="OK = post-bill says sent=true"), "bill.bat")
    assert checks == [("step-2", _posted("sent"), "10")]
    checks, _ = _checks(_BAT.format(check="ok once read-meter says kwh >= 1"), "meter.bat")
    assert [(c[0], c[2]) for c in checks] == [("step-1", "10")]


def test_near_miss_an_ok_label_with_no_comparison_is_no_check_and_no_warning_about_one() -> None:
    checks, said = _checks(_BAT.format(check="OK = fine, Dana reads the log"), "bill.bat")
    assert checks == []
    assert not [m for m in said if "success check" in m]


_R = """\
site <- ""
# Step 1: count
traps <- run("count-traps", site = site)
# Step 2: report
rep <- run("file-report", n = traps$n)

# {check}
"""


def test_an_r_script_s_success_comment_names_the_step_by_the_variable_holding_its_result() -> None:
    checks, said = _checks(_R.format(check="success = rep$filed is TRUE"), "traps.R")
    assert checks == [("step-2", _posted("filed"), "7")]
    assert any("`rep` holds its output" in m for m in said)
    checks, _ = _checks(_R.format(check="done when traps$n == 3"), "traps.R")  # the first step, by its variable
    assert [(c[0], c[1]["properties"]) for c in checks] == [("step-1", {"n": {"const": 3}})]  # type: ignore[index]


def test_near_miss_a_comment_reporting_a_value_is_no_check() -> None:
    checks, said = _checks(_R.format(check="last week rep$filed was TRUE for every site"), "traps.R")
    assert checks == []
    assert not [m for m in said if "read as the run's success check" in m]
    assert success_cue("last week rep$filed was TRUE for every site") is None


_GV = """\
// harbour.gv
digraph harbour {
  t [label="tide-fetch"];
  n [label="crew-notify"];
  t -> n [label="high"];
  // the whole thing has to be done in 10 min
  // {check}
}
"""


def test_a_comment_line_under_another_is_a_sentence_of_its_own() -> None:
    checks, said = _checks(_GV.replace("{check}", "good when crew-notify comes back posted = true"), "harbour.gv")
    assert [(c[0], c[2]) for c in checks] == [("step-2", "7")]
    assert not [m for m in said if "already runs" in m]  # the line is the check, no second run of the skill
    src = Source("-- the load gets 10 min\n-- ok when load says done = true\n", "load.sql")
    assert [s.text for s in document_sentences(src)] == ["the load gets 10 min", "ok when load says done = true"]


def test_near_miss_a_comment_that_runs_on_to_the_next_line_stays_one_sentence() -> None:
    src = Source("// retry the fetch three times, and\n// wait 10 s between the tries\n", "x.gv")
    assert [s.text for s in document_sentences(src)] == [
        "retry the fetch three times, and wait 10 s between the tries"]


def test_a_time_a_step_gets_then_it_counts_as_failed() -> None:
    for text, seconds in (("the feed gets 2 min then it's a fail", 120.0),
                          ("the scanner has 45 s, after that it counts as failed", 45.0)):
        phrase = read_phrase(text, frozenset())
        assert phrase.read and phrase.statement.timeout_s == seconds, text
    near = read_phrase("it gets 90 s then it's fine", frozenset())  # no failure said: no time limit read
    assert near.statement.timeout_s is None
