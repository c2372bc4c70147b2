"""A config file whose steps are items of a list, read by their skill calls (`spec.config_steps54`): an inputs
container of blank values, top-level scalar keys as literals, the whole run's limit and check as keys, steps named by
the label of their heading comment (`else` of a label, `a/b.field` whichever ran), the comments indented under an
item as its rules, a hyphenated step name in a condition, and a reference-shaped literal warned."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.config_steps54 import _LABEL, either_ref
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

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


def warned(spec: WorkflowSpec, line: int, words: str) -> bool:
    return any(w.line == line and words in w.message for w in spec.warnings)


RUBY = """\
# nightly room clean
CONFIG = {
  given: {
    site: nil,     # the site code, e.g. N1
    room: nil,     # room number off the sheet
  },
  rate: 1.5,
  time_limit: "15 min",
  done_when: "log-day says logged = true",
  steps: [
    # 1 - price it
    { skill: "price-room", with: { room_id: "given.room", size: 3, rate: "rate" } },
      # give it 20 seconds then give up on it
    # 2a - a big job
    { skill: "deep-clean", if: "price-room.hours > 4", with: { room_id: "given.room" } },
    # 2b - a small one
    { skill: "quick-clean", else: "2a", with: { room_id: "given.room" } },
    # 3 - log it
    { skill: "log-day", with: { note: "2a/2b.note", site: "given.site" } },
  ],
}
"""

LUA = """\
-- nightly room clean
return {
  ask = {
    site = "",    -- the site code, e.g. N1
    room = "",    -- room number off the sheet
  },
  rate = 1.5,
  max_time = "15 min",
  done_when = "log-day says logged = true",
  steps = {
    -- step 1
    { skill = "price-room", args = { room_id = "ask.room", size = 3, rate = "rate" } },
        -- give it 20 seconds then give up on it
    -- step 2a
    { skill = "deep-clean", when = "price-room.hours > 4", args = { room_id = "ask.room" } },
    -- step 2b
    { skill = "quick-clean", otherwise = "2a", args = { room_id = "ask.room" } },
    -- step 3
    { skill = "log-day", args = { note = "(2a or 2b).note", site = "ask.site" } },
  },
}
"""


def _two() -> list[tuple[WorkflowSpec, str]]:
    return [(read(RUBY, "clean.rb"), "given"), (read(LUA, "clean.lua"), "ask")]


def test_a_block_of_blank_values_is_the_runs_inputs_with_their_comments() -> None:
    for spec, _ in _two():
        inputs = {i.name: i for i in spec.inputs}
        assert set(inputs) == {"site", "room"}, spec.path
        assert "site code" in (inputs["site"].description or ""), spec.path
        assert sources(step(spec, "price-room"))["room_id"] == "inputs.room", spec.path
        assert sources(step(spec, "log-day"))["site"] == "inputs.site", spec.path


def test_a_top_level_scalar_key_named_bare_is_its_literal() -> None:
    for spec, _ in _two():
        assert sources(step(spec, "price-room"))["rate"] == 1.5, spec.path


def test_a_hyphenated_step_name_in_a_condition_is_one_name_even_with_an_input_named_as_its_part() -> None:
    for spec, _ in _two():  # `room` is an input; `price-room.hours` is still the step's field
        deep = step(spec, "deep-clean")
        assert deep.when is not None and "hours" in str(deep.when) and "inputs" not in str(deep.when), spec.path


def test_else_of_a_label_is_that_steps_otherwise_and_a_slash_field_whichever_ran() -> None:
    for spec, _ in _two():
        deep, quick, log = step(spec, "deep-clean"), step(spec, "quick-clean"), step(spec, "log-day")
        assert quick.otherwise_of == deep.id and "hours" in str(deep.when), spec.path
        assert step(spec, "price-room").id in quick.depends_on, spec.path
        assert set(log.depends_on) >= {deep.id, quick.id}, spec.path
        assert sources(log)["note"] == f"{deep.id}.note or {quick.id}.note", spec.path  # the planner's join


def test_comments_indented_under_an_item_are_its_rules() -> None:
    for spec, _ in _two():
        assert any(r.statement.timeout_s == 20 and r.where.endswith(":13") and r.steps == (step(spec, "price-room").id,)
                   for r in spec.readings), spec.path


def test_whole_run_limit_and_check_said_as_top_level_keys() -> None:
    for spec, _ in _two():
        assert any(r.statement.whole_run and r.statement.timeout_s == 900 for r in spec.readings), spec.path
        assert any("logged" in str(c) for c in spec.contracts) or any(
            "logged" in " ".join(s.success) for s in spec.steps), spec.path


NEAR = """\
<?php
return [
  'ask' => [
    'site' => 'N1',
    'room' => '',
  ],
  'steps' => [
    // 1 - price it
    ['skill' => 'price-room',
     'in' => ['room_id' => 'ask.room', 'size' => 3, 'rate' => 'fast']],
    // if it fails just stop
    // 2
    ['skill' => 'send-bill', 'else' => '9z', 'in' => ['total' => 'nosuch.total', 'to' => 'desk@example.org']],
  ],
];
"""


def test_near_misses_a_block_with_a_value_an_unknown_label_a_reference_to_nothing() -> None:
    spec = read(NEAR, "near.php")
    assert not spec.inputs or "room" not in {i.name for i in spec.inputs}  # `'site' => 'N1'`: no inputs block
    price, bill = step(spec, "price-room"), step(spec, "send-bill")
    assert sources(price)["rate"] == "fast"  # no top-level key `fast`: the text itself
    assert not any(t.line == 11 for t in price.texts)  # not indented under the item: not its rule
    assert warned(spec, 13, "9z")  # `else` naming no step is said
    assert bill.when is None
    assert warned(spec, 13, "nosuch.total")  # a reference to nothing is said, never bound silently
    assert not warned(spec, 13, "desk@example.org")
    assert not warned(spec, 9, "`in` is no input")


def test_labels_and_either() -> None:
    assert [(m.group("a") or m.group("b")) if (m := _LABEL.match(t)) else None for t in (
        "3a - there is a space", "2) pull", "step 4", "Step 12: send", "#3b: full", "20 seconds is plenty",
        "10.5 kg max")] == ["3a", "2", "4", "12", "3b", None, None]
    assert either_ref.__doc__


def test_a_stray_top_level_scalar_in_a_program_is_no_step_field() -> None:
    text = 'SITE = "N1"\nrun("pull-rooms", site: SITE, day: "mon")\n'
    spec = read(text, "a.rb")
    assert sources(step(spec, "pull-rooms"))["site"] == "N1"


def test_another_go_then_the_goes_counted_in_all_are_the_attempts() -> None:
    from orchestrator.spec.phrase import read_phrase

    for said in ("if it errors have another go - 4 goes in all", "give it another try, 4 tries in total"):
        assert read_phrase(said, ()).statement.max_attempts == 4, said
    assert read_phrase("have another go, 4 times tops", ()).statement.retries == 4  # near-miss: no "in all"


def test_a_labelled_heading_that_states_no_policy_is_the_steps_name() -> None:
    spec = read(RUBY, "clean.rb")
    assert step(spec, "deep-clean").name == "a big job"
    assert not any(t.line == 14 for t in step(spec, "deep-clean").texts)
    near = read(RUBY.replace("# 2a - a big job", "# 2a - retry it 3 times"), "clean.rb")
    assert step(near, "deep-clean").name != "retry it 3 times"  # near-miss: a policy in the heading stays a rule
    assert any(t.line == 14 for t in step(near, "deep-clean").texts)


def test_a_section_of_blank_keys_and_an_inline_block_of_nulls_are_inputs_containers() -> None:
    section = ('# nightly\n[ask]\nsite=\nroom=\n\n[steps]\n'
               'one = run("price-room", room_id="ask.room", size=3, rate=2)\n'
               'two = run("log-day", note="x", site=ask.site)\n')
    inline = ('# nightly\nsettings = {\n  inputs: {site: null, room: ~},\n}\n'
              'run("price-room", room_id: inputs.room, size: 3, rate: 2)\n')
    for text in (section, inline):
        spec = read(text, "n.rb")
        assert {i.name for i in spec.inputs} == {"site", "room"}
        assert sources(step(spec, "price-room"))["room_id"] == "inputs.room"
    near = read(section.replace("room=\n", "room=4\n"), "n.rb")  # a value among them: no inputs container
    assert "room" not in {i.name for i in near.inputs or ()}


INI = """\
; nightly clean, office copy
[given]
; asked at the desk
site = the site code
room = which room (off the sheet)
time_limit = 15 min all told, then do it by hand
done_when = price-room total above 10

[1]
skill = price-room
room_id = {room}
size = 3
rate = 2
; give it 20 seconds then give up

[2]
skill = deep-clean
only_if = {1.hours} is long
room_id = {room}

[3]
skill = quick-clean
otherwise_of = 2
room_id = {room}
; retry 3 times, 10s apart

[4]
skill = log-day
after = 2 or 3
note = {2.note or 3.note}
site = {site}
"""


def _colons(text: str) -> str:
    """The same config written `key: value` with `[step n]` headers and `||` for whichever ran."""
    out = []
    for ln in text.splitlines():
        if ln.startswith("[") and ln[1:2].isdigit():
            ln = f"[step {ln[1:-1]}]"
        elif " = " in ln and not ln.startswith(";"):
            ln = ln.replace(" = ", ": ", 1)
        out.append(ln.replace(" or 3.note", " || 3.note"))
    return "\n".join(out) + "\n"


def test_an_ini_config_its_described_keys_the_inputs_and_its_numbered_sections_the_steps() -> None:
    for text, path in ((INI, "clean.ini"), (_colons(INI), "clean.cfg")):
        spec = read(text, path)
        assert [s.skill for s in spec.steps] == ["price-room", "deep-clean", "quick-clean", "log-day"], path
        assert {i.name for i in spec.inputs} == {"site", "room"}, path
        assert sources(step(spec, "price-room"))["room_id"] == "inputs.room"
        deep, quick, log = step(spec, "deep-clean"), step(spec, "quick-clean"), step(spec, "log-day")
        first = step(spec, "price-room").id
        assert deep.when is not None and f"{first}.hours" in str(deep.when) and "long" in str(deep.when), path
        assert quick.otherwise_of == deep.id, path
        assert set(log.depends_on) >= {deep.id, quick.id}, path
        assert sources(log)["note"] == f"{deep.id}.note or {quick.id}.note", path
        assert any("20 seconds" in t.text for t in step(spec, "price-room").texts), path
        assert any("retry 3 times" in t.text for t in quick.texts), path


def test_an_ini_configs_whole_run_keys_unquoted_are_its_limit_and_check() -> None:
    spec = read(INI, "clean.ini")
    assert any(r.statement.whole_run and r.statement.timeout_s == 900 for r in spec.readings)
    assert any("total" in str(c) for c in spec.contracts)


def test_near_misses_an_ini_section_nobody_names_and_a_number_no_step_is_labelled() -> None:
    about = INI.replace("[given]", "[about]\nowner = Sandra from the office\n\n[given]")
    spec = read(about, "clean.ini")
    assert "owner" not in {i.name for i in spec.inputs}  # described, but no `{owner}` anywhere: no input
    near = read(INI.replace("otherwise_of = 2", "otherwise_of = 7"), "clean.ini")
    assert not step(near, "quick-clean").otherwise_of and step(near, "quick-clean").when is None
    assert warned(near, 23, "no step before this one")


def test_a_bound_said_in_words_and_a_skill_whose_name_starts_with_a_print_word() -> None:
    from orchestrator.spec.success_words import _bounded

    for said in ("raise-invoice amount above 0", "the booking total is over 3", "fee at least 2.5"):
        assert _bounded(said), said
    assert not _bounded("total above average")  # near-miss: no number
    vocab = Vocabulary.of([("raise-alarm", None), ("print-label", None)]).with_outputs(
        lambda s: frozenset({"ok"}), lambda s: frozenset({"code"}))
    text = 'a = run("raise-alarm", code: args.code)\nb = print-label(code: args.code)\nprint "raise-alarm done"\n'
    spec = parse_spec_text(text, "x.rb", "markdown", vocab)
    assert [s.skill for s in spec.steps] == ["raise-alarm", "print-label"]
