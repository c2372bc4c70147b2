"""Run inputs declared in a spec's own syntax, read without knowing the syntax (`spec.declared52`): groups named
for the run's inputs, placeholders side by side, command-line and environment declarations, in syntaxes no reader
here knows; and what looks like them but must not be read so."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.declared52 import DeclaredInput, declared_inputs, name_key, reference_names
from orchestrator.spec.vocabulary import Vocabulary


def _read(text: str) -> list[tuple[str, int, str | None, str | None, str | None]]:
    return [(d.name, d.line, d.default, d.type, d.container) for d in declared_inputs(text.splitlines())]


def _names(text: str) -> list[str]:
    return [d.name for d in declared_inputs(text.splitlines())]


# --- (a) a group whose name says it holds the run's inputs ------------------------------------------------------------

def test_a_graphql_input_type_s_fields_with_their_types() -> None:
    text = ('"what the GM types"\ninput NightKickoff {\n  venueId: ID!   # e.g. V-9\n  shiftDay: String\n}\n'
            "type Query { ping: Boolean }\ntype Flow {\n  a(v: $venueId): A @skill(name: \"a\")\n}\n")
    assert _read(text) == [("venueId", 3, None, "ID!", "NightKickoff"), ("shiftDay", 4, None, "String", "NightKickoff")]


def test_a_protobuf_request_message_s_fields_without_their_numbers() -> None:
    text = 'syntax = "proto3";\nmessage StartRequest {\n  string depot = 1;\n  int32 vans = 2;\n}\n'
    assert _read(text) == [("depot", 3, None, "string", "StartRequest"), ("vans", 4, None, "int32", "StartRequest")]


def test_a_fortran_namelist_run_group_on_one_line_with_a_default() -> None:
    assert _read("&run basin = '', gauge = 'G-12' /\n&step skill = 'x' /\n") == [
        ("basin", 1, None, None, "run"), ("gauge", 1, "G-12", None, "run")]


def test_an_ini_inputs_section_up_to_the_next_section() -> None:
    text = "[inputs]\nkennel =\nweek = 2027-W14\n[other]\nnoise = ''\n"
    assert _read(text) == [("kennel", 2, None, None, "inputs"), ("week", 3, "2027-W14", None, "inputs")]


def test_an_inline_object_of_inputs_and_an_indented_yaml_block() -> None:
    assert _read("inputs: { wall: '', grade: '6a' }\n") == [("wall", 1, None, None, "inputs"),
                                                             ("grade", 1, "6a", None, "inputs")]
    assert _names("params:\n  crag: ~TBD\n  rope: ''\nsteps:\n  - a\n") == ["rope"]  # `~TBD` is no placeholder
    assert _names("params:\n  crag: TBD\n  rope: ''\nsteps:\n  - a\n") == ["crag", "rope"]


def test_a_go_struct_an_elixir_struct_and_a_powershell_param_block() -> None:
    go = 'type RunArgs struct {\n\tDepot string `json:"depot"`\n\tVans  int\n}\n'
    assert _read(go) == [("Depot", 2, None, "string", "RunArgs"), ("Vans", 3, None, "int", "RunArgs")]
    ex = 'defmodule Rounds.Args do\n  defstruct depot: nil, day: "2027-01-04"\nend\n'
    assert _read(ex) == [("depot", 2, None, None, "Args"), ("day", 2, "2027-01-04", None, "Args")]
    ps = 'param(\n  [string]$Depot,\n  [int]$Vans = 3\n)\n'
    assert _read(ps) == [("Depot", 2, None, "string", "param"), ("Vans", 3, "3", "int", "param")]


def test_an_empty_list_in_a_js_params_object_and_masks_in_a_jcl_deck() -> None:
    js = "module.exports = {\n  params: {\n    depot: '',   // e.g. D-4\n    vans: [],\n  },\n  steps: [],\n}\n"
    assert _names(js) == ["depot", "vans"]
    jcl = ("//ROUNDS   JOB (A1),'VAN ROUNDS'\n//*  THE RUN PARMS\n//   SET DEPOT='XXX'     <== DEPOT CODE\n"
           "//   SET WEEKNO='NN'     <== ISO WEEK\n//STEP01   EXEC SKILL=LOAD-VANS\n")
    assert _read(jcl) == [("DEPOT", 3, None, None, None), ("WEEKNO", 4, None, None, None)]
    assert _names("// a comment\n// SET DEPOT='XXX'\n// SET WEEKNO='NN'\nx = 1\n") == []  # C++ comments


def test_a_sas_macro_s_parameters() -> None:
    assert _names("%macro run(clinic=, week=);\n  %put &clinic;\n%mend;\n") == ["clinic", "week"]


# --- (b) placeholders side by side -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '#define KENNEL ""\n#define WEEK ""\n',  # C
    'set kennel ""\nset week ""\n',  # Tcl
    "%let kennel=;\n%let week=;\n",  # SAS
    'KENNEL := ""\nWEEK := ""\n',  # AutoHotkey
    "SET KENNEL=\nREM the week\nSET WEEK=\n",  # a .bat file
    "my $kennel = undef;\nmy $week = undef;\n",  # Perl
    "KENNEL = None\nWEEK = None\n",  # Python
])
def test_placeholders_side_by_side_in_any_syntax(text: str) -> None:
    assert [n.lower() for n in _names(text)] == ["kennel", "week"]


def test_one_placeholder_alone_real_values_and_a_form_s_blanks_are_no_inputs() -> None:
    assert _names("FILL IN\n  TITLE        ...\n  GUEST        ...\n") == []  # no `set`, `#define`: a form
    assert _names('#define KENNEL ""\n#define RETRIES 3\n') == []
    assert _names('CHANNEL = "#closing-crew"\nLIMIT = 10\n') == []


# --- (c) the command line and the environment ------------------------------------------------------------------------

def test_perl_and_ruby_argv_and_shell_positionals() -> None:
    assert _read("my $ward = shift @ARGV;\nmy ($bed, $day) = @ARGV;\n") == [
        ("ward", 1, None, None, "ARGV"), ("bed", 2, None, None, "ARGV"), ("day", 2, None, None, "ARGV")]
    assert _names("kennel = ARGV[0]\nweek = ARGV.fetch(1)\n") == ["kennel", "week"]
    assert _names("KENNEL=$1\nSET WEEK=%2\n") == ["KENNEL", "WEEK"]
    assert _names("set kennel [lindex $argv 0]\n") == ["kennel"]
    assert _names("Kennel := A_Args[1]\n") == ["Kennel"]


def test_argparse_gradle_env_lookups_and_read() -> None:
    text = ('p.add_argument("--kennel", default="K-2", type=str)\np.add_argument("-w", "--week-no")\n'
            'x = os.environ["REGION"]\ny = os.getenv("MODE", "fast")\n')
    assert _read(text) == [("kennel", 1, "K-2", "str", "argparse"), ("week_no", 2, None, None, "argparse"),
                           ("REGION", 3, None, None, "env"), ("MODE", 4, "fast", None, "env")]
    assert _read("val kennel: String by project\n") == [("kennel", 1, None, "String", "project")]
    assert _read(': "${KENNEL:?say the kennel}"\nWEEK="${WEEK:-this}"\nread -p "Vet: " VET\n') == [
        ("KENNEL", 1, None, None, "env"), ("WEEK", 2, "this", None, "env"), ("VET", 3, None, None, "stdin")]


# --- near-misses -----------------------------------------------------------------------------------------------------

def test_a_config_block_and_other_types_are_not_inputs() -> None:
    assert _names("config {\n  retries = 3\n  timeout = 30\n}\n") == []
    assert _names("type Bookings { site: String  day: String }\n") == []
    assert _names('[database]\nhost = ""\nport = ""\n') == []  # placeholders inside a section named otherwise


def test_a_call_and_a_function_body_named_run_are_not_inputs() -> None:
    assert _names('run_skill("pull-day", {"site": site})\n') == []
    assert _names("def run(self):\n    rows = fetch(day)\n    return rows\n") == []
    assert _names('p.add_argument("--x")\n') == ["x"]  # the call read as an option, not as a group


def test_a_yaml_key_that_opens_a_block_is_no_placeholder() -> None:
    assert _names("on:\n  push:\nsteps:\n  - run: x\n") == []


def test_bad_input_gives_no_traceback() -> None:
    for text in ["input X {", "&run a = '", "[inputs", "param(", "}{", "\x00" * 50, "input X {\n" + "a: ''\n" * 300]:
        assert isinstance(declared_inputs(text.splitlines()), list)


def test_names_and_references() -> None:
    assert name_key("siteCode") == name_key("site_code") == name_key("SITE-CODE")
    assert reference_names("a: $siteCode, b: run%basin, c: &WARD, d: inputs.wall, e: args.site, f: ${X}") == [
        "siteCode", "basin", "WARD", "wall", "site", "X"]
    assert DeclaredInput(name="a", line=1).default is None


# --- used as the workflow inputs of a spec with no Inputs section (`spec.declared_use52`) ----------------------------

_INS = {"count-dogs": frozenset({"kennel_code", "week"}), "feed-order": frozenset({"kennel_code", "dog_count"})}
_OUTS = {"count-dogs": frozenset({"kennel_code", "dog_count"}), "feed-order": frozenset({"message"})}
_VOCAB = Vocabulary.of([(s, None) for s in _INS]).with_outputs(lambda s: _OUTS[s], lambda s: _INS[s])


def _spec(text: str) -> tuple[list[str], dict[str, dict[str, str | None]], dict[str, dict[str, object]], list[str]]:
    spec = parse_spec_text(text, "rounds.txt", "markdown", _VOCAB)
    return ([i.name for i in spec.inputs], {s.id: {f.name: f.source for f in s.inputs if f.source} for s in spec.steps},
            {s.id: dict(s.input_values) for s in spec.steps},
            [f"{w.line}: {w.message}" for w in spec.warnings if "declared inputs" in w.message])


def test_a_ruby_script_s_argv_names_bind_where_a_call_passes_them() -> None:
    names, sources, _, _ = _spec('# nightly kennel feed\nkennel = ARGV[0]\nweek = ARGV[1]\n\n# who is in\n'
                                    'dogs = run_skill("count-dogs", kennel_code: kennel, week: week)\n# the order\n'
                                    'run_skill("feed-order", dog_count: dogs[:dog_count])\n')
    assert names == ["kennel", "week"]
    # a Ruby-like file is read by its skill calls (`spec.wired52`), its steps named by the results they are kept in
    count, feed = sources.values()
    assert count == {"kennel_code": "inputs.kennel", "week": "inputs.week"}
    assert feed == {"dog_count": f"steps.{next(iter(sources))}.output.dog_count"}


def test_sas_macro_variables_bind_over_the_command_line_s_literal() -> None:
    names, sources, values, _ = _spec("%let clinic=;\n%let week=;\n* who is in;\n"
                                      "%run_skill(count-dogs, kennel_code=&clinic, week=&week);\n* the order;\n"
                                      "%run_skill(feed-order, dog_count=3);\n")
    assert names == ["clinic", "week"]
    assert sources["step-1"] == {"kennel_code": "inputs.clinic", "week": "inputs.week"}  # `&week`: the input
    assert values["step-1"] == {}  # not the literals '&clinic', '&week)'


def test_autohotkey_placeholders_bind_to_fields_differing_only_in_case_and_separators() -> None:
    names, sources, _, _ = _spec('; kennel feed\nKennelCode := ""\nWeek := ""\n; who is in\nRunSkill("count-dogs")\n'
                                 '; the order\nRunSkill("feed-order")\n')
    assert names == ["KennelCode", "Week"]
    assert sources["step-1"] == {"kennel_code": "inputs.KennelCode", "week": "inputs.Week"}
    assert sources["step-2"] == {}  # its kennel_code: step 1's output, nearer than the input


def test_a_config_block_a_constant_and_unused_placeholders_change_nothing() -> None:
    assert _spec('config {\n  retries = 3\n}\nCHANNEL = "#x"\n# who is in\nrun count-dogs\n# the order\n'
                 'run feed-order\n')[::3] == ([], [])
    assert _spec("SET OWNER=\nSET VAN=\nREM who is in\ncall count-dogs\nREM the order\ncall feed-order\n")[::3] == (
        [], [])


def test_a_quoted_reference_and_a_blank_separated_switch_bind() -> None:
    names, sources, _, _ = _spec("! rounds\n&run\n  kennel = ''\n  week   = ''\n/\n! who is in\n&step1\n"
                                 "  skill = 'count-dogs'\n  kennel_code = 'run%kennel'\n  week = 'run%week'\n/\n")
    assert names == ["kennel", "week"] and sources["step-1"] == {"kennel_code": "inputs.kennel", "week": "inputs.week"}
    names, sources, _, _ = _spec("param([string]$Kennel, [string]$Wk)\n# who is in\n"
                                 "Invoke-Skill count-dogs -kennel_code $Kennel -week $Wk\n")
    assert names == ["Kennel", "Wk"] and sources["step-1"] == {"kennel_code": "inputs.Kennel", "week": "inputs.Wk"}


def test_a_reference_to_an_input_binds_it_over_an_earlier_step_s_output_of_that_name() -> None:
    text = ("# kennel feed, Perl\nmy $kennel_code = shift @ARGV;\nmy $week = shift @ARGV;\n\n# who is in\n"
            "my $dogs = run_skill('count-dogs', { kennel_code => $kennel_code, week => $week });\n# the order\n"
            "run_skill('feed-order', { kennel_code => $kennel_code, dog_count => $dogs->{dog_count} });\n")
    names, sources, _, _ = _spec(text)
    assert names == ["kennel_code", "week"]
    feed = list(sources.values())[1]
    assert feed["kennel_code"] == "inputs.kennel_code"  # count-dogs outputs one too: `$` says which
    bare = text.replace("kennel_code => $kennel_code, dog", "kennel_code => kennel_code, dog")
    assert list(_spec(bare)[1].values())[1]["kennel_code"] == "inputs.kennel_code"  # a declared input's bare name too


def test_getopts_a_one_line_message_and_typed_members_with_defaults() -> None:
    assert _read('while getopts "k:w:" opt; do\n  case $opt in\n    k) KENNEL=$OPTARG;;\n    w) WEEK=$OPTARG;;\n'
                 "  esac\ndone\n") == [("KENNEL", 3, None, None, "OPTARG"), ("WEEK", 4, None, None, "OPTARG")]
    assert _names("message KickoffRequest { string kennel = 1; int32 week = 2; }\n") == ["kennel", "week"]
    assert _read("data class RunArgs(val kennel: String, val week: Int = 14)\n") == [
        ("kennel", 1, None, "String", "RunArgs"), ("week", 1, "14", "Int", "RunArgs")]
    assert _read('class RunParams:\n    site: str = "LDS"\n    day: str\n') == [
        ("site", 2, "LDS", "str", "RunParams"), ("day", 3, None, "str", "RunParams")]


def test_a_makefile_s_overridable_variables() -> None:
    assert _read("DEPOT ?= north   # the depot\nWEEK ?= $(shell date +%V)\nCC = gcc\n") == [
        ("DEPOT", 1, "north", None, "command line"), ("WEEK", 2, None, None, "command line")]


def test_prose_and_per_step_groups_are_not_the_run_s_inputs() -> None:
    assert _names("Fill in before each run:   TANK SOUNDINGS (t) ....... per tank\n") == []
    assert _names("Inputs (sheet B2:B6) -> `inventory` = nightly dump\n") == []
    assert _names("run <- function(skill, ...) invisible(NULL)\n") == []
    assert _names("Department: Pharmacy (2nd shift)\nA: the notifier gets three attempts\n") == []
    assert _names("steps = [\n  { inputs = { date = night; }; }\n  { inputs = { day = night; }; }\n]\n") == []
    assert _names("steps:\n  - id: a\n    input:\n      vendor: acme\n") == []
    assert _names("x: ${app-logs.events}\n") == []
