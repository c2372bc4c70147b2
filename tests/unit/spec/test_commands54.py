"""Command-shaped code read by its words (`spec.commands54`), through the reader of code by its skill calls
(`spec.wired52`): positional program arguments as run inputs, `set NAME literal` constants, `key value` words after
the skill's name, command getters (`[dict get $x f]`, `(get x :f)`, `x.fetch(:f)`), a loop over a getter, the list
the loop's results are appended to, and a `# if ...` sentence that is a comment, not a preprocessor line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.commands54 import assignment, command_getter, positional, word_pairs
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wired52 import _getter, split_lines

INPUTS = {"load-tray": {"tray_id"}, "weigh-item": {"code", "limit"}, "tally-up": {"rows"},
          "file-tally": {"tray_id", "pct", "site", "clerk"}}
OUTPUTS = {"load-tray": {"tray_id", "items"}, "weigh-item": {"code", "ok"}, "tally-up": {"pct", "count"},
           "file-tally": {"filed", "msg"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def read(text: str, path: str) -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", VOCAB)


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def sources(s: StepSpec) -> dict[str, object]:
    return {**{f.name: f.source or f.description for f in s.inputs if f.source or f.description}, **s.input_values}


# -- the pieces ---------------------------------------------------------------------------------------------------
def test_positional_arguments_in_several_languages() -> None:
    for said in ("[lindex $argv 2]", "sys.argv[1]", "$1", '"${2:-x}"', "ARGV[0]", "$ARGV[0]", "os.Args[1]",
                 "process.argv[2]", "args[0]", "commandArgs(TRUE)[1]", "%1", "shift @ARGV"):
        assert positional(said), said
    for said in ("[lindex $trays 0]", "sys.path[1]", "$10x", "price * 1", "rows[0]"):  # near-misses
        assert not positional(said), said


def test_set_with_a_space_reads_inputs_and_constants() -> None:
    assert assignment("set tray [lindex $argv 0]") == ("input", "tray", None)
    assert assignment("local tray $1") == ("input", "tray", None)
    assert assignment('set SITE "North-3"') == ("constant", "SITE", "North-3")
    assert assignment("set LIMIT 0.9") == ("constant", "LIMIT", 0.9)
    assert assignment("set SITE {North 3}") == ("constant", "SITE", "North 3")
    assert assignment("set rows {}") is None  # an empty list to append to, no constant
    assert assignment("set tray [skill load-tray]") is None
    assert assignment('puts "hello"') is None  # near-miss: a command, no keyword that sets a name
    assert assignment('if [ -z "$1" ]') is None


def test_key_value_words_after_the_skill_name() -> None:
    fields = {"trayid", "code", "limit"}
    code = "set t [skill load-tray tray_id $tray]"
    assert [p[::2] for p in word_pairs(code, code.index("load-tray") + 9, fields)] == [("tray_id", "$tray")]
    code = 'sw-call weigh-item code "$c" limit [expr {$x * 2}] ; echo done'
    assert [p[::2] for p in word_pairs(code, code.index("weigh-item") + 10, fields)] == [
        ("code", '"$c"'), ("limit", "[expr {$x * 2}]")]
    code = "(skill 'weigh-item :code c :limit 0.5)"
    assert [p[::2] for p in word_pairs(code, code.index("weigh-item") + 10, fields)] == [
        ("code", "c"), ("limit", "0.5")]
    code = "skill weigh-item $c $limit"  # near-miss: values with no keys are no pairs
    assert word_pairs(code, code.index("weigh-item") + 10, fields) == []
    code = "skill weigh-item colour red code $c"  # near-miss: the pairs stop at the first word that is no field
    assert word_pairs(code, code.index("weigh-item") + 10, fields) == []
    code = 'run("weigh-item", code, c)'  # near-miss: a call with brackets, no words after the name
    assert word_pairs(code, code.index("weigh-item") + 10, fields) == []


def test_command_getters() -> None:
    assert command_getter("[dict get $sum pct]") == "sum.pct"
    assert command_getter("[dict get $res tray items]") == "res.tray.items"
    assert command_getter("(get res :pct)") == "res.pct"
    assert command_getter("(:pct res)") == "res.pct"
    assert command_getter("res.fetch(:pct)") == "res.pct"
    assert command_getter('res.dig("tray", "items")') == "res.tray.items"
    assert _getter("[dict get $sum pct]") == "sum.pct"
    assert command_getter("[dict size $sum]") is None  # near-miss: no field read
    assert command_getter("(get-all res)") is None


def test_a_sentence_after_hash_if_is_a_comment_and_semicolon_hash_a_trailing_comment() -> None:
    lines = split_lines(["# if the tray is missing there's nothing to weigh, stop", "#if DEBUG",
                         "set t 1   ;# one for now", "x = 1 ;#notes"])
    assert [(ln.code, ln.comment) for ln in lines[:3]] == [
        ("", "if the tray is missing there's nothing to weigh, stop"), ("#if DEBUG", ""), ("set t 1", "one for now")]


# -- whole files --------------------------------------------------------------------------------------------------
TCL = """\
#!/usr/bin/env tclsh
# tray_check.tcl -- weigh every item on one tray
set tray   [lindex $argv 0]   ;# the tray number
set clerk  [lindex $argv 1]
set SITE  "North-3"
set LIMIT 0.9

# --- 1. read the tray
set t [skill load-tray tray_id $tray]
# if the tray is missing there's nothing to weigh, stop the whole run, no retry

# --- 2. weigh each item
set rows {}
foreach it [dict get $t items] {
    lappend rows [skill weigh-item code $it limit $LIMIT]
    # give it 3 tries, 5 s apart
}

# --- 3. tally
set sum [skill tally-up rows $rows]

# --- 4. file it
skill file-tally tray_id $tray pct [dict get $sum pct] site $SITE clerk $clerk
"""

SH = """\
#!/bin/sh
# tray check
tray="$1"
clerk="$2"
SITE="North-3"
LIMIT=0.9
t=$(sw-call load-tray tray_id "$tray")
for it in $(echo "$t" | jq -r '.items[]'); do
  sw-call weigh-item code "$it" limit "$LIMIT"
done
"""


def test_a_tcl_runbook_reads_inputs_constants_loop_gather_and_getters() -> None:
    spec = read(TCL, "tray_check.tcl")
    assert {i.name for i in spec.inputs or ()} == {"tray", "clerk"}
    load, weigh, tally, file_ = (step(spec, s) for s in ("load-tray", "weigh-item", "tally-up", "file-tally"))
    assert sources(load) == {"tray_id": "inputs.tray"}
    assert sources(weigh)["code"] == "item" and sources(weigh)["limit"] == 0.9
    assert weigh.for_each is not None and load.id in weigh.depends_on
    assert weigh.id in tally.depends_on
    assert sources(file_)["pct"] == f"steps.{tally.id}.output.pct" and sources(file_)["site"] == "North-3"
    assert sources(file_)["clerk"] == "inputs.clerk" and tally.id in file_.depends_on
    assert any("no retry" in t.text for t in load.texts)  # the `# if ...` sentence is the step's rule, not code


def test_a_shell_script_reads_positional_inputs_and_word_pairs() -> None:
    spec = read(SH, "tray.sh")
    assert {"tray"} <= {i.name for i in spec.inputs or ()}
    assert sources(step(spec, "load-tray")) == {"tray_id": "inputs.tray"}
    assert sources(step(spec, "weigh-item"))["limit"] == 0.9


PY = """\
#!/usr/bin/env python3
# tray check
import sys
tray = sys.argv[1]
clerk = sys.argv[2]
SITE = "North-3"
LIMIT = 0.9
t = skill("load-tray", tray_id=tray)
rows = []
for it in t.get("items"):
    rows.append(skill("weigh-item", code=it, limit=LIMIT))
s = skill("tally-up", rows=rows)
skill("file-tally", tray_id=tray, pct=s["pct"], site=SITE, clerk=clerk)
"""

RB = """\
# tray check
tray = ARGV[0]
clerk = ARGV[1]
SITE = "North-3"
t = skill("load-tray", tray_id: tray)
rows = []
t[:items].each do |it|
  rows << skill("weigh-item", code: it, limit: 0.9)
end
s = skill("tally-up", rows: rows)
skill("file-tally", tray_id: tray, pct: s.fetch(:pct), site: SITE, clerk: clerk)
"""


def test_the_same_runbook_in_python_and_ruby() -> None:
    for text, path in ((PY, "tray.py"), (RB, "tray.rb")):
        spec = read(text, path)
        assert {i.name for i in spec.inputs or ()} == {"tray", "clerk"}, path
        load, weigh, tally, file_ = (step(spec, s) for s in ("load-tray", "weigh-item", "tally-up", "file-tally"))
        assert weigh.for_each is not None and load.id in weigh.depends_on, path
        assert sources(weigh)["code"] == "item" and sources(weigh)["limit"] == 0.9, path
        assert weigh.id in tally.depends_on, path
        assert sources(file_)["pct"] == f"steps.{tally.id}.output.pct", path
        assert sources(file_)["site"] == "North-3" and sources(file_)["clerk"] == "inputs.clerk", path


PY_PLAIN = """\
#!/usr/bin/env python3
import sys
tray = sys.argv[1]
t = skill("load-tray", tray_id=tray)
skill("file-tally", tray_id=tray, pct=50, site="North-3", clerk="ann")
"""


def test_a_script_reader_that_missed_no_call_keeps_its_reading() -> None:
    from orchestrator.spec.wired52 import BY_CALLS_SAID

    spec = read(PY, "tray.py")  # its reader missed `rows.append(skill(...))`: read by the calls
    assert any(w.message.startswith(BY_CALLS_SAID) for w in spec.warnings)
    spec = read(PY_PLAIN, "tray.py")  # near-miss: every call on a line of its own, read by the script reader
    assert not any(w.message.startswith(BY_CALLS_SAID) for w in spec.warnings)
    assert [s.skill for s in spec.steps] == ["load-tray", "file-tally"]


def test_a_field_named_as_a_declared_input_binds_to_it_unless_an_earlier_step_outputs_it() -> None:
    from orchestrator.spec.commands54 import same_named

    inputs = {"trayId": 3, "clerk": 4, "seen": 0}
    assert same_named(frozenset({"tray_id", "code"}), set(), inputs, set()) == {"tray_id": "trayId"}
    assert same_named(frozenset({"CLERK"}), set(), inputs, set()) == {"CLERK": "clerk"}
    assert same_named(frozenset({"tray_id"}), {"tray_id"}, inputs, set()) == {}  # a value names it already
    assert same_named(frozenset({"tray_id"}), set(), inputs, {"trayid"}) == {}  # an earlier step outputs it
    assert same_named(frozenset({"seen"}), set(), inputs, set()) == {}  # only referred to, never declared
    spec = read("set trayId [lindex $argv 0]\nset t [skill load-tray]\nskill file-tally tray_id $trayId\n", "t.tcl")
    assert sources(step(spec, "load-tray")) == {"tray_id": "inputs.trayId"}
