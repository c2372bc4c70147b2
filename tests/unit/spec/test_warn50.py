"""Warnings made true and checks read (round 50): a count of what happened is no count of tries, a person's wait
counted into a run's limit is said not to be in it, "once per item" is a fan-out, a script's call on its own line is
no condition, a script's step comment above the next call is no text of the step before it, dotted input lines read
after their block was warned are no longer warned, a DOT graph's edges between steps are its waits, a .properties
done key is the run's check, "job done = report comes back with sent True" is read. None of the texts is a blind set's.
"""

from __future__ import annotations

from orchestrator.plan import guards
from orchestrator.plan.run_checks37 import split_run_checks
from orchestrator.policy import PolicyStatement
from orchestrator.spec import Vocabulary, parse_spec_text
from orchestrator.spec.elsewhere import success_said
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.success_back27 import step_said_back
from tests.unit.plan.plan_factory import SaidCatalog, plan_of_text


def _problems(text: str) -> list[str]:
    return list(read_phrase(text).problems)


def test_a_count_of_what_happened_is_no_count_of_tries() -> None:
    said = read_phrase("never retry it, the client received it twice")
    assert said.statement is not None and said.statement.no_retry and not said.problems
    said = read_phrase("do not retry - the ledger saw it 4 times yesterday")
    assert said.statement is not None and said.statement.no_retry
    assert [p for p in said.problems if "contradict" in p] == [] and any("yesterday" in p for p in said.problems)
    said = read_phrase("no resend, the depot had it 2 times in the past")
    assert said.statement is not None and said.statement.no_retry and not any("contradict" in p for p in said.problems)


def test_a_count_of_tries_beside_no_retry_still_contradicts_it() -> None:  # near-miss
    assert any("contradict" in p for p in _problems("no retry here. retry it 3 times"))
    said = read_phrase("retry 3 times if the portal is down")
    assert said.statement is not None and said.statement.retries == 3


def test_a_persons_wait_counted_into_a_limit_is_said_not_to_be_in_it() -> None:
    for text in ("the whole job within 2 hours, including her wait",
                 "whole run: 3 hours max (the supervisor's waiting time counted)"):
        said = read_phrase(text)
        assert said.statement is not None and said.statement.whole_run, text
        assert any("does not count time spent waiting at an approval" in p for p in said.problems), text
        assert not any("not understood" in p for p in said.problems), text


def test_a_persons_wait_left_out_of_a_limit_is_what_the_limit_counts() -> None:  # near-miss: nothing to say
    said = read_phrase("whole run 3 hours, the manager's waiting time excluded")
    assert said.statement is not None and said.statement.timeout_s == 10800 and not said.problems
    said = read_phrase("wait 5 minutes between tries")
    assert said.statement is not None and said.statement.wait is not None and not said.problems


def test_once_per_item_is_a_fan_out_not_a_policy() -> None:
    for text in ("score[label=\"rate-card\\n(once per applicant)\"];", "price-it (once for each invoice)"):
        said = read_phrase(text)
        assert said.statement in (None, PolicyStatement()) and not said.problems, text
    assert guards._EACH.search("runs once per parcel").group(1) == "parcel"  # a step without a For each is warned


def test_once_per_unit_of_time_or_said_outright_stays_a_policy() -> None:  # near-miss
    said = read_phrase("retry once per minute")
    assert said.statement is not None and said.statement.wait is not None
    said = read_phrase("Send it once per parcel, the courier charges twice.")
    assert said.statement is not None and said.statement.no_retry


def test_a_scripts_call_on_its_own_line_is_no_condition() -> None:
    assert guards._calls_own_skill('"cpue-sum", hauls = ok', "cpue-sum")
    assert guards._calls_own_skill("'tally-up', rows = got", "tally-up")
    assert not guards._calls_own_skill("only if hauls = ok", "cpue-sum")  # near-miss: an aside stating a condition
    assert not guards._calls_own_skill('"other-one", a = b', "cpue-sum")  # another skill's call


_SIEVE_BODIES = {
    "sort-mail": "Sorts.\n\nInputs: item (text).\nOutputs: kind (text).\n",
    "big-quote": "Quotes big.\n\nInputs: item (text).\nOutputs: price (number).\n",
    "small-quote": "Quotes small.\n\nInputs: item (text).\nOutputs: price (number).\n",
    "write-back": "Writes back.\n\nInputs: price (number).\nOutputs: sent (true/false).\n",
}

_SIEVE = """require ["vnd.dovecot.execute", "variables"];
if header :matches "subject" "Quote: *" {
    set "item" "${1}";
    # 1) sort it
    execute :output "s" "sort-mail" ["item=${item}"];
    # 2) quote it
    if string :is "${s.kind}" "big" {
        execute :output "q" "big-quote" ["item=${item}"];
    } else {
        execute :output "q" "small-quote" ["item=${item}"];
    }

    # 3) write back - whichever quote ran goes in
    execute :output "r" "write-back" ["price=${q.price}"];
}
"""


def test_a_step_comment_above_the_next_call_is_no_text_of_the_step_before() -> None:
    plan = plan_of_text(_SIEVE, SaidCatalog(_SIEVE_BODIES), "quotes.sieve")
    assert next(s for s in plan.steps if s.skill == "write-back").join == "any"
    assert not [w for w in plan.warnings if "whichever" in w.message]  # not said against small-quote's step


def test_a_step_text_that_is_its_own_still_warns() -> None:  # near-miss: the line is the step's own text
    text = _SIEVE.replace('["item=${item}"];\n    # 2) quote it', '["item=${item}"];\n    #    whichever one ran\n    # 2) quote it')
    plan = plan_of_text(text, SaidCatalog(_SIEVE_BODIES), "quotes.sieve")
    assert any("whichever" in w.message and w.message.startswith("step-1") for w in plan.warnings)


_DOT = """// how the dough gets made
digraph dough {
  DAY [shape=oval];
  w [label="weigh-flour"];
  m [label="mix-dough"];
  b [label="bake-loaf"];

  DAY -> w [label="day"];
  w -> m [label="grams"];
  m -> b [label="dough"];
}
"""


def _dot(text: str):
    return parse_spec_text(text, "dough.dot", "markdown", Vocabulary.of((s, None) for s in (
        "weigh-flour", "mix-dough", "bake-loaf")))


def test_a_dot_graphs_edges_between_steps_are_their_waits_and_read() -> None:
    spec = _dot(_DOT)
    assert [list(s.depends_on) for s in spec.steps] == [[], ["step-1"], ["step-2"]]
    assert not [w for w in spec.warnings if w.line is not None and 8 <= w.line <= 10 and w.code == "spec.unread"]
    spec = _dot(_DOT.replace("  DAY -> w", "  PLAN -> w"))  # near-miss: an edge from a node that is nothing read
    assert [w for w in spec.warnings if w.line == 8 and w.code == "spec.unread"]


_FORM = """Saturday jobs
-------------
Fill in before you start:

   Shop (name) ............ shop
   Date (yyyy-mm-dd) ...... day

1. count-stock - the shop's stock for the day.
2. order-more - from count-stock's list.
"""


def test_dotted_input_lines_read_after_their_block_was_warned_are_not_warned() -> None:
    spec = parse_spec_text(_FORM, "jobs.txt", "markdown", Vocabulary.of((s, None) for s in ("count-stock", "order-more")))
    assert {i.name for i in spec.inputs} >= {"shop", "day"}
    assert not [w for w in spec.warnings if w.line == 5 and "not read" in w.message]
    spec = parse_spec_text(_FORM.replace("day\n\n1.", "day\n   ring Bob first\n\n1."),
                           "jobs.txt", "markdown", Vocabulary.of((s, None) for s in ("count-stock", "order-more")))
    assert [w for w in spec.warnings if w.line == 5 and "not read" in w.message]  # near-miss: a line left unread


_PROPS = """# nightly stock
step.1.skill=count-stock
step.2.skill=order-more
step.2.in=rows:${step.1.rows}
DONE
"""


def _props(done: str):
    return parse_spec_text(_PROPS.replace("DONE", done), "stock.properties", "dotenv",
                           Vocabulary.of((s, None) for s in ("count-stock", "order-more")), anchored=False,
                           said="read as markdown text")


def test_a_properties_done_key_on_one_steps_output_is_the_runs_check() -> None:
    for done in ("stock.done.when=step.2.ordered == true", "run.finished_if=${step.2.ordered} == true"):
        spec = _props(done)
        _kept, checks = split_run_checks(spec)
        assert [(c.step, c.written) for c in checks] == [("step-2", "ordered == true")], done
        assert any(w.line == 5 and "is read as the run's success check" in w.message for w in spec.warnings), done


def test_a_properties_steps_own_success_key_stays_its_contract() -> None:  # near-miss
    spec = _props("step.2.success=ordered == true")
    assert split_run_checks(spec)[1] == ()


def test_a_done_label_after_the_jobs_name_and_the_step_named_by_its_skills_last_word() -> None:
    assert success_said("job done = ledger comes back with posted True") == "ledger comes back with posted True"
    assert success_said("run finished = parcel says shipped true") is not None
    assert success_said("step done = x") is None  # near-miss: a step's, not the run's
    skills = {"email-weekly-report": 4, "print-label": 2}
    assert step_said_back("report comes back with sent True", {}, 4, skills) == (
        4, "sent == true", "'report', the word the one skill `email-weekly-report` ends in")
    assert step_said_back("label comes back with printed: true", {}, 4, skills)[:2] == (2, "printed == true")
    assert step_said_back("report comes back with sent True", {}, 4, {"a-report": 1, "b-report": 2}) is None  # two
