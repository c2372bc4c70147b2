"""A comment box's gutter is no markup, and a step's text ends at another step marker, a section
label ("Success:", "Notes:") or a record's title ("Change History") (`spec.shape_comment`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.shape_comment import ends_span, starts_unit, unboxed
from orchestrator.spec.vocabulary import Vocabulary

CATALOG = Vocabulary.of([(n, None) for n in (
    "erase-flash", "write-image", "verify-crc", "pull-gps", "plot-course", "file-log",
    "fetch-feed", "trim-silence", "post-episode", "mix-buffer", "incubate-plate", "count-colonies")])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.md", "markdown", CATALOG)


def _skills(spec) -> list[str]:  # type: ignore[no-untyped-def]
    return [(s.skill or (s.mentions[0].text if s.mentions else "")).strip("`") for s in spec.steps]


def _texts(step) -> str:  # type: ignore[no-untyped-def]
    return " ".join(t.text for t in step.texts)


def test_a_firmware_c_header_box_reads_a_step_a_marker_and_leaves_the_revision_log_alone() -> None:
    spec = _read("/*\n * flash.c -- bench flashing job\n *\n * Step 1  Erase      -> erase-flash on the board\n"
                 " *         give it 20 s.\n * Step 2  Write      -> write-image with the build\n"
                 " * Step 3  Check      -> verify-crc on what was written\n *\n * Revision log\n"
                 " * 2024-02-01  kt   switched write-image to the 4 MB block size\n */\nint main(void) { return 0; }\n")
    assert _skills(spec) == ["erase-flash", "write-image", "verify-crc"]
    assert "4 MB" not in _texts(spec.steps[-1])


def test_a_ships_log_sql_header_step_does_not_swallow_the_next_or_the_notes() -> None:
    spec = _read("-- nightly log import\n-- Stage 1  pull-gps for the watch period\n"
                 "--          retry once after a minute.\n-- Stage 2  plot-course from the fixes\n"
                 "-- Stage 3  file-log to the archive\n-- Notes: the archive is read-only on Sundays, and\n"
                 "--        plot-course was rewritten last spring.\nSELECT 1;\n")
    assert _skills(spec) == ["pull-gps", "plot-course", "file-log"]
    assert "Sundays" not in _texts(spec.steps[-1])


def test_a_podcast_js_header_with_a_change_history_takes_no_skill_from_it() -> None:
    spec = _read("// publish.js\n// Phase 1  fetch-feed for the show\n// Phase 2  trim-silence on the audio\n"
                 "// Phase 3  post-episode to the host\n//\n// Change History\n"
                 "// 2025-03-02 added trim-silence before post-episode\nexport default {};\n")
    assert _skills(spec) == ["fetch-feed", "trim-silence", "post-episode"]


def test_a_lab_protocol_in_a_lisp_comment_ends_the_last_step_at_its_success_label() -> None:
    spec = _read(";; plate assay\n;; Step 1a  mix-buffer, 10 ml\n;; Step 1b  incubate-plate at 37 C for 2 h\n"
                 ";; Step 2   count-colonies on the plate\n;; Success: colony_count >= 30\n(defun run () nil)\n")
    assert _skills(spec) == ["mix-buffer", "incubate-plate", "count-colonies"]
    assert "colony_count" not in _texts(spec.steps[-1]) or any(t.kind == "success" for t in spec.steps[-1].texts)


def test_what_ends_a_step_and_what_is_a_gutter() -> None:
    assert unboxed(["/****", "** Step 1  x", "**   more", "****/"]) == ["", "Step 1  x", "  more", ""]
    assert unboxed(["-- a", "-- b", "-- c"]) == ["a", "b", "c"]
    assert unboxed(["- a", "- b", "- c"]) == ["- a", "- b", "- c"]  # a markdown list is no gutter
    assert starts_unit("Step 40  Consolidate") and starts_unit("Stage 2b: tidy") and starts_unit("Change History")
    assert starts_unit("Success: the total balances") and starts_unit("Done when: ok")
    assert not starts_unit("step 2 output is read here")  # prose that names a step
    assert not starts_unit("Successful runs are logged.")
    assert ends_span("** Notes: x", 0) and not ends_span("      Notes: inside the step", 2)
