"""Code files read by their skill calls first (`spec.wired52.code_first`), and the forms round 53 reads: a value
joined on after `"key="`, getters, inputs said by flags / usage lines / a run object in a comment / empty
fill-ins, pairs written as tuples, a loop on the line above, a function applied to a name, a variable set in both
arms of an if, and a person's yes said in the comment above a call."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wired52 import BY_CALLS_SAID, _getter, _pairs, is_code_file

INPUTS = {"pull-rooms": {"site", "day"}, "price-room": {"room_id", "size", "rate"}, "send-bill": {"total", "to"},
          "deep-clean": {"room_id"}, "quick-clean": {"room_id"}, "log-day": {"note", "site"}}
OUTPUTS = {"pull-rooms": {"rooms", "count"}, "price-room": {"total", "hours"}, "send-bill": {"sent"},
           "deep-clean": {"note"}, "quick-clean": {"note"}, "log-day": {"logged"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def read(text: str, path: str) -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", VOCAB)


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def sources(s: StepSpec) -> dict[str, object]:
    return {**{f.name: f.source or f.description for f in s.inputs if f.source or f.description}, **s.input_values}


def by_calls(spec: WorkflowSpec) -> bool:
    return any(w.message.startswith(BY_CALLS_SAID) for w in spec.warnings)


# -- a value joined on after "key=" -----------------------------------------------------------------------
def test_a_value_joined_on_after_a_quoted_key() -> None:
    assert [p[::2] for p in _pairs('run("pull-rooms", "site=" + site, "day=" .. day)')] == [
        ("site", "site"), ("day", "day")]
    assert [p[::2] for p in _pairs("run('pull-rooms', 'site=' . $site);")] == [("site", "$site")]
    # near-miss: a key in quotes with nothing joined on is an empty value, not the next argument
    assert [p[::2] for p in _pairs('run("pull-rooms", "site=", other)')] == [("site", "")]


# -- getters -------------------------------------------------------------------------------------------
def test_a_field_read_by_a_getter_is_a_reference() -> None:
    assert _getter('fetch(rooms, "count")') == "rooms.count"  # Lua / PHP helpers
    assert _getter('rooms.getString("count")') == "rooms.count"  # Java / Kotlin
    assert _getter('res ^. "count"') == "res.count"
    assert _getter('res.get("count")!') == "res.count"  # an unwrap after it (Swift, Kotlin)
    assert _getter("fetch(rooms, count, 2)") == "fetch(rooms, count, 2)"  # near-miss: no field name in quotes


LUA = """\
-- usage: lua day.lua  (args come in from the caller)
local site = arg.site
local rooms = run("pull-rooms", "site=" .. site, "day=" .. arg.day)
local bill = run("price-room", "room_id=" .. fetch(rooms, "count"), "size=" .. 3, "rate=" .. 1.5)
run("send-bill", "total=" .. fetch(bill, "total"), "to=" .. "desk@example.org")
"""

PHP = """\
<?php
// nightly bill
$rooms = run('pull-rooms', 'site=' . $argv_site, 'day=' . $args->day);
$bill = run('price-room', 'room_id=' . $rooms->get('count'), 'size=' . 3, 'rate=' . 1.5);
run('send-bill', 'total=' . $bill->get('total'), 'to=' . 'desk@example.org');
"""


def test_joined_values_and_getters_wire_the_steps_in_two_syntaxes() -> None:
    for text, path in ((LUA, "day.lua"), (PHP, "day.php")):
        spec = read(text, path)
        pull, price, send = (step(spec, s) for s in ("pull-rooms", "price-room", "send-bill"))
        assert sources(price)["room_id"] == f"steps.{pull.id}.output.count", path
        assert sources(send)["total"] == f"steps.{price.id}.output.total", path
        assert sources(send)["to"] == "desk@example.org", path
        assert pull.id in price.depends_on and price.id in send.depends_on, path


# -- inputs said before the first call ---------------------------------------------------------------------
PY_ARGS = """\
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--site")
parser.add_argument("--day")
a = parser.parse_args()
rooms = skill("pull-rooms", {"site": a.site, "day": a.day})
skill("log-day", {"note": "done", "site": a.site})
"""

TCL_USAGE = """\
# usage: tclsh day.tcl -v site=NORTH -v day=2026-01-02
set rooms [skill pull-rooms -site $site -day $day]
skill log-day -note done -site $site
"""


def test_inputs_said_by_flags_and_by_a_usage_line() -> None:
    for text, path in ((PY_ARGS, "day.rb"), (TCL_USAGE, "day.tcl")):
        spec = read(text, path)
        assert {i.name for i in spec.inputs or ()} >= {"site", "day"}, path
        assert sources(step(spec, "pull-rooms")) == {"site": "inputs.site", "day": "inputs.day"}, path


RUN_OBJECT = """\
// input.json = { "site": "N1", "day": "2026-01-02", "rooms": [ {"code": "R1", "sqm": 12}, ... ] }
const pulled = call("pull-rooms", { site: input.site, day: input.day });
for (const r of input.rooms) {
  call("price-room", { room_id: r.roomCode, size: r.sizeSqm, rate: 2 });
}
"""

ML_APPLY = """\
(* input = { "site": "...", "day": "...", "rooms": [ {"code": "R1", "sqm": 12} ] } *)
let pulled = skill "pull-rooms" [("site", S (site input)); ("day", S (day input))]
let priced = forM (rooms input) $ \\r ->
    skill "price-room" [("room_id", S (roomCode r)); ("size", N (sizeSqm r)); ("rate", N 2)]
"""


def test_a_run_object_in_a_comment_gives_the_inputs_and_its_items_keys() -> None:
    for text, path in ((RUN_OBJECT, "day.ts"), (ML_APPLY, "day.ml")):
        spec = read(text, path)
        assert [i.name for i in spec.inputs or ()][:3] == ["site", "day", "rooms"], path
        price = step(spec, "price-room")
        assert price.for_each is not None and "rooms" in price.for_each, path
        assert sources(price)["room_id"] == "item.code", path  # `roomCode r`: the item's key it ends or starts with
        assert sources(price)["size"] == "item.sqm", path
        assert sources(step(spec, "pull-rooms")) == {"site": "inputs.site", "day": "inputs.day"}, path


KOTLIN_FILL = """\
// fill these in, then run
val site = ""
val nights = 0
val bookings = call("pull-rooms", site = site, day = "today")
val logged = call("log-day", note = "n", site = site)
"""

JS_FILL = """\
// fill these in, then run
let site = "";
let nights = 0;
const rooms = call("pull-rooms", { site: site, day: "today" });
"""

JS_CONST = """\
// fixed settings
let limit = 0;
const rooms = call("pull-rooms", { site: "N1", day: limit });
"""


def test_empty_fill_ins_are_inputs_and_a_lone_zero_is_a_literal() -> None:
    for text, path in ((KOTLIN_FILL, "day.kt"), (JS_FILL, "day.js")):
        spec = read(text, path)
        assert {"site", "nights"} <= {i.name for i in spec.inputs or ()}, path
        assert sources(step(spec, "pull-rooms"))["site"] == "inputs.site", path
    spec = read(JS_CONST, "const.js")  # near-miss: `limit = 0` alone, no empty fill-in beside it
    assert "limit" not in {i.name for i in spec.inputs or ()}
    assert sources(step(spec, "pull-rooms"))["day"] == 0


# -- pairs written as tuples ----------------------------------------------------------------------------
def test_pairs_written_as_tuples() -> None:
    got = [p[::2] for p in _pairs('skill("price-room", [("room_id", code(r)), ("size", 3)])')]
    assert ("room_id", "code(r)") in got and ("size", "3") in got
    got = [p[::2] for p in _pairs("skill(price_room, [{room_id, Code}, {rate, 2}])")]  # Erlang
    assert ("room_id", "Code") in got and ("rate", "2") in got
    assert ("a", "b") not in [p[::2] for p in _pairs("f(a, b)")]  # near-miss: an argument list is no tuple pair


# -- a variable set in both arms of an if: the value of whichever ran --------------------------------------
JS_BRANCH = """\
const priced = call("price-room", { room_id: args.room, size: 2, rate: 1 });
let done;
if (priced.hours > 4) {
  done = call("deep-clean", { room_id: args.room });
} else {
  done = call("quick-clean", { room_id: args.room });
}
call("log-day", { note: done.note, site: args.site });
"""

PY_BRANCH = """\
priced = skill("price-room", room_id=args.room, size=2, rate=1)
if priced.hours > 4:
    done = skill("deep-clean", room_id=args.room)
else:
    done = skill("quick-clean", room_id=args.room)
skill("log-day", note=done.note, site=args.site)
"""


def test_a_variable_set_in_both_arms_is_whichever_ran() -> None:
    for text, path in ((JS_BRANCH, "clean.js"), (PY_BRANCH, "clean.rb")):
        spec = read(text, path)
        deep, quick, log = (step(spec, s) for s in ("deep-clean", "quick-clean", "log-day"))
        assert deep.when and "4" in deep.when, path
        assert {deep.id, quick.id} <= set(log.depends_on), path
        assert step(spec, "price-room").id in quick.depends_on, path  # the otherwise waits for what its test reads
        note = sources(log)["note"]
        assert deep.id in str(note) and quick.id in str(note), path


# -- a person's yes said in the comment above a call --------------------------------------------------------
RUBY_OK = """\
priced = skill("price-room", room_id: ARGS[:room], size: 2, rate: 1)
# long jobs (more than 3 hours) need the duty manager to OK first, wait up to 30 minutes
send = skill("send-bill", total: priced.total, to: "desk")
"""

C_OK = """\
int main() {
  res_t priced = skill("price-room", .room_id = args.room, .size = 2, .rate = 1);
  /* anything over 3 hours: Sam signs off first. give him half an hour, no answer = don't send */
  res_t sent = skill("send-bill", .total = priced.total, .to = "desk");
}
"""

RUBY_TIMEOUT = """\
priced = skill("price-room", room_id: ARGS[:room], size: 2, rate: 1)
# give up if it takes over 3 hours
send = skill("send-bill", total: priced.total, to: "desk")
"""


def test_an_approval_in_the_comment_above_a_call_with_its_bound() -> None:
    for text, path in ((RUBY_OK, "bill.rb"), (C_OK, "bill.c")):
        spec = read(text, path)
        send = step(spec, "send-bill")
        assert send.approval is not None, path
        assert send.approval.when is not None and "hours > 3" in send.approval.when, path
        assert send.timeout_s is None, path  # "over 3 hours" is the approval's condition, no timeout
    ruby = step(read(RUBY_OK, "bill.rb"), "send-bill")
    assert ruby.approval is not None and ruby.approval.timeout_s == 1800
    spec = read(RUBY_TIMEOUT, "bill.rb")  # near-miss: no person asked, "over 3 hours" is the step's own rule
    assert step(spec, "send-bill").approval is None


# -- the gate ------------------------------------------------------------------------------------------
def test_what_is_a_code_file() -> None:
    assert is_code_file("flow.go", "hello there")
    assert is_code_file("flow.hs", "")
    assert not is_code_file("notes.txt", "x = call(y)\nz = call(w)\n")  # a prose suffix: the text readers
    assert not is_code_file("flow.md", "x = call(y)\n")
    assert is_code_file("runbook", "x = call(y)\nz = call(w)\nif (a) {\n}\n")  # no suffix, mostly code
    assert not is_code_file("runbook", "Pull the rooms for the site.\nThen price each room and send the bill.\n")


PROSE_TXT = """\
Pull the rooms with pull-rooms for the site and the day.
Then price-room prices each one.
"""


def test_a_code_file_is_read_by_its_calls_first_and_prose_is_not() -> None:
    spec = read(PY_BRANCH, "clean.hs")
    assert by_calls(spec)
    assert not by_calls(read(PROSE_TXT, "notes.txt"))


# -- a result named by an argument of the call (`out=`, `into:`, `result =>`) ----------------------------------
MACRO = """\
* nightly bill, submit as is;
%run(pull-rooms, out=rooms, site=&site, day=&day);
%run(price-room, out=bill, room_id=rooms.count, size=3, rate=1.5);
%run(send-bill, out=done, total=bill.total, to=desk@example.org);
"""

KEYWORDS = """\
// nightly bill
invoke('pull-rooms', into: 'rooms', site: site, day: day)
invoke('price-room', into: 'bill', room_id: rooms.count, size: 3, rate: 1.5)
invoke('send-bill', total: bill.total, to: 'desk@example.org')
"""


def test_a_result_named_by_an_argument_of_the_call_is_that_step_s_name() -> None:
    for text, path in ((MACRO, "bill.sas"), (KEYWORDS, "bill.dart")):
        spec = read(text, path)
        pull, price, send = (step(spec, s) for s in ("pull-rooms", "price-room", "send-bill"))
        assert sources(price)["room_id"] == f"steps.{pull.id}.output.count", path
        assert sources(send)["total"] == f"steps.{price.id}.output.total", path
        assert pull.id in price.depends_on and price.id in send.depends_on, path
    # near-miss: `out` that is one of the skill's own inputs stays its input, no name for the step
    vocab = Vocabulary.of([("log-day", None)]).with_outputs(lambda s: frozenset({"logged"}),
                                                            lambda s: frozenset({"note", "site", "out"}))
    spec = parse_spec_text("%run(log-day, out=north, note=x, site=s);\n", "d.sas", "markdown", vocab)
    assert spec.steps[0].id != "north" and spec.steps[0].input_values.get("out") == "north"


# -- a bare name the program sets itself, outside any skill call, is the run's input ------------------------------------
ASKED = {
    "ask.ahk": "InputBox, SiteCode, Rooms, Which site?\nRooms := RunSkill(\"pull-rooms\", {site: SiteCode, day: \"mon\"})\n",
    "ask.rb": "print 'Which site? '\nsiteCode = gets.chomp\nrooms = run_skill(\"pull-rooms\", site: siteCode, day: \"mon\")\n",
}


def test_a_bare_name_the_program_sets_is_the_run_s_input_and_said() -> None:
    for path, text in ASKED.items():
        spec = read(text, path)
        name = "SiteCode" if path.endswith(".ahk") else "siteCode"
        assert sources(step(spec, "pull-rooms"))["site"] == f"inputs.{name}", path
        assert any(f"`{name}` is set by the program" in w.message for w in spec.warnings), path
    # near-miss: a bare word nothing in the program sets stays the text itself (a config's `mode = fast`)
    spec = read('Rooms := RunSkill("pull-rooms", {site: NORTH, day: "mon"})\n', "other.ahk")
    assert sources(step(spec, "pull-rooms"))["site"] == "NORTH"


# -- a reference written in quotes, as a config module writes one ------------------------------------------------------
QUOTED = {
    "day.php": "<?php\nreturn ['steps' => [\n  ['skill' => 'pull-rooms', 'in' => ['site' => 'north', 'day' => 'mon']],\n"
               "  ['skill' => 'price-room', 'in' => ['room_id' => 'pull-rooms.count', 'size' => 3, 'rate' => 1.5]],\n]];\n",
    "day.exs": "steps = [\n  %{skill: \"pull-rooms\", in: %{site: \"north\", day: \"mon\"}},\n"
               "  %{skill: \"price-room\", in: %{room_id: \"pull-rooms.count\", size: 3, rate: 1.5}}\n]\n",
}


def test_a_quoted_reference_to_a_step_s_field_is_that_output() -> None:
    for path, text in QUOTED.items():
        spec = read(text, path)
        pull, price = step(spec, "pull-rooms"), step(spec, "price-room")
        assert sources(price)["room_id"] == f"steps.{pull.id}.output.count", path
        assert pull.id in price.depends_on, path
    # near-miss: a dotted text naming no step stays the text itself
    spec = read(QUOTED["day.php"].replace("'pull-rooms.count'", "'rooms.csv'"), "day.php")
    assert sources(step(spec, "price-room"))["room_id"] == "rooms.csv"
