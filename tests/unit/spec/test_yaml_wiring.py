"""The steps' inputs and what they run after, wired in a block of their own keyed by step, and a
value from whichever of several steps ran (`a|b .field`) (`yaml_wiring`). Each rule in several
kinds of document; a key of the block that names no step is warned at its line."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.vocabulary import Vocabulary
from orchestrator.spec.yaml_wiring import either_parts, either_text

CATALOG = Vocabulary.of([(s, None) for s in (
    "soil-probe", "open-valves", "log-dry-day", "greenhouse-report", "weigh-dog", "vet-check", "assign-run",
    "send-owner-note", "sky-check", "book-scope", "cloud-log", "night-summary", "build-wheel", "publish-release",
    "hold-release", "post-changelog", "pull-invoices", "chase-late", "mark-paid", "ledger-entry")])


def _read(text: str):  # type: ignore[no-untyped-def]
    return parse_spec_text(text, "doc.yaml", "yaml", CATALOG)


def _inputs(step) -> dict[str, tuple[str | None, str]]:  # type: ignore[no-untyped-def]
    return {f.name: (f.source, f.description) for f in step.inputs}


GREENHOUSE = """\
ask_me_for: [bed, litres]
chores:
  - probe: {run: soil-probe}
  - water: {run: open-valves, only_if: probe.dry == true}
  - rest: {run: log-dry-day, else_of: water}
  - report: {run: greenhouse-report}
hookup:
  probe: {bed: ask.bed}
  water: {litres: ask.litres, zones: probe.dry_zones}
  report: {outcome: "water|rest .outcome", bed: ask.bed}
  pump: {speed: 3}
"""

KENNEL = """\
steps:
  - id: weigh
    skill: weigh-dog
  - id: vet
    skill: vet-check
    input: {dog: "{{ inputs.dog }}"}
  - id: assign
    skill: assign-run
  - id: note
    skill: send-owner-note
inputs: {dog: {type: string}}
plumbing:
  vet: {dog: weigh.dog_id, kg: weigh.kg}
  assign: vet
  note: "assign|vet"
"""

OBSERVATORY = """\
jobs:
  - sky: {run: sky-check}
  - book: {run: book-scope, only_if: sky.clear == true}
  - clouds: {run: cloud-log, else_of: book}
  - summary: {run: night-summary}
wiring:
  book: {hours: sky.clear_hours}
  summary: {plan: (book / clouds).plan, seeing: "book.seeing or clouds.cover"}
"""

RELEASE = """\
tasks:
  - build: {uses: build-wheel}
  - ship: {uses: publish-release, only_if: build.ok == true}
  - hold: {uses: hold-release, else_of: ship}
  - notes: {uses: post-changelog}
connections:
  ship: {wheel: build.wheel}
  notes: {version: "ship.version || hold.version", after: [ship, hold]}
"""


def test_a_greenhouse_hookup_block_gives_each_step_its_inputs() -> None:
    spec = _read(GREENHOUSE)
    probe, water, rest, report = spec.steps
    assert _inputs(probe) == {"bed": ("inputs.bed", "")}
    assert _inputs(water) == {"litres": ("inputs.litres", ""), "zones": ("steps.probe.output.dry_zones", "")}
    assert _inputs(report)["outcome"] == (None, "water.outcome or rest.outcome")
    assert _inputs(report)["bed"] == ("inputs.bed", "")
    assert rest.otherwise_of == "water"
    [pump] = [w for w in spec.warnings if "pump" in w.message]
    assert pump.line == 11 and "names no step" in pump.message
    assert any("wired in the block `hookup:`" in r.note for r in water.readings)


def test_a_kennel_plumbing_block_joins_the_steps_own_inputs_and_says_what_runs_after_what() -> None:
    spec = _read(KENNEL)
    _weigh, vet, assign, note = spec.steps
    assert _inputs(vet) == {"dog": ("inputs.dog", ""), "kg": ("steps.weigh.output.kg", "")}
    [again] = [w for w in spec.warnings if "plumbing.vet.dog" in w.message]
    assert again.line == 13 and "line 6" in again.message
    assert assign.depends_on == ("vet",)
    assert note.depends_on == ("assign", "vet") and note.join == "any"


def test_an_observatory_wiring_block_reads_whichever_ran_with_a_field_for_all_or_one_each() -> None:
    spec = _read(OBSERVATORY)
    summary = spec.steps[3]
    assert _inputs(summary) == {"plan": (None, "book.plan or clouds.plan"),
                                "seeing": (None, "book.seeing or clouds.cover")}
    assert any("whichever ran" in r.note for r in summary.readings)
    assert _inputs(spec.steps[1]) == {"hours": ("steps.sky.output.clear_hours", "")}


def test_a_release_pipelines_connections_block_and_a_double_bar() -> None:
    spec = _read(RELEASE)
    _build, ship, hold, notes = spec.steps
    assert _inputs(ship) == {"wheel": ("steps.build.output.wheel", "")}
    assert _inputs(notes) == {"version": (None, "ship.version or hold.version")}
    assert notes.depends_on == ("ship", "hold") and notes.join == "all"
    assert hold.otherwise_of == "ship"


def test_an_invoice_run_reads_a_block_of_step_timeouts_as_each_steps_timeout() -> None:
    spec = _read("steps:\n  - id: pull\n    skill: pull-invoices\n  - id: chase\n    skill: chase-late\n"
                 "timeouts:\n  pull: 30s\n  chase: 2m\n")
    assert all(not s.inputs for s in spec.steps)  # no wiring; each entry is its step's timeout (`yaml_policy_block`)
    assert [s.timeout_s for s in spec.steps] == [30.0, 120.0]


def test_an_outputs_block_keyed_by_step_is_no_wiring() -> None:
    spec = _read("steps:\n  - id: pull\n    skill: pull-invoices\n  - id: paid\n    skill: mark-paid\n"
                 "outputs:\n  pull: {rows: array}\n")
    assert all(not s.inputs for s in spec.steps)


def test_either_parts_names_only_steps() -> None:
    ids = {"pull", "chase", "paid"}
    assert either_parts("pull|chase .rows", ids) == [("pull", "rows"), ("chase", "rows")]
    assert either_parts("pull.rows or paid.count", ids) == [("pull", "rows"), ("paid", "count")]
    assert either_parts("chase | paid", ids) == [("chase", ""), ("paid", "")]
    assert either_parts("data/raw", ids) is None
    assert either_parts("pull|ledger .rows", ids) is None  # ledger is no step
    assert either_text("cash or card", ids) is None
    assert either_text("chase | paid", ids) is None  # no field: no value
    assert either_text("x" * 400 + " or pull.rows", ids) is None


def test_a_ledger_value_naming_something_that_is_no_step_stays_as_written() -> None:
    spec = _read("steps:\n  - id: pull\n    skill: pull-invoices\n  - id: book\n    skill: ledger-entry\n"
                 "    input: {method: cash|card .kind}\n")
    assert spec.steps[1].input_values == {"method": "cash|card .kind"}
