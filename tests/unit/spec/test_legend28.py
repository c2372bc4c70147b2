"""A legend mapping short codes to skills, and rows written in the codes (a radio running order with a
cue key, a lab plate-map protocol with a legend table, a warehouse pick sheet with a Key line), read as
one step per row, with the row's loop, gather, literals and policy; an abbreviations list of words and
`=` in a formula are no legend (`spec.legend28`)."""

from __future__ import annotations

from orchestrator.spec import parse_spec_text
from orchestrator.spec.legend28 import legend_markdown
from orchestrator.spec.model import WorkflowSpec
from orchestrator.spec.vocabulary import Vocabulary

_OUT = {
    "fetch-wx": frozenset({"bulletins", "region"}), "read-bulletin": frozenset({"audio", "secs"}),
    "mix-segment": frozenset({"mix"}), "log-airtime": frozenset({"logged"}),
    "list-wells": frozenset({"sample_wells", "blanks"}), "read-absorbance": frozenset({"od"}),
    "fit-curve": frozenset({"curve"}), "export-plate": frozenset({"file"}),
    "open-wave": frozenset({"pick_lines", "wave_id"}), "scan-bin": frozenset({"scan"}),
    "close-tote": frozenset({"tote"}),
}
_IN = {
    "fetch-wx": frozenset({"region"}), "read-bulletin": frozenset({"bulletin"}), "mix-segment": frozenset({"clips"}),
    "log-airtime": frozenset({"secs", "station"}), "list-wells": frozenset({"plate"}),
    "read-absorbance": frozenset({"well"}), "fit-curve": frozenset({"readings"}),
    "export-plate": frozenset({"curve", "format"}), "open-wave": frozenset({"wave"}),
    "scan-bin": frozenset({"pick"}), "close-tote": frozenset({"scans"}),
}
_VOCAB = Vocabulary.of([(n, None) for n in _OUT]).with_outputs(
    lambda s: _OUT.get(s, frozenset()), lambda s: _IN.get(s, frozenset()))


def _spec(text: str, name: str = "doc.txt") -> WorkflowSpec:
    return parse_spec_text(text, name, "markdown", _VOCAB)


def _skills(spec: WorkflowSpec) -> list[str]:
    return [(s.skill or "").strip("`") for s in spec.steps]


def _inputs(spec: WorkflowSpec, n: int) -> dict[str, str]:
    return {i.name: i.source or "" for i in spec.steps[n].inputs}


_RADIO = """MORNING DRIVE - weather package
Running order for the 7am slot.

CUE KEY
  WX = fetch-wx    RB = read-bulletin    MX = mix-segment    LG = log-airtime

Cue 1: WX for region "North Coast". If WX is slow, retry it 3 times, 10 seconds apart.
Cue 2: *RB on the next bulletin from cue 1; rep from * to end of the bulletins.
Cue 3: MX the clips from cue 2 together.
Cue 4: LG station KBFM, the secs from cue 2.
       Run cue 4 only once.
Sign-off: producer checks the log by hand.
"""


def test_radio_cue_key_rows_are_steps_with_loop_and_gather() -> None:
    spec = _spec(_RADIO)
    assert _skills(spec) == ["fetch-wx", "read-bulletin", "mix-segment", "log-airtime"]
    assert spec.steps[1].for_each is not None and "bulletins" in str(spec.steps[1].for_each)
    assert _inputs(spec, 2)["clips"] == "steps.step-2.output"  # every result, gathered
    assert spec.steps[3].input_values == {"station": "KBFM"}
    assert _inputs(spec, 3)["secs"] == "steps.step-2.output.secs"
    assert spec.steps[3].depends_on == ("step-2", "step-3")  # cues in order, and the data
    assert "retry it 3 times" in spec.steps[0].description
    assert [int(s.where.rsplit(":", 1)[1]) for s in spec.steps] == [7, 8, 9, 10]
    assert any("CUE KEY" in w.message or "legend" in w.message for w in spec.warnings)


_LAB = """# ELISA plate run (bench protocol)

| Code | Skill |
|------|-------|
| LW | list-wells |
| RA | read-absorbance |
| FC | fit-curve |
| EX | export-plate |

Step 1: LW on the plate.
Step 2: *RA on each sample well from step 1; rep from * to end of the sample wells. (each RA: 20 sec, no longer)
Step 3: FC the readings from step 2 together.
Step 4: EX the curve from step 3, format CSV.
"""


def test_lab_plate_legend_table() -> None:
    spec = _spec(_LAB, "protocol.md")
    assert _skills(spec) == ["list-wells", "read-absorbance", "fit-curve", "export-plate"]
    assert "sample_wells" in str(spec.steps[1].for_each)
    assert spec.steps[3].input_values == {"format": "CSV"}
    assert _inputs(spec, 2)["readings"] == "steps.step-2.output"
    assert "20 sec, no longer" in spec.steps[1].description


_PICK = """Pick sheet - wave 14
Key: OW = open-wave, SB = scan-bin, CT = close-tote
R1 OW for wave W14
R2 *SB the next pick line from R1; rep from * to end of the pick lines
R3 CT all the scans from R2 tog
Done when the tote is closed.
"""


def test_pick_sheet_key_line_and_r_labels() -> None:
    md = legend_markdown(_PICK, _VOCAB)
    assert md is not None
    spec = _spec(_PICK)
    assert _skills(spec) == ["open-wave", "scan-bin", "close-tote"]
    assert "pick_lines" in str(spec.steps[1].for_each)
    assert [int(s.where.rsplit(":", 1)[1]) for s in spec.steps] == [3, 4, 5]


def test_abbreviations_of_words_are_no_legend() -> None:
    text = """ABBREVIATIONS
  approx = approximately    qty = quantity    ea = each

Row 1: count the qty of each line.
Row 2: approx the total.
"""
    assert legend_markdown(text, _VOCAB) is None


def test_equals_in_a_formula_is_no_legend() -> None:
    text = """Pricing notes
  total = price * qty
  tax = total - discount

Step 1: run `open-wave` for wave W1.
Step 2: run `scan-bin` on each pick.
"""
    assert legend_markdown(text, _VOCAB) is None


def test_one_code_or_no_rows_in_codes_is_no_legend() -> None:
    assert legend_markdown("Key: OW = open-wave\nRow 1: OW now\nRow 2: OW again\n", _VOCAB) is None
    assert legend_markdown("Key: OW = open-wave, SB = scan-bin\nthen open the wave and scan.\n", _VOCAB) is None
    assert legend_markdown(_PICK, Vocabulary()) is None


def test_a_time_then_no_longer_is_the_attempt_limit() -> None:
    """"(each RA: 20 sec, no longer)" under a row: the attempt's time, not words about the past."""
    from orchestrator.spec.phrase import read_phrase

    for text, seconds in (("(each read-absorbance: 20 sec, no longer)", 20.0),
                          ("The scan gets 90 seconds and no longer.", 90.0)):
        assert read_phrase(text).statement.timeout_s == seconds
    assert read_phrase("Wait 1 min, no longer, between tries.").statement.timeout_s is None
    assert read_phrase("We no longer print the labels.").statement.timeout_s is None
