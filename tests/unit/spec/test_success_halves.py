"""The run's success check said in parts, each read against one step's outputs (`spec.success_halves`):
"posted comes back true and there's at least one batch on it" is `posted == true and batches >= 1`; a
part beside a `field: value` ("with at least one species in it") is checked too, or said at the line
as not checked, never dropped. Every reading from words is warned at its line as a guess.

Documents: a ship's log (markdown list), a podcast run sheet (INI), a beekeeping notebook (prose), a
choir rehearsal plan (headings), a vet clinic's discharge checklist (markdown list)."""

from __future__ import annotations

import pytest

from orchestrator.spec import WorkflowSpec, parse_spec_text
from orchestrator.spec.success_halves import output_named, read_half
from orchestrator.spec.vocabulary import Vocabulary

OUTPUTS = {
    "log-position": frozenset({"lat", "lon"}),
    "file-noon-report": frozenset({"filed", "entries", "report_id"}),
    "mix-audio": frozenset({"mixed", "duration_s"}),
    "publish-episode": frozenset({"published", "url", "chapter_count"}),
    "weigh-hives": frozenset({"weights", "hive_total"}),
    "post-hive-log": frozenset({"logged", "alerts"}),
    "pick-pieces": frozenset({"pieces", "piece_count"}),
    "send-parts": frozenset({"sent", "singers"}),
    "print-discharge": frozenset({"printed", "pages"}),
}
WORDS = Vocabulary.of([(s, None) for s in OUTPUTS]).with_outputs(lambda s: OUTPUTS.get(s, frozenset()))


def _checks(text: str, path: str = "flow.md", fmt: str = "markdown") -> tuple[WorkflowSpec, list[tuple[str, str]]]:
    spec = parse_spec_text(text, path, fmt, WORDS)
    return spec, [(c.producer, c.validation[0]) for c in spec.contracts if c.consumer is None]


def _warned(spec: WorkflowSpec, line: int, *words: str) -> bool:
    return any(w.line == line and w.code == "spec.success" and all(x in w.message for x in words) for w in spec.warnings)


SHIPS_LOG = """# Noon report

1. Fix the position with `log-position`.
2. File it with `file-noon-report`.

We're done when the office has it: filed comes back true and there's at least one entry in it.
"""


def test_a_ships_logs_check_in_words_is_read_on_the_step_whose_outputs_it_names() -> None:
    spec, checks = _checks(SHIPS_LOG)
    assert checks == [("step-2", "filed == true and entries >= 1")]
    assert _warned(spec, 6, "a guess", "filed == true and entries >= 1")


PODCAST = """; weekly episode
[general]
done_if = publish says published = yes, with at least 2 chapters

[mix]
skill = mix-audio

[publish]
skill = publish-episode
after = mix
"""


def test_a_run_sheets_part_beside_a_comparison_is_checked_too() -> None:
    _, checks = _checks(PODCAST, "episode.ini")
    assert checks == [("step-2", "published == true and chapter_count >= 2")]


BEES = """# Apiary round

1. Weigh every hive with `weigh-hives`.
2. Post the log with `post-hive-log`.

The round is done when logged is true and there are at least 2 alerts and it smells of honey.
"""


def test_a_part_beside_a_comparison_that_reads_as_nothing_is_said_at_its_line() -> None:
    spec, checks = _checks(BEES)
    assert checks == [("step-2", "logged == true and alerts >= 2")]
    assert _warned(spec, 6, "smells of honey", "not checked")


CHOIR = """# Rehearsal plan

## Pick the pieces

Skill: `pick-pieces`

## Send the parts

Skill: `send-parts`

Done when: sent returns true and no fewer than 12 singers got them.
"""


def test_a_choir_plans_step_criterion_in_words_is_read_on_that_step() -> None:
    spec, checks = _checks(CHOIR)
    assert [producer for producer, _ in checks] == ["step-2"]
    contract = next(c for c in spec.contracts if c.consumer is None)
    assert contract.constraints[""]["properties"] == {"sent": {"const": True}, "singers": {"minimum": 12, "minItems": 12}}
    assert _warned(spec, 11, "a guess", "sent == true and singers >= 12")


VET = """# Discharge

- Print the discharge sheet with `print-discharge`.

We're done when printed comes back true and there are more than 0 pages.
"""


def test_a_vet_checklists_more_than_is_one_above_the_number() -> None:
    _, checks = _checks(VET)
    assert checks == [("step-1", "printed == true and pages >= 1")]


@pytest.mark.parametrize(("noun", "names", "want"), [
    ("batch", {"batches", "sheet"}, "batches"),
    ("species", {"species_total", "top_species"}, "species_total"),
    ("singer", {"singers", "sent"}, "singers"),
    ("entry", {"entries", "filed"}, "entries"),
    ("chapter", {"chapter_count", "chapter_titles"}, "chapter_count"),
    ("tree", {"leaves", "trunk"}, None),
])
def test_a_noun_names_the_one_output_it_is_a_word_of(noun: str, names: set[str], want: str | None) -> None:
    assert output_named(noun, frozenset(names)) == want


def test_a_returned_value_of_a_name_that_is_no_output_is_not_read() -> None:
    assert read_half("crew comes back true", frozenset({"filed"})) is None
    half = read_half("`filed` is returned as true", frozenset({"filed"}))
    assert half is not None and half.written == "filed == true"
