"""A paragraph that names a skill but asks for no work (an inputs label, a prerequisite, a tip
or other remark) is never read as a step; a skill it names that no step runs is still warned."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.shape_aside import not_a_step
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("load-roster", None), ("send-report", None), ("grade-quiz", None),
                         ("fetch-repo", None), ("split-class", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def test_a_readmes_inputs_label_paragraph_gives_the_inputs_and_no_step() -> None:
    spec = _read("# Handover\n\nInputs: `shift_date` and `team`.\n\nFirst `load-roster` for the date.\n\n"
                 "Then `send-report` to the team.\n")
    assert [i.name for i in spec.inputs or ()] == ["shift_date", "team"]
    assert [s.where for s in spec.steps] == ["doc.md:5", "doc.md:7"]
    assert not [w for w in spec.warnings if w.line == 3]


def test_a_shift_handovers_prerequisite_about_a_skill_is_not_a_step() -> None:
    spec = _read("# Handover\n\nYou will want `load-roster` installed before you start (see the wiki).\n\n"
                 "First `load-roster` for the date.\n\nThen `send-report` to the team.\n")
    assert [s.where for s in spec.steps] == ["doc.md:5", "doc.md:7"]


def test_a_lesson_plans_tip_that_names_another_skill_is_no_step_and_the_skill_is_warned() -> None:
    spec = _read("# Friday quiz\n\nFirst run `grade-quiz` on the papers.\n\nTip: if it is slow on a big class, "
                 "`split-class` first and grade each half.\n\nThen `send-report` to the parents.\n")
    assert [s.where for s in spec.steps] == ["doc.md:3", "doc.md:7"]
    assert any("`split-class`" in w.message and w.line == 5 for w in spec.warnings)


def test_a_procfile_notes_heads_up_on_credentials_is_not_a_step() -> None:
    spec = _read("# worker notes\n\nRun `fetch-repo` for the nightly slug.\n\nHeads up: `fetch-repo` needs a token "
                 "in GITHUB_TOKEN or it gets rate-limited.\n\nThen `send-report` to #ops.\n")
    assert [s.where for s in spec.steps] == ["doc.md:3", "doc.md:7"]


def test_what_asks_for_work_and_what_does_not() -> None:
    assert not_a_step("Make sure `fetch-repo` has a token in the env.")
    assert not_a_step("**Parameters:** `a`, `b`")
    assert not_a_step("FYI: `send-report` mails every parent.")
    assert not not_a_step("Then `send-report` to the team.")
    assert not not_a_step("Run `fetch-repo` once it is installed.")
    assert not not_a_step("Pass the rows to `grade-quiz`.")


def test_a_runbooks_policy_paragraph_whose_only_skill_is_the_fallback_belongs_to_the_step_before() -> None:
    spec = _read("# Nightly\n\nRun `fetch-repo` for the slug.\n\nGive it one retry; if it still fails, switch to "
                 "`load-roster` rather than stopping.\n\nThen `send-report` to #ops.\n")
    assert [s.where for s in spec.steps] == ["doc.md:3", "doc.md:7"]
    assert any("switch to `load-roster`" in t.text for t in spec.steps[0].texts)


def test_a_status_page_paragraph_that_runs_a_skill_before_naming_its_fallback_is_a_step() -> None:
    spec = _read("# Status\n\nFirst `fetch-repo` for the slug.\n\nPost with `send-report`; if that fails, use "
                 "`load-roster` instead.\n")
    assert [s.where for s in spec.steps] == ["doc.md:3", "doc.md:5"]


def test_a_lesson_plans_footer_after_a_rule_is_no_part_of_the_last_step() -> None:
    spec = _read("# Quiz\n\nFirst run `grade-quiz` on the papers.\n\nThen `send-report` to the parents.\n\n---\n"
                 "Last reviewed by Ms Patel. Questions: the staff room.\n")
    last = spec.steps[-1]
    assert not [t for t in last.texts if "reviewed" in t.text] and "reviewed" not in last.description


def test_a_sql_procedure_headers_footer_line_ends_the_steps() -> None:
    spec = _read("# usp_sync\n\nRun `fetch-repo` nightly.\n\nThen `send-report` to finance.\n\n"
                 "Last updated by the data team; previous version in the wiki.\n")
    assert "updated" not in spec.steps[-1].description


def _lead_doc(first: str) -> str:
    return (f"# Procedure\n\n{first}\n\n**Fetch.** Run `fetch-repo` for the slug.\n\n"
            "**Report.** Then `send-report` to the board.\n")


def test_a_grant_proposals_terms_used_paragraph_is_no_step_and_is_warned_with_its_names() -> None:
    spec = _read(_lead_doc("**Terms used.** The cohort (`cohort_id`) and the budget (`budget_eur`) are the "
                           "funder's; `load-roster` lists the cohort."))
    assert [s.name for s in spec.steps] == ["Fetch", "Report"]
    [warning] = [w for w in spec.warnings if w.line == 3]
    assert "names `cohort_id`, `budget_eur`;" in warning.message and "## Inputs" in warning.message


def test_a_lesson_plans_glossary_is_no_step() -> None:
    spec = _read(_lead_doc("**Glossary.** A `quiz_sheet` is the printed paper; `grade-quiz` marks it."))
    assert [s.name for s in spec.steps] == ["Fetch", "Report"]


def test_an_hr_policys_clause_defining_two_terms_is_no_step_whatever_its_lead() -> None:
    spec = _read(_lead_doc("**2.1 Scope.** \"Employee\" means the person named by `employee_id`; \"Manager\" means "
                           "the person in `manager_id`."))
    assert [s.name for s in spec.steps] == ["Fetch", "Report"]
    assert any(w.line == 3 and "`employee_id`, `manager_id`" in w.message for w in spec.warnings)


def test_a_procedures_lead_paragraph_that_runs_a_skill_is_still_a_step() -> None:
    spec = _read(_lead_doc("**Prepare.** Run `load-roster` for the `shift_date`."))
    assert [s.name for s in spec.steps] == ["Prepare", "Fetch", "Report"]
