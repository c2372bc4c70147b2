"""A runbook outline: "### 2.1 ..." sub-headings under "## 2. Chapter" are the steps, numbered in
order; the chapter headings above them (and a sibling chapter such as "## 3. Undo") are sections,
warned as not read, never a step."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text

_OUTLINE = """\
# Rotate keys

## 2. Procedure

Allow half an hour in total.

### 2.1 Collect keys

Run `list-keys` with `vault`.

### 2.2 Rotate each key

Run `rotate-key` on every key.

### 2.3 Report

Run `post-report` with the rotated keys.

## 3. Undo

Restore the previous keys by hand.
"""


def test_decimal_sub_headings_are_the_steps_in_order() -> None:
    spec = parse_spec_text(_OUTLINE, "o.md", "markdown")
    assert [(s.id, s.name) for s in spec.steps] == [
        ("step-1", "Collect keys"), ("step-2", "Rotate each key"), ("step-3", "Report")]
    assert [s.where for s in spec.steps] == ["o.md:7", "o.md:11", "o.md:15"]


def test_the_chapter_headings_are_sections_warned_not_steps() -> None:
    spec = parse_spec_text(_OUTLINE, "o.md", "markdown")
    warned = {w.line for w in spec.warnings if "not a spec section" in w.message}
    assert 19 in warned and not any(s.name in ("Procedure", "Undo") for s in spec.steps)


def test_one_decimal_heading_alone_is_not_an_outline() -> None:
    text = "# x\n\n## 1. Fetch\n\nRun `list-keys`.\n\n### 1.1 Detail\n\nsome words\n\n## 2. Post\n\nRun `post-report`.\n"
    spec = parse_spec_text(text, "o.md", "markdown")
    assert [s.name for s in spec.steps] == ["Fetch", "Post"]


_MINUTES = """\
MINUTES

### 1. Numbers (Ana)
- Revenue flat.

### 2. Automate the export (Bo)
- **2a.** Take the `orders` export and run the `load-rows` skill on it.
- **2b.** Then `score-rows` over the loaded rows.
- Bo asked about cost; agreed the whole thing must finish within an hour.

### 3. AOB
- Party on Friday.
"""


def test_sub_labelled_items_under_an_agenda_heading_are_the_steps_and_the_agenda_is_not() -> None:
    spec = parse_spec_text(_MINUTES, "m.md", "markdown")
    assert [s.where for s in spec.steps] == ["m.md:7", "m.md:8"]
    assert not any(s.name in ("AOB", "Numbers (Ana)") for s in spec.steps)


def test_an_unlabelled_remark_among_labelled_steps_is_warned_at_its_line() -> None:
    text = _MINUTES.replace("agreed the whole thing must finish within an hour", "we revisit it next month")
    spec = parse_spec_text(text, "m.md", "markdown")
    assert any(w.line == 9 and "not read as a step" in w.message for w in spec.warnings)


def test_an_unlabelled_remark_that_limits_the_whole_run_is_read_as_its_wall_time_not_warned() -> None:
    spec = parse_spec_text(_MINUTES, "m.md", "markdown")
    assert not any(w.line == 9 for w in spec.warnings)
    whole = [r for r in spec.readings if r.statement.whole_run]
    assert [(r.where, r.statement.timeout_s) for r in whole] == [("m.md:9", 3600)]


def test_a_fan_out_over_the_list_another_step_produced_names_that_step() -> None:
    from orchestrator.spec.step_prose import for_each_phrase

    assert for_each_phrase("For every host in the list produced by **Collect keys**, run `rotate-key`") == (
        "host", "steps.Collect-keys.output", "run `rotate-key`")
    assert for_each_phrase("for each row in the results returned by step 2, run it")[1] == "steps.step-2.output"
