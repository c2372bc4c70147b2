"""Sentences about a step said away from it (`spec.elsewhere`, `spec.anchored_place`): a unit naming a
skill an earlier step runs is that step's policy, not a step of its own; a policy or success sentence
in a notes section, a checklist or the intent is placed on the step it names and warned at its line;
one that cannot be placed is warned, never dropped quietly."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.elsewhere import keys_of, named_step, success_said
from orchestrator.spec.skill_mentions import cut_at_doers
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "classify-ticket", "draft-reply", "send-reply", "lint-draft", "collect-votes", "tally-votes",
    "publish-result", "snapshot-db", "restore-db", "post-status")])


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", WORDS)


def _placed(spec: WorkflowSpec) -> list[int]:
    return sorted({w.line or 0 for w in spec.warnings if w.code == "spec.placed" and "is read as" in w.message})


def _policies(spec: WorkflowSpec, step: str) -> dict[str, object]:
    out: dict[str, object] = {}
    for r in spec.readings:
        if r.steps == (step,):
            out.update({k: v for k, v in r.statement.model_dump().items() if v not in (None, False, ())})
    return out


# a support macro: the steps in a paragraph, then remarks that name the same skills
SUPPORT_MACRO = """# Macro: angry customer, refund asked

When a ticket lands in the refunds queue the macro runs classify-ticket on the ticket, then draft-reply writes
an answer from the `category`, and finally send-reply mails it.

Remarks from the support leads

classify-ticket must give up after 30 seconds.

send-reply is tried again at most 2 times, 10 s apart.

classify-ticket was written by the data team in 2024.
"""


def test_a_macros_remarks_naming_a_placed_skill_are_its_policies_and_never_more_steps() -> None:
    spec = _read(SUPPORT_MACRO)
    assert [s.id for s in spec.steps] == ["step-1", "step-2", "step-3"]
    assert _placed(spec) == [8, 10]
    assert _policies(spec, "step-1").get("timeout_s") == 30.0
    assert _policies(spec, "step-3").get("retries") == 2
    # the remark that says neither a step nor a policy is warned, not made a fourth step
    said = [w for w in spec.warnings if w.line == 12]
    assert len(said) == 1
    assert said and "already runs" in said[0].message


# an RFC-like document: MUST sentences in a later section name the step by number or by its name's word
RFC = """# RFC 88: release vote

## 1. Procedure

1. Collect: ballots are gathered by `collect-votes`.
2. Tally: `tally-votes` counts the ballots.
3. Publish: `publish-result` posts the outcome.

## 2. Operational requirements

Step 2 MUST NOT be retried; a failed count is investigated by hand.

A tally that fails after 5 minutes MUST be killed.

Implementations SHOULD log every ballot.
"""


def test_an_rfcs_requirements_naming_a_step_by_number_or_name_word_are_that_steps_policy() -> None:
    spec = _read(RFC)
    assert len(spec.steps) == 3
    assert set(_placed(spec)) >= {11}
    lines = {r.where.rsplit(":", 1)[1] for r in spec.readings if r.steps == ("step-2",)}
    assert "11" in lines


# a postmortem's action items: a policy that names no step is warned at its line
POSTMORTEM = """# Postmortem: status page stale for 2 h

## What the recovery job does

- Snapshot: `snapshot-db` takes a snapshot.
- Restore: `restore-db` restores it on the replica.
- Announce: `post-status` posts the all-clear.

## Action items

- snapshot: retry 3 times, waiting 20 s between tries
- every call gets retried at most twice
- buy the team lunch
"""


def test_a_postmortems_action_item_keyed_by_a_steps_word_is_placed_and_one_naming_none_is_warned() -> None:
    spec = _read(POSTMORTEM)
    assert [s.id for s in spec.steps] == ["step-1", "step-2", "step-3"]
    assert _placed(spec) == [11]
    assert _policies(spec, "step-1").get("retries") == 3
    unread = [w.line for w in spec.warnings if w.line in (12, 13)]
    assert 12 in unread and 13 in unread  # neither is dropped quietly


# a README usage section: the definition of done said in the intent
README = """# vote-bot

## Intent

Counts the team's votes. Definition of done: `count` >= 3.

## Steps

1. `collect-votes` gathers the ballots.
2. `tally-votes` counts them.
"""


def test_a_definition_of_done_that_compares_is_checked_on_the_last_step_and_warned() -> None:
    spec = _read(README)
    checks = [c for c in spec.contracts if c.producer == "step-2" and c.consumer is None]
    assert checks and checks[0].constraints[""]["properties"]["count"] == {"minimum": 3}
    assert 5 in _placed(spec)


def test_a_definition_of_done_that_does_not_compare_is_warned_at_its_line() -> None:
    spec = _read(README.replace("`count` >= 3", "the board shows at least three names"))
    assert any(w.line == 5 and w.code == "spec.success" for w in spec.warnings)


def test_a_sentence_naming_two_new_doers_is_cut_at_the_clause_of_the_second() -> None:
    said = cut_at_doers("Then `draft-reply` writes it, and last `send-reply` mails what draft-reply wrote.", WORDS)
    assert said == ["Then `draft-reply` writes it,", "and last `send-reply` mails what draft-reply wrote."]
    assert cut_at_doers("`draft-reply` writes it and draft-reply checks it.", WORDS) == [
        "`draft-reply` writes it and draft-reply checks it."]


def test_a_step_is_named_by_a_word_only_it_has_near_the_start_and_only_with_a_policy_word() -> None:
    keys = keys_of([(1, "Snapshot the db", "snapshot-db"), (2, "Restore the db", "restore-db")])
    assert named_step("snapshot: retry twice", keys, WORDS) == (1, "the word 'snapshot' of its name")
    assert named_step("snapshot: looks fine to me", keys, WORDS) is None  # no policy word
    assert named_step("the db: retry twice", keys, WORDS) is None  # a word both steps have
    assert named_step("should snapshot retry twice?", keys, WORDS) is None  # a question
    assert named_step("if `restore-db` fails wait 5 s", keys, WORDS) == (2, "its skill `restore-db`")


def test_an_exit_status_entry_reads_as_the_comparison_after_its_verb() -> None:
    assert success_said("0   tally-votes reported ok=true.", "EXIT STATUS") == "ok=true"
    assert success_said("tally-votes reported ok=true.") is None  # no heading, no words of success


# a docstring's numbered procedure: each item a title line with its text indented below it
DOCSTRING = """Nightly vote job.

Procedure:

    1. gather
           For every ballot in ballots, `collect-votes` checks the signature.

    2. count
           `tally-votes` adds them up.
"""


def test_a_numbered_item_with_a_title_line_above_its_indented_text_is_named_by_the_title() -> None:
    spec = _read(DOCSTRING)
    assert [s.name for s in spec.steps] == ["gather", "count"]
    assert spec.steps[0].for_each is not None and spec.steps[0].for_each.startswith("ballot in")
