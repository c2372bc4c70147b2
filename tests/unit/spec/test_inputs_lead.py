"""A paragraph that lists what the workflow takes ("You'll need: ...", "Requires: ...", an
admonition "TIP: Inputs you need ...") gives the workflow's inputs and is never a step; a
paragraph read as a step for a name no catalog skill has is warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.inputs_lead import inputs_lead
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("fetch-repo", None), ("count-stars", None), ("post-digest", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def test_a_readme_usage_paragraph_that_says_what_you_need_gives_inputs_and_no_step() -> None:
    spec = _read(
        "# Stars\n\nYou'll need: the API token (`api_token`) and the slug (`repo_slug`).\n\n"
        "Run `fetch-repo` with the slug.\n\nThen `count-stars` over what came back.\n"
    )
    assert [i.name for i in spec.inputs or ()] == ["api_token", "repo_slug"]
    assert [s.where for s in spec.steps] == ["doc.md:5", "doc.md:7"]
    assert not [w for w in spec.warnings if w.line == 3]


def test_an_admonition_that_lists_a_support_macros_inputs_is_not_a_step() -> None:
    spec = _read(
        "# Macro\n\nIMPORTANT: Requires: `ticket_id` and `customer_tier`, before you start.\n\n"
        "Pull the repo with `fetch-repo`.\n\nThen `post-digest` to the channel.\n"
    )
    assert [i.name for i in spec.inputs or ()] == ["ticket_id", "customer_tier"]
    assert len(spec.steps) == 2


def test_a_status_page_paragraph_read_as_a_step_for_a_name_no_skill_has_is_warned_at_its_line() -> (
    None
):
    spec = _read(
        "# Status update\n\nRun `fetch-repo` first.\n\nThen roll up with `tally_up` at the end.\n"
    )
    [warning] = [w for w in spec.warnings if "only guessed" in w.message]
    assert warning.line == 5 and "`tally_up`" in warning.message and "step-2" in warning.message


def test_a_paragraph_that_names_a_catalog_skill_is_not_warned_as_guessed() -> None:
    spec = _read("# Docstring\n\nRun `fetch-repo` on `repo_slug`.\n\nThen `count-stars`.\n")
    assert not [w for w in spec.warnings if "only guessed" in w.message]


def test_what_counts_as_a_lead_of_inputs() -> None:
    assert inputs_lead("TIP: Inputs you need in hand: the log (`log`)")
    assert inputs_lead("**What you'll need:** `a`, `b`")
    assert inputs_lead("Prerequisites - a token (`token`)")
    assert not inputs_lead("Run `fetch-repo` once you need the token.")
    assert not inputs_lead("Inputs are validated by `check-rows`.")
