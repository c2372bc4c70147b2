"""A Sieve mail filter read as a script runbook (`spec.sieve49`, round 49): `#` and `/* */` comments are its
text, `set "x" "${1}"` a value from the mail (a workflow input), `execute :output "v" "skill" ["k=${x.f}"]` /
`pipe "skill" [...]` a step's call, `${v.f}` the output `f` of the step whose `:output` is `v`, `if string
:is|:contains|:value` a branch, a test of the mail itself (`header`, `address`, ...) no branch. A comment block
asking a person's OK is its step's approval; one saying when the run is done its success check.
None of the filters is a blind set's."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.script_flow import script_language
from orchestrator.spec.sieve49 import END, call, condition, sieve_code_lines
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {"sort-ticket": frozenset({"queue", "urgent"}), "billing-answer": frozenset({"text", "cost"}),
            "tech-answer": frozenset({"text", "cost"}), "post-answer": frozenset({"posted"}),
            "lookup-customer": frozenset({"tier"})}
_WORDS = Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))

_HELPDESK = """\
# helpdesk@ filter
require ["variables", "vnd.dovecot.execute", "vnd.dovecot.pipe"];

if header :contains "subject" "[ticket]" {
    if address :all :matches "from" "*" { set "who" "${1}"; }
    set "body" "${1}";

    /* 1) sort it */
    execute :output "t" "sort-ticket" ["text=${body}"];

    # 2) who is it
    execute :output "c" "lookup-customer" ["email=${who}",
                                           "region=EU"];

    if string :is "${t.queue}" "billing" {
        execute :output "a" "billing-answer" ["tier=${c.tier}"];
    } else {
        execute :output "a" "tech-answer" ["tier=${c.tier}"];
    }

    # 3) post it
    #    if the cost figure (a.cost) is over 300, Priya has to OK it first - hold it for up to 2 hours.
    #    no word from her by then and it goes anyway
    pipe "post-answer" ["to=${who}", "text=${a.text}"];
    # it worked if post-answer says posted = true
    stop;
}
keep;
"""


def _spec(text: str, path: str = "helpdesk.sieve"):
    return parse_spec_text(text, path, "markdown", _WORDS)


def test_a_sieve_filter_is_a_script_runbook_by_its_suffix() -> None:
    assert script_language("helpdesk.sieve", "require [];") == "sieve"
    assert script_language("old.siv", "require [];") == "sieve"
    assert script_language("helpdesk.txt", "require [];") is None  # near miss


def test_a_call_is_put_in_pythons_words() -> None:
    assert call('execute :output "t" "sort-ticket" ["text=${body}", "n=3"]') == \
        'run_skill("sort-ticket", text=body, n="3")'.join(["t = ", ""])
    assert call('pipe :copy "post-answer" ["to=${who}", "text=${a.text}"]') == \
        'run_skill("post-answer", to=who, text=a.text)'
    assert call('fileinto "Done"') is None  # near miss: no skill is run


def test_a_test_on_a_variable_is_a_condition_and_one_on_the_mail_none() -> None:
    assert condition('string :is "${t.queue}" "billing"') == "queue == 'billing'"
    assert condition('string :contains "${t.queue}" ["tech", "net"]') == "'tech' in queue or 'net' in queue"
    assert condition('string :value "gt" :comparator "i;ascii-numeric" "${a.cost}" "300"') == "cost > 300"
    assert condition('not string :is "${t.queue}" "billing"') == "queue != 'billing'"
    assert condition('header :contains "subject" "x"') == ""  # the mail itself: no branch
    assert condition('string :regex "${t.queue}" "^b"') is None  # near miss: not read, warned by the branch reader


def test_braces_close_their_branch_and_a_mail_test_leaves_no_branch() -> None:
    code = [(k, t) for k, _, t in sieve_code_lines(_HELPDESK.splitlines()) if k == "code"]
    texts = [t for _, t in code]
    assert texts[:2] == ['who = ""', 'body = ""']
    assert "if queue == 'billing':" in texts and "else:" in texts
    assert texts.count(END) == 1  # the `if string` block's; the `if header` block and the one-line `if address` none


def test_the_filter_is_planned_field_by_field() -> None:
    spec = _spec(_HELPDESK)
    assert [s.skill for s in spec.steps] == ["sort-ticket", "lookup-customer", "billing-answer", "tech-answer",
                                             "post-answer"]
    assert sorted(i.name for i in spec.inputs or ()) == ["body", "who"]
    _sort, look, billing, tech, post = spec.steps
    assert {f.name: f.source for f in look.inputs} == {"email": "inputs.who"}
    assert str(look.input_values["region"]) == "EU"
    assert billing.when == "queue == 'billing'" and tech.otherwise_of == "step-3"
    assert {f.name: f.source for f in post.inputs}["to"] == "inputs.who"
    text = next(f for f in post.inputs if f.name == "text")
    assert text.source is None and "step-3" in (text.description or "") and "step-4" in (text.description or "")


def test_a_comment_asking_a_persons_ok_is_its_steps_approval_and_a_done_line_the_runs_check() -> None:
    spec = _spec(_HELPDESK)
    post = spec.steps[-1]
    assert post.approval is not None
    assert (post.approval.when, post.approval.timeout_s, post.approval.on_timeout) == ("cost is over 300", 7200, "approve")
    assert not any("hold it" in t.text for t in post.texts)  # the block is the approval's: no timeout of the step's
    assert any(t.kind == "success" and t.text == "posted = true" for t in post.texts)


def test_a_numbered_comment_naming_two_steps_is_a_note_not_a_step() -> None:
    words = Vocabulary.of([("sort-ticket", None), ("lookup-customer", None)])
    for note in ("# 1) and 2) start together, neither needs the other", "# --- 1) & step 2) side by side"):
        text = f"{note}\n# 1) sort\nskill sort-ticket\n# 2) who\nskill lookup-customer\n"
        spec = parse_spec_text(text, "desk.sh", "markdown", words)
        assert [s.skill for s in spec.steps] == ["sort-ticket", "lookup-customer"], note
        assert not any("no call of a skill" in w.message for w in spec.warnings), note
    # near miss: "2) and then who" is step 2's own comment
    spec = parse_spec_text("# 1) sort\nskill sort-ticket\n# 2) and then who\nskill lookup-customer\n", "desk.sh",
                           "markdown", words)
    assert [s.name for s in spec.steps][1] == "and then who"
