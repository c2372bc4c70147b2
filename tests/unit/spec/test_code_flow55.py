"""Round 55 forms of code read by its skill calls (`spec.wired52`): a call started by a bare word or macro
(`t1 = @async sw(..)`), several awaits on one line (`a = fetch(t1); b = fetch(t2)`) (`spec.code_flow54`), and an
indented comment right under a call with the next call after it (`spec.under_call55`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.code_flow54 import assigned_wrapped, await_aliases, is_await
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.under_call55 import hangs_indented
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


def said(s: StepSpec, words: str) -> bool:
    return any(words in t.text for t in s.texts)


# -- a call started by a word or macro, awaited with others on one line ------------------------------------------
def test_a_call_started_by_a_bare_word_or_macro_is_named() -> None:
    assert assigned_wrapped('t1 = @async sw("') == "t1"
    assert assigned_wrapped('  t = Threads.@spawn run("') == "t"
    assert assigned_wrapped("let f = spawn call('") == "f"
    # near-miss: a value computed from a plain word and the call is no starter
    assert assigned_wrapped('x = total + call("') == ""


def test_several_awaits_on_one_line_each_name_their_step() -> None:
    lines = split_lines(["a = fetch(t1); b = fetch(t2)", "x = t3.join(); y = deref(t4)"])
    assert [(n, o) for n, o, _ in await_aliases(lines, set())] == [("a", "t1"), ("b", "t2"), ("x", "t3"), ("y", "t4")]
    # near-miss: one statement of the line is no await: none of it is read as one
    assert not is_await("a = fetch(t1); b = t2 + 1")
    assert await_aliases(split_lines(["a = fetch(t1); b = t2 + 1"]), set()) == []
    jl = ('site = ARGS[1]\nt1 = @async call("pull-rooms", Dict("site" => site))\n'
          't2 = @async call("send-bill", Dict("to" => site))\nr = fetch(t1); s = fetch(t2)\n'
          'p = call("price-room", Dict("room_id" => r["count"], "size" => s["sent"]))\n')
    spec = read(jl, "run.jl")
    assert sources(step(spec, "price-room"))["room_id"] == "steps.t1.output.count"
    assert set(step(spec, "price-room").depends_on) == {"t1", "t2"}
    assert step(spec, "pull-rooms").depends_on == () and step(spec, "send-bill").depends_on == ()
    kt = ('fun main(args: Args) {\n    val a = async call("pull-rooms", site = args.site)\n'
          '    val rooms = a.await(); val n = 1\n    call("price-room", room_id = rooms.count)\n}\n')
    assert sources(step(read(kt, "m.kt"), "price-room"))["room_id"] != "steps.a.output.count"  # `n = 1` no await


# -- an indented comment right under a call ---------------------------------------------------------------------
def test_an_indented_comment_under_a_call_is_its_rule() -> None:
    jl = ('t1 = @async call("pull-rooms", Dict("site" => "x"))\n#   give it 25 s at most\n'
          't2 = @async call("send-bill", Dict("to" => "y"))\n')
    spec = read(jl, "a.jl")
    assert said(step(spec, "pull-rooms"), "25 s") and not said(step(spec, "send-bill"), "25 s")
    js = ('const a = call("pull-rooms", {site: "x"});\n      // give it 25 s at most\n'
          'const b = call("send-bill", {to: "y"});\n')
    spec = read(js, "a.js")
    assert said(step(spec, "pull-rooms"), "25 s") and not said(step(spec, "send-bill"), "25 s")
    raw = ["x = call('a')", "-- ^ no", "--   pushed right", "y = call('b')"]
    assert hangs_indented(raw, 2, 3, 0) is False  # the run starts on l.2, not right under the call
    assert hangs_indented(raw, 1, 3, 0) is False  # "-- ^ no": one space, at the call's depth
    # near-miss: one space after the marker, a step's number: the next call's heading
    jl2 = ('t1 = @async call("pull-rooms", Dict("site" => "x"))\n# 2 give it 25 s at most\n'
           't2 = @async call("send-bill", Dict("to" => "y"))\n')
    spec = read(jl2, "b.jl")
    assert said(step(spec, "send-bill"), "25 s") and not said(step(spec, "pull-rooms"), "25 s")
    assert not hangs_indented(["x = call('a')", "#   2. the bill", "y = call('b')"], 1, 2, 0)


# -- Lisp-family code (`spec.lisp_forms55`) ---------------------------------------------------------------------
def test_lisp_forms_read_as_calls_bindings_loops_and_getters() -> None:
    from orchestrator.spec.lisp_forms55 import lisp_code, lisp_like

    clj = ['(defn run [{:keys [site jobs]}]', '  (let [', '        rooms (vec (for [j jobs]',
           '                 (call :pull-rooms {:site (:site j) :day "mon"})))',
           '        bill  (call :price-room {:room_id (get rooms :count) :rate 20})]',
           '    (call :send-bill {:to site :total (:total bill)})))']
    assert lisp_like(clj)
    assert lisp_code(clj)[2:5] == [
        '        rooms = (vec (for j in jobs', '                 (call "pull-rooms" {site: j.site day: "mon"})))',
        '        bill = (call "price-room" {room_id: rooms.count rate: 20})]']
    spec = read("\n".join(clj) + "\n", "run.clj")
    pull, price, send = step(spec, "pull-rooms"), step(spec, "price-room"), step(spec, "send-bill")
    assert pull.for_each is not None and pull.id == "rooms"
    assert sources(price)["rate"] == 20 and price.depends_on == ("rooms",)
    assert sources(send)["total"] == "steps.bill.output.total" and sources(send)["to"] == "inputs.site"
    scm = ['(define (main args)', '  (let* ([x 1])', '    (doseq [r (:rooms args)]', '      (call :pull-rooms {:site r}))))']
    assert lisp_code(scm)[2] == "    (for r in args.rooms"
    # near-miss: code with parentheses that is no Lisp (calls in `f(x)` form, assignments) is not rewritten
    assert not lisp_like(['x = call("pull-rooms", site=1)', 'y = f(x)', 'z = g(y)', 'def run(a):'])


def test_an_entry_functions_destructured_parameters_are_the_runs_inputs() -> None:
    from orchestrator.spec.lisp_forms55 import destructured_inputs

    assert destructured_inputs(['(defn run [{:keys [date tickets]}]', '  (sw :x {})'], 1) == [("date", 0), ("tickets", 0)]
    assert destructured_inputs(['async function main({ site, day }) {', '  call("x")'], 1) == [("site", 0), ("day", 0)]
    assert destructured_inputs(['fn run(Args { site, day }: Args) {', '  call("x")'], 1) == [("site", 0), ("day", 0)]
    js = 'async function main({ site, day }) {\n  const r = await call("pull-rooms", { site: site, day: day });\n}\n'
    assert {f.name for f in read(js, "m.js").inputs} >= {"site", "day"}
    # near-miss: a renaming pattern and a plain parameter are not a list of names
    assert destructured_inputs(['function run({ site: s }) {', '  call("x")'], 1) == []
    assert destructured_inputs(['function run(order) {', '  call("x")'], 1) == []


def test_a_length_per_item_then_max_is_the_attempts_limit() -> None:
    from orchestrator.spec.per_item55 import plain

    assert plain("20s per ticket max, then 2 more goes 5s apart") == "20s max, then 2 more goes 5s apart"
    assert plain("90 seconds a file tops") == "90 seconds tops"
    assert plain("2 min for each order at most, then give up") == "2 min at most, then give up"
    # near-misses: a count, an attempt's own word, no "max"
    assert plain("20 per ticket max") == "20 per ticket max"
    assert plain("30 s per attempt max") == "30 s per attempt max"
    assert plain("20s per ticket") == "20s per ticket"


def test_a_doubled_comment_marker_is_one_marker() -> None:
    assert [ln.comment for ln in split_lines([";; retry it twice", "%% 30 s max", ";;; heading"])] == [
        "retry it twice", "30 s max", "heading"]
    # near-miss: a `#` heading keeps its own marks (read elsewhere as a title's level)
    assert split_lines(["## Steps"])[0].comment == "# Steps"


def test_a_field_written_as_a_keyword_after_the_report_is_compared() -> None:
    from orchestrator.spec.success_done54 import bare_compare

    assert bare_compare("daybook-entry says :ok true") == "daybook-entry says ok == true"
    assert bare_compare("post-label returns :printed yes") == "post-label returns printed == yes"
    # near-miss: a keyword with no truth value after it is left as written
    assert bare_compare("ledger says :status ok") == "ledger says :status ok"
