"""Binding steps to skills: names, kind words, word scores, ties and the chooser."""

from __future__ import annotations

import pytest
from plan_factory import SETTINGS, FakeCatalog, at, field, skill, step, workflow

from orchestrator.cli import wording as cli_wording
from orchestrator.errors import PlanError
from orchestrator.kinds import BuiltinKind
from orchestrator.plan import build_plan
from orchestrator.plan.bind import bind_steps, kinds_named, words_match
from orchestrator.spec.model import Mention

SKILLS = {
    "fetch-docs": skill("fetch-docs", "mcp", "Fetch documentation of a module from a docs repository"),
    "analyze-module": skill("analyze-module", "script", "Read a Python module and report its API"),
    "generate-docs": skill("generate-docs", "script", "Write markdown documentation from an analysis"),
    "validate-markdown": skill("validate-markdown", "script", "Check that markdown has the required sections"),
    "host-notes": skill("host-notes", "instructions", "Notes on documentation for a host agent"),
}


def test_a_backticked_name_binds_directly_with_its_line() -> None:
    spec = workflow(step(1, "Anything", "Script-execution skill `generate-docs`"))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert bindings["step-1"].skill == "generate-docs"
    assert bindings["step-1"].provenance.where == at(11)
    assert bindings["step-1"].provenance.note == "named"


def test_an_unknown_backticked_name_is_an_error_with_near_names_and_line() -> None:
    spec = workflow(step(1, "Fetch", "`fetch-doc`"))
    bindings, errors = bind_steps(spec, SKILLS)
    assert bindings == {}
    assert [(e.line, e.code) for e in errors] == [(11, "unknown-skill")]
    assert "unknown skill `fetch-doc`" in errors[0].message
    assert "`fetch-docs`" in errors[0].message


def test_kind_words_filter_the_candidates() -> None:
    assert kinds_named("MCP-wrapping skill wrapping docs repository") == {BuiltinKind.MCP}
    assert kinds_named("Script-execution skill (markdown validator)") == {BuiltinKind.SCRIPT}
    assert kinds_named("an LLM prompt") == {BuiltinKind.LLM}
    spec = workflow(step(1, "Documentation", "MCP-wrapping skill"))
    bindings, _ = bind_steps(spec, SKILLS)
    assert bindings["step-1"].skill == "fetch-docs"


@pytest.mark.parametrize(
    ("name", "skill_text", "outputs", "expected"),
    [
        ("Fetch Documentation", "MCP-wrapping skill wrapping docs repository", ("existing_docs",), "fetch-docs"),
        ("Analyze Module Structure", "Script-execution skill", ("analysis",), "analyze-module"),
        ("Generate Documentation", "Script-execution skill", ("generated_docs",), "generate-docs"),
        ("Validate Output", "Script-execution skill (markdown validator)", ("validation_result",), "validate-markdown"),
    ],
)
def test_step_words_pick_the_skill_whose_name_they_match(
    name: str, skill_text: str, outputs: tuple[str, ...], expected: str
) -> None:
    spec = workflow(step(1, name, skill_text, outputs=tuple(field(o) for o in outputs)))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert bindings["step-1"].skill == expected
    assert bindings["step-1"].provenance.source == "spec"
    assert "matched" in bindings["step-1"].provenance.note


def test_words_match_on_a_shared_prefix_but_not_on_short_overlaps() -> None:
    assert words_match("doc", "documentation")
    assert words_match("validator", "validate")
    assert words_match("analysis", "analyze")
    assert not words_match("module", "modify")
    assert not words_match("to", "tool")


def test_instruction_only_skills_are_never_matched_by_words() -> None:
    spec = workflow(step(1, "Host notes", "skill"))
    bindings, errors = bind_steps(spec, {"host-notes": SKILLS["host-notes"]})
    assert bindings == {}
    assert "no executable skill matches" in errors[0].message


TIED = {
    "rows-sorter-fast": skill("rows-sorter-fast", "script", "Sorts rows"),
    "rows-sorter-stable": skill("rows-sorter-stable", "script", "Sorts rows"),
}


def test_a_tie_without_a_chooser_is_an_error_listing_the_candidates() -> None:
    spec = workflow(step(1, "Sort rows", "Script-execution skill"))
    _, errors = bind_steps(spec, TIED)
    assert [(e.line, e.code) for e in errors] == [(11, "ambiguous-skill")]
    assert "`rows-sorter-fast`" in errors[0].message and "`rows-sorter-stable`" in errors[0].message


def test_a_tie_goes_to_the_chooser_and_is_recorded_as_llm() -> None:
    seen: list[tuple[str, ...]] = []

    def chooser(s, candidates):  # type: ignore[no-untyped-def]
        seen.append(tuple(c.name for c in candidates))
        return "rows-sorter-stable"

    spec = workflow(step(1, "Sort rows", "Script-execution skill"))
    bindings, errors = bind_steps(spec, TIED, chooser)
    assert errors == []
    assert seen == [("rows-sorter-fast", "rows-sorter-stable")]
    assert bindings["step-1"].skill == "rows-sorter-stable"
    assert bindings["step-1"].provenance.source == "llm"


def test_a_chooser_answer_outside_the_candidates_leaves_the_tie_an_error() -> None:
    spec = workflow(step(1, "Sort rows", "Script-execution skill"))
    _, errors = bind_steps(spec, TIED, lambda s, c: "something-else")
    assert errors[0].code == "ambiguous-skill"


def test_yaml_skill_values_are_names() -> None:
    spec = workflow(step(1, "extract", "fetch-docs", id="extract"), format="yaml")
    bindings, _ = bind_steps(spec, SKILLS)
    assert bindings["extract"].skill == "fetch-docs"


def test_a_refused_skill_reports_why_instead_of_unknown() -> None:
    catalog = FakeCatalog(*SKILLS.values(), refused={"shadowed": "would shadow the bundled skill"})
    spec = workflow(step(1, "X", "`shadowed`"))
    with pytest.raises(PlanError) as caught:
        build_plan(spec, catalog, settings=SETTINGS)
    assert [d.code for d in caught.value.diagnostics] == ["broken-skill"]
    assert "would shadow the bundled skill" in caught.value.diagnostics[0].message


def test_build_plan_raises_with_every_binding_error() -> None:
    catalog = FakeCatalog(*SKILLS.values())
    spec = workflow(step(1, "A", "`nope-one`"), step(2, "B", "`nope-two`"))
    with pytest.raises(PlanError) as caught:
        build_plan(spec, catalog, settings=SETTINGS)
    assert [d.line for d in caught.value.diagnostics] == [11, 21]


def test_find_ties_lists_the_steps_an_llm_must_decide() -> None:
    from orchestrator.plan import find_ties

    spec = workflow(step(1, "Sort rows", "Script-execution skill"), step(2, "X", "`rows-sorter-fast`"))
    ties = find_ties(spec, FakeCatalog(*TIED.values()))
    assert {k: [s.name for s in v] for k, v in ties.items()} == {"step-1": ["rows-sorter-fast", "rows-sorter-stable"]}


def test_binding_notes_quote_the_words_as_the_step_wrote_them() -> None:
    spec = workflow(step(1, "Analyze Module Structure", "Script-execution skill", outputs=(field("analysis"),)))
    bindings, _ = bind_steps(spec, SKILLS)
    assert "analysis (name)" in bindings["step-1"].provenance.note
    assert "analyze (name)" in bindings["step-1"].provenance.note


def test_a_todo_skill_line_binds_nothing_and_says_so() -> None:
    spec = workflow(step(1, "Check the docs", "TODO name a skill in backticks"))
    bindings, errors = bind_steps(spec, SKILLS)
    assert bindings == {}
    assert [(e.line, "no skill chosen yet" in e.message) for e in errors] == [(11, True)]


# --- what the author wrote: the text's backticks, a tool's name, a clear win ----------------

FX = {
    "get-fx-rate": skill("get-fx-rate", "mcp", "Exchange rates").model_copy(update={"server": "fx", "tool": "get_rate"}),
    "convert-amount": skill("convert-amount", "script", "Multiply an amount by a rate"),
    "file-ticket": skill("file-ticket", "script", "Stand-in for the Jira server's jira_create_issue tool"),
}


def test_a_skill_line_naming_the_tool_an_mcp_skill_wraps_binds_that_skill() -> None:
    bindings, errors = bind_steps(workflow(step(1, "Rate", "get_rate")), FX)
    assert errors == []
    assert bindings["step-1"].skill == "get-fx-rate"
    assert bindings["step-1"].provenance.note == "the tool `get_rate` is wrapped by skill get-fx-rate (fx/get_rate)"
    assert bindings["step-1"].provenance.where == at(11)
    yaml_spec = workflow(step(1, "rate", "fx/get_rate", id="rate"), format="yaml")
    assert bind_steps(yaml_spec, FX)[0]["rate"].skill == "get-fx-rate"


def test_a_tool_named_in_the_steps_text_binds_the_one_skill_describing_it() -> None:
    spec = workflow(step(1, "File", None, description="File it with the `jira_create_issue` tool.",
                         mentions=(Mention(text="jira_create_issue", where=at(12)),)))
    bindings, errors = bind_steps(spec, FX)
    assert errors == []
    assert (bindings["step-1"].skill, bindings["step-1"].provenance.where) == ("file-ticket", at(12))
    assert bindings["step-1"].provenance.note == "the tool `jira_create_issue` is named in the description of skill file-ticket"


def test_a_tool_two_skills_wrap_is_ambiguous_and_an_unknown_tool_names_the_near_ones() -> None:
    twin = FX["get-fx-rate"].model_copy(update={"name": "get-fx-rate-2"})
    _, errors = bind_steps(workflow(step(1, "Rate", "get_rate")), {**FX, "get-fx-rate-2": twin})
    assert [e.code for e in errors] == ["ambiguous-skill"]
    assert "`get-fx-rate`, `get-fx-rate-2`" in errors[0].message
    _, errors = bind_steps(workflow(step(1, "Rate", "get_rates")), FX)
    assert errors[0].message == ("step-1 (Rate): unknown skill `get_rates` (did you mean `get-fx-rate`, "
                                 "the tool `get_rate` (skill `get-fx-rate`)?)")


def test_a_backticked_skill_anywhere_in_the_steps_text_binds_and_the_others_are_noted() -> None:
    spec = workflow(step(1, "Pull", None, mentions=(
        Mention(text="package", where=at(12)), Mention(text="fetch-docs", where=at(12)),
        Mention(text="generate-docs", where=at(13)))))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert bindings["step-1"].skill == "fetch-docs"
    assert bindings["step-1"].provenance.note == "named in backticks in the step's text (also named: generate-docs)"
    assert bindings["step-1"].provenance.where == at(12)


def test_a_step_without_a_skill_line_is_bound_by_its_words() -> None:
    spec = workflow(step(1, "Validate the markdown", None, description="Check the sections."))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert bindings["step-1"].skill == "validate-markdown"
    assert bindings["step-1"].provenance.note.startswith("matched executable skills on ")


def test_words_bind_only_on_a_clear_win_else_the_model_chooses_or_validate_lists_them() -> None:
    close = {
        "sort-rows": skill("sort-rows", "script", "Sort rows by a key"),
        "sort-rows-by-date": skill("sort-rows-by-date", "script", "Sort rows by their date"),
    }
    spec = workflow(step(1, "Sort the rows by key", None))  # 7 against 6: not clear
    _, errors = bind_steps(spec, close)
    assert [e.code for e in errors] == ["ambiguous-skill"]
    assert errors[0].message == ("step-1 (Sort the rows by key): no skill clearly matches `Sort the rows by key`: "
                                 "`sort-rows` (7), `sort-rows-by-date` (6) score about as well; name one in "
                                 "backticks")
    assert cli_wording.render_diagnostic(errors[0]).endswith(
        "name one in backticks (or let the model choose: set a key or --llm-replay FILE)")
    bindings, errors = bind_steps(spec, close, lambda s, c: "sort-rows-by-date")
    assert errors == []
    assert bindings["step-1"].provenance.source == "llm"
    assert bindings["step-1"].provenance.note == "chosen among sort-rows, sort-rows-by-date (scores sort-rows 7, sort-rows-by-date 6)"
    clear = workflow(step(1, "Sort the rows by date", None))  # 9 against 6: a clear win
    assert bind_steps(clear, close)[0]["step-1"].skill == "sort-rows-by-date"


def test_a_skill_name_in_bold_binds_after_the_backticked_ones() -> None:
    spec = workflow(step(1, "Pull", None, mentions=(
        Mention(text="package", where=at(12)), Mention(text="fetch-docs", where=at(13), marked="bold"))))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert (bindings["step-1"].skill, bindings["step-1"].provenance.note) == ("fetch-docs", "named in bold in the step's text")


def test_a_near_tie_goes_to_the_skill_that_alone_has_the_steps_other_words() -> None:
    close = {
        "convert-csv-json": skill("convert-csv-json", "script", "CSV->JSON converter for exports"),
        "bundle-conversions": skill("bundle-conversions", "script",
                                    "Bundles each finished export's conversions into one archive"),
    }
    spec = workflow(step(1, "Convert", None, description="run the CSV->JSON converter on each export"))
    bindings, errors = bind_steps(spec, close)  # on all the words: 6.5 against 5.5, a near tie
    assert errors == []
    note = bindings["step-1"].provenance.note
    assert bindings["step-1"].skill == "convert-csv-json"
    assert "preferred to bundle-conversions on words only it has: csv, convert" in note


def test_a_catalog_name_written_bare_binds_after_backticked_and_bold_ones() -> None:
    spec = workflow(step(1, "Pull", None, mentions=(
        Mention(text="no-such-thing", where=at(12), marked="plain"),
        Mention(text="fetch-docs", where=at(13), marked="plain"))))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert (bindings["step-1"].skill, bindings["step-1"].provenance.note) == (
        "fetch-docs", "named in plain words in the step's text")
    assert bindings["step-1"].provenance.where == at(13)


def test_two_catalog_names_written_bare_leave_the_choice_to_the_words() -> None:
    spec = workflow(step(1, "Fetch documentation", None, mentions=(
        Mention(text="generate-docs", where=at(12), marked="plain"),
        Mention(text="fetch-docs", where=at(13), marked="plain"))))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == []
    assert bindings["step-1"].skill == "fetch-docs"
    assert bindings["step-1"].provenance.note.startswith("matched ")


SORTERS = {
    "sort-rows": skill("sort-rows", "script", "Sorts rows"),
    "sort-rows-fast": skill("sort-rows-fast", "script", "Sorts rows"),
    "sort-rows-stable": skill("sort-rows-stable", "script", "Sorts rows"),
}


@pytest.mark.parametrize(("name", "description"), [
    ("3. sort-rows", ""),  # a numbered line naming it bare
    ("Sort them", "Then run sort-rows on the table."),  # in the step's text
])
def test_a_skill_s_whole_name_written_out_wins_a_tie_of_words(name: str, description: str) -> None:
    bindings, errors = bind_steps(workflow(step(1, name, None, description=description)), SORTERS)
    assert errors == []
    assert bindings["step-1"].skill == "sort-rows"
    assert "its whole name is written" in bindings["step-1"].provenance.note


def test_negative_a_name_inside_a_longer_one_or_two_names_leave_the_tie() -> None:
    _, errors = bind_steps(workflow(step(1, "sort rows", None)), SORTERS)
    assert [e.code for e in errors] == ["ambiguous-skill"]
    _, errors = bind_steps(workflow(step(1, "sort-rows-fast or sort-rows-stable", None)), SORTERS)
    assert [e.code for e in errors] == ["ambiguous-skill"]


@pytest.mark.parametrize("written", ["`GENERATE-DOCS`", "`Generate-Docs`"])
def test_a_name_in_other_letter_case_binds_that_skill_with_a_note(written: str) -> None:  # round 50 (JCL decks)
    spec = workflow(step(1, "Docs", f"Script-execution skill {written}"))
    bindings, errors = bind_steps(spec, SKILLS)
    assert errors == [] and bindings["step-1"].skill == "generate-docs"
    assert "other letter case" in (bindings["step-1"].provenance.note or "")


def test_a_near_name_in_other_case_is_still_unknown() -> None:  # near-miss: case is forgiven, spelling is not
    spec = workflow(step(1, "Docs", "`GENERATE-DOC`"))
    bindings, errors = bind_steps(spec, SKILLS)
    assert bindings == {} and [e.code for e in errors] == ["unknown-skill"]
