"""`spec.outline39`: steps named by their outline number ("from II.A", "3.1", "A.3") in documents of
any kind, sections of other documents and versions left as written, and work sent "to X for sign-off"."""

from __future__ import annotations

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.condition import approval_sentence, read_condition
from orchestrator.spec.outline39 import item_path, kept_as_written, names_path, sent_for_sign_off
from orchestrator.spec.vocabulary import Vocabulary

WORDS = Vocabulary.of([(n, None) for n in (
    "extract-dna", "qubit-read", "seq-submit", "collect-forms", "score-risk", "notify-board",
    "pull-filings", "summarise-case", "file-motion")])


def _read(text: str) -> WorkflowSpec:
    return parse_spec_text(text, "doc.md", "markdown", WORDS)


def _texts(spec: WorkflowSpec) -> list[str]:
    return [" ".join(t.text for t in s.texts) for s in spec.steps]


LAB_SOP = """SOP-114 Library prep (rev 3.2)

3. PROCEDURE
3.1 Extract the DNA with extract-dna on the sample sheet (`samples`).
3.2 Quantify the extract from 3.1 using qubit-read; add 2.1 ml of buffer first.
3.2.1 Submit the quantified extract from 3.2 and the sheet from 3.1 with seq-submit.
"""


def test_a_lab_sops_dotted_numbers_name_its_steps_and_an_amount_and_a_revision_do_not() -> None:
    spec = _read(LAB_SOP)
    texts = _texts(spec)
    assert len(spec.steps) == 3
    assert "extract from step 1" in texts[1]
    assert "2.1 ml" in texts[1]  # an amount, not step 3.2.1's number
    assert "extract from step 2" in texts[2] and "sheet from step 1" in texts[2]


POLICY_MANUAL = """Vendor onboarding policy

I.  SCOPE
    A. Applies to every new supplier; see II.C of the contract for the notice period.
II. PROCEDURE
    A. Gather the forms with collect-forms.
    B. Score the supplier from II.A with score-risk.
    C. Tell the board what came out of II.B using notify-board. Clause II.C of the MSA does not apply.
"""


def test_a_policy_manuals_roman_outline_numbers_name_steps_and_a_contracts_section_does_not() -> None:
    texts = _texts(_read(POLICY_MANUAL))
    assert "supplier from step 1" in texts[1]
    assert "came out of step 2" in texts[2]
    assert "II.C of the MSA" in texts[2]  # another document's section, though II.C is a step here


LEGAL_MEMO = """MEMO re: Smith v. Jones (privileged)

A. Research
   1. Pull the docket with pull-filings.
   2. Summarise what A.1 found with summarise-case; built on version 2.1 of the template.
B. Filing
   1. File the motion drafted from A.2 with file-motion. It goes to the partner for sign-off first;
      no answer in 24 hours means it is not filed.
"""


def test_a_legal_memos_letter_number_paths_and_a_sign_off_sent_to_a_person() -> None:
    spec = _read(LEGAL_MEMO)
    texts = _texts(spec)
    assert "what step 1 found" in texts[1] and "version 2.1" in texts[1]
    assert "drafted from step 2" in texts[2]
    approval = spec.steps[2].approval
    assert approval is not None and approval.timeout_s == 86400


def test_item_paths_and_which_name_an_item() -> None:
    assert item_path(["II"], "A") == ["II", "A"]
    assert item_path(["3"], "3.1") == ["3.1"]  # a dotted number is a whole number of its own
    assert item_path([], "3.2.1") == ["3.2.1"]
    assert names_path(["3.1"]) and names_path(["II", "A"])
    assert not names_path(["A"]) and not names_path([])


def test_what_is_kept_as_written() -> None:
    def kept(line: str, said: str) -> bool:
        at = line.index(said)
        return kept_as_written(line, at, at + len(said))

    assert kept("see II.C of the contract", "II.C")
    assert kept("clause 4.2 in the Lease applies", "4.2")
    assert kept("needs version 2.1 or later", "2.1")
    assert kept("rev 3.2 of this form", "3.2")
    assert kept("add 2.1 ml of buffer", "2.1")
    assert kept("allow 1.5 h", "1.5")
    assert not kept("the list from II.A, with the rate", "II.A")
    assert not kept("take the extract from 3.1 and dilute it", "3.1")
    assert not kept("as set out in 3.1 of the procedure", "3.1")  # this document's own
    assert not kept("what came out of 2.1 in the steps above", "2.1")
    assert not kept("the Disk snapshot of the host", "Disk snapshot")  # a name: the caller's reading


def test_work_sent_to_a_person_for_sign_off_is_an_approval() -> None:
    assert sent_for_sign_off("The brief goes to the CFO for sign-off before anything else happens.")
    assert sent_for_sign_off("Send the draft to legal for approval first.")
    assert sent_for_sign_off("Submit the change to the duty manager for their go-ahead.")
    assert approval_sentence("The deck is passed to the head of sales for final approval.")
    assert not sent_for_sign_off("Log in to the portal for approval status.")
    assert not sent_for_sign_off("Copy the logs to the bucket for later.")
    assert not sent_for_sign_off("Post the figures to the channel for the weekly review.")


def test_meets_or_exceeds_is_one_comparison() -> None:
    said = read_condition("the delta meets or exceeds the exec threshold")
    assert said is not None and [c.op for c in said.clauses] == [">="]
    said = read_condition("score is equal to or greater than 3")
    assert said is not None and [(c.op, c.value) for c in said.clauses] == [(">=", 3)]
    said = read_condition("status is done or the score matches or exceeds 4")
    assert said is not None and [c.op for c in said.clauses] == ["==", ">="] and said.joins == ("or",)
    assert read_condition("the team meets or the lead decides") is None
