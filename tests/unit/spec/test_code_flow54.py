"""Round 54 forms of code read by its skill calls (`spec.wired52`): doc strings are prose (`spec.code_docs54`),
the entry function's parameter is the input container, a call's result named on the line above, a re-assignment
from an await, a pipeline's subject (`spec.code_flow54`), and comments under a call before a blank line
(`spec.under_call54`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.code_docs54 import doc_lines
from orchestrator.spec.code_flow54 import entry_params, pipe_subject, piped
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.wired52 import split_lines

INPUTS = {"pull-rooms": {"site", "day"}, "price-room": {"room_id", "size", "rate"}, "send-bill": {"total", "to"}}
OUTPUTS = {"pull-rooms": {"rooms", "count"}, "price-room": {"total", "hours"}, "send-bill": {"sent"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def read(text: str, path: str) -> WorkflowSpec:
    return parse_spec_text(text, path, "markdown", VOCAB)


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def sources(s: StepSpec) -> dict[str, object]:
    return {**{f.name: f.source or f.description for f in s.inputs if f.source or f.description}, **s.input_values}


# -- doc strings ------------------------------------------------------------------------------------------
def test_a_doc_string_is_prose() -> None:
    py = ['def run(req):', '    """Takes site and day.', '', '    Done when send-bill says sent: true.', '    """',
          '    x = 1']
    assert doc_lines(py) == {2: "Takes site and day.", 3: "", 4: "Done when send-bill says sent: true.", 5: ""}
    ex = ['defmodule A do', '  @moduledoc """', '  Done when send-bill comes back.', '  """', '  @doc "Bills it."']
    assert doc_lines(ex) == {2: "", 3: "Done when send-bill comes back.", 4: "", 5: "Bills it."}
    assert doc_lines(['"""One line."""', 'x = 1']) == {1: "One line."}
    # near-misses: a triple-quoted string given as a value stays code
    assert doc_lines(['msg =', '  """', '  send-bill now', '  """']) == {}
    assert doc_lines(['text = """', 'send-bill now', '"""']) == {}
    assert doc_lines(['"""never closed', 'x = 1']) == {}


def test_a_skill_named_in_a_doc_string_is_no_step() -> None:
    text = ('defmodule Day do\n  @moduledoc """\n  Takes site and day.\n  Done when send-bill comes back with sent: true.\n'
            '  """\n  def run(args) do\n    rooms = call("pull-rooms", %{site: args.site, day: args.day})\n'
            '    call("send-bill", %{total: rooms.count, to: "desk"})\n  end\nend\n')
    spec = read(text, "day.ex")
    assert [s.skill for s in spec.steps] == ["pull-rooms", "send-bill"]
    assert any("sent" in c for c in spec.success_criteria) if hasattr(spec, "success_criteria") else True
    assert [ln.code for ln in split_lines(text.splitlines())[1:5]] == ["", "", "", ""]


# -- the entry function's parameter -------------------------------------------------------------------------
def test_the_entry_functions_parameter_is_the_input_container() -> None:
    def params(src: str) -> list[str]:
        lines = split_lines(src.splitlines())
        return entry_params(lines, len(lines) - 1)
    assert params("def run(order) do\n  call(x)") == ["order"]
    assert params("function run($req) {\n  call(x)") == ["req"]
    assert params("fn handle(input: Order, mut log: Log) {\n  call(x)") == ["input", "log"]
    assert params("func run(req Request) {\n  call(x)") == ["req"]
    assert params("def main(self, args: Namespace) -> None:\n    call(x)") == ["args"]
    # near-miss: a function defined before, the call not inside it
    assert params("def helper(order):\n    return 1\ncall(x)") == []
    text = "function bill(job) {\n  const r = run('pull-rooms', {site: job.site, day: job.day});\n}\n"
    spec = read(text, "bill.js")
    assert sources(step(spec, "pull-rooms")) == {"site": "inputs.site", "day": "inputs.day"}


# -- a call's result named on the line above; an await re-assignment -----------------------------------------
def test_a_result_named_on_the_line_above_and_awaited() -> None:
    ex = ('def run(order) do\n  rooms =\n    Task.async(fn -> call("pull-rooms", %{site: order.site}) end)\n'
          '  rooms = Task.await(rooms)\n  call("price-room", %{room_id: rooms.count})\nend\n')
    spec = read(ex, "run.ex")
    assert sources(step(spec, "price-room"))["room_id"] == "steps.rooms.output.count"
    assert step(spec, "price-room").depends_on == ("rooms",)
    py = ('async def main(args):\n    fut = asyncio.create_task(call("pull-rooms", site=args.site))\n'
          '    got = await fut\n    call("price-room", room_id=got.count)\n')
    spec = read(py, "main.py")
    assert sources(step(spec, "price-room"))["room_id"] == "steps.fut.output.count"
    # near-miss: `x =` with a blank line before the call is not the call's result
    ex2 = 'def run(order) do\n  rooms =\n\n    call("pull-rooms", %{site: order.site})\nend\n'
    assert step(read(ex2, "r.ex"), "pull-rooms").id != "rooms"


# -- a pipeline's subject -------------------------------------------------------------------------------
def test_a_pipelines_placeholder_is_its_subject() -> None:
    lines = split_lines(["order", "|> Map.take([:day])", '|> then(&call("send-bill", %{to: &1.day}))'])
    assert pipe_subject(lines, 2, lines[2].code.index("call")) == ("&1", "order")
    assert piped('%{to: &1.day, total: &10}', ("&1", "order")) == "%{to: order.day, total: &10}"
    rs = split_lines(['job.then(|o| call("send-bill", Bill { to: o.day }))'])
    assert pipe_subject(rs, 0, rs[0].code.index("call")) == ("o", "job")
    kt = split_lines(["job", '    .let { o -> call("send-bill", mapOf("to" to o.day)) }'])
    assert pipe_subject(kt, 1, kt[1].code.index("call")) == ("o", "job")
    # near-miss: a map's lambda is a loop's item, not the subject
    ls = split_lines(['jobs |> Enum.map(fn j -> call("send-bill", %{to: j.day}) end)'])
    assert pipe_subject(ls, 0, ls[0].code.index("call")) is None


# -- comments under a call before a blank line -----------------------------------------------------------------
def test_comments_under_a_call_before_a_blank_line_are_its_rules() -> None:
    text = ('def run(order) do\n  rooms =\n    call("pull-rooms", %{site: order.site})\n'
            '    # give it 25 s at most\n\n  bill =\n    call("price-room", %{room_id: rooms.count})\nend\n')
    spec = read(text, "r.ex")
    assert step(spec, "pull-rooms").timeout_s == 25 or any("25 s" in t.text for t in step(spec, "pull-rooms").texts)
    assert not any("25 s" in t.text for t in step(spec, "price-room").texts)
    # near-miss: a comment right above the next call with no blank line after it is that call's heading
    text2 = ('def run(order) do\n  rooms = call("pull-rooms", %{site: order.site})\n\n'
             '  # 2 give it 25 s at most\n  bill = call("price-room", %{room_id: rooms.count})\nend\n')
    spec2 = read(text2, "r.ex")
    assert any("25 s" in t.text for t in step(spec2, "price-room").texts)


def test_a_result_assigned_through_what_starts_the_call() -> None:
    from orchestrator.spec.code_flow54 import assigned_wrapped

    assert assigned_wrapped('  stock = Task.async(fn -> sw("') == "stock"
    assert assigned_wrapped('    fut = asyncio.create_task(call("') == "fut"
    assert assigned_wrapped('f := executor.submit(lambda: run("') == "f"
    assert assigned_wrapped("$marks = Invoke-Skill '") == "marks"  # a hyphenated command given the skill's name
    assert assigned_wrapped('$m = Invoke-Skill -Name "') == "m"
    # near-misses: a value computed around the call is no wrapper that starts it; a plain word is no command
    assert assigned_wrapped('x = len(rows) + call("') == ""
    assert assigned_wrapped("x = plain '") == ""


def test_a_conjunction_opening_a_condition_is_a_rule_of_its_own() -> None:
    from orchestrator.spec.under_call54 import own_clause

    assert own_clause("and if it errors retry it twice, 5 seconds apart")
    assert own_clause("But when it times out, skip it")
    assert own_clause("or, if the API is down, use the table")
    # near-misses: a wrapped sentence's end
    assert not own_clause("and retry it twice")
    assert not own_clause("if it errors retry it twice")  # no conjunction: joined or not as before


# -- holdout36 219: a block that starts the call, its value taken later, a comment pointing up --------------------
def test_a_result_started_in_a_block_is_named_and_its_value_taken() -> None:
    from orchestrator.spec.code_flow54 import assigned_wrapped, is_await

    assert assigned_wrapped('t1 = Thread.new { call("') == "t1"
    assert assigned_wrapped('val f = Future { run("') == "f"
    assert assigned_wrapped('th = Thread.new(site) do |s| call("') == "th"
    assert is_await("rooms = th.value") and is_await("rooms = f.join()")
    # near-misses: a block over a list's items is a loop; a plain assignment is no await
    assert assigned_wrapped('xs = rooms.map { |r| call("') == ""
    assert assigned_wrapped('xs = rooms.each do |r| call("') == ""
    assert not is_await("rooms = th + 1")
    rb = ('site = ARGV[0]\nw1 = Thread.new { call("pull-rooms", site: site) }\nrooms = w1.value\n'
          'call("price-room", room_id: rooms[:count])\n')
    spec = read(rb, "job.rb")
    assert sources(step(spec, "price-room"))["room_id"] == "steps.w1.output.count"
    assert step(spec, "price-room").depends_on == ("w1",)
    rb2 = ('site = ARGV[0]\njob = Thread.new do\n  call("pull-rooms", site: site)\nend\ngot = job.join\n'
           'call("price-room", room_id: got[:count])\n')
    assert sources(step(read(rb2, "job2.rb"), "price-room"))["room_id"] == "steps.job.output.count"
    assert step(read(rb2, "job2.rb"), "pull-rooms").id == "job"  # the block's variable, not its opener's `new`


def test_a_comment_pointing_up_is_the_call_aboves() -> None:
    from orchestrator.spec.under_call54 import under_previous

    for said in ("# ^ the portal is slow, give it 25 s at most", "// (above) give it 25 s at most",
                 "-- ↑ give it 25 s at most"):
        text = ('site = ARGV[0]\nw1 = Thread.new { call("pull-rooms", site: site) }\n'
                f'{said}\nw2 = Thread.new {{ call("price-room", room_id: 1) }}\n')
        spec = read(text, "job.rb")
        assert any("25 s" in t.text for t in step(spec, "pull-rooms").texts), said
        assert not any("25 s" in t.text for t in step(spec, "price-room").texts), said
    # near-miss: a comment that does not point up, right above the next call, is that call's heading
    text2 = ('site = ARGV[0]\nw1 = Thread.new { call("pull-rooms", site: site) }\n'
             '# give it 25 s at most\nw2 = Thread.new { call("price-room", room_id: 1) }\n')
    assert any("25 s" in t.text for t in step(read(text2, "job.rb"), "price-room").texts)
    assert under_previous(split_lines(["x = 1", "# caret ^ later"]), 1, 2, 0) is False
