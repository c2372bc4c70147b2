"""A C header or a macro-language file read by its skill calls (`spec.c_macros54`, `spec.comment_rules54`, through
`spec.wired52`): a header comment asking for things to be filled in names the run's inputs, `#define` a constant, a
loop macro `for_each (item, LIST) { }` a for-each, `x = skill_name(...)` a call even when `x` is a word a text key
is spelled with, two comment lines each a rule of its own, and a numbered title that only tells someone."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.c_macros54 import assigned_call, fill_in_names, macro_loop
from orchestrator.spec.commands54 import assignment
from orchestrator.spec.comment_rules54 import own_rules
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wired52 import split_lines

INPUTS = {"weigh-crate": {"crate_no", "kg", "grade"}, "total-crates": {"rows"}, "book-van": {"crate_nos", "date"},
          "text-driver": {"slot", "n"}}
OUTPUTS = {"weigh-crate": {"crate_no", "ok"}, "total-crates": {"ok_nos", "count"}, "book-van": {"slot", "booked"},
           "text-driver": {"sent"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def read(text: str, path: str) -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", VOCAB)


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def sources(s: StepSpec) -> dict[str, object]:
    return {**{f.name: f.source or f.description for f in s.inputs if f.source or f.description}, **s.input_values}


# -- the pieces ---------------------------------------------------------------------------------------------------
def test_loop_macros_name_the_item_first() -> None:
    assert macro_loop("FOREACH(crate, CRATES) {") == ("CRATES", "crate")
    assert macro_loop("  list_for_each(c, run.crates)") == ("run.crates", "c")
    assert macro_loop("for_each (c, $CRATES) {") == ("$CRATES", "c")
    assert macro_loop("for_each(crates, weigh);") is None  # near-miss: a function applied, no block
    assert macro_loop("FOREACH(c) {") is None  # one argument
    assert macro_loop("if (a, b) {") is None


def test_define_is_a_constant() -> None:
    assert assignment('#define GRADE "A1"') == ("constant", "GRADE", "A1")
    assert assignment("#  define MAX_KG 25") == ("constant", "MAX_KG", 25)
    assert assignment("#define CRATE_H") is None  # an include guard: no value


class _L:
    def __init__(self, number: int, comment: str, code: str = "") -> None:
        self.number, self.comment, self.code = number, comment, code


def test_a_header_comment_asking_for_fill_ins_names_the_inputs() -> None:
    lines = [_L(1, "crates.h - the crate weigh-in"), _L(2, "set these first: CRATES = the crates on the dock,"),
             _L(3, "DAY = the van day"), _L(4, "do it before lunch")]
    assert fill_in_names(lines) == [("CRATES", 2), ("DAY", 3)]
    lines = [_L(1, "inputs:"), _L(2, "crate_list = from the sheet"), _L(3, "van_day = yyyy-mm-dd")]
    assert fill_in_names(lines) == [("crate_list", 2), ("van_day", 3)]
    lines = [_L(1, "defaults: RETRIES = 3, WAIT = 10")]  # near-miss: no word asks for them
    assert fill_in_names(lines) == []
    lines = [_L(1, "inputs: see the wiki"), _L(2, "CRATES = whatever")]  # near-miss: nothing listed after the colon
    assert fill_in_names(lines) == []
    lines = [_L(1, "Fill these in on the sheet before you press the button:"), _L(2, "C4 = the depot"),
             _L(3, "C5 = the day")]
    assert fill_in_names(lines) == [("C4", 2), ("C5", 3)]
    code = ['depot = Sheets("Desk").Range("C4").Value', "day = C5"]  # C4 only a cell the code reads in quotes
    assert fill_in_names(lines, code) == [("C5", 3)]


def test_a_call_assigned_to_a_text_key_word_is_a_call() -> None:
    code = "summary = total_crates(rows = r);"
    assert assigned_call(code, code.index("total_crates"), code.index("total_crates") + 12)
    code = "summary: total-crates"  # near-miss: a description naming the skill
    assert not assigned_call(code, code.index("total-crates"), code.index("total-crates") + 12)
    code = "if summary == total_crates(x)"
    assert not assigned_call(code, code.index("total_crates"), code.index("total_crates") + 12)


def test_two_comment_lines_each_a_rule_stay_apart() -> None:
    assert own_rules("try it again twice, 10s apart", "and every weigh gets 30 seconds, no longer")
    assert own_rules("no retries on this one", "also give it a minute at most")
    assert not own_rules("retry it twice", "and wait 10s between")  # near-miss: the retry's wait, one rule
    assert not own_rules("retry it twice if it", "and times out after 20s")  # mid-clause
    assert not own_rules("weigh each crate", "and 20s max")  # the first states no rule


# -- whole files --------------------------------------------------------------------------------------------------
C_HEADER = """\
/* crate_run.h - dock weigh-in
 * set these first: CRATES = list of {no, kg} off the dock sheet,
 *                  VAN_DAY = the day the van comes
 * the whole thing has 20 minutes
 */
#define GRADE "A1"

/* 1) weigh each crate */
FOREACH(crate, CRATES) {
    w = weigh_crate(crate_no = crate.no, kg = crate.kg, grade = GRADE);
    /* try it again twice, 10s apart */
    /* and every weigh gets 30 seconds, no longer */
}

/* 2) add them up */
summary = total_crates(rows = ALL(w));

/* 3) book the van */
van = book_van(crate_nos = summary.ok_nos, date = VAN_DAY);

/* 4) tell the driver */
text_driver(slot = van.slot, n = van.booked);
"""

MACRO = """\
// crates.c -- dock weigh-in
// inputs:
//   crate_list = the crates off the dock sheet
//   van_day = when the van comes
#  define GRADE "A1"

// 1) weigh each crate
list_for_each(c, crate_list) {
  w = weighCrate(crate_no = c.no, kg = c.kg, grade = GRADE);
}

// 2) add them up
message = total_crates(rows = ALL(w));

// 3) book the van
book_van(crate_nos = message.ok_nos, date = van_day);
"""


def test_a_c_header_reads_fill_ins_define_loop_gather_and_each_rule() -> None:
    spec = read(C_HEADER, "crate_run.h")
    assert {i.name for i in spec.inputs or ()} == {"CRATES", "VAN_DAY"}
    weigh, total, van, text = (step(spec, s) for s in ("weigh-crate", "total-crates", "book-van", "text-driver"))
    assert weigh.for_each is not None and "CRATES" in str(weigh.for_each)
    assert sources(weigh) == {"crate_no": "item.no", "kg": "item.kg", "grade": "A1"}
    assert weigh.id in total.depends_on and total.id in van.depends_on and van.id in text.depends_on
    assert sources(van) == {"crate_nos": f"steps.{total.id}.output.ok_nos", "date": "inputs.VAN_DAY"}
    assert sorted(t.line for t in weigh.texts if "30 seconds" in t.text or "twice" in t.text) == [11, 12]
    assert not any("is no input of" in w.message for w in spec.warnings)  # `(crate, CRATES)` is the loop's


def test_a_macro_file_reads_the_same() -> None:
    spec = read(MACRO, "crates.c")
    assert {i.name for i in spec.inputs or ()} == {"crate_list", "van_day"}
    weigh, total, van = (step(spec, s) for s in ("weigh-crate", "total-crates", "book-van"))
    assert weigh.for_each is not None and sources(weigh)["grade"] == "A1"
    assert weigh.id in total.depends_on and total.id in van.depends_on
    assert sources(van)["date"] == "inputs.van_day"


def test_near_miss_a_header_of_settings_names_no_inputs() -> None:
    text = C_HEADER.replace("set these first:", "defaults:")
    spec = read(text, "crate_run.h")
    assert "CRATES" not in {i.name for i in spec.inputs or ()} or any("CRATES" in w.message for w in spec.warnings)


def test_split_lines_keeps_block_comments() -> None:
    lines = split_lines(C_HEADER.splitlines())
    assert lines[1].comment.startswith("set these first")
