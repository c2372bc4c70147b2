"""A plain-text sheet whose step lines open with a marker and list inputs after `<-` (`spec.marker_sheet42`):
a ferry's loading card and a bakery's night sheet, in words that are not the tour sheet's; near-misses: a
markdown list with `*` bullets and no `<-`, one `<-` line only, a group line that says "not together"."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.marker_sheet42 import read_sheet
from orchestrator.spec.phrase import read_phrase
from orchestrator.spec.vocabulary import Vocabulary

_TAKES = {"count-cars": {"deck", "sail_date"}, "weigh-trucks": {"lane"},
          "trim-calc": {"cars", "axle_load", "draught", "margin_pct"}, "sign-manifest": {"deck", "trim", "cars"}}
_GIVES = {"count-cars": {"cars"}, "weigh-trucks": {"axle_load"}, "trim-calc": {"trim"}, "sign-manifest": {"ok"}}
_VOCAB = Vocabulary.of((s, None) for s in _TAKES).with_outputs(
    lambda s: frozenset(_GIVES.get(s, ())), lambda s: frozenset(_TAKES.get(s, ())))

FERRY = """\
MV BRAMBLE - LOADING CARD
  SAILING ...... [sail_date]          DECK ....... [deck]
  LANE ......... [lane]             DRAUGHT .... [draught_m]

LOADING (chief officer signs)
> count-cars + weigh-trucks both at the same time once the ramp is down
    count-cars    <- deck, sailing date. gives cars
       (scanner flaky: retry x2)
    weigh-trucks  <- lane. gives axle_load
> then trim-calc <- cars (count), axle_load, draught, margin 5
> last sign-manifest <- deck, trim, cars
"""


def test_a_ferry_card_s_marked_lines_are_its_steps_and_its_fill_ins_the_inputs() -> None:
    spec = parse_spec_text(FERRY, "card.txt", "markdown", vocabulary=_VOCAB)
    assert [i.name for i in spec.inputs] == ["sail_date", "deck", "lane", "draught_m"]
    assert len(spec.steps) == 4 and spec.steps[0].name.lower().startswith("count-cars")
    first, second, trim, _sign = spec.steps
    assert second.starts_with == first.id
    assert {f.name: f.source for f in first.inputs} == {"deck": "inputs.deck", "sail_date": "inputs.sail_date"}
    trim_sources = {f.name: f.source for f in trim.inputs}
    assert trim_sources["cars"] == f"steps.{first.id}.output.cars"
    assert trim_sources["axle_load"] == f"steps.{second.id}.output.axle_load"
    assert trim_sources["draught"] == "inputs.draught_m"
    assert trim.input_values == {"margin_pct": 5}


def test_a_bakery_sheet_with_star_markers_and_no_group() -> None:
    text = ("NIGHT SHEET\n  OVEN ..... [oven_no]\n\nBAKE\n* proof-dough <- oven no. gives ready\n"
            "* then bake-loaves <- ready, oven no\n")
    sheet = read_sheet(text)
    assert sheet is not None and [s.skill for s in sheet.steps] == ["proof-dough", "bake-loaves"]
    assert sheet.inputs == [("oven_no", "OVEN", 2)] and sheet.steps[1].together_with is None
    assert sheet.markdown.splitlines()[3] == "## Steps"


def test_near_misses_are_left_as_they_are() -> None:
    assert read_sheet("# Plan\n\n* proof-dough first\n* then bake-loaves\n") is None  # markdown, no `<-`
    assert read_sheet("BAKE\n~ proof-dough <- oven\n~ then the rest by hand\n") is None  # one `<-` line
    text = "BAKE\n~ proof-dough + bake-loaves, not together\n    proof-dough <- oven\n    bake-loaves <- oven\n"
    sheet = read_sheet(text)
    assert sheet is not None and sheet.steps[1].together_with is None


def test_a_time_then_giving_up_and_going_on_with_a_value() -> None:
    for said, seconds in (("30 sec then kill it", 30), ("2 min, then drop the call", 120)):
        statement = read_phrase(said).statement
        assert statement is not None and statement.timeout_s == seconds, said
    near = read_phrase("wait 10s then stop it").statement
    assert near is None or near.timeout_s is None  # a wait, no limit
    going = read_phrase("scanner dead? don't hold us up - count = 0").statement
    assert going is not None and going.on_failure is not None and going.on_failure.value == {"count": 0}
    for near_miss in ("don't hold us up - count = 0, please", "we never hold the line up"):  # no failure said
        statement = read_phrase(near_miss).statement
        assert statement is None or statement.on_failure is None, near_miss


def test_a_label_of_being_settled_or_closed_opens_the_run_s_check() -> None:
    from orchestrator.spec.whole_success import success_cue

    assert success_cue("Settled = close-till comes back balanced: true.") == "close-till comes back balanced: true"
    assert success_cue("Closed == the ticket shows resolved true") is not None
    assert success_cue("Settled in 2019, the yard moved north.") is None  # no label: a date and a story
