"""Round 54 (holdout36 222): an approval's condition on a step's result written as code reads it
(`quote("price")`, `est[:hours]`, `graded.score`), a numbered title comment above it ("3 press") no part of its
text; an attempt's limit said as "- 90 seconds then fail it"; a success check said "came back emailed true"."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approval_scope54 import named_fields, refs_back, step_title
from orchestrator.spec.limit_then54 import plain as limit_then
from orchestrator.spec.model import StepSpec, WorkflowSpec
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.success_done54 import bare_compare
from orchestrator.spec.vocabulary import Vocabulary

INPUTS = {"grade-batch": {"batch"}, "send-note": {"batch", "grade"}, "file-it": {"note_ref"}}
OUTPUTS = {"grade-batch": {"grade", "score"}, "send-note": {"note_ref"}, "file-it": {"filed"}}
VOCAB = Vocabulary.of((name, None) for name in INPUTS).with_outputs(
    lambda s: frozenset(OUTPUTS[s]), lambda s: frozenset(INPUTS[s]))


def step(spec: WorkflowSpec, skill: str) -> StepSpec:
    return next(s for s in spec.steps if s.skill == skill)


def test_a_field_of_a_named_result_as_code_reads_it() -> None:
    assert named_fields('if est["hours"] is over 4', {"est"}) == ("if hours is over 4", {"hours": "est.hours"})
    assert named_fields("when graded[:score] < 40 or graded.grade == 'F'", {"graded"}) == (
        "when score < 40 or grade == 'F'", {"score": "graded.score", "grade": "graded.grade"})
    assert refs_back("score < 40", {"score": "graded.score"}) == "graded.score < 40"
    # near-miss: a head that names no step is left as written
    assert named_fields("if config.limit is over 4", {"est"}) == ("if config.limit is over 4", {})


def test_a_numbered_title_comment() -> None:
    assert step_title("3 press") and step_title("Step 4 - email the couple") and step_title("2. weigh the catch")
    assert not step_title("if it fails try twice more") and not step_title("2 retries, 10s apart")


SCALA = """\
object Grade {
  def main(args: Array[String]): Unit = {
    val batch = args(0)
    // 1 grade it
    val graded = run("grade-batch", "batch" -> batch)
    // 2 send the note
    // when graded("score") is under 40 the head signs it off first, wait up to 2 hours;
    // if she doesn't answer the note is NOT sent, stop the job there
    val note = run("send-note", "batch" -> batch, "grade" -> graded("grade"))
    run("file-it", "note_ref" -> note("note_ref"))
  }
}
"""
RB = """\
batch = ARGV[0]
graded = skill("grade-batch", batch: batch)
# 2) notify
# the dean must approve it first if graded[:score] is over 90, give her up to a day
note = skill("send-note", batch: batch, grade: graded[:grade])
skill("file-it", note_ref: note[:note_ref])
"""


def test_code_an_approval_on_a_field_of_an_earlier_result() -> None:
    spec = parse_spec_text(SCALA, "Grade.scala", "markdown", VOCAB)
    gate = step(spec, "send-note").approval
    assert gate is not None and (gate.timeout_s, gate.on_timeout) == (7200, "reject")
    assert gate.when is not None and "graded.score" in gate.when and "40" in gate.when
    said = next(r for r in step(spec, "send-note").readings if r.what == "approval")
    assert not said.text.startswith("2 send") and said.where.endswith(":7")  # the title line is not its text
    assert not any("is not read" in w.message for w in spec.warnings if w.line in (6, 7))

    spec = parse_spec_text(RB, "grade.rb", "markdown", VOCAB)
    gate = step(spec, "send-note").approval
    assert gate is not None and gate.when is not None and "graded.score" in gate.when and gate.timeout_s == 86400


def test_code_an_approval_on_every_run_stays_so() -> None:  # near-miss: no condition said
    text = SCALA.replace('when graded("score") is under 40 the head', "the head")
    gate = step(parse_spec_text(text, "Grade.scala", "markdown", VOCAB), "send-note").approval
    assert gate is not None and gate.when is None and gate.timeout_s == 7200


def test_a_length_then_fail_it_is_the_attempts_limit() -> None:
    for text, seconds in [("the export hangs sometimes; 3 min, then give up on it", 180),
                          ("render: 45s then stop it and fail the step", 45),
                          ("can sit there for ages - 2 minutes then fail it", 120)]:
        assert read_phrase(text).statement.timeout_s == seconds, text
    # near-misses: a wait, a retry's budget
    assert limit_then("wait 90 seconds then fail it") == "wait 90 seconds then fail it"
    assert read_phrase("retry for 2 minutes then give up").statement.timeout_s is None
    assert limit_then("back off 2s, 6s, 18s, then give up") == "back off 2s, 6s, 18s, then give up"
    assert limit_then("1 min, 5 min, then give up") == "1 min, 5 min, then give up"  # a series ends
    # "then give up on it" ends the attempt only: no rule to fail beside the step's own "carry on with ..."
    assert limit_then("the portal is slow, 45 seconds then give up on it") == "the portal is slow, time out after 45 seconds"
    assert limit_then("it hangs - 90 seconds then fail it") == "it hangs - time out after 90 seconds then fail it"


def test_a_field_and_a_truth_value_with_no_sign_between() -> None:
    assert bare_compare("post-label returns printed yes") == "post-label returns printed == yes"
    assert bare_compare("ledger reports posted false") == "ledger reports posted == false"
    assert bare_compare("ledger says posted: false") == "ledger says posted: false"  # a sign: read as ever
    # near-misses: no field, no truth value, a sign already there
    assert bare_compare("it came back true") == "it came back true"
    assert bare_compare("ledger says status ok") == "ledger says status ok"
    assert bare_compare("ledger says posted == true") == "ledger says posted == true"
