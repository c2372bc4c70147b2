"""A Windows batch file read as a script runbook (`spec.batch47`, round 47): `REM` / `::` comments are
its text, `set X=%1` an input named as written, `call skill x k=%X%` a step's call, `if A GTR B ( ) else
( )` a branch with its otherwise and a join after it, `%field%` no `set` gave an earlier step's output,
`goto` / `:label` warned. None of the scripts is a blind set's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.batch47 import bat_line, bat_pieces, condition
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {"read-meter": frozenset({"kwh", "rows"}), "bill-high": frozenset({"note", "amount"}),
            "bill-normal": frozenset({"note", "amount"}), "post-bill": frozenset({"sent"}),
            "wash-cycle": frozenset({"temp"}), "alarm": frozenset({"ok"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_METER = """\
@echo off
:: monthly meter billing - run as  billing.cmd <site> <tariff>
setlocal
set "SITE=%~1"
set TARIFF=%2
set CURRENCY=EUR

:: Step 1: read the meter
call skill read-meter site=%SITE%

:: Step 2: bill it
IF %kwh% GEQ 1000 (
    call skill bill-high rows=read-meter.rows tariff=%TARIFF% currency=%CURRENCY%
) ELSE (
    :: small users
    call skill bill-normal rows=read-meter.rows
)

:: Step 4: post the bill
call skill post-bill site=%SITE% note=%note% amount=%amount%
"""


def _spec(text: str, path: str = "billing.cmd"):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "markdown", _WORDS)
    return spec, {s.id: s for s in spec.steps}


def test_comments_set_lines_and_calls_are_put_in_a_shells_words() -> None:
    assert bat_line("REM  2. fees due") == ("comment", "2. fees due")
    assert bat_line("@rem") == ("blank", "")
    assert bat_line(":: check it") == ("comment", "check it")
    assert bat_line("@echo off") == ("blank", "")
    assert bat_line("set DAY=%1") == ("code", "DAY=$1")
    assert bat_line('set "MODE=fast"') == ("code", "MODE=fast")
    assert bat_line("set /p WHO=Who is on shift? ") == ("code", "WHO=")
    assert bat_line("call skill tally day=%DAY%") == ("code", "skill tally day=$DAY")
    assert bat_line(":retry") == ("label", "retry")
    assert bat_line("goto :retry") == ("goto", "retry")
    assert bat_line("remember-me x=1") == ("code", "remember-me x=1")  # near-miss: no `REM` comment


def test_if_else_blocks_and_one_line_ifs() -> None:
    assert bat_pieces("if $total GTR 500 (") == [("if", "total > 500")]
    assert bat_pieces('if /i "$mode"=="Fast" (') == [("if", "mode == 'Fast'")]
    assert bat_pieces("if not $n EQU 0 (") == [("if", "n != 0")]
    assert bat_pieces(") else (") == [("else", "")]
    assert bat_pieces(") else if $n LSS 3 (") == [("elif", "n < 3")]
    assert bat_pieces(")") == [("end", "")]
    assert bat_pieces("if $n LEQ 2 skill alarm n=$n") == [("if", "n <= 2"), ("code", "skill alarm n=$n"), ("end", "")]
    assert bat_pieces("if $n LEQ 2 call skill alarm")[1] == ("code", "skill alarm")
    assert condition("exist out.txt") == "exist out.txt"  # near-miss: no comparison, left for the warning


def test_a_batch_file_reads_its_inputs_steps_branch_and_join() -> None:
    spec, steps = _spec(_METER)
    assert [i.name for i in spec.inputs] == ["SITE", "TARIFF"]
    assert [s.skill for s in spec.steps] == ["read-meter", "bill-high", "bill-normal", "post-bill"]
    high, normal, post = steps["step-2"], steps["step-3"], steps["step-4"]
    assert high.when == "kwh >= 1000" and normal.otherwise_of == "step-2"
    assert {f.name: f.source for f in high.inputs} == {"rows": "steps.step-1.output.rows", "tariff": "inputs.TARIFF"}
    assert high.input_values == {"currency": "EUR"}
    assert set(post.depends_on) == {"step-2", "step-3"} and post.join == "any"
    either = {f.name: f.description for f in post.inputs if f.description}
    assert either == {"note": "step-2.note or step-3.note", "amount": "step-2.amount or step-3.amount"}
    assert not [w for w in spec.warnings if "shell" in w.message]


def test_a_percent_name_no_step_outputs_is_an_input_and_goto_is_warned() -> None:
    spec, steps = _spec("""\
rem laundry run  (wash.bat <load>)
set LOAD=%1
rem 1. wash it
call skill wash-cycle load=%LOAD% colour=%COLOUR%
:again
rem 2. ring if too hot
if %temp% GTR 60 call skill alarm temp=%temp%
goto again
""", "wash.bat")
    assert {f.name: f.source for f in steps["step-1"].inputs} == {"load": "inputs.LOAD", "colour": "inputs.colour"}
    assert steps["step-2"].when == "temp > 60"
    assert {f.name: f.source for f in steps["step-2"].inputs} == {"temp": "steps.step-1.output.temp"}
    said = [w.message for w in spec.warnings if w.code == "spec.script-unread"]
    assert any("`:again`" in m for m in said) and any("`goto again`" in m for m in said)


def test_dont_abort_beside_going_on_is_read_whole() -> None:
    from orchestrator.spec.phrase import read_phrase

    for said in ("if the upload breaks, dont abort, carry on with state \"MANUAL\"",
                 "on error do not abort: keep going with ok = false"):
        phrase = read_phrase(said)
        assert phrase.statement.on_failure is not None and phrase.statement.on_failure.kind == "continue_with_value"
        assert not phrase.problems, said
    near = read_phrase("if the upload breaks, abort the run")  # near-miss: abort said, not refused
    assert near.statement.on_failure is None or near.statement.on_failure.kind != "continue_with_value"
