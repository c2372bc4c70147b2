"""Lua configs as specs (`spec.lua46`): a bakery's delivery round and a radio station's playout check, each a
`.lua` file returning a table of steps, read field by field (never run), and `.lua` files that are no workflow."""

from __future__ import annotations

from pathlib import Path

from orchestrator.plan import build_plan
from orchestrator.spec import parse_spec, parse_spec_text
from orchestrator.spec.lua46 import lua_steps
from orchestrator.spec.vocabulary import Vocabulary
from tests.unit.plan.plan_factory import SETTINGS, FakeCatalog, obj, skill

# a bakery's delivery round: inputs from `...` / `select`, a constant, a local table of steps returned by name
_BAKERY = """\
-- rounds.lua : morning delivery round
local route, day = ...
local van = select(3, ...) or "van-2"
local CRATE_SIZE = 24          -- loaves per crate
local HEADER = 'Daily Bread'

local steps = {
  {
    name = "orders",
    uses = "collect-orders",
    with = { route = route, day = day },
  },
  {
    name = "load",
    uses = "plan-loading",
    after = { "orders" },
    with = { loaves = "orders.loaves", crate = CRATE_SIZE, van = van },
    -- the loading planner crashes now and then: 2 more goes, 30s apart
  },
  {
    name = "notify",
    uses = "send-sheet",
    after = { "load" },
    with = { crates = "load.crates", title = HEADER, note = "see orders.loaves" },
  },
}

print("loaded")

return { steps = steps, done_when = "notify gives sent = true" }
"""

# a radio station's playout check: `arg[]` inputs, a keyed table of steps (its keys name them)
_RADIO = """\
local station = arg[1]
local hour = arg[2]

return {
  run_limit = "15 minutes all told, after that page the engineer",
  steps = {
    -- both of these can happen side by side
    fetch_log = { tool = "collect-orders", give = { route = station, day = hour } },
    fetch_ads = { tool = "plan-loading", give = { loaves = 0, crate = 1, van = station } },
  },
}
"""

_SKILLS = [
    skill("collect-orders", input_schema=obj(("route", "day"), route="string", day="string"),
          output_schema=obj(("loaves",), loaves="integer")),
    skill("plan-loading", input_schema=obj(("loaves", "crate", "van"), loaves="integer", crate="integer", van="string"),
          output_schema=obj(("crates",), crates="integer")),
    skill("send-sheet", input_schema=obj(("crates", "title", "note"), crates="integer", title="string", note="string"),
          output_schema=obj(("sent",), sent="boolean")),
]
_NAMES = frozenset(s.name for s in _SKILLS)


def _plan(text: str, path: str):  # type: ignore[no-untyped-def]
    spec = parse_spec_text(text, path, "lua", Vocabulary(skills=_NAMES))
    return spec, build_plan(spec, FakeCatalog(*_SKILLS), settings=SETTINGS)  # type: ignore[arg-type]


def test_a_returned_local_table_of_steps_its_varargs_inputs_constants_and_dotted_references() -> None:
    spec, plan = _plan(_BAKERY, "rounds.lua")
    assert [i.name for i in spec.inputs or ()] == ["route", "day", "van"]
    assert next(i for i in spec.inputs or () if i.name == "van").default == "van-2"
    orders, load, notify = plan.steps
    assert [s.id for s in plan.steps] == ["orders", "load", "notify"]
    assert orders.skill == "collect-orders" and orders.inputs["day"].source == "input"
    assert load.inputs["loaves"].step == "orders" and load.inputs["loaves"].pointer == "/loaves"
    assert load.inputs["crate"].source == "literal" and load.inputs["crate"].value == 24
    assert load.inputs["van"].source == "input" and load.depends_on == ("orders",)
    assert load.policy.retry.max_retries == 2 and load.policy.retry.delays_s[:1] == (30.0,)
    assert notify.inputs["title"].value == "Daily Bread" and notify.inputs["crates"].step == "load"
    assert notify.inputs["note"].source == "literal" and notify.inputs["note"].value == "see orders.loaves"
    assert any(w.line == 28 and "not read" in w.message for w in plan.warnings)  # `print(...)`: said, not read
    assert any(w.line == 30 and "success check" in w.message for w in plan.warnings)


def test_a_keyed_table_of_steps_arg_inputs_and_the_whole_run_s_limit_in_words() -> None:
    spec, plan = _plan(_RADIO, "playout.lua")
    assert [i.name for i in spec.inputs or ()] == ["station", "hour"]
    fetch_log, fetch_ads = plan.steps
    assert (fetch_log.id, fetch_ads.id) == ("fetch_log", "fetch_ads")
    assert fetch_log.inputs["route"].source == "input" and fetch_ads.inputs["loaves"].value == 0
    assert fetch_ads.depends_on == ()  # the comment above them: both start together
    assert plan.limits.wall_time_s == 900.0 and fetch_log.policy.attempt_timeout_s is None


def test_a_lua_file_with_no_step_table_is_read_as_text_as_before(tmp_path: Path) -> None:
    text = 'local M = {}\nfunction M.greet(name)\n  return "hi " .. name\nend\nreturn M\n'
    assert not lua_steps(text)
    assert not lua_steps('return { steps = { { id = "a", skill = "x" }\n')  # not closed: no reading
    path = tmp_path / "plugin.lua"
    path.write_text("# Brew\n\n## Step 1: Orders\nUse `collect-orders`.\n")
    assert parse_spec(path).format == "markdown"


def test_a_local_that_is_neither_an_argument_nor_a_value_is_said_not_read() -> None:
    text = ('local stamp = os.date("%Y")\nreturn { steps = { { id = "a", skill = "collect-orders", '
            'give = { route = "north", day = stamp } } } }\n')
    _spec, plan = _plan(text, "stamp.lua")
    assert any(w.line == 1 and "`stamp" in w.message for w in plan.warnings)
