"""A loop or gather word set in markup ("For _each_ volume", "For [each](loops.md) crate", "once ***all***
the scans are in") is read as the plain word (`spec.markup_words`): before, italics with underscores
and links hid it, so the loop was dropped and its guard did not warn. Tested in a library digitisation
workflow, a warehouse returns page, a club's match-day plan and a clinic triage protocol."""

from __future__ import annotations

import pytest

from orchestrator.spec.markup_words import unmarked
from tests.unit.plan.plan_factory import FakeCatalog, loop_of, obj, plan_of_text, skill


def _catalog(first: str, items: str, each: str, item: str, last: str) -> FakeCatalog:
    return FakeCatalog(skill(first, output_schema=obj(**{items: "array"})),
                       skill(each, input_schema=obj((item,), **{item: "string"}), output_schema=obj(done="boolean")),
                       skill(last, input_schema=obj(results="array"), output_schema=obj(ok="boolean")))


CASES = [
    ("Digitisation", "list-volumes", "volumes", "scan-volume", "volume", "For _each_ volume: `scan-volume` scans it."),
    ("Returns desk", "list-returns", "parcels", "check-return", "parcel",
     "For [each](loops.md) parcel: `check-return` checks it."),
    ("Match day", "list-players", "players", "kit-check", "player", "For ***every*** player: `kit-check` looks."),
    ("Walk-in triage", "list-patients", "patients", "score-patient", "patient",
     "For [[each]] patient: `score-patient` scores them."),
]


@pytest.mark.parametrize(("title", "first", "items", "each", "item", "line"), CASES, ids=[c[0] for c in CASES])
def test_a_loop_word_in_markup_is_read(title: str, first: str, items: str, each: str, item: str, line: str) -> None:
    text = f"# {title}\n\n1. `{first}` gets the list.\n2. {line}\n3. `summarise` once *all* of them are in.\n"
    plan = plan_of_text(text, _catalog(first, items, each, item, "summarise"))
    assert loop_of(plan.steps[1]) == (item, "step-1", f"/{items}")


@pytest.mark.parametrize(("text", "plain"), [
    ("For **each** crate", "For each crate"),
    ("once ___all___ the scans", "once all the scans"),
    ("For [each](x.md) van", "For each van"),
    ("run [[germ-test-sheet]] for [[notes|each]] tray", "run [[germ-test-sheet]] for each tray"),
    ("the **total** and _my_var_", "the **total** and _my_var_"),  # not reader words: as written
    ("![each](img.png)", "![each](img.png)"),  # an image
])
def test_unmarked(text: str, plain: str) -> None:
    assert unmarked(text) == plain
