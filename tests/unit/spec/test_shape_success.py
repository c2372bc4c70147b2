"""A section that says when the run is done is read a sentence at a time: a comparison is the
run's check on the step that outputs the field, a limit is the run's limit, a sign-off is
nothing; a step's own "Check:" field is its success check (`spec.shape_success`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.shape_success import sign_off

DOC = "# {title}\n\n## Steps\n\n1. {one}\n2. {two}\n\n## {head}\n\n{body}\n"


def _read(title: str, one: str, two: str, head: str, body: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(DOC.format(title=title, one=one, two=two, head=head, body=body), "doc.md", "markdown")


def _success(spec) -> list[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return [(s.id, t.text) for s in spec.steps for t in s.texts if t.kind == "success"]


def test_a_recipe_cards_done_when_check_is_read_and_its_sign_off_is_not() -> None:
    spec = _read("Scones", "Mix with `mix-dough`.", "Bake with `bake-tray`, outputs `golden`.", "Done when",
                 "The tray comes out with `golden: true` on top.\nWhole thing has to be done within 40 min.\n\n"
                 "Cheers, Nan x")
    assert _success(spec) == [("step-2", "golden == true")]
    assert not any(w.line == 11 and "success" in w.message for w in spec.warnings)  # the limit, no check
    assert not any("Cheers" in w.message for w in spec.warnings)
    assert any(w.line == 10 and "golden == true" in w.message for w in spec.warnings)


def test_an_hr_onboarding_success_sentence_in_words_is_warned_and_the_signature_is_not() -> None:
    spec = _read("Onboarding", "Make the account with `create-account`.", "Order with `order-laptop`.",
                 "Success", "The starter can log in on day one and has a laptop on the desk.\n\n— Sam")
    assert not _success(spec)
    assert any(w.line == 10 and "success check" in w.message for w in spec.warnings)
    assert not any(w.line == 12 for w in spec.warnings)


def test_a_lab_protocols_check_field_on_a_step_is_its_success_check() -> None:
    spec = parse_spec_text("# Assay\n\n## Steps\n\n### Step 1: Count\n- **Op:** `count-colonies`\n"
                           "- **Check:** colony_count >= 30\n", "doc.md", "markdown")
    assert _success(spec) == [("step-1", "colony_count >= 30")]


def test_a_podcast_run_sheets_verify_field_that_compares_nothing_is_warned_at_its_line() -> None:
    spec = parse_spec_text("# Episode\n\n## Steps\n\n### Step 1: Publish\n- **Tool:** `post-episode`\n"
                           "- **Verify:** the episode shows up in the app\n", "doc.md", "markdown")
    assert any(w.line == 7 and "success" in w.message for w in spec.warnings)


def test_a_header_comments_success_label_states_the_runs_check() -> None:
    spec = parse_spec_text("# Ledger\n\n## Steps\n\n1. Post with `post-entries`.\n2. Close with `close-books`.\n\n"
                           "Success: the books balance at the end.\n",
                           "doc.md", "markdown")
    assert any(w.line == 8 and "success check" in w.message for w in spec.warnings)


def test_what_is_a_sign_off() -> None:
    assert sign_off("Thanks! 🙏 — P") and sign_off("Cheers, Dana") and sign_off("-- Sam") and sign_off("🙏🙏")
    assert sign_off("Best regards, the data team")
    assert not sign_off("Thanks to the retry, `ok` is true at the end.")
    assert not sign_off("The scheduler answers with `scheduled: true`.")
