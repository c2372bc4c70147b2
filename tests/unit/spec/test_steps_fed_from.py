"""A step under `stages:` that reads other steps' outputs waits on those steps, not on every step of
the stage before (`spec.steps_fed_from`), warned at its line; one that reads none keeps the stage rule."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text


def _deps(text: str) -> tuple[dict[str, tuple[str, ...]], list[int]]:
    spec = parse_spec_text(text, "flow.yaml", "yaml")
    said = [w.line for w in spec.warnings if "whose outputs it reads" in w.message]
    return {s.id: s.depends_on for s in spec.steps}, said


KITCHEN = """stages:
  - stage: prep
    steps:
      stock: {tool: make-stock}
      veg: {tool: chop-veg}
  - stage: cook
    steps:
      soup:
        tool: simmer-soup
        feed: {base: stock.litres, veg: veg.trays}
      bread: {tool: bake-bread}
      plate:
        tool: plate-up
        with: {bowls: soup.bowls}
"""


def test_a_kitchen_service_step_reading_a_step_of_its_own_stage_waits_on_it() -> None:
    deps, said = _deps(KITCHEN)
    assert deps["soup"] == ("stock", "veg")  # reads the stage before: as the stage rule says, no warning
    assert deps["bread"] == ("stock", "veg")  # reads nothing: the stage rule
    assert deps["plate"] == ("soup",)
    assert said == [12]


PODCAST = """phases:
  - phase: record
    steps:
      tape: {tool: record-call}
      notes: {tool: write-notes}
  - phase: release
    steps:
      master:
        tool: master-audio
        inputs: {raw: "${{ steps.tape.outputs.file }}"}
"""


def test_a_podcast_phase_step_reading_one_step_waits_on_that_one() -> None:
    deps, said = _deps(PODCAST)
    assert deps["master"] == ("tape",)
    assert said == [8]


LAB = """stages:
  - stage: prep
    steps:
      thaw: {tool: thaw-samples}
  - stage: run
    steps:
      plate:
        tool: run-plate
        feed: {samples: thaw.tubes, buffer: "PBS 1x"}
"""


def test_a_lab_pipeline_whose_reads_match_the_stage_rule_is_not_warned() -> None:
    deps, said = _deps(LAB)
    assert deps["plate"] == ("thaw",) and said == []


SHIP = """waves:
  - wave: ashore
    steps:
      fuel: {tool: order-fuel}
      stores: {tool: order-stores}
  - wave: sail
    steps:
      clear:
        tool: port-clearance
        after: [fuel]
        feed: {manifest: stores.list}
"""


def test_a_ships_departure_own_after_wins_over_what_it_reads() -> None:
    deps, said = _deps(SHIP)
    assert deps["clear"] == ("fuel",) and said == []
