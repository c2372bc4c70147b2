"""An approval's condition said in words whose value is named elsewhere (`spec.approve37`): a yes/no output
said as "there's a <thing>", and a subject the document glossed with a value's name."""

from __future__ import annotations

import pytest

from orchestrator.spec import parse_spec_text
from orchestrator.spec.approve37 import gates_glossed, said_there
from orchestrator.spec.vocabulary import Vocabulary

_OUTPUTS = {
    "screen-sample": frozenset({"has_pathogen", "reads"}),  # a lab protocol
    "scan-badges": frozenset({"any_expired", "badges"}),  # a security ticket
    "lint-config": frozenset({"secrets_found", "lines"}),  # a deploy runbook
    "check-kit": frozenset({"has_damage", "any_damage", "items"}),  # two outputs fit "damage"
}


def _words() -> Vocabulary:
    return Vocabulary.of([(s, None) for s in _OUTPUTS]).with_outputs(lambda s: _OUTPUTS.get(s, frozenset()))


@pytest.mark.parametrize(("sentence", "want"), [
    ("If the screen says there's a pathogen in the plate, the biosafety officer approves before disposal.",
     "has_pathogen == true"),
    ("When the scan finds there are any expired badges, security signs off first.", "any_expired == true"),
    ("If 2 reports there were secrets in the diff, the release lead has to approve the deploy.",
     "secrets_found == true"),
])
def test_a_thing_said_to_be_there_is_read_on_its_yes_no_output(sentence: str, want: str) -> None:
    got = said_there(sentence, _words())
    assert got is not None and got[0] == want


@pytest.mark.parametrize("sentence", [
    "If the screen says there's a problem, the officer approves.",  # no output names the thing
    "If the kit check says there's damage to the kit, the quartermaster signs off.",  # two outputs fit
    "The screen says there's a pathogen; the officer approves.",  # no "if": no condition
    "If the screen says the plate is clean, the officer approves.",  # nothing said to be there
])
def test_no_output_is_guessed_where_the_thing_names_none_or_two(sentence: str) -> None:
    assert said_there(sentence, _words()) is None


CAPACITY = """# Nightly capacity

1. Measure with `measure-load`: it gives the peak hourly load (load_pct) and the host list.
2. Scale with `scale-out`.
   - Approval: required if the peak load is over 90; wait up to 1h, then reject
"""

RECIPE = """# Bread day

1. Weigh the flour with `flour-math`; it tells us the flour shortfall (`short_kg`).
2. Order with `order-flour`.
   - Approval: required if the shortfall is over 20; wait up to 30 min, then approve
"""

TICKET = """# OPS-4411 disk cleanup

1. Survey with `du-survey`, which returns used space (used_pct) and the largest dirs.
2. Prune with `prune-logs`.
   - Approval: required if the space is above 85; wait up to 2h, then reject
"""


@pytest.mark.parametrize(("text", "fields", "want"), [
    (CAPACITY, ("load_pct", "hosts"), "load_pct is over 90"),
    (RECIPE, ("short_kg", "sacks"), "short_kg is over 20"),
    (TICKET, ("used_pct", "dirs"), "used_pct is above 85"),
])
def test_a_subject_the_document_glossed_is_written_as_its_name(text: str, fields: tuple[str, ...], want: str) -> None:
    spec = parse_spec_text(text, "doc.md", "markdown")
    got = gates_glossed(spec, {"step-1": fields})
    assert got.steps[1].approval is not None and got.steps[1].approval.when == want


def test_a_gloss_no_earlier_step_gives_or_a_value_of_that_name_is_left_as_written() -> None:
    spec = parse_spec_text(CAPACITY, "doc.md", "markdown")
    assert gates_glossed(spec, {"step-1": ("hosts",)}) is spec  # `load_pct` is no earlier step's output
    assert gates_glossed(spec, {"step-2": ("load_pct",)}) is spec  # the gated step's own output
    said = parse_spec_text(CAPACITY.replace("the peak load is", "the load is"), "doc.md", "markdown")
    assert gates_glossed(said, {"step-1": ("load_pct", "load")}) is said  # `load` is a value of that name
    two = parse_spec_text(CAPACITY.replace("and the host list", "and the load average (load_avg)"), "doc.md",
                          "markdown")
    assert gates_glossed(two, {"step-1": ("load_pct", "load_avg")}) is two  # "load" glossed twice
