"""Headings lettered as steps and a team's own field bullets under them (`spec.lettered`,
`spec.own_fields`): one step per heading in order, the letters in the text read as those steps."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.lettered import lettered_steps


def _spec(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "sop.md", "markdown")


LAB_SOP = """# Plate assay SOP

## A. Thaw and spin

- **Station:** `thaw-samples`
- **Begins:** immediately
- **Notes for bench:** keep on ice.

## B. Read the plate

- **Station:** `read-plate`
- **Begins:** after A

## C. Score the wells

- **Station:** `score-wells`
- **Begins:** once A and B are both done
"""


def test_a_lab_sop_with_lettered_sections_is_one_step_per_section_with_its_start() -> None:
    spec = _spec(LAB_SOP)
    assert [(s.id, s.skill.strip("`*")) for s in spec.steps] == [
        ("step-1", "thaw-samples"), ("step-2", "read-plate"), ("step-3", "score-wells")]
    assert spec.steps[1].depends_on == ("step-1",)
    assert set(spec.steps[2].depends_on) == {"step-1", "step-2"}
    said = [w for w in spec.warnings if "read as steps 1-3" in w.message]
    assert [w.line for w in said] == [3]
    assert "## Step 1: Name" in said[0].message
    assert not [w for w in spec.warnings if "not a spec section" in w.message]


NEWSLETTER = """# Friday newsletter checklist

### (a) Gather the links
- Who runs it: **collect-links**
- Starts: first thing

### (b) Write the blurbs
- Who runs it: **draft-blurbs**
- Starts: when (a) is done, i.e. after step a

### (c) Send it out
- Who runs it: **send-issue**
- Starts: after step b
"""


def test_a_newsletter_checklist_with_lowercase_letters_reads_step_words_only() -> None:
    spec = _spec(NEWSLETTER)
    assert [s.skill.strip("`*") for s in spec.steps] == ["collect-links", "draft-blurbs", "send-issue"]
    assert spec.steps[2].depends_on == ("step-2",)


HR = """# New starter onboarding

## Phase I: Accounts
- Owner: `create-accounts`
- Kick-off: straight away

## Phase II: Kit
- Owner: `order-laptop`
- Kick-off: right away, alongside phase I

## Phase III: Welcome
- Owner: `send-welcome`
- Kick-off: after phase I and phase II
"""


def test_an_hr_onboarding_with_roman_phases_runs_the_first_two_side_by_side() -> None:
    spec = _spec(HR)
    assert [s.skill.strip("`*") for s in spec.steps] == ["create-accounts", "order-laptop", "send-welcome"]
    assert spec.steps[1].depends_on == ()
    assert set(spec.steps[2].depends_on) == {"step-1", "step-2"}


def test_a_capital_letter_used_as_an_article_is_not_read_as_a_step() -> None:
    text = "## A. Load\nRun `load-rows`, as A quick check.\n\n## B. Ship\nRun `ship-rows` after A.\n"
    out, warned = lettered_steps(text)
    assert "as A quick check" in out and "after step 1." in out
    assert out.splitlines()[0] == "## Step 1: A. Load" and len(out.splitlines()) == len(text.splitlines())
    assert warned and warned[0][0] == 1


def test_lettered_headings_that_name_no_skill_are_sections_as_ever() -> None:
    text = "# Report\n\n## A. Introduction\nWhy we do this.\n\n## B. Background\nHistory.\n"
    assert lettered_steps(text) == (text, [])


def test_letters_out_of_order_or_a_single_heading_are_not_a_sequence() -> None:
    one = "## A. Load\nRun `load-rows`.\n"
    skipped = "## A. Load\nRun `load-rows`.\n## C. Ship\nRun `ship-rows`.\n"
    assert lettered_steps(one)[1] == [] and lettered_steps(skipped)[1] == []


def test_a_label_that_names_a_fallback_is_not_taken_for_the_skill() -> None:
    text = ("# Ship\n\n## A. Pack\n- Desk: `pack-box`\n\n## B. Post\n- Backup: `post-manual`\n"
            "- Desk: `post-parcel`\n- Starts: after A\n")
    spec = _spec(text)
    assert [s.skill.strip("`*") for s in spec.steps] == ["pack-box", "post-parcel"]
    assert spec.steps[1].depends_on == ("step-1",)


def test_a_start_said_only_as_alongside_another_step_is_not_read_as_a_root() -> None:
    text = ("# Ship\n\n## A. Pack\n- Desk: `pack-box`\n\n## B. Label\n- Desk: `print-label`\n- Starts: after A\n\n"
            "## C. Weigh\n- Desk: `weigh-box`\n- Starts: at the same time as B\n")
    spec = _spec(text)
    assert spec.steps[2].depends_where is None  # not made a root: its order and data decide
    assert any(w.line == 12 for w in spec.warnings)
