"""The workflow's inputs said the author's way: a section under the author's own title ("What
you need before starting", "Bring"), a lead line and the list after it, `@Name TYPE` parameters
of a script's header, and a sentence of a short post's first step. Each is read with a warning
at its line that says how to write it plainly; a section whose items are not names is not read."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.inputs_heading import goes_in_title, snake
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([("denoise-audio", None), ("draft-notes", None), ("stain-slides", None),
                         ("count-cells", None), ("log-position", None), ("send-report", None),
                         ("bake-loaf", None), ("load-rates", None)])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def _names(spec):  # type: ignore[no-untyped-def]
    return [i.name for i in spec.inputs or ()]


def _said(spec, line: int, words: str) -> bool:  # type: ignore[no-untyped-def]
    return any(w.line == line and words in w.message for w in spec.warnings)


def test_a_lab_protocols_before_you_start_section_of_names_is_its_inputs() -> None:
    spec = _read("# Slide prep\n\n## Before you start you'll need\n- `slide_batch`: tray id\n"
                 "- `stain` (string): which dye\n\n## Steps\n1. Run `stain-slides` on the tray.\n"
                 "2. Then `count-cells`.\n")
    assert _names(spec) == ["slide_batch", "stain"]
    assert _said(spec, 3, "read as the Inputs section")


def test_a_recipe_cards_bring_section_and_a_ships_log_you_give_it_section_are_read() -> None:
    card = _read("# Sourdough\n\n## Bring\n- starter\n- flour_grams\n\n## Method\n1. `bake-loaf` it.\n")
    assert _names(card) == ["starter", "flour_grams"]
    log = _read("# Watch log\n\n## You give it\n- `vessel_id`\n- `watch_hours`\n\n## Steps\n"
                "1. `log-position` every hour.\n2. `send-report` to the master.\n")
    assert _names(log) == ["vessel_id", "watch_hours"]
    assert _said(log, 3, "title it `## Inputs`")


def test_a_section_of_chores_or_of_what_comes_back_is_not_read_as_inputs() -> None:
    chores = _read("# Onboarding\n\n## Before you start\n- Book a desk for the new hire.\n"
                   "- Ask IT for a laptop.\n\n## Steps\n1. `send-report` to HR.\n")
    assert not _names(chores)
    assert any("not a spec section" in w.message for w in chores.warnings)
    out = _read("# Podcast\n\n## What you get back\n- `show_notes`\n\n## Steps\n1. `draft-notes`.\n")
    assert "show_notes" not in _names(out)


def test_a_lead_line_and_its_list_of_names_are_the_inputs() -> None:
    spec = _read("# Podcast run sheet\n\nBefore you kick this off you'll need:\n- `episode_audio`: the wav\n"
                 "- `guest_name`\n\n## Steps\n1. Clean it with `denoise-audio`.\n2. `draft-notes` for the guest.\n")
    assert _names(spec) == ["episode_audio", "guest_name"]
    assert _said(spec, 3, "read as the workflow's inputs")


def test_at_parameters_of_a_script_header_are_inputs_in_snake_case() -> None:
    spec = _read("# Nightly rates\n\n-- Params: @RunDate DATE the business day\n"
                 "--          @RateTable NVARCHAR(MAX) JSON rows\n\n## Steps\n1. `load-rates` for the day.\n")
    assert _names(spec) == ["run_date", "rate_table"]
    assert _said(spec, 3, "`@RateTable`")
    lab = _read("# Plate reader macro\n\nParameters: @SampleId the plate barcode\n\n## Steps\n"
                "1. `count-cells` on the plate.\n")
    assert _names(lab) == ["sample_id"]


def test_a_first_steps_sentence_that_says_the_input_declares_it() -> None:
    spec = _read("# Team chat\n\n1. our inputs are `episode_audio` and the `air_date`. first `denoise-audio` it\n"
                 "2. then `draft-notes`\n")
    assert _names(spec) == ["episode_audio", "air_date"]
    assert _said(spec, 3, "`Inputs: episode_audio, air_date`")


def test_a_titles_words_say_what_goes_in() -> None:
    assert goes_in_title("What you need before starting")
    assert goes_in_title("Params")
    assert not goes_in_title("What it gives back")
    assert snake("RateTable") == "rate_table" and snake("Period") == "period" and snake("run_id") == "run_id"


def test_a_process_variable_in_an_input_line_is_that_value_by_name() -> None:
    from orchestrator.spec.input_prose import assignment

    field, _ = assignment("receipts <- ${receipts}", "doc.md:4")  # a process model's task input
    assert field is not None and field.source == "receipts"
    field, _ = assignment("guest = #{guest_name}", "doc.md:5")  # a podcast run sheet's form field
    assert field is not None and field.source == "guest_name"
